// The ORB core's view: local IORs, targets of parsed IORs, endpoint comparison, string_to_object.
#include "orb/ior/object_reference.h"

#include <catch2/catch.hpp>

#include <unordered_set>

#include "orb/ior/iiop_profile.h"
#include "orb/ior/uiop_profile.h"
#include "tests/cdr/hex.h"
#include "tests/ior/error_matchers.h"

using namespace switchyard;
using namespace switchyard::iop;
using switchyard::test::from_hex;

TEST_CASE("make_local_ior: one endpoint gives omniORB's layout with our ORB type", "[ior][local]") {
  const endpoint where[] = {iiop_endpoint("127.0.0.1", 2809)};
  ior reference = make_local_ior("IDL:Echo:1.0", where, to_octets("echo"));
  if (cdr::native_byte_order != cdr::byte_order::little_endian) return;
  // genior IDL:Echo:1.0 127.0.0.1 2809 echo, with ORB type "SY\0\0" in place of "ATT\0".
  CHECK(to_ior_string(reference) ==
        "IOR:010000000d00000049444c3a4563686f3a312e3000000000010000000000000054000000010102000a0000003132"
        "372e302e302e3100f90a040000006563686f0200000000000000080000000100000000005953010000001c00000001"
        "000000010001000100000001000105090101000100000009010100");
}

TEST_CASE("make_local_ior: several endpoints, alternates and UIOP profiles", "[ior][local]") {
  const endpoint where[] = {uiop_endpoint("/tmp/sy.sock"), iiop_endpoint("10.0.0.1", 2809), iiop_endpoint("::1", 2810),
                            iiop_endpoint("h.example", 2811)};
  const octets key = from_hex("00 01 02 ff");
  ior reference = make_local_ior("IDL:T:1.0", where, key);
  REQUIRE(reference.profiles.size() == 2);
  CHECK(reference.profiles[0].tag == tag_uiop);
  CHECK(reference.profiles[1].tag == tag_internet_iop);
  iiop_profile iiop = decode_iiop_profile(reference.profiles[1].data);
  CHECK(iiop.host == "10.0.0.1");
  CHECK(iiop.alternate_addresses() == std::vector<alternate_address>{{"::1", 2810}, {"h.example", 2811}});
  CHECK(iiop.orb_type() == orb_type_switchyard);
  CHECK(iiop.code_sets() == switchyard_code_sets());
  uiop_profile uiop = decode_uiop_profile(reference.profiles[0].data);
  CHECK(uiop.path == "/tmp/sy.sock");
  CHECK(uiop.object_key == key);
  CHECK(orb_type_of(uiop.components) == orb_type_switchyard);

  std::vector<invocation_target> targets = targets_of(reference);
  REQUIRE(targets.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(targets[i].where == where[i]);
    CHECK(targets[i].object_key == key);
    CHECK(targets[i].version == giop_version{1, 2});
  }
  CHECK(targets[0].profile_index == 0);
  CHECK(targets[3].profile_index == 1);
  CHECK_FALSE(targets[1].alternate);
  CHECK(targets[2].alternate);
}

TEST_CASE("make_local_ior: IIOP 1.0 and 1.1 give a profile per endpoint", "[ior][local]") {
  const endpoint where[] = {iiop_endpoint("a", 1), iiop_endpoint("b", 2)};
  for (std::uint8_t minor : {0, 1}) {
    ior reference = make_local_ior("IDL:T:1.0", where, to_octets("k"), {{1, minor}});
    REQUIRE(reference.profiles.size() == 2);
    iiop_profile second = decode_iiop_profile(reference.profiles[1].data);
    CHECK(second.version == giop_version{1, minor});
    CHECK(second.host == "b");
    CHECK(second.components.empty() == (minor == 0));
    auto targets = targets_of(reference);
    REQUIRE(targets.size() == 2);
    CHECK(targets[1].where == iiop_endpoint("b", 2));
  }
}

TEST_CASE("make_local_ior: bad requests raise BAD_PARAM", "[ior][local][errors]") {
  const octets key = to_octets("k");
  test::require_system_exception([&] { make_local_ior("IDL:T:1.0", {}, key); }, SystemExceptionKind::BAD_PARAM,
                                 minor::bad_ior, "at least one endpoint");
  const endpoint no_host[] = {iiop_endpoint("", 1)};
  test::require_system_exception([&] { make_local_ior("IDL:T:1.0", no_host, key); }, SystemExceptionKind::BAD_PARAM,
                                 minor::bad_ior, "without a host");
  const endpoint fine[] = {iiop_endpoint("h", 1)};
  test::require_system_exception(
      [&] {
        make_local_ior("IDL:T:1.0", fine, key, {{2, 0}});
      },
      SystemExceptionKind::BAD_PARAM, minor::bad_ior, "1.0, 1.1 or 1.2");
}

TEST_CASE("targets_of skips profiles it does not know and reports broken ones", "[ior][local]") {
  ior reference;
  reference.profiles.push_back({0x4f4e4300u, from_hex("01 02")});
  reference.profiles.push_back(to_tagged_profile(make_iiop_profile("h", 7, to_octets("k"))));
  auto targets = targets_of(reference);
  REQUIRE(targets.size() == 1);
  CHECK(targets[0].profile_index == 1);
  reference.profiles.push_back({tag_internet_iop, from_hex("01 01")});
  test::require_bad_ior([&] { targets_of(reference); }, "IOR profile 3: IIOP profile body");
}

TEST_CASE("endpoints compare for the connection cache", "[ior][endpoint]") {
  CHECK(iiop_endpoint("Host.Example", 1) == iiop_endpoint("host.example", 1));
  CHECK_FALSE(iiop_endpoint("host", 1) == iiop_endpoint("host", 2));
  CHECK_FALSE(iiop_endpoint("localhost", 1) == iiop_endpoint("127.0.0.1", 1));
  CHECK_FALSE(iiop_endpoint("x", 0) == uiop_endpoint("x"));
  CHECK(uiop_endpoint("/tmp/a") == uiop_endpoint("/tmp/a"));
  CHECK_FALSE(uiop_endpoint("/tmp/a") == uiop_endpoint("/tmp/A"));
  endpoint_hash hash;
  CHECK(hash(iiop_endpoint("Host.Example", 1)) == hash(iiop_endpoint("host.example", 1)));
  std::unordered_set<endpoint, endpoint_hash> cache{iiop_endpoint("a", 1), uiop_endpoint("/s")};
  CHECK(cache.count(iiop_endpoint("A", 1)) == 1);
  CHECK(cache.count(iiop_endpoint("a", 2)) == 0);
  CHECK(iiop_endpoint("127.0.0.1", 2809).to_string() == "iiop://127.0.0.1:2809");
  CHECK(iiop_endpoint("::1", 2809).to_string() == "iiop://[::1]:2809");
  CHECK(uiop_endpoint("/tmp/s").to_string() == "uiop:///tmp/s");
}

TEST_CASE("parse_object_string: IOR:, corbaloc:iiop and corbaloc:rir", "[ior][string_to_object]") {
  const endpoint where[] = {iiop_endpoint("h", 5)};
  ior local = make_local_ior("IDL:T:1.0", where, to_octets("key"));
  object_string from_ior = parse_object_string("\n" + object_to_string(local) + "\n");
  CHECK(from_ior.reference == local);
  CHECK_FALSE(from_ior.initial_reference);

  object_string from_url = parse_object_string("corbaloc:iiop:1.2@h:5,:[::1]/ke%79");
  CHECK_FALSE(from_url.initial_reference);
  CHECK(from_url.reference.type_id.empty());
  auto targets = targets_of(from_url.reference);
  REQUIRE(targets.size() == 2);
  CHECK(targets[0].where == iiop_endpoint("h", 5));
  CHECK(targets[0].version == giop_version{1, 2});
  CHECK(targets[0].object_key == to_octets("key"));
  CHECK(targets[1].where == iiop_endpoint("::1", 2809));
  CHECK(targets[1].version == giop_version{1, 0});  // the specification's default

  object_string rir = parse_object_string("corbaloc:rir:/NameService");
  CHECK(rir.initial_reference == "NameService");
  CHECK(rir.reference.is_nil());
}

TEST_CASE("parse_object_string: errors", "[ior][string_to_object][errors]") {
  test::require_bad_url([] { parse_object_string("http://x"); },
                        "is neither an IOR ('IOR:...') nor a URL ('corbaloc:...')");
  test::require_bad_url([] { parse_object_string(""); }, "neither an IOR");
  test::require_bad_url([] { parse_object_string("corbaloc::h:0x10/k"); }, "port '0x10'");
  test::require_bad_ior([] { parse_object_string("IOR:0"); }, "odd number of hex digits");
  corbaloc rir = parse_corbaloc("corbaloc:rir:/X");
  test::require_bad_url([&] { ior_from_corbaloc(rir); }, "initial reference");
}

TEST_CASE("make_local_ior: ssliop endpoints as TAG_SSL_SEC_TRANS, beside the plain port or alone", "[ior][local]") {
  const octets key = to_octets("k");
  SECTION("TLS and plain on one host: one profile, the TLS port in its component") {
    const endpoint where[] = {iiop_endpoint("10.0.0.1", 2809), ssliop_endpoint("10.0.0.1", 2810)};
    ior reference = make_local_ior("IDL:T:1.0", where, key);
    REQUIRE(reference.profiles.size() == 1);
    iiop_profile iiop = decode_iiop_profile(reference.profiles[0].data);
    CHECK(iiop.port == 2809);
    const tagged_component* ssl = find_component(iiop.components, tag_ssl_sec_trans);
    REQUIRE(ssl != nullptr);
    CHECK(decode_ssl_transport(*ssl) ==
          ssl_transport{association_integrity | association_confidentiality | association_trust_in_target, 0, 2810});
    const auto targets = targets_of(reference);
    REQUIRE(targets.size() == 2);
    CHECK(targets[0].where == ssliop_endpoint("10.0.0.1", 2810));
    CHECK(targets[1].where == iiop_endpoint("10.0.0.1", 2809));
    CHECK(targets[1].tls_offered);
  }
  SECTION("TLS only: port 0, and it requires integrity and confidentiality") {
    const endpoint where[] = {ssliop_endpoint("10.0.0.1", 2810)};
    local_ior_options options;
    options.tls_requires_client_certificate = true;
    ior reference = make_local_ior("IDL:T:1.0", where, key, options);
    REQUIRE(reference.profiles.size() == 1);
    iiop_profile iiop = decode_iiop_profile(reference.profiles[0].data);
    CHECK(iiop.port == 0);
    const ssl_transport ssl = decode_ssl_transport(*find_component(iiop.components, tag_ssl_sec_trans));
    CHECK(ssl.target_requires == (association_integrity | association_confidentiality | association_trust_in_client));
    const auto targets = targets_of(reference);
    REQUIRE(targets.size() == 1);
    CHECK(targets[0].where.to_string() == "ssliop://10.0.0.1:2810");
  }
  SECTION("IIOP 1.0 has no components: a TLS-only IOR cannot be made") {
    const endpoint where[] = {ssliop_endpoint("10.0.0.1", 2810)};
    local_ior_options options;
    options.version = {1, 0};
    CHECK_THROWS_AS(make_local_ior("IDL:T:1.0", where, key, options), SystemException);
  }
}
