// corbaloc: URLs: the forms of CORBA 3.0 13.6.10, escapes, errors, and writing them back.
#include "orb/ior/corbaloc.h"

#include <catch2/catch.hpp>

#include "tests/cdr/hex.h"
#include "tests/ior/error_matchers.h"

using namespace switchyard;
using namespace switchyard::iop;
using switchyard::test::from_hex;
using switchyard::test::require_bad_url;

TEST_CASE("corbaloc: the full form", "[ior][corbaloc]") {
  corbaloc loc = parse_corbaloc("corbaloc:iiop:1.2@host.example:2810/Key");
  CHECK_FALSE(loc.is_rir);
  REQUIRE(loc.addresses.size() == 1);
  CHECK(loc.addresses[0].version == giop_version{1, 2});
  CHECK(loc.addresses[0].host == "host.example");
  CHECK(loc.addresses[0].port == 2810);
  CHECK(loc.object_key == to_octets("Key"));
}

TEST_CASE("corbaloc: short forms, default port and version", "[ior][corbaloc]") {
  corbaloc loc = parse_corbaloc("corbaloc::127.0.0.1:2809/echo");
  REQUIRE(loc.addresses.size() == 1);
  CHECK_FALSE(loc.addresses[0].version.has_value());
  CHECK(loc.addresses[0].host == "127.0.0.1");
  CHECK(loc.addresses[0].port == 2809);
  CHECK(loc.object_key == to_octets("echo"));

  corbaloc no_port = parse_corbaloc("corbaloc::myhost/NameService");
  CHECK(no_port.addresses[0].port == default_corbaloc_port);
  CHECK(no_port.addresses[0].host == "myhost");

  corbaloc iiop_no_port = parse_corbaloc("corbaloc:iiop:1.0@myhost/x");
  CHECK(iiop_no_port.addresses[0].version == giop_version{1, 0});
  CHECK(iiop_no_port.addresses[0].port == 2809);
}

TEST_CASE("corbaloc: IPv6, several addresses, case-insensitive names, whitespace", "[ior][corbaloc]") {
  corbaloc loc = parse_corbaloc("  CORBALOC:IIOP:[::1]:2811,:1.1@[fe80::1%lo],iiop:h:1/a/b\n");
  REQUIRE(loc.addresses.size() == 3);
  CHECK(loc.addresses[0] == corbaloc_address{std::nullopt, "::1", 2811});
  CHECK(loc.addresses[1] == corbaloc_address{giop_version{1, 1}, "fe80::1%lo", 2809});
  CHECK(loc.addresses[2] == corbaloc_address{std::nullopt, "h", 1});
  CHECK(loc.object_key == to_octets("a/b"));  // only the first '/' ends the addresses
}

TEST_CASE("corbaloc: %-escaped keys decode", "[ior][corbaloc]") {
  CHECK(parse_corbaloc("corbaloc::h/a%20b%2fc%00%FF%fe").object_key ==
        octets{std::byte{'a'}, std::byte{' '}, std::byte{'b'}, std::byte{'/'}, std::byte{'c'}, std::byte{0},
               std::byte{0xff}, std::byte{0xfe}});
  CHECK(parse_corbaloc("corbaloc::h/;:?@&=+$,-_.!~*'()").object_key == to_octets(";:?@&=+$,-_.!~*'()"));
  CHECK(unescape_key("%41%42c") == to_octets("ABc"));
}

TEST_CASE("corbaloc:rir:", "[ior][corbaloc]") {
  corbaloc named = parse_corbaloc("corbaloc:rir:/TradingService");
  CHECK(named.is_rir);
  CHECK(named.addresses.empty());
  CHECK(named.rir_name() == "TradingService");
  CHECK(parse_corbaloc("corbaloc:rir:/").rir_name() == "NameService");
  CHECK(parse_corbaloc("corbaloc:rir:").rir_name() == "NameService");
  CHECK(parse_corbaloc("corbaloc:RIR:/Name%20Here").rir_name() == "Name Here");
}

TEST_CASE("corbaloc: writing URLs and escaping keys", "[ior][corbaloc]") {
  CHECK(escape_key(to_octets("echo")) == "echo");
  CHECK(escape_key(from_hex("00 ff 20 25 2f 41")) == "%00%FF%20%25/A");
  CHECK(make_corbaloc("127.0.0.1", 2809, to_octets("echo")) == "corbaloc:iiop:127.0.0.1:2809/echo");
  CHECK(make_corbaloc("::1", 1, to_octets("a b"), giop_version{1, 2}) == "corbaloc:iiop:1.2@[::1]:1/a%20b");
  corbaloc rir;
  rir.is_rir = true;
  rir.object_key = to_octets("NameService");
  CHECK(to_corbaloc(rir) == "corbaloc:rir:/NameService");

  // Every key, every octet value, survives escape and parse.
  octets all_octets;
  for (int i = 0; i < 256; ++i) all_octets.push_back(static_cast<std::byte>(i));
  corbaloc loc;
  loc.addresses = {{giop_version{1, 1}, "a", 5}, {std::nullopt, "::2", 2809}};
  loc.object_key = all_octets;
  CHECK(parse_corbaloc(to_corbaloc(loc)) == loc);
}

TEST_CASE("malformed corbaloc URLs raise BAD_PARAM bad_url saying what is wrong", "[ior][corbaloc][errors]") {
  require_bad_url([] { parse_corbaloc(""); }, "must start with 'corbaloc:'");
  require_bad_url([] { parse_corbaloc("corbaname::h/k"); }, "must start with 'corbaloc:'");
  require_bad_url([] { parse_corbaloc("corbaloc:"); }, "no address");
  require_bad_url([] { parse_corbaloc("corbaloc:/key"); }, "no address");
  require_bad_url([] { parse_corbaloc("corbaloc:http://h/k"); },
                  "unknown protocol 'http' (expected iiop, ssliop or rir)");
  require_bad_url([] { parse_corbaloc("corbaloc:uiop:/tmp/s"); }, "unknown protocol 'uiop'");
  require_bad_url([] { parse_corbaloc("corbaloc:host/k"); }, "address 'host' has no protocol");
  require_bad_url([] { parse_corbaloc("corbaloc::h,/k"); }, "empty address");
  require_bad_url([] { parse_corbaloc("corbaloc:,:h/k"); }, "empty address");
  // Versions.
  require_bad_url([] { parse_corbaloc("corbaloc::1@h/k"); }, "bad version '1'");
  require_bad_url([] { parse_corbaloc("corbaloc::1.x@h/k"); }, "bad version '1.x'");
  require_bad_url([] { parse_corbaloc("corbaloc::@h/k"); }, "bad version ''");
  require_bad_url([] { parse_corbaloc("corbaloc::2.0@h/k"); }, "unsupported IIOP version 2.0");
  require_bad_url([] { parse_corbaloc("corbaloc::1.3@h/k"); }, "unsupported IIOP version 1.3");
  // Hosts.
  require_bad_url([] { parse_corbaloc("corbaloc::/k"); }, "missing host");
  require_bad_url([] { parse_corbaloc("corbaloc::1.2@/k"); }, "missing host");
  require_bad_url([] { parse_corbaloc("corbaloc::h!st/k"); }, "bad character in host 'h!st'");
  require_bad_url([] { parse_corbaloc("corbaloc::::1/k"); }, "IPv6 address must be in brackets");
  require_bad_url([] { parse_corbaloc("corbaloc::fe80::1:2809/k"); }, "IPv6 address must be in brackets");
  require_bad_url([] { parse_corbaloc("corbaloc::[::1/k"); }, "without its closing ']'");
  require_bad_url([] { parse_corbaloc("corbaloc::[]/k"); }, "bracketed host '' is not an IPv6 address");
  require_bad_url([] { parse_corbaloc("corbaloc::[1.2.3.4]/k"); }, "is not an IPv6 address");
  require_bad_url([] { parse_corbaloc("corbaloc::[::1]x/k"); }, "unexpected 'x' after IPv6 address");
  // Ports.
  require_bad_url([] { parse_corbaloc("corbaloc::h:/k"); }, "empty port");
  require_bad_url([] { parse_corbaloc("corbaloc::h:65536/k"); }, "port 65536 out of range (0 to 65535)");
  require_bad_url([] { parse_corbaloc("corbaloc::h:99999999999/k"); }, "port 99999999999 out of range");
  require_bad_url([] { parse_corbaloc("corbaloc::h:-1/k"); }, "port '-1' is not a decimal number");
  require_bad_url([] { parse_corbaloc("corbaloc::h:80a/k"); }, "port '80a' is not a decimal number");
  require_bad_url([] { parse_corbaloc("corbaloc::[::1]:x/k"); }, "port 'x' is not a decimal number");
  // Keys.
  require_bad_url([] { parse_corbaloc("corbaloc::h:2809"); }, "missing object key");
  require_bad_url([] { parse_corbaloc("corbaloc::h:2809/"); }, "empty object key");
  require_bad_url([] { parse_corbaloc("corbaloc::h/a%2"); }, "bad escape '%2' at position 13 of the object key");
  require_bad_url([] { parse_corbaloc("corbaloc::h/a%zz"); }, "bad escape '%zz' at position 13");
  require_bad_url([] { parse_corbaloc("corbaloc::h/%"); }, "bad escape '%' at position 12");
  require_bad_url([] { parse_corbaloc("corbaloc::h/a b"); },
                  "character 0x20 at position 13 of the object key must be %-escaped");
  require_bad_url([] { parse_corbaloc("corbaloc::h/\xc3\xa9"); }, "character 0xc3 at position 12");
  require_bad_url([] { unescape_key("a%g0"); }, "bad escape '%g0' at position 1");
  // rir.
  require_bad_url([] { parse_corbaloc("corbaloc:rir:h/Name"); }, "rir: takes no address");
  require_bad_url([] { parse_corbaloc("corbaloc:rir:,:h/Name"); }, "rir: cannot be combined");
  require_bad_url([] { parse_corbaloc("corbaloc:rir:,rir:/Name"); }, "rir: cannot be combined");
}

TEST_CASE("corbaloc: ssliop addresses (IIOP over TLS) become TLS-only profiles", "[ior][corbaloc]") {
  corbaloc loc = parse_corbaloc("corbaloc:ssliop:1.2@127.0.0.1:2810,iiop:h:2809/echo");
  REQUIRE(loc.addresses.size() == 2);
  CHECK(loc.addresses[0].tls);
  CHECK(loc.addresses[0].port == 2810);
  CHECK_FALSE(loc.addresses[1].tls);
  CHECK(to_corbaloc(loc) == "corbaloc:ssliop:1.2@127.0.0.1:2810,iiop:h:2809/echo");
}
