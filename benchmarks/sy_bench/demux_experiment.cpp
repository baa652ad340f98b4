// `sy-bench demux`: the scalability experiment of the latency paper (section 5.3, figures 31-32):
// end-to-end latency of a parameterless two-way call as servants (1..500) and operations per
// interface (1, 10, 100) grow, for each demultiplexing strategy and invocation algorithm
// (section 3.7), with the server's per-layer profile when the ORB's instrumentation is on.
// "perfect" servant demultiplexing is gperf at build time over the server's ids, as in the papers
// (ttcp_object_ids.txt); --no-object-id-table measures the run-time perfect hash instead. The CSV's
// object_id_table column says which served. "perfect-fast" builds its table at run time as the
// servants are activated (and its operation tables when the first servant is).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/layer_profile.h"
#include "benchmarks/sy_bench/statistics.h"
#include "switchyard/exception.h"
#include "switchyard/invocation.h"
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
  std::size_t requests = 0;
  std::size_t warmup = 0;
  bool instrument = true;
  bool object_id_table = true;  // "perfect" servant demux: gperf at build time over ttcp_0..999
};

void check_names(const std::vector<std::string>& given, const std::vector<std::string>& allowed, const char* option) {
  for (auto& g : given)
    if (std::find(allowed.begin(), allowed.end(), g) == allowed.end())
      throw usage_error(std::string(option) + ": unknown value '" + g + "'");
}

std::string ns_field(double ns) { return ns < 0 ? "" : format_number(ns, 1); }

}  // namespace

int demux_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto common = parse_common(parser);
  demux_settings s;
  bool quick = common.size == preset::quick;
  // --paper: the papers' four strategies (16 pairs); the default run adds binary and perfect-fast.
  const std::vector<std::string> default_strategies =
      quick ? std::vector<std::string>{"linear", "perfect", "active"}
      : common.size == preset::paper ? std::vector<std::string>{"linear", "dynamic", "perfect", "active"}
                                     : all_strategies;
  auto strategies = parser.list("--strategy", default_strategies);
  s.servant_demux = parser.list("--servant-demux", strategies);
  s.operation_demux = parser.list("--operation-demux", strategies);
  bool paired = !parser.flag("--all-pairs") && common.size != preset::paper;  // by default servant and operation demux go together
  s.invocations = parser.list("--invocation", quick ? std::vector<std::string>{"random", "worst-case"} : all_invocations);
  s.servants = parser.number_list("--servants", quick ? std::vector<std::size_t>{1, 500}
                                                      : std::vector<std::size_t>{1, 100, 200, 300, 400, 500});
  s.operations = parser.number_list("--operations", quick ? std::vector<std::size_t>{1, 100} : std::vector<std::size_t>{1, 10, 100});
  // Requests per cell (docs/experiments.md): the default, 10000, gives medians stable to a few
  // percent and the whole grid (288 cells) in about a minute on this machine; --paper makes
  // 100 per servant as the paper's MAXITER, at least 20000, over all 16 strategy pairs.
  std::size_t default_requests = quick ? 400 : common.size == preset::paper ? 0 : 10000;
  s.requests = parser.number("--requests").value_or(default_requests);
  s.warmup = quick ? 100 : 300;
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
  if (paired && s.servant_demux.size() != s.operation_demux.size()) paired = false;

  std::filesystem::create_directories(common.out);
  std::cerr << "demux: " << apply_pinning(common.pin) << ", preset " << to_string(common.size) << ", out "
            << common.out.string() << "\n";

  note_run(common, "demux", "requests per cell " + std::to_string(s.requests));
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t i = 0; i < s.servant_demux.size(); ++i)
    for (std::size_t j = 0; j < s.operation_demux.size(); ++j)
      if (!paired || i == j) pairs.emplace_back(s.servant_demux[i], s.operation_demux[j]);

  csv_table table;
  table.columns = {"servant_demux", "operation_demux", "servants", "operations", "invocation", "samples",
                   "mean_us", "median_us", "p99_us", "stddev_us", "min_us", "servant_demux_ns",
                   "operation_demux_ns", "demux_ns", "transport", "pin", "object_id_table"};
  csv_table whitebox;
  whitebox.columns = {"servant_demux", "operation_demux", "servants", "operations", "invocation", "layer",
                      "probe_strategy", "calls", "mean_ns", "share_pct"};

  std::vector<std::string> client_args = common.orb_args;
  std::shared_ptr<switchyard::orb> client_orb;
  std::mt19937 random(20240501);
  std::size_t max_servants = *std::max_element(s.servants.begin(), s.servants.end());
  std::size_t max_operations = *std::max_element(s.operations.begin(), s.operations.end());
  bool any_profile = false;
  auto started = std::chrono::steady_clock::now();

  for (auto& [servant_demux, operation_demux] : pairs) {
    for (auto operations : s.operations) {
      std::vector<std::string> names;
      for (std::size_t i = 0; i < operations; ++i) names.push_back(demux_operation_name(i));
      for (auto servants : s.servants) {
        std::vector<std::string> server_args = {"-ORBServantDemux", servant_demux, "-ORBOperationDemux", operation_demux};
        if (s.instrument) {
          server_args.push_back("-ORBInstrument");
          // We read the table through the control servant; the dump at shutdown goes nowhere
          // unless the command line names a file.
          if (std::find(common.orb_args.begin(), common.orb_args.end(), "-ORBInstrumentFile") == common.orb_args.end()) {
            server_args.push_back("-ORBInstrumentFile");
            server_args.push_back("/dev/null");
          }
        }
        bench_server server(common, servants, operations, server_args, common.out, s.object_id_table);
        // Which perfect hash served the servants: gperf's over the build-time list, or the run-time one.
        const std::string id_table =
            servant_demux != "perfect" ? "none" : s.object_id_table ? "build-time" : "runtime-hash";
        auto& orb = server.local_orb() ? server.local_orb() : (client_orb ? client_orb : (client_orb = orb_init(client_args)));
        std::vector<object_ref> targets;
        for (auto& ior : server.ttcp_iors()) targets.push_back(orb->string_to_object(ior));
        auto control = orb->string_to_object(server.control_ior());
        auto call = [&](std::uint32_t servant, std::uint32_t operation) {
          invocation request(targets[servant], names[operation],
                             operation_indices::first_demux_operation + operation);
          request.invoke();
        };
        // Every servant once (connection, caches), then a warm-up of the worst case.
        for (std::uint32_t j = 0; j < servants; ++j) call(j, 0);
        for (std::size_t i = 0; i < s.warmup; ++i)
          call(static_cast<std::uint32_t>(servants - 1), static_cast<std::uint32_t>(operations - 1));

        for (auto& invocation_name : s.invocations) {
          std::size_t requests = s.requests != 0 ? s.requests : std::max<std::size_t>(20000, 100 * servants);
          auto plan = make_plan(invocation_name, servants, operations, requests, random);
          std::vector<double> samples(plan.size());
          auto before = s.instrument ? parse_layer_profile(fetch_instrumentation(control)) : layer_profile{};
          for (std::size_t i = 0; i < plan.size(); ++i) {
            auto t0 = std::chrono::steady_clock::now();
            call(plan[i].first, plan[i].second);
            auto t1 = std::chrono::steady_clock::now();
            samples[i] = std::chrono::duration<double, std::micro>(t1 - t0).count();
          }
          auto profile = s.instrument ? parse_layer_profile(fetch_instrumentation(control)) - before : layer_profile{};
          any_profile = any_profile || !profile.empty();
          auto stats = summarize(samples);
          double servant_ns = profile.mean_ns("servant_demux");
          double operation_ns = profile.mean_ns("operation_demux");
          double demux_ns = servant_ns >= 0 && operation_ns >= 0 ? servant_ns + operation_ns : -1;
          table.add({servant_demux, operation_demux, std::to_string(servants), std::to_string(operations),
                     invocation_name, std::to_string(stats.samples), format_number(stats.mean),
                     format_number(stats.median), format_number(stats.p99), format_number(stats.stddev),
                     format_number(stats.min), ns_field(servant_ns), ns_field(operation_ns), ns_field(demux_ns), common.collocated ? "collocated" : common.transport,
                     common.pin == pin_mode::same ? "same" : common.pin == pin_mode::split ? "split" : "none",
                     id_table});
          std::cerr << "demux " << servant_demux << (id_table == "build-time" ? "(gperf ids)" : "") << "/"
                    << operation_demux << " servants " << servants
                    << " operations " << operations << " " << invocation_name << ": median "
                    << format_number(stats.median, 2) << " us";
          if (demux_ns >= 0) std::cerr << ", demux " << format_number(demux_ns, 0) << " ns";
          std::cerr << "\n";
          if (servants == max_servants && operations == max_operations && invocation_name == "worst-case" &&
              !profile.empty()) {
            double total = profile.total_us();
            for (auto& [key, cell] : profile.cells) {
              if (cell.calls == 0) continue;
              whitebox.add({servant_demux, operation_demux, std::to_string(servants), std::to_string(operations),
                            invocation_name, key.first, key.second, std::to_string(cell.calls),
                            format_number(cell.total_us * 1000.0 / static_cast<double>(cell.calls), 1),
                            format_number(total > 0 ? 100.0 * cell.total_us / total : 0, 2)});
            }
          }
        }
        server.stop();
        table.write(common.out / "demux.csv");  // as we go: a long run interrupted keeps its rows
      }
    }
  }
  table.write(common.out / "demux.csv");
  if (any_profile) {
    whitebox.write(common.out / "whitebox.csv");
  } else if (s.instrument) {
    std::cerr << "demux: the server's instrumentation table was empty (probes not wired or compiled out): "
                 "no demux_ns columns, no whitebox.csv\n";
  }
  if (client_orb) client_orb->destroy();
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "demux: " << table.rows.size() << " rows in " << format_number(seconds, 1) << " s -> "
            << (common.out / "demux.csv").string() << "\n";
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
