// IORs: stringified form, CDR encapsulation, byte orders, round trips, malformed strings.
#include "orb/ior/ior.h"

#include <catch2/catch.hpp>

#include "orb/ior/iiop_profile.h"
#include "orb/ior/tags.h"
#include "tests/cdr/hex.h"
#include "tests/ior/error_matchers.h"

using namespace switchyard;
using namespace switchyard::iop;
using switchyard::test::from_hex;
using switchyard::test::require_bad_ior;

namespace {

// What omniORB 4.2's genior prints for `genior IDL:Echo:1.0 127.0.0.1 2809 echo` (little-endian).
constexpr std::string_view genior_echo =
    "IOR:010000000d00000049444c3a4563686f3a312e3000000000010000000000000054000000010102000a0000003132"
    "372e302e302e3100f90a040000006563686f0200000000000000080000000100000000545441010000001c00000001"
    "000000010001000100000001000105090101000100000009010100";

// A big-endian IOR with one IIOP 1.0 profile, written out by hand.
constexpr std::string_view big_endian_hex =
    "00 000000"                           // byte order: big-endian, padding
    "0000000a 49444c3a413a312e3000 0000"  // type id "IDL:A:1.0", padding
    "00000001"                            // one profile
    "00000000 00000017"                   // TAG_INTERNET_IOP, 23 octets
    "00 0100 00"                          //   big-endian, IIOP 1.0, padding
    "00000005 686f737400 00"              //   host "host", padding
    "1234"                                //   port 0x1234
    "00000003 6b6579";                    //   object key "key"

std::string ior_string_of(std::string_view hex) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out = "IOR:";
  for (std::byte b : from_hex(hex)) {
    out += digits[static_cast<unsigned>(b) >> 4];
    out += digits[static_cast<unsigned>(b) & 15];
  }
  return out;
}

}  // namespace

TEST_CASE("an IOR from omniORB's genior decodes field by field", "[ior]") {
  ior reference = parse_ior_string(genior_echo);
  CHECK(reference.type_id == "IDL:Echo:1.0");
  CHECK(reference.order == cdr::byte_order::little_endian);
  REQUIRE(reference.profiles.size() == 1);
  CHECK(reference.profiles[0].tag == tag_internet_iop);
  iiop_profile profile = decode_iiop_profile(reference.profiles[0].data);
  CHECK(profile.version == giop_version{1, 2});
  CHECK(profile.host == "127.0.0.1");
  CHECK(profile.port == 2809);
  CHECK(profile.object_key == to_octets("echo"));
  CHECK(profile.orb_type() == orb_type_omniorb);
  CHECK(profile.code_sets() == switchyard_code_sets());
  CHECK(profile.alternate_addresses().empty());
}

TEST_CASE("a parsed IOR is written back to the identical string", "[ior]") {
  CHECK(to_ior_string(parse_ior_string(genior_echo)) == genior_echo);
  // Big-endian IORs stay big-endian.
  const std::string big = ior_string_of(big_endian_hex);
  ior reference = parse_ior_string(big);
  CHECK(reference.order == cdr::byte_order::big_endian);
  CHECK(to_ior_string(reference) == big);
}

TEST_CASE("a big-endian IOR decodes", "[ior]") {
  ior reference = parse_ior_string(ior_string_of(big_endian_hex));
  CHECK(reference.type_id == "IDL:A:1.0");
  REQUIRE(reference.profiles.size() == 1);
  iiop_profile profile = decode_iiop_profile(reference.profiles[0].data);
  CHECK(profile.version == giop_version{1, 0});
  CHECK(profile.host == "host");
  CHECK(profile.port == 0x1234);
  CHECK(profile.object_key == to_octets("key"));
  CHECK(profile.components.empty());
}

TEST_CASE("IOR strings: prefix and hex digits in either case, whitespace tolerated", "[ior]") {
  std::string upper(genior_echo);
  for (char& c : upper)
    if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
  CHECK(parse_ior_string(upper) == parse_ior_string(genior_echo));
  CHECK(parse_ior_string("ior:" + std::string(genior_echo.substr(4))) == parse_ior_string(genior_echo));
  CHECK(parse_ior_string("  " + std::string(genior_echo) + "\n") == parse_ior_string(genior_echo));
  CHECK(parse_ior_string(std::string(genior_echo) + "\r\n") == parse_ior_string(genior_echo));
  std::string wrapped(genior_echo);
  wrapped.insert(80, "\n");
  CHECK(parse_ior_string(wrapped) == parse_ior_string(genior_echo));
}

TEST_CASE("several profiles, unknown ones kept raw, round trip unchanged", "[ior]") {
  ior reference;
  reference.type_id = "IDL:Test/Several:1.0";
  reference.profiles.push_back(to_tagged_profile(make_iiop_profile("a.example", 1, to_octets("k1"))));
  reference.profiles.push_back({0x4f4e4300u, from_hex("01 02 03 04 05")});  // ONC, opaque
  reference.profiles.push_back(
      {tag_multiple_components, encode_multiple_components_profile({{99, from_hex("aa bb")}})});
  reference.profiles.push_back(to_tagged_profile(make_iiop_profile("b.example", 2, to_octets("k2"), {1, 0})));
  const std::string text = to_ior_string(reference);
  ior back = parse_ior_string(text);
  CHECK(back == reference);
  CHECK(to_ior_string(back) == text);
  CHECK(back.profiles[1].data == from_hex("01 02 03 04 05"));
  CHECK(decode_multiple_components_profile(back.profiles[2].data) == component_list{{99, from_hex("aa bb")}});
}

TEST_CASE("the nil reference", "[ior]") {
  ior nil;
  CHECK(nil.is_nil());
  // Little-endian: byte order, padding, type id "" (length 1, NUL), padding, no profiles.
  CHECK(to_ior_string(nil) == (cdr::native_byte_order == cdr::byte_order::little_endian
                                   ? "IOR:01000000010000000000000000000000"
                                   : "IOR:00000000000000010000000000000000"));
  CHECK(parse_ior_string("IOR:01000000010000000000000000000000").is_nil());
  // Length 0 for the empty type id (Visibroker's nil) is read as "".
  CHECK(parse_ior_string("IOR:010000000000000000000000").is_nil());
}

TEST_CASE("IORs inside CDR streams", "[ior]") {
  ior reference = parse_ior_string(genior_echo);
  cdr::output_stream out;
  out.write_octet(7);  // something before, so the IOR starts unaligned
  write_ior(out, reference);
  out.write_ulong(0xdeadbeef);
  cdr::input_stream in(out.bytes(), cdr::native_byte_order);
  CHECK(in.read_octet() == 7);
  CHECK(read_ior(in) == reference);
  CHECK(in.read_ulong() == 0xdeadbeef);
  CHECK(in.at_end());
}

TEST_CASE("malformed IOR strings raise MARSHAL bad_ior saying what is wrong", "[ior][errors]") {
  require_bad_ior([] { parse_ior_string(""); }, "must start with 'IOR:' (the string is empty)");
  require_bad_ior([] { parse_ior_string("IOX:0100"); }, "must start with 'IOR:', not \"IOX:0100\"");
  require_bad_ior([] { parse_ior_string("corbaloc::h/k"); }, "must start with 'IOR:'");
  require_bad_ior([] { parse_ior_string("IOR:"); }, "no hex digits");
  require_bad_ior([] { parse_ior_string("IOR:  \n"); }, "no hex digits");
  require_bad_ior([] { parse_ior_string("IOR:010"); }, "odd number of hex digits (3)");
  require_bad_ior([] { parse_ior_string(std::string(genior_echo) + "0"); }, "odd number of hex digits");
  require_bad_ior([] { parse_ior_string("IOR:01g0"); }, "'g' at position 6 is not a hex digit");
  require_bad_ior([] { parse_ior_string("IOR:01-0"); }, "'-' at position 6 is not a hex digit");
  require_bad_ior([] { parse_ior_string(std::string("IOR:01\x01") + "0"); }, "0x01 at position 6");
  require_bad_ior([] { parse_ior_string("IOR:0200000001000000000000000000000000"); }, "byte-order octet is 2");
  require_bad_ior([] { parse_ior_string("IOR:ff"); }, "byte-order octet is 255");
}

TEST_CASE("truncated IORs and lengths beyond the data raise MARSHAL bad_ior", "[ior][errors]") {
  // Cut anywhere: always an error, never a read past the end.
  const std::string full(genior_echo);
  for (std::size_t keep = 6; keep < full.size(); keep += 2) {
    INFO("kept " << keep << " characters");
    CHECK_THROWS_AS(parse_ior_string(full.substr(0, keep)), SystemException);
  }
  require_bad_ior([] { parse_ior_string("IOR:01"); }, "IOR type id: read of");
  require_bad_ior([] { parse_ior_string(std::string(genior_echo.substr(0, 100))); }, "IOR profile 1 of 1: length 84");
  // The type id announces 255 characters; 4 remain.
  require_bad_ior([] { parse_ior_string("IOR:01000000ff00000041424300"); },
                  "IOR type id: length 255 of 1-octet elements exceeds the 4 octets left");
  // Type id without its NUL.
  require_bad_ior([] { parse_ior_string("IOR:010000000300000041424344000000"); }, "does not end in NUL");
  // 4 billion profiles in a few octets.
  require_bad_ior([] { parse_ior_string("IOR:010000000100000000000000ffffffff"); },
                  "IOR profile count: length 4294967295 exceeds the limit");
  // A profile body longer than what is left.
  require_bad_ior([] { parse_ior_string("IOR:01000000010000000000000001000000000000001000000001"); },
                  "IOR profile 1 of 1: length 16");
}
