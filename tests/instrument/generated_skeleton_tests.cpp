// The request-path profile of requests served by a skeleton syidl generated (probed.idl): with
// -ORBInstrument, the demarshal and upcall rows count one call per request, as the core's rows
// do, whatever the operation (arguments, out parameters, a user exception, oneway, attributes).
// The table goes to stdout: the test log shows a whitebox profile of generated code.
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "orb/core/orb_impl.h"
#include "probed.h"
#include "switchyard/instrument.h"
#include "switchyard/orb.h"
#include "tests/core/orb_fixture.h"

namespace {

using namespace switchyard;
using instrument::layer;
using instrument::strategy;

struct meter final : Probed::Meter_skeleton {
  std::int32_t level_ = 0;
  int ticks = 0;
  std::int32_t total(const Probed::Samples& samples, std::int32_t& count) override {
    count = static_cast<std::int32_t>(samples.size());
    std::int32_t sum = 0;
    for (const auto& s : samples) sum += s.id;
    return sum;
  }
  void refuse(const std::string& why) override { throw Probed::Refused(why); }
  void tick() override { ++ticks; }
  std::int32_t level() override { return level_; }
  void level(std::int32_t value) override { level_ = value; }
};

std::uint64_t calls(const instrument::probe_snapshot& snapshot, layer l) {
  std::uint64_t n = 0;
  for (std::size_t s = 0; s < instrument::strategy_count; ++s) n += snapshot.at(l, static_cast<strategy>(s)).calls;
  return n;
}

// Sends one request of every kind; returns how many requests that was. The oneway is followed by
// two-way calls on the same connection, served after it, so it is counted by the time we look.
int call_every_operation(Probed::Meter& stub) {
  std::int32_t count = 0;
  CHECK(stub.total({{1, "a"}, {2, "b"}, {4, "c"}}, count) == 7);
  CHECK(count == 3);
  CHECK_THROWS_AS(stub.refuse("no"), Probed::Refused);
  stub.tick();
  stub.level(5);
  CHECK(stub.level() == 5);
  return 5;
}

}  // namespace

TEST_CASE("a generated skeleton marks demarshal and upcall once per request", "[instrument][idl]") {
  test::serving_orb server({"-ORBInstrument"});
  auto servant = std::make_shared<meter>();
  const auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({});
  Probed::Meter stub(client->string_to_object(ior));
  int requests = 0;
  for (int i = 0; i < 4; ++i) requests += call_every_operation(stub);
  // The server marks `write` after its send returns, possibly after our reply arrived: the
  // rows of the requests above are complete once this last one has been answered.
  CHECK(stub.level() == 5);
  CHECK(servant->ticks == 4);

  const instrument::probe_snapshot snapshot = server.orb->impl().probe_snapshot();
  if (!instrument::probes_compiled_in) {
    CHECK(snapshot.total_calls() == 0);
    return;
  }
  const auto served = static_cast<std::uint64_t>(requests + 1);
  CHECK(calls(snapshot, layer::operation_demux) == served);
  CHECK(calls(snapshot, layer::demarshal) == served);
  CHECK(calls(snapshot, layer::upcall) == served);
  // A oneway gets no reply: no marshal mark.
  CHECK(calls(snapshot, layer::marshal) == served - 4);
  std::cout << instrument::format_table(snapshot, instrument::nanoseconds_per_tick());
}

TEST_CASE("without -ORBInstrument a generated skeleton records nothing", "[instrument][idl]") {
  test::serving_orb server;
  auto servant = std::make_shared<meter>();
  const auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({});
  Probed::Meter stub(client->string_to_object(ior));
  call_every_operation(stub);
  CHECK(stub.level() == 5);
  CHECK(server.orb->impl().probe_snapshot().total_calls() == 0);
}
