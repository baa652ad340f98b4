// `sy-bench demux`: the scalability experiment of the latency paper (section 5.3, figures 31-32):
// end-to-end latency of a parameterless two-way call as servants (1..500) and operations per
// interface (1, 10, 100) grow, for each demultiplexing strategy and invocation algorithm
// (section 3.7), with the server's per-layer profile when the ORB's instrumentation is on.
// The servants are of syidl's generated skeletons and the client calls through its stubs
// (demux_interfaces.h: ttcp_demux_<K> for K in 1, 10, 100), so "perfect" operation
// demultiplexing is the gperf table syidl made from the IDL, and "perfect" servant
// demultiplexing is gperf at build time over the server's ids (ttcp_object_ids.txt), as in the
// papers; --no-object-id-table measures the run-time perfect hash instead. The CSV's
// operation_lookup and servant_lookup columns say what served each row, as the server saw it.
// "perfect-fast" builds its tables at run time as the servants are activated.
//
// Every cell (strategy pair, servants, operations, invocation) is measured in R short rounds
// interleaved with every other cell in an order shuffled afresh each round, all servers alive
// the whole time: a slow stretch of a shared machine then hits every cell alike instead of
// landing on one. A cell reports the median of its round medians with a distribution-free 95 %
// interval (statistics.h); demux_rounds.csv keeps every round's median, so the report can compare
// two cells round by round (docs/experiments.md, "Statistics on a noisy machine").
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <random>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/demux_interfaces.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/layer_profile.h"
#include "benchmarks/sy_bench/statistics.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

using request_plan = std::vector<std::pair<std::uint32_t, std::uint32_t>>;  // (servant, operation)

// The papers' four, and binary search and the perfect-fast hash (docs/demux.md).
const std::vector<std::string> all_strategies = {"linear", "binary", "dynamic", "perfect", "perfect-fast", "active"};
const std::vector<std::string> all_invocations = {"request-train", "round-robin", "random", "worst-case"};

// The client's side of section 3.7. `requests` is the number of calls wanted; request train and
// round robin make MAXITER = requests / servants calls per servant (at least one), as the paper's
// loops do. Request train and round robin call op_0 (the paper's single "send" operation).
request_plan make_plan(const std::string& invocation, std::size_t servants, std::size_t operations,
                       std::size_t requests, std::mt19937& random) {
  request_plan plan;
  auto n = static_cast<std::uint32_t>(servants);
  auto k = static_cast<std::uint32_t>(operations);
  std::size_t per_servant = std::max<std::size_t>(1, requests / servants);
  if (invocation == "request-train") {
    for (std::uint32_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < per_servant; ++i) plan.emplace_back(j, 0);
  } else if (invocation == "round-robin") {
    for (std::size_t i = 0; i < per_servant; ++i)
      for (std::uint32_t j = 0; j < n; ++j) plan.emplace_back(j, 0);
  } else if (invocation == "random") {
    std::uniform_int_distribution<std::uint32_t> pick_servant(0, n - 1), pick_operation(0, k - 1);
    for (std::size_t i = 0; i < requests; ++i) {
      auto s = pick_servant(random);
      plan.emplace_back(s, pick_operation(random));
    }
  } else {  // worst-case: the last operation of the last servant
    for (std::size_t i = 0; i < requests; ++i) plan.emplace_back(n - 1, k - 1);
  }
  return plan;
}

struct demux_settings {
  std::vector<std::string> servant_demux, operation_demux, invocations;
  std::vector<std::size_t> servants, operations;
  std::size_t requests = 0;  // per cell, over all rounds; 0: the paper's max(20000, 100 x N)
  std::size_t rounds = 0;
  std::size_t warmup = 0;  // untimed calls before each round of a cell
  std::uint32_t seed = 0;
  bool interleaved = true;  // --order interleaved | contiguous
  bool instrument = true;
  bool object_id_table = true;  // "perfect" servant demux: gperf at build time over ttcp_0..999
};

void check_names(const std::vector<std::string>& given, const std::vector<std::string>& allowed, const char* option) {
  for (auto& g : given)
    if (std::find(allowed.begin(), allowed.end(), g) == allowed.end())
      throw usage_error(std::string(option) + ": unknown value '" + g + "'");
}

std::string ns_field(double ns) { return ns < 0 || std::isnan(ns) ? "" : format_number(ns, 1); }
std::string us_field(double us) { return std::isnan(us) ? "" : format_number(us); }

// One server: a strategy pair, N servants of an interface with K demux operations.
struct server_cell {
  std::string servant_demux, operation_demux;
  std::size_t servants = 0, operations = 0;
  std::string id_table;  // which perfect hash served the servants (object_id_table column)
  std::unique_ptr<bench_server> server;
  std::unique_ptr<demux_caller> caller;  // the generated stubs of the servants (demux_interfaces.h)
  object_ref control;
};

// One measured cell: a server and an invocation algorithm, its plan cut into `rounds` chunks.
struct measured_cell {
  server_cell* server = nullptr;
  std::string invocation;
  request_plan plan;
  std::vector<float> samples;  // every timed call, us (float: --paper holds tens of millions)
  std::vector<double> round_median_us, round_demux_ns;
  std::vector<std::size_t> round_position;  // where the cell came in each round's shuffled order
  layer_profile profile;                    // sum over the rounds
};

}  // namespace

int demux_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto common = parse_common(parser);
  demux_settings s;
  bool quick = common.size == preset::quick;
  bool paper = common.size == preset::paper;
  // --paper: the papers' four strategies (16 pairs); the default run adds binary and perfect-fast.
  const std::vector<std::string> default_strategies =
      quick   ? std::vector<std::string>{"linear", "perfect", "active"}
      : paper ? std::vector<std::string>{"linear", "dynamic", "perfect", "active"}
              : all_strategies;
  auto strategies = parser.list("--strategy", default_strategies);
  s.servant_demux = parser.list("--servant-demux", strategies);
  s.operation_demux = parser.list("--operation-demux", strategies);
  bool paired = !parser.flag("--all-pairs") && !paper;  // by default servant and operation demux go together
  s.invocations =
      parser.list("--invocation", quick ? std::vector<std::string>{"random", "worst-case"} : all_invocations);
  s.servants = parser.number_list(
      "--servants", quick ? std::vector<std::size_t>{1, 500} : std::vector<std::size_t>{1, 100, 200, 300, 400, 500});
  s.operations = parser.number_list("--operations",
                                    quick ? std::vector<std::size_t>{1, 100} : std::vector<std::size_t>{1, 10, 100});
  // Rounds and requests per cell (docs/experiments.md): 20 rounds of 500 calls by default (a 95 %
  // interval from the 6th and 15th of 20 round medians); --quick 6 rounds, the fewest that give
  // a 95 % interval; --paper 40 rounds of the paper's max(20000, 100 x N) calls in all.
  s.rounds = parser.number("--rounds").value_or(quick ? 6 : paper ? 40 : 20);
  std::size_t default_requests = quick ? 420 : paper ? 0 : 10000;
  s.requests = parser.number("--requests").value_or(default_requests);
  s.warmup = parser.number("--warmup").value_or(quick ? 10 : 25);
  s.seed = static_cast<std::uint32_t>(parser.number("--seed").value_or(20240501));
  auto order = parser.value("--order").value_or("interleaved");
  if (order != "interleaved" && order != "contiguous")
    throw usage_error("--order: expected interleaved or contiguous, got '" + order + "'");
  s.interleaved = order == "interleaved";
  s.instrument = !parser.flag("--no-instrument");
  s.object_id_table = !parser.flag("--no-object-id-table");
  parser.finish();
  check_names(s.servant_demux, all_strategies, "--servant-demux");
  check_names(s.operation_demux, all_strategies, "--operation-demux");
  check_names(s.invocations, all_invocations, "--invocation");
  for (auto n : s.servants)
    if (n == 0 || n > 100000) throw usage_error("--servants: expected 1..100000");
  for (auto k : s.operations)
    if (k == 0 || k > 10000) throw usage_error("--operations: expected 1..10000");
  if (s.rounds == 0 || s.rounds > 10000) throw usage_error("--rounds: expected 1..10000");
  if (s.requests != 0 && s.requests < s.rounds) throw usage_error("--requests: at least one per round (--rounds)");
  if (paired && s.servant_demux.size() != s.operation_demux.size()) paired = false;
  if (s.rounds < 6) std::cerr << "demux: fewer than 6 rounds give no 95 % interval: the CI columns stay empty\n";
  set_up_network(common);

  std::filesystem::create_directories(common.out);
  std::cerr << "demux: " << apply_pinning(common.pin) << ", preset " << to_string(common.size) << ", out "
            << common.out.string() << "\n";

  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t i = 0; i < s.servant_demux.size(); ++i)
    for (std::size_t j = 0; j < s.operation_demux.size(); ++j)
      if (!paired || i == j) pairs.emplace_back(s.servant_demux[i], s.operation_demux[j]);
  note_run(common, "demux",
           std::to_string(s.rounds) + (s.interleaved ? " interleaved" : " contiguous") +
               " rounds per cell, requests per cell " +
               (s.requests != 0 ? std::to_string(s.requests) : std::string("max(20000, 100 x servants)")) +
               ", warm-up " + std::to_string(s.warmup) + " per round, seed " + std::to_string(s.seed));

  std::vector<std::string> client_args = common.orb_args;
  const bool names_concurrency = std::any_of(common.orb_args.begin(), common.orb_args.end(), [](const std::string& a) {
    return a == "-ORBConcurrency" || a == "-ORBDedicatedThreads" || a == "-ORBThreads";
  });
  std::shared_ptr<switchyard::orb> client_orb;
  auto started = std::chrono::steady_clock::now();

  // Every server up front: the rounds go from one to another.
  std::vector<std::unique_ptr<server_cell>> servers;
  for (auto& [servant_demux, operation_demux] : pairs) {
    for (auto operations : s.operations) {
      for (auto servants : s.servants) {
        auto cell = std::make_unique<server_cell>();
        cell->servant_demux = servant_demux;
        cell->operation_demux = operation_demux;
        cell->servants = servants;
        cell->operations = operations;
        std::vector<std::string> server_args = {"-ORBServantDemux", servant_demux, "-ORBOperationDemux",
                                                operation_demux};
        // The servers are reactive unless the command line says otherwise: the papers' servers
        // were select loops, and only there is the read layer timed (a dedicated thread's receive
        // holds its wait for the request, so the ORB leaves it out of the profile).
        if (!names_concurrency) server_args.insert(server_args.end(), {"-ORBConcurrency", "reactive"});
        if (s.instrument) {
          server_args.push_back("-ORBInstrument");
          // We read the table through the control servant; the dump at shutdown goes nowhere
          // unless the command line names a file.
          if (std::find(common.orb_args.begin(), common.orb_args.end(), "-ORBInstrumentFile") ==
              common.orb_args.end()) {
            server_args.push_back("-ORBInstrumentFile");
            server_args.push_back("/dev/null");
          }
        }
        cell->server =
            std::make_unique<bench_server>(common, servants, operations, server_args, common.out, s.object_id_table);
        cell->id_table = servant_demux != "perfect" ? "none" : s.object_id_table ? "build-time" : "runtime-hash";
        auto& orb = cell->server->local_orb() ? cell->server->local_orb()
                                              : (client_orb ? client_orb : (client_orb = orb_init(client_args)));
        std::vector<object_ref> targets;
        for (auto& ior : cell->server->ttcp_iors()) targets.push_back(orb->string_to_object(ior));
        cell->caller = make_demux_caller(targets, operations);
        cell->control = orb->string_to_object(cell->server->control_ior());
        servers.push_back(std::move(cell));
      }
    }
  }
  std::cerr << "demux: " << servers.size() << " servers started in "
            << format_number(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 1)
            << " s\n";

  auto call = [](server_cell& server, std::pair<std::uint32_t, std::uint32_t> request) {
    server.caller->call(request.first, request.second);
  };
  // Every servant once (connection, caches), then the worst case a few times.
  for (auto& server : servers) {
    for (std::uint32_t j = 0; j < server->servants; ++j) call(*server, {j, 0});
    for (std::size_t i = 0; i < 4 * s.warmup; ++i)
      call(*server,
           {static_cast<std::uint32_t>(server->servants - 1), static_cast<std::uint32_t>(server->operations - 1)});
  }

  std::mt19937 random(s.seed);
  std::vector<measured_cell> cells;
  for (auto& server : servers) {
    for (auto& invocation_name : s.invocations) {
      measured_cell cell;
      cell.server = server.get();
      cell.invocation = invocation_name;
      std::size_t requests = s.requests != 0 ? s.requests : std::max<std::size_t>(20000, 100 * server->servants);
      cell.plan = make_plan(invocation_name, server->servants, server->operations, requests, random);
      cell.samples.reserve(cell.plan.size());
      cells.push_back(std::move(cell));
    }
  }

  // The schedule: interleaved, round r visits every cell once in an order shuffled afresh; contiguous
  // (the method before, for comparison) runs a cell's rounds back to back. Round r of a cell makes
  // the calls plan[r * P / R, (r + 1) * P / R): over all rounds exactly the paper's sequence of
  // calls, cut into R pieces measured at R moments.
  struct visit {
    std::size_t cell, round, position;
  };
  std::vector<visit> schedule;
  if (s.interleaved) {
    std::vector<std::size_t> order(cells.size());
    for (std::size_t round = 0; round < s.rounds; ++round) {
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), random);
      for (std::size_t position = 0; position < order.size(); ++position)
        schedule.push_back({order[position], round, position});
    }
  } else {
    for (std::size_t i = 0; i < cells.size(); ++i)
      for (std::size_t round = 0; round < s.rounds; ++round) schedule.push_back({i, round, 0});
  }
  std::vector<double> round_samples;
  std::vector<bool> warmed;
  auto measuring = std::chrono::steady_clock::now();
  for (std::size_t step = 0; step < schedule.size(); ++step) {
    auto [index, round, position] = schedule[step];
    auto& cell = cells[index];
    auto& server = *cell.server;
    std::size_t from = cell.plan.size() * round / s.rounds, to = cell.plan.size() * (round + 1) / s.rounds;
    if (from == to) continue;
    // The caches hold another server's state now: first every servant this piece will call, once
    // (random and round robin over 500 servants touch hundreds), then a few calls of the piece.
    warmed.assign(server.servants, false);
    for (std::size_t i = from; i < to; ++i) {
      if (warmed[cell.plan[i].first]) continue;
      warmed[cell.plan[i].first] = true;
      call(server, cell.plan[i]);
    }
    for (std::size_t i = 0; i < s.warmup; ++i) call(server, cell.plan[from + i % (to - from)]);
    auto before = s.instrument ? parse_layer_profile(fetch_instrumentation(server.control)) : layer_profile{};
    round_samples.clear();
    for (std::size_t i = from; i < to; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      call(server, cell.plan[i]);
      auto t1 = std::chrono::steady_clock::now();
      double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
      round_samples.push_back(us);
      cell.samples.push_back(static_cast<float>(us));
    }
    // The control servant has an ORB of its own (control_orb.h): the readings hold the measured
    // calls alone.
    auto profile = s.instrument ? parse_layer_profile(fetch_instrumentation(server.control)) - before : layer_profile{};
    cell.profile += profile;
    double servant_ns = profile.mean_ns("servant_demux"), operation_ns = profile.mean_ns("operation_demux");
    cell.round_median_us.push_back(summarize(round_samples).median);
    cell.round_demux_ns.push_back(servant_ns >= 0 && operation_ns >= 0 ? servant_ns + operation_ns : -1);
    cell.round_position.push_back(position);
    if ((step + 1) % cells.size() == 0)
      std::cerr << "demux: " << (step + 1) / cells.size() << "/" << s.rounds << " rounds' worth of " << cells.size()
                << " cells, "
                << format_number(std::chrono::duration<double>(std::chrono::steady_clock::now() - measuring).count(), 1)
                << " s\n";
  }

  const std::string transport = common.collocated ? "collocated" : common.transport;
  const std::string pin = common.pin == pin_mode::same ? "same" : common.pin == pin_mode::split ? "split" : "none";
  csv_table table;
  table.columns = {"servant_demux",
                   "operation_demux",
                   "servants",
                   "operations",
                   "invocation",
                   "samples",
                   "mean_us",
                   "median_us",
                   "p99_us",
                   "stddev_us",
                   "min_us",
                   "servant_demux_ns",
                   "operation_demux_ns",
                   "demux_ns",
                   "transport",
                   "pin",
                   "object_id_table",
                   "rounds",
                   "ci_low_us",
                   "ci_high_us",
                   "ci_coverage",
                   "demux_ns_ci_low",
                   "demux_ns_ci_high",
                   "pooled_median_us",
                   "link",
                   "operation_lookup",
                   "servant_lookup"};
  csv_table rounds;
  rounds.columns = {"servant_demux", "operation_demux", "servants",  "operations", "invocation",
                    "round",         "position",        "median_us", "demux_ns"};
  csv_table whitebox;
  whitebox.columns = {"servant_demux", "operation_demux", "servants", "operations", "invocation",
                      "layer",         "probe_strategy",  "calls",    "mean_ns",    "share_pct"};
  std::size_t max_servants = *std::max_element(s.servants.begin(), s.servants.end());
  std::size_t max_operations = *std::max_element(s.operations.begin(), s.operations.end());
  bool any_profile = false;
  for (auto& cell : cells) {
    auto& server = *cell.server;
    std::vector<std::string> key = {server.servant_demux, server.operation_demux, std::to_string(server.servants),
                                    std::to_string(server.operations), cell.invocation};
    any_profile = any_profile || !cell.profile.empty();
    auto stats = summarize(std::vector<double>(cell.samples.begin(), cell.samples.end()));
    auto latency = median_with_interval(cell.round_median_us);
    std::vector<double> demux_rounds;
    for (double ns : cell.round_demux_ns)
      if (ns >= 0) demux_rounds.push_back(ns);
    auto demux = median_with_interval(demux_rounds);
    double servant_ns = cell.profile.mean_ns("servant_demux");
    double operation_ns = cell.profile.mean_ns("operation_demux");
    double demux_ns = servant_ns >= 0 && operation_ns >= 0 ? servant_ns + operation_ns : -1;
    auto row = key;
    for (auto field : {std::to_string(stats.samples),
                       format_number(stats.mean),
                       us_field(latency.median),
                       format_number(stats.p99),
                       format_number(stats.stddev),
                       format_number(stats.min),
                       ns_field(servant_ns),
                       ns_field(operation_ns),
                       ns_field(demux_ns),
                       transport,
                       pin,
                       server.id_table,
                       std::to_string(cell.round_median_us.size()),
                       us_field(latency.low),
                       us_field(latency.high),
                       format_number(latency.coverage, 4),
                       ns_field(demux.low),
                       ns_field(demux.high),
                       format_number(stats.median),
                       link_label(common),
                       server.server->operation_lookup(),
                       server.server->servant_lookup()})
      row.push_back(field);
    table.add(row);
    for (std::size_t r = 0; r < cell.round_median_us.size(); ++r) {
      auto line = key;
      line.push_back(std::to_string(r + 1));
      line.push_back(std::to_string(cell.round_position[r]));
      line.push_back(format_number(cell.round_median_us[r]));
      line.push_back(ns_field(cell.round_demux_ns[r]));
      rounds.add(line);
    }
    if (server.servants == max_servants && server.operations == max_operations && cell.invocation == "worst-case" &&
        !cell.profile.empty()) {
      double total = cell.profile.total_us();
      for (auto& [layer_key, probe] : cell.profile.cells) {
        if (probe.calls == 0) continue;
        auto line = key;
        for (auto field : {layer_key.first, layer_key.second, std::to_string(probe.calls),
                           format_number(probe.total_us * 1000.0 / static_cast<double>(probe.calls), 1),
                           format_number(total > 0 ? 100.0 * probe.total_us / total : 0, 2)})
          line.push_back(field);
        whitebox.add(line);
      }
    }
    std::cerr << "demux " << server.servant_demux << "(" << server.server->servant_lookup() << ")/"
              << server.operation_demux << "(" << server.server->operation_lookup() << ") servants " << server.servants
              << " operations " << server.operations << " " << cell.invocation << ": median "
              << format_number(latency.median, 2) << " us";
    if (latency.has_interval())
      std::cerr << " [" << format_number(latency.low, 2) << ", " << format_number(latency.high, 2) << "]";
    if (demux_ns >= 0) std::cerr << ", demux " << format_number(demux_ns, 0) << " ns";
    std::cerr << "\n";
  }
  for (auto& server : servers) server->server->stop();
  table.write(common.out / "demux.csv");
  rounds.write(common.out / "demux_rounds.csv");
  if (any_profile) {
    whitebox.write(common.out / "whitebox.csv");
  } else if (s.instrument) {
    std::cerr << "demux: the server's instrumentation table was empty (probes not wired or compiled out): "
                 "no demux_ns columns, no whitebox.csv\n";
  }
  servers.clear();
  if (client_orb) client_orb->destroy();
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "demux: " << table.rows.size() << " cells x " << s.rounds << " rounds in " << format_number(seconds, 1)
            << " s -> " << (common.out / "demux.csv").string() << "\n";
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
