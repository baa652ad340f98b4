// syidl's generated stubs against omniORB's server built from the same IDL (omni_server,
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
#include "tests/idl_compiler/backend/echo_round_trips.h"
#include "tests/interop/omni_server_process.h"
#include "ttcp_sequence.h"

using namespace switchyard;

namespace {

const char* omni_server_program() { return std::getenv("OMNI_PEER_SERVER"); }

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

  // omniORB sends wstrings in GIOP 1.2 only (it refuses them below).
  test::check_echo_round_trips(echo, std::string_view(giop) == "1.2");
  CHECK(echo.calls() > 30);
  CHECK(server.stop() == 0);
}

TEST_CASE("generated Integrity stubs at GIOP 1.1: omniORB's fragmented replies read as sent, or MARSHAL",
          "[interop][generated][fragment]") {
  if (omni_server_program() == nullptr) {
    WARN("OMNI_PEER_SERVER is not set: omniORB's peer was not built; nothing checked");
    return;
  }
  // omniORB replies above 8 KB in GIOP 1.1 Fragments of 8192 octets, whose data lands 4 octets
  // off the message's alignment: our reader realigns in each (docs/design.md, "GIOP 1.1
  // fragments"). Every size from one Fragment to many, and the connection serves on after a
  // refusal.
  test::omni_server server(omni_server_program());
  auto client = orb_init({"-ORBGIOPVersion", "1.1"});
  auto echo = Integrity::Echo::_narrow(client->string_to_object(server.ior("echo")));
  REQUIRE_FALSE(echo._is_nil());
  const Integrity::Record record{-7, 1.5, 3, 0x70, 0.25f, 'a', true};
  const Integrity::NARecord na{9, -2.5, 'm', -9876543210LL, 42};
  int refused = 0;
  for (std::size_t count : {1u, 200u, 341u, 342u, 1024u, 5000u}) {
    CAPTURE(count);
    Integrity::Records records(count, record);
    for (std::size_t i = 0; i < count; ++i) records[i].l = static_cast<std::int32_t>(i);
    CHECK(echo.echo_records(records) == records);
    Integrity::NARecords narecords(count, na);
    for (std::size_t i = 0; i < count; ++i) narecords[i].ll = static_cast<std::int64_t>(i) << 33;
    CHECK(echo.echo_narecords(narecords) == narecords);
    Integrity::Longs longs(count * 4);
    for (std::size_t i = 0; i < longs.size(); ++i) longs[i] = static_cast<std::int32_t>(i * 2654435761u);
    CHECK(echo.echo_longs(longs) == longs);
    std::string text(count * 20, ' ');
    for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + i % 26);
    CHECK(echo.echo_string(text) == text);
    // omniORB writes doubles as one block, an omniORBpy server element by element: past a
    // Fragment boundary the two cannot be told apart, and the reply is refused. (Above 16 KB
    // omniORB sends the block on its own, where nothing is ambiguous.)
    Integrity::Doubles doubles(count);
    for (std::size_t i = 0; i < count; ++i) doubles[i] = 0.5 + static_cast<double>(i);
    try {
      const Integrity::Doubles back = echo.echo_doubles(doubles);
      CHECK(back == doubles);
      CHECK(count != 1024);  // 8 KB of doubles cross a boundary
    } catch (const SystemException& e) {
      CHECK(e.kind() == SystemExceptionKind::MARSHAL);
      CHECK(e.minor() == minor::split_between_chunks);
      CHECK(count * 8 > 8000);
      ++refused;
    }
  }
  CHECK(refused >= 1);
  CHECK(echo.echo_long(5) == 5);
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
