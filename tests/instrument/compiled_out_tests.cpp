// The probes compiled out (what -Dinstrumentation=disabled gives everywhere), forced here in one
// executable so every build checks it: empty types, no space taken, nothing recorded.
#define SWITCHYARD_INSTRUMENT_PROBES 0
#include <switchyard/instrument.h>

#include <catch2/catch.hpp>

#include <type_traits>

using namespace switchyard::instrument;

namespace {

struct connection_with_probes {
  [[no_unique_address]] probe_table probes;
  int handle;
};

}  // namespace

static_assert(!probes_compiled_in);
static_assert(std::is_empty_v<probe_table>);
static_assert(std::is_empty_v<scoped_probe>);
static_assert(std::is_empty_v<phase_timer>);
static_assert(sizeof(connection_with_probes) == sizeof(int), "a compiled-out table takes no space");
static_assert(!probe_table::enabled(), "compiled out, the run-time branch is a constant");
static_assert(std::is_trivially_destructible_v<scoped_probe>, "no destructor runs");

TEST_CASE("compiled out: probes record nothing, even when switched on", "[instrument]") {
  probe_table table;
  table.enable();
  CHECK_FALSE(table.enabled());
  for (int i = 0; i < 10; ++i) {
    scoped_probe probe(table, layer::parse);
    phase_timer timer(table);
    CHECK_FALSE(timer.active());
    timer.mark(layer::read);
    timer.mark(layer::servant_demux, strategy::perfect);
    timer.restart();
  }
  table.record(layer::write, strategy::none, 1000);
  CHECK(table.snapshot().total_calls() == 0);
  CHECK(table.snapshot().total_ticks() == 0);
  table.reset();

  probe_table_set set;
  probe_table& added = set.add();
  set.enable();
  added.record(layer::upcall, strategy::none, 5);
  CHECK(set.snapshot().total_calls() == 0);
}

TEST_CASE("compiled out: the report keeps its shape", "[instrument]") {
  probe_table table;
  std::vector<probe_row> rows = parse_csv(format_csv(table.snapshot(), 1.0));
  REQUIRE(rows.size() == layer_count);
  for (const probe_row& row : rows) {
    CHECK(row.calls == 0);
    CHECK(row.share_percent == 0);
  }
}
