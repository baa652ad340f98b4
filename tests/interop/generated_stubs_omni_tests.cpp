// syidl's generated stubs against omniORB's server built from the same IDL (omni_peer_server,
// started here on loopback): every Integrity::Echo operation and every IDL construct it carries
// comes back from omniORB unchanged, under each GIOP version our client speaks; and the
// papers' ttcp_sequence. OMNI_PEER_SERVER names the server; without it the cases warn and pass.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "integrity.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/interop/omni_server_process.h"
#include "ttcp_sequence.h"

using namespace switchyard;

namespace {

const char* omni_server_program() { return std::getenv("OMNI_PEER_SERVER"); }

Integrity::Nested sample_nested() {
  Integrity::Nested n;
  n.name = "nested \xc3\xbc";
  n.values = {1, -2, std::numeric_limits<std::int32_t>::max()};
  n.tint = Integrity::Color::blue;
  n.choice.l(-77);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) n.grid[r][c] = r * 10 - c;
  n.few = {Integrity::Record{1, 2.5, 3, 4, 5.5f, 'r', true}, Integrity::Record{-1, -2.5, -3, 0, 0.25f, 'z', false}};
  return n;
}

}  // namespace

TEST_CASE("generated Integrity stubs: omniORB's Echo returns every value unchanged", "[interop][generated]") {
  if (omni_server_program() == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  test::omni_server server(omni_server_program());
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Integrity::Echo::_narrow(client->string_to_object(server.ior("echo")));
  REQUIRE_FALSE(echo._is_nil());

  CHECK(echo.echo_boolean(true));
  CHECK(echo.echo_octet(0xfe) == 0xfe);
  CHECK(echo.echo_char('q') == 'q');
  CHECK(echo.echo_short(std::numeric_limits<std::int16_t>::min()) == std::numeric_limits<std::int16_t>::min());
  CHECK(echo.echo_ushort(65535) == 65535);
  CHECK(echo.echo_long(std::numeric_limits<std::int32_t>::min()) == std::numeric_limits<std::int32_t>::min());
  CHECK(echo.echo_ulong(0xdeadbeefu) == 0xdeadbeefu);
  CHECK(echo.echo_longlong(std::numeric_limits<std::int64_t>::min()) == std::numeric_limits<std::int64_t>::min());
  CHECK(echo.echo_ulonglong(std::numeric_limits<std::uint64_t>::max()) == std::numeric_limits<std::uint64_t>::max());
  CHECK(echo.echo_float(-1.25f) == -1.25f);
  CHECK(echo.echo_double(1e300) == 1e300);
  CHECK(echo.echo_string("") == "");
  CHECK(echo.echo_string("\xc3\xbc" "ber") == "\xc3\xbc" "ber");
  // omniORB sends wstrings in GIOP 1.2 only (it refuses them below).
  if (std::string_view(giop) == "1.2") {
    CHECK(echo.echo_wstring(u"wide \u00e9\u4e2d") == u"wide \u00e9\u4e2d");
    CHECK(echo.echo_wstring(u"") == u"");
  }
  CHECK(echo.echo_color(Integrity::Color::green) == Integrity::Color::green);
  Integrity::Record record{-7, 3.5, -2, 200, 0.5f, 'c', true};
  CHECK(echo.echo_record(record) == record);
  Integrity::NARecord na{9, -0.125, 'n', -99999999999LL, 77};
  CHECK(echo.echo_narecord(na) == na);
  Integrity::Variant variant;
  variant.l(5);
  CHECK(echo.echo_variant(variant) == variant);
  variant.s("text");
  CHECK(echo.echo_variant(variant) == variant);
  variant.d(6.5);
  CHECK(echo.echo_variant(variant) == variant);
  variant.o(3);  // the default case
  CHECK(echo.echo_variant(variant) == variant);
  Integrity::Matrix matrix{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) matrix[r][c] = r * 4 + c - 5;
  CHECK(echo.echo_matrix(matrix) == matrix);
  CHECK(echo.echo_nested(sample_nested()) == sample_nested());
  Integrity::Octets octets(100000);
  for (std::size_t i = 0; i < octets.size(); ++i) octets[i] = static_cast<std::uint8_t>(i * 13);
  CHECK(echo.echo_octets(octets) == octets);  // omniORB fragments a reply this large
  CHECK(echo.echo_octets({}).empty());
  Integrity::Longs longs{1, -1, std::numeric_limits<std::int32_t>::max()};
  CHECK(echo.echo_longs(longs) == longs);
  CHECK(echo.echo_longs({}).empty());
  Integrity::Doubles doubles{0.0, -0.5, 1e-300};
  CHECK(echo.echo_doubles(doubles) == doubles);
  Integrity::Records records(170, record);
  records[3].c = 'x';
  CHECK(echo.echo_records(records) == records);
  Integrity::NARecords narecords(91, na);
  narecords[8].s = -1;
  CHECK(echo.echo_narecords(narecords) == narecords);
  Integrity::Strings strings{"a", "", "ccc"};
  CHECK(echo.echo_strings(strings) == strings);

  std::int32_t a = 21;
  std::string s = "abc";
  echo.twist(a, s);
  CHECK(a == 42);
  CHECK(s == "cba");
  std::string name;
  Integrity::Longs values;
  CHECK(echo.split(sample_nested(), name, values) == 3);
  CHECK(name == sample_nested().name);
  CHECK(values == sample_nested().values);
  CHECK(echo.refuse(0) == 0);
  try {
    echo.refuse(17);
    FAIL("refuse(17) returned");
  } catch (const Integrity::Refused& e) {
    CHECK(e.reason == "refused");
    CHECK(e.code == 17);
  }
  echo.label("from switchyard");
  CHECK(echo.label() == "from switchyard");
  CHECK(echo.calls() > 30);
  CHECK(server.stop() == 0);
}

TEST_CASE("generated ttcp_sequence stubs against omniORB", "[interop][generated]") {
  if (omni_server_program() == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  auto giop = GENERATE("1.0", "1.2");
  CAPTURE(giop);
  test::omni_server server(omni_server_program());
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto ttcp = ttcp_sequence::_narrow(client->string_to_object(server.ior("ttcp/0")));
  REQUIRE_FALSE(ttcp._is_nil());
  ttcp.sendNoParams_2way();
  ttcp.sendNoParams_1way();
  ttcp_sequence::StructSeq structs;
  for (int i = 0; i < 1024; ++i)
    structs.push_back(BinStruct{static_cast<std::int16_t>(i), 'b', i * 3, static_cast<std::uint8_t>(i), i / 7.0});
  ttcp.sendStructSeq_2way(structs);
  std::vector<std::uint8_t> octets(65536, 0x5a);
  ttcp.sendOctetSeq_2way(octets);
  ttcp.sendNoParams_2way();
  CHECK(server.stop() == 0);
}
