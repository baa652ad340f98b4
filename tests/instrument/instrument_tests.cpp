// Probes, tables and reports in the build's own mode (instrumentation compiled in by default).
#include <switchyard/instrument.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>

#include <switchyard/exception.h>

using namespace switchyard::instrument;
using switchyard::all_demux_strategies;
using switchyard::demux_strategy;

namespace {

constexpr layer all_layers[] = {layer::read,      layer::parse,  layer::servant_demux, layer::operation_demux,
                                layer::demarshal, layer::upcall, layer::marshal,       layer::write};

// A snapshot with known counts: every layer timed, two strategies for servant demux.
probe_snapshot known_snapshot() {
  probe_snapshot s;
  for (std::size_t i = 0; i < layer_count; ++i) s.at(all_layers[i], strategy::none) = {10, 100 * (i + 1)};
  s.at(layer::servant_demux, strategy::none) = {};
  s.at(layer::servant_demux, strategy::linear) = {4, 400};
  s.at(layer::servant_demux, strategy::perfect) = {6, 200};
  return s;
}

std::size_t count_lines(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

void require_bad_csv(const std::string& text, const std::string& fragment) {
  try {
    (void)parse_csv(text);
    FAIL("parse_csv accepted: " << text);
  } catch (const switchyard::SystemException& e) {
    CHECK(e.kind() == switchyard::SystemExceptionKind::BAD_PARAM);
    CHECK_THAT(e.detail(), Catch::Contains(fragment));
  }
}

}  // namespace

TEST_CASE("layer and strategy names round-trip", "[instrument]") {
  for (layer l : all_layers) REQUIRE(try_parse_layer(to_string(l)) == l);
  for (std::size_t s = 0; s < strategy_count; ++s) {
    REQUIRE(try_parse_strategy(to_string(static_cast<strategy>(s))) == static_cast<strategy>(s));
  }
  CHECK(to_string(layer::servant_demux) == "servant_demux");
  CHECK(to_string(strategy::none) == "-");
  CHECK(to_string(strategy::perfect) == "perfect");
  CHECK_FALSE(try_parse_layer("Read"));
  CHECK_FALSE(try_parse_layer(""));
  CHECK_FALSE(try_parse_strategy("hash"));
  CHECK(to_string(static_cast<layer>(200)) == "?");
  // Every demultiplexing strategy has a label of its own, spelled as -ORBServantDemux spells it.
  const std::pair<demux_strategy, std::string_view> spelled[] = {
      {demux_strategy::linear, "linear"},
      {demux_strategy::binary, "binary"},
      {demux_strategy::dynamic, "dynamic"},
      {demux_strategy::perfect, "perfect"},
      {demux_strategy::perfect_fast, "perfect-fast"},
      {demux_strategy::active, "active"},
  };
  REQUIRE(std::size(spelled) == all_demux_strategies.size());
  for (auto [value, name] : spelled) {
    CHECK(to_string(strategy_label(value)) == name);
    CHECK(try_parse_strategy(name) == strategy_label(value));
  }
}

TEST_CASE("the clock advances and is calibrated", "[instrument]") {
  tick_count a = read_clock();
  tick_count b = read_clock();
  CHECK(elapsed_ticks(a, b) == b - a);
  CHECK(elapsed_ticks(b + 5, b) == 0);  // a lagging counter never makes a negative total
  double ns = nanoseconds_per_tick();
  CHECK(std::isfinite(ns));
  CHECK(ns > 0);
  CHECK(nanoseconds_per_tick() == ns);  // calibrated once
  CHECK_FALSE(clock_name().empty());
}

TEST_CASE("snapshots add up", "[instrument]") {
  probe_snapshot a = known_snapshot();
  probe_snapshot b = known_snapshot();
  a += b;
  CHECK(a.at(layer::read, strategy::none).calls == 20);
  CHECK(a.at(layer::servant_demux, strategy::linear).ticks == 800);
  CHECK(a.total_calls() == 2 * b.total_calls());
  CHECK(a.total_ticks() == 2 * b.total_ticks());
  CHECK(probe_snapshot{}.total_calls() == 0);
}

TEST_CASE("rows: every layer, shares of the whole, means", "[instrument]") {
  std::vector<probe_row> rows = make_rows(known_snapshot(), 2.0);
  REQUIRE(rows.size() == layer_count + 1);  // servant demux has two strategies
  double share = 0;
  for (const probe_row& row : rows) share += row.share_percent;
  CHECK(share == Approx(100.0).epsilon(1e-9));
  CHECK(rows[0].row_layer == layer::read);
  CHECK(rows[0].calls == 10);
  CHECK(rows[0].total_us == Approx(0.2));  // 100 ticks * 2 ns
  CHECK(rows[0].mean_ns == Approx(20.0));
  CHECK(rows[2].row_strategy == strategy::linear);
  CHECK(rows[3].row_strategy == strategy::perfect);
  CHECK(rows[3].mean_ns == Approx(200.0 * 2 / 6));
  CHECK(rows.back().row_layer == layer::write);

  // Nothing timed: still one line per layer, all zero.
  std::vector<probe_row> empty = make_rows(probe_snapshot{}, 1.0);
  REQUIRE(empty.size() == layer_count);
  for (std::size_t i = 0; i < layer_count; ++i) {
    CHECK(empty[i].row_layer == all_layers[i]);
    CHECK(empty[i].row_strategy == strategy::none);
    CHECK(empty[i].calls == 0);
    CHECK(empty[i].share_percent == 0);
  }
}

TEST_CASE("the text table has every layer, a header and a total", "[instrument]") {
  std::string table = format_table(known_snapshot(), 1.0);
  CHECK(count_lines(table) == 1 + layer_count + 1 + 1);
  CHECK(table.rfind("layer", 0) == 0);
  for (layer l : all_layers) CHECK_THAT(table, Catch::Contains(std::string(to_string(l))));
  CHECK_THAT(table, Catch::Contains("perfect"));
  CHECK_THAT(table, Catch::Contains("total"));
  CHECK_THAT(table, Catch::Contains("100.00"));
}

TEST_CASE("CSV round-trips through parse_csv", "[instrument]") {
  probe_snapshot snapshot = known_snapshot();
  std::string csv = format_csv(snapshot, 0.5);
  CHECK(csv.rfind("layer,strategy,calls,total_us,mean_ns,share_pct\n", 0) == 0);
  std::vector<probe_row> expected = make_rows(snapshot, 0.5);
  std::vector<probe_row> parsed = parse_csv(csv);
  REQUIRE(parsed.size() == expected.size());
  double share = 0;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    CHECK(parsed[i].row_layer == expected[i].row_layer);
    CHECK(parsed[i].row_strategy == expected[i].row_strategy);
    CHECK(parsed[i].calls == expected[i].calls);
    CHECK(parsed[i].total_us == Approx(expected[i].total_us).margin(0.001));
    CHECK(parsed[i].mean_ns == Approx(expected[i].mean_ns).margin(0.1));
    CHECK(parsed[i].share_percent == Approx(expected[i].share_percent).margin(0.01));
    share += parsed[i].share_percent;
  }
  CHECK(share == Approx(100.0).margin(0.1));

  // CRLF line ends and blank lines are accepted.
  std::string crlf = "layer,strategy,calls,total_us,mean_ns,share_pct\r\n\r\nread,-,3,1.5,500.0,100.00\r\n";
  std::vector<probe_row> one = parse_csv(crlf);
  REQUIRE(one.size() == 1);
  CHECK(one[0].calls == 3);
  CHECK(one[0].mean_ns == 500.0);
  // A header alone is an empty report.
  CHECK(parse_csv("layer,strategy,calls,total_us,mean_ns,share_pct").empty());
}

TEST_CASE("malformed CSV is a clear BAD_PARAM", "[instrument]") {
  const std::string header = "layer,strategy,calls,total_us,mean_ns,share_pct\n";
  require_bad_csv("", "empty input");
  require_bad_csv("\n\n", "empty input");
  require_bad_csv("layer,strategy,calls\n", "line 1: expected the header");
  require_bad_csv(header + "read,-,1,1.0,1.0\n", "line 2: expected 6 fields, found 5");
  require_bad_csv(header + "read,-,1,1.0,1.0,1.0,7\n", "more than 6 fields");
  require_bad_csv(header + "read,-,1,1.0,1.0,1.0,\n", "more than 6 fields");
  require_bad_csv(header + "reading,-,1,1.0,1.0,1.0\n", "unknown layer \"reading\"");
  require_bad_csv(header + "read,hash,1,1.0,1.0,1.0\n", "unknown strategy \"hash\"");
  require_bad_csv(header + "read,-,,1.0,1.0,1.0\n", "calls is not a number");
  require_bad_csv(header + "read,-,-1,1.0,1.0,1.0\n", "calls is not a number");
  require_bad_csv(header + "read,-,12x,1.0,1.0,1.0\n", "calls is not a number: \"12x\"");
  require_bad_csv(header + "read,-,99999999999999999999999,1.0,1.0,1.0\n", "calls is not a number");
  require_bad_csv(header + "read,-,1,abc,1.0,1.0\n", "total_us is not a number");
  require_bad_csv(header + "read,-,1,1.0,-2.0,1.0\n", "mean_ns must be finite and not negative");
  require_bad_csv(header + "read,-,1,1.0,nan,1.0\n", "mean_ns must be finite");
  require_bad_csv(header + "read,-,1,1.0,inf,1.0\n", "mean_ns must be finite");
  require_bad_csv(header + "read,-,1,1.0,1.0,100.5\n", "share_pct above 100");
  require_bad_csv(header + "read,-,1,1.0,1.0,1.0\nwrite\n", "line 3");
  constexpr char embedded_nul[] = "read,-,1,1.0\0,1.0,1.0\n";
  require_bad_csv(header + std::string(embedded_nul, sizeof embedded_nul - 1), "total_us is not a number");
}

TEST_CASE("dump writes the table or the CSV, and reports failure", "[instrument]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  REQUIRE(dump(known_snapshot(), file, dump_format::csv));
  std::rewind(file);
  std::string text;
  char buffer[256];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
  std::fclose(file);
  CHECK(parse_csv(text).size() == layer_count + 1);

  file = std::tmpfile();
  REQUIRE(file != nullptr);
  REQUIRE(dump(known_snapshot(), file));
  std::rewind(file);
  text.clear();
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
  std::fclose(file);
  CHECK(text.rfind("# switchyard request-path profile (clock ", 0) == 0);
  CHECK(count_lines(text) == 1 + 1 + layer_count + 1 + 1);

  CHECK_FALSE(dump(known_snapshot(), nullptr));

  std::string report = format_report(known_snapshot());
  CHECK(report.rfind("# switchyard request-path profile (clock ", 0) == 0);
  CHECK(count_lines(report) == 1 + 1 + layer_count + 1 + 1);
  CHECK(parse_csv(format_report(known_snapshot(), dump_format::csv)).size() == layer_count + 1);
}

TEST_CASE("dump on request: by call and by signal", "[instrument]") {
  while (take_dump_request()) {
  }
  CHECK_FALSE(take_dump_request());
  request_dump();
  CHECK(take_dump_request());
  CHECK_FALSE(take_dump_request());
  REQUIRE(install_dump_signal(SIGUSR1));
  REQUIRE(std::raise(SIGUSR1) == 0);
  CHECK(take_dump_request());
  CHECK_FALSE(take_dump_request());
  CHECK_FALSE(install_dump_signal(-1));
  std::signal(SIGUSR1, SIG_DFL);
}

#if SWITCHYARD_INSTRUMENT_PROBES

TEST_CASE("compiled in", "[instrument]") {
  STATIC_REQUIRE(probes_compiled_in);
  probe_table table;
  CHECK_FALSE(table.enabled());  // off until -ORBInstrument
}

TEST_CASE("scoped probes accumulate per layer and strategy", "[instrument]") {
  probe_table table;
  table.enable();
  REQUIRE(table.enabled());
  for (int i = 0; i < 5; ++i) {
    scoped_probe probe(table, layer::parse);
  }
  for (int i = 0; i < 3; ++i) {
    scoped_probe probe(table, layer::servant_demux, strategy::dynamic);
  }
  { scoped_probe probe(table, layer::servant_demux, strategy::active); }
  probe_snapshot s = table.snapshot();
  CHECK(s.at(layer::parse, strategy::none).calls == 5);
  CHECK(s.at(layer::servant_demux, strategy::dynamic).calls == 3);
  CHECK(s.at(layer::servant_demux, strategy::active).calls == 1);
  CHECK(s.total_calls() == 9);
  // Totals are sums of non-negative intervals: at least zero, and no more than the whole.
  CHECK(s.total_ticks() >= s.at(layer::parse, strategy::none).ticks);
}

TEST_CASE("a phase timer charges each boundary to one layer", "[instrument]") {
  probe_table table;
  table.enable();
  for (int request = 0; request < 4; ++request) {
    phase_timer timer(table);
    REQUIRE(timer.active());
    for (layer l : all_layers) {
      strategy s = (l == layer::servant_demux || l == layer::operation_demux) ? strategy::perfect : strategy::none;
      timer.mark(l, s);
    }
    timer.restart();  // the wait for the next message is charged to nobody
    CHECK(table.snapshot().total_calls() == 8u * static_cast<unsigned>(request + 1));
  }
  probe_snapshot s = table.snapshot();
  for (layer l : all_layers) {
    strategy st = (l == layer::servant_demux || l == layer::operation_demux) ? strategy::perfect : strategy::none;
    CHECK(s.at(l, st).calls == 4);
  }
  // The phases of one request tile it: their sum is no more than its span.
  probe_table one;
  one.enable();
  tick_count before = read_clock();
  {
    phase_timer timer(one);
    for (layer l : all_layers) timer.mark(l);
  }
  tick_count span = elapsed_ticks(before, read_clock());
  CHECK(one.snapshot().total_ticks() <= span);
}

TEST_CASE("switched off at run time, nothing is recorded", "[instrument]") {
  probe_table table;
  {
    scoped_probe probe(table, layer::read);
    phase_timer timer(table);
    CHECK_FALSE(timer.active());
    timer.mark(layer::parse);
  }
  CHECK(table.snapshot().total_calls() == 0);
  CHECK(table.snapshot().total_ticks() == 0);

  table.enable();
  { scoped_probe probe(table, layer::read); }
  table.enable(false);
  { scoped_probe probe(table, layer::read); }
  CHECK(table.snapshot().total_calls() == 1);

  // A probe started while on and finished after the switch still records: it took its start.
  table.enable();
  {
    scoped_probe probe(table, layer::write);
    table.enable(false);
  }
  CHECK(table.snapshot().at(layer::write, strategy::none).calls == 1);
}

TEST_CASE("reset starts the counts afresh", "[instrument]") {
  probe_table table;
  table.enable();
  { scoped_probe probe(table, layer::upcall); }
  table.reset();
  CHECK(table.snapshot().total_calls() == 0);
  CHECK(table.snapshot().total_ticks() == 0);
  { scoped_probe probe(table, layer::upcall); }
  { scoped_probe probe(table, layer::marshal); }
  CHECK(table.snapshot().total_calls() == 2);
  CHECK(table.snapshot().at(layer::upcall, strategy::none).calls == 1);
}

TEST_CASE("a table set merges per-thread tables", "[instrument]") {
  probe_table_set set;
  probe_table& early = set.add();
  CHECK_FALSE(early.enabled());
  set.enable();
  CHECK(early.enabled());
  constexpr int threads = 2;
  constexpr int requests = 2000;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    probe_table& table = t == 0 ? early : set.add();
    CHECK(table.enabled());  // a table added after enable() is on too
    workers.emplace_back([&table] {
      for (int i = 0; i < requests; ++i) {
        phase_timer timer(table);
        for (layer l : all_layers) timer.mark(l, l == layer::servant_demux ? strategy::linear : strategy::none);
      }
    });
  }
  // Snapshots taken while the writers run see counts that only grow, never beyond the end.
  std::uint64_t last = 0;
  for (int i = 0; i < 100; ++i) {
    std::uint64_t now = set.snapshot().total_calls();
    CHECK(now >= last);
    CHECK(now <= std::uint64_t{threads} * requests * layer_count);
    last = now;
  }
  for (std::thread& worker : workers) worker.join();
  probe_snapshot s = set.snapshot();
  CHECK(s.total_calls() == std::uint64_t{threads} * requests * layer_count);
  CHECK(s.at(layer::servant_demux, strategy::linear).calls == std::uint64_t{threads} * requests);
  std::vector<probe_row> rows = make_rows(s, nanoseconds_per_tick());
  CHECK(rows.size() == layer_count);
  set.reset();
  CHECK(set.snapshot().total_calls() == 0);
}

#else

TEST_CASE("compiled out by the build option: nothing is recorded", "[instrument]") {
  STATIC_REQUIRE_FALSE(probes_compiled_in);
  probe_table table;
  table.enable();
  { scoped_probe probe(table, layer::read); }
  CHECK(table.snapshot().total_calls() == 0);
}

#endif
