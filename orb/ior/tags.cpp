#include "orb/ior/tags.h"

#include <cstdio>

namespace switchyard::iop {

namespace {

std::string hex_tag(const char* prefix, std::uint32_t value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%s0x%08x", prefix, value);
  return buffer;
}

}  // namespace

std::string profile_tag_name(std::uint32_t tag) {
  switch (tag) {
    case tag_internet_iop:
      return "TAG_INTERNET_IOP";
    case tag_multiple_components:
      return "TAG_MULTIPLE_COMPONENTS";
    case tag_uiop:
      return "TAG_UIOP";
    default:
      return hex_tag("profile tag ", tag);
  }
}

std::string component_tag_name(std::uint32_t tag) {
  switch (tag) {
    case tag_orb_type:
      return "TAG_ORB_TYPE";
    case tag_code_sets:
      return "TAG_CODE_SETS";
    case tag_policies:
      return "TAG_POLICIES";
    case tag_alternate_iiop_address:
      return "TAG_ALTERNATE_IIOP_ADDRESS";
    case tag_ssl_sec_trans:
      return "TAG_SSL_SEC_TRANS";
    case tag_csi_sec_mech_list:
      return "TAG_CSI_SEC_MECH_LIST";
    case tag_omniorb_unix_trans:
      return "TAG_OMNIORB_UNIX_TRANS";
    default:
      return hex_tag("component tag ", tag);
  }
}

std::string codeset_name(std::uint32_t id) {
  switch (id) {
    case codeset_iso_8859_1:
      return "ISO-8859-1";
    case codeset_utf_8:
      return "UTF-8";
    case codeset_ucs_2:
      return "UCS-2";
    case codeset_utf_16:
      return "UTF-16";
    default:
      return hex_tag("", id);
  }
}

}  // namespace switchyard::iop
