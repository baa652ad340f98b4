#include "orb/ior/encapsulation.h"

namespace switchyard::iop::detail {

void throw_bad_ior(std::string detail) {
  throw SystemException(SystemExceptionKind::MARSHAL, minor::bad_ior, CompletionStatus::no, std::move(detail));
}

void throw_bad_ior_value(std::string detail) {
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_ior, CompletionStatus::no, std::move(detail));
}

cdr::input_stream open_encapsulation(std::span<const std::byte> bytes, std::string_view what) {
  if (bytes.empty()) throw_bad_ior(std::string(what) + ": empty encapsulation has no byte order");
  auto flag = static_cast<std::uint8_t>(bytes[0]);
  if (flag > 1)
    throw_bad_ior(std::string(what) + ": byte-order octet is " + std::to_string(flag) + " (must be 0 or 1)");
  cdr::input_stream in(bytes, static_cast<cdr::byte_order>(flag));
  in.skip(1);
  return in;
}

cdr::output_stream begin_encapsulation_body() {
  cdr::output_stream out(64);
  out.write_octet(static_cast<std::uint8_t>(cdr::native_byte_order));
  return out;
}

octets finish_encapsulation_body(const cdr::output_stream& out) {
  auto bytes = out.bytes();
  return octets(bytes.begin(), bytes.end());
}

giop_version read_profile_version(cdr::input_stream& in, std::string_view what) {
  giop_version version;
  version.major = in.read_octet();
  version.minor = in.read_octet();
  if (version.major != 1)
    throw_bad_ior(std::string(what) + ": unsupported version " + std::to_string(version.major) + "." +
                  std::to_string(version.minor) + " (major version must be 1)");
  return version;
}

octets read_octet_sequence(cdr::input_stream& in) {
  std::uint32_t length = in.read_length(1);
  octets result(length);
  in.read_octets(result.data(), length);
  return result;
}

void write_octet_sequence(cdr::output_stream& out, const octets& data) {
  out.write_ulong(static_cast<std::uint32_t>(data.size()));
  out.write_octets(data.data(), data.size());
}

void check_components_allowed(giop_version version, const component_list& components, std::string_view what) {
  if (version.minor == 0 && !components.empty())
    throw_bad_ior_value(std::string(what) + " 1.0 profiles cannot carry tagged components");
}

}  // namespace switchyard::iop::detail
