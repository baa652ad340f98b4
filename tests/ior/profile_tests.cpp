// IIOP and UIOP profile bodies and tagged components: byte-exact encodings, decoding, errors.
#include "orb/ior/iiop_profile.h"

#include <catch2/catch.hpp>

#include "orb/ior/components.h"
#include "orb/ior/uiop_profile.h"
#include "tests/cdr/hex.h"
#include "tests/ior/error_matchers.h"

using namespace switchyard;
using namespace switchyard::iop;
using switchyard::test::from_hex;
using switchyard::test::require_bad_ior;
using switchyard::test::to_hex;

namespace {

bool little_endian_host() {
  if (cdr::native_byte_order == cdr::byte_order::little_endian) return true;
  WARN("byte-exact expectations are written for a little-endian host");
  return false;
}

// make_iiop_profile("127.0.0.1", 2809, "echo") on a little-endian host.
constexpr std::string_view our_echo_profile =
    "01 01 02 00"                    // little-endian, IIOP 1.2, padding
    "0a000000 3132372e302e302e3100"  // host "127.0.0.1"
    "f90a"                           // port 2809
    "04000000 6563686f"              // object key "echo"
    "02000000"                       // two components
    "00000000 08000000"              // TAG_ORB_TYPE, 8 octets:
    "01000000 00005953"              //   little-endian, padding, 0x53590000 "SY\0\0"
    "01000000 1c000000"              // TAG_CODE_SETS, 28 octets:
    "01000000"                       //   little-endian, padding
    "01000100 01000000 01000105"     //   char: ISO-8859-1, one conversion set: UTF-8
    "09010100 01000000 09010100";    //   wchar: UTF-16, one conversion set: UTF-16

}  // namespace

TEST_CASE("our IIOP 1.2 profile, byte for byte", "[ior][iiop]") {
  if (!little_endian_host()) return;
  octets body = encode_iiop_profile(make_iiop_profile("127.0.0.1", 2809, to_octets("echo")));
  CHECK(to_hex(body) == to_hex(from_hex(our_echo_profile)));
  CHECK(body.size() == 84);
}

TEST_CASE("IIOP 1.0 and 1.1 profiles, byte for byte", "[ior][iiop]") {
  if (!little_endian_host()) return;
  // 1.0: no components at all.
  CHECK(to_hex(encode_iiop_profile(make_iiop_profile("h", 258, to_octets("k"), {1, 0}))) ==
        to_hex(from_hex("01 01 00 00  02000000 6800  0201  01000000 6b")));
  // 1.1: components; an empty list is a zero count.
  iiop_profile p11{{1, 1}, "h", 258, to_octets("k"), {}};
  CHECK(to_hex(encode_iiop_profile(p11)) ==
        to_hex(from_hex("01 01 01 00  02000000 6800  0201  01000000 6b 000000  00000000")));
  p11.components.push_back({0x11223344, from_hex("aa")});
  CHECK(to_hex(encode_iiop_profile(p11)) ==
        to_hex(from_hex("01 01 01 00  02000000 6800  0201  01000000 6b 000000  01000000"
                        "44332211 01000000 aa")));
}

TEST_CASE("IIOP profiles decode in both byte orders", "[ior][iiop]") {
  iiop_profile little = decode_iiop_profile(from_hex(our_echo_profile));
  CHECK(little.version == giop_version{1, 2});
  CHECK(little.host == "127.0.0.1");
  CHECK(little.port == 2809);
  CHECK(little.object_key == to_octets("echo"));
  CHECK(little.orb_type() == orb_type_switchyard);
  CHECK(little.code_sets() == switchyard_code_sets());

  // The same profile, big-endian.
  iiop_profile big =
      decode_iiop_profile(from_hex("00 01 02 00  0000000a 3132372e302e302e3100  0af9  00000004 6563686f  00000002"
                                   "00000000 00000008 00000000 53590000"
                                   "00000001 0000001c 00000000 00010001 00000001 05010001 00010109 00000001 00010109"));
  CHECK(big.version == little.version);
  CHECK(big.host == little.host);
  CHECK(big.port == little.port);
  CHECK(big.object_key == little.object_key);
  // Component data stays raw (in its own byte order); the decoded values agree.
  CHECK(big.components[0].data != little.components[0].data);
  CHECK(big.orb_type() == orb_type_switchyard);
  CHECK(big.code_sets() == switchyard_code_sets());
}

TEST_CASE("an IIOP profile round-trips through encode and decode", "[ior][iiop]") {
  iiop_profile profile = make_iiop_profile("::1", 65535, from_hex("00 ff 10 2f"));
  profile.components.push_back(make_alternate_address_component({"192.0.2.7", 2810}));
  profile.components.push_back({0x41545403u, from_hex("01 02 03")});  // kept raw
  CHECK(decode_iiop_profile(encode_iiop_profile(profile)) == profile);
  CHECK(decode_iiop_profile(encode_iiop_profile(profile)).alternate_addresses() ==
        std::vector<alternate_address>{{"192.0.2.7", 2810}});
}

TEST_CASE("octets after the fields of a profile are ignored", "[ior][iiop]") {
  octets body = from_hex(our_echo_profile);
  body.push_back(std::byte{0x99});
  CHECK(decode_iiop_profile(body) == decode_iiop_profile(from_hex(our_echo_profile)));
}

TEST_CASE("components, byte for byte", "[ior][components]") {
  if (!little_endian_host()) return;
  CHECK(to_hex(make_orb_type_component(orb_type_omniorb).data) == "01 00 00 00 00 54 54 41");
  CHECK(to_hex(make_alternate_address_component({"h2", 2810}).data) ==
        to_hex(from_hex("01 000000 03000000 683200 00 fa0a")));
  CHECK(make_code_sets_component(switchyard_code_sets()).data ==
        from_hex("01000000 01000100 01000000 01000105 09010100 01000000 09010100"));
  code_set_info several{{codeset_iso_8859_1, {codeset_utf_8, codeset_utf_16}}, {codeset_utf_16, {}}};
  CHECK(decode_code_sets(make_code_sets_component(several)) == several);
}

TEST_CASE("omniORB's unix-socket component decodes", "[ior][components]") {
  tagged_component c{tag_omniorb_unix_trans,
                     from_hex("01 000000 07000000 6d79686f737400 00 0c000000 2f746d702f782e736f636b00")};
  CHECK(decode_omniorb_unix_address(c) == omniorb_unix_address{"myhost", "/tmp/x.sock"});
}

TEST_CASE("TAG_MULTIPLE_COMPONENTS profiles", "[ior][components]") {
  component_list list{make_orb_type_component(orb_type_tao), {7, from_hex("01 02")}};
  CHECK(decode_multiple_components_profile(encode_multiple_components_profile(list)) == list);
  // omniORB writes an empty list as the byte-order octet alone.
  CHECK(decode_multiple_components_profile(from_hex("01")).empty());
  CHECK(decode_multiple_components_profile(from_hex("01 000000 00000000")).empty());
}

TEST_CASE("UIOP profiles: TAO's tag and layout", "[ior][uiop]") {
  CHECK(tag_uiop == 0x54414f00u);
  uiop_profile profile = make_uiop_profile("/tmp/sy.sock", to_octets("key"));
  CHECK(decode_uiop_profile(encode_uiop_profile(profile)) == profile);
  CHECK(to_tagged_profile(profile).tag == tag_uiop);
  if (!little_endian_host()) return;
  CHECK(to_hex(encode_uiop_profile(make_uiop_profile("/s", to_octets("k"), {1, 0}))) ==
        to_hex(from_hex("01 01 00 00  03000000 2f7300 00  01000000 6b")));
}

TEST_CASE("malformed profile bodies raise MARSHAL bad_ior naming the problem", "[ior][errors]") {
  require_bad_ior([] { decode_iiop_profile({}); }, "IIOP profile body: empty encapsulation");
  require_bad_ior([] { decode_iiop_profile(from_hex("07 01 02")); }, "IIOP profile body: byte-order octet is 7");
  require_bad_ior([] { decode_iiop_profile(from_hex("01 02 00")); }, "unsupported version 2.0");
  require_bad_ior([] { decode_iiop_profile(from_hex("01 01 02")); }, "IIOP profile body: read of");
  // Host length beyond the data.
  require_bad_ior([] { decode_iiop_profile(from_hex("01 01 02 00 ffff0000 41")); },
                  "length 65535 of 1-octet elements exceeds the 1 octets left");
  // Object key length beyond the data.
  require_bad_ior([] { decode_iiop_profile(from_hex("01 01 00 00 02000000 6800 0201 09000000 6b")); },
                  "length 9 of 1-octet elements");
  // Component count beyond the data.
  require_bad_ior([] { decode_iiop_profile(from_hex("01 01 01 00 02000000 6800 0201 01000000 6b 000000 40000000")); },
                  "length 64 of 8-octet elements");
  // Every truncation of a good profile fails cleanly.
  octets good = from_hex(our_echo_profile);
  for (std::size_t keep = 0; keep < good.size(); ++keep) {
    INFO("kept " << keep << " octets");
    CHECK_THROWS_AS(decode_iiop_profile(std::span(good.data(), keep)), SystemException);
  }
  require_bad_ior([] { decode_uiop_profile(from_hex("01 03 00")); }, "UIOP profile: unsupported version 3.0");
  require_bad_ior([] { decode_multiple_components_profile(from_hex("01 000000 05000000")); },
                  "TAG_MULTIPLE_COMPONENTS profile body: length 5");
}

TEST_CASE("malformed components raise MARSHAL bad_ior naming the component", "[ior][errors]") {
  require_bad_ior([] { decode_orb_type({tag_orb_type, from_hex("01 000000 0102")}); }, "TAG_ORB_TYPE: read of");
  require_bad_ior([] { decode_orb_type({tag_orb_type, {}}); }, "TAG_ORB_TYPE: component data: empty");
  require_bad_ior([] { decode_code_sets({tag_code_sets, from_hex("01")}); }, "TAG_CODE_SETS: read of");
  require_bad_ior(
      [] {
        decode_code_sets({tag_code_sets, from_hex("01 000000 01000100 ffffff00")});
      },
      "TAG_CODE_SETS: length 16777215");
  require_bad_ior(
      [] {
        decode_alternate_address({tag_alternate_iiop_address, from_hex("05")});
      },
      "TAG_ALTERNATE_IIOP_ADDRESS: component data: byte-order octet is 5");
  // A profile with a broken alternate address: decoding the profile works (components stay raw),
  // asking for its alternates does not.
  iiop_profile profile = make_iiop_profile("h", 1, to_octets("k"));
  profile.components.push_back({tag_alternate_iiop_address, from_hex("01 000000 09000000")});
  iiop_profile back = decode_iiop_profile(encode_iiop_profile(profile));
  require_bad_ior([&] { back.alternate_addresses(); }, "TAG_ALTERNATE_IIOP_ADDRESS");
}

TEST_CASE("an IIOP 1.0 profile cannot carry components", "[ior][errors]") {
  iiop_profile profile = make_iiop_profile("h", 1, to_octets("k"), {1, 0});
  CHECK(profile.components.empty());
  profile.components.push_back(make_orb_type_component(orb_type_switchyard));
  test::require_system_exception([&] { encode_iiop_profile(profile); }, SystemExceptionKind::BAD_PARAM, minor::bad_ior,
                                 "1.0 profiles cannot carry tagged components");
}
