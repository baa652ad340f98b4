// `sy-bench demux`: the scalability experiment of the latency paper (section 5.3, figures 31-32):
// the latency of a parameterless two-way call as servants (1..500) and operations per interface
// (1, 10, 100) grow, for each demultiplexing strategy and invocation algorithm (section 3.7), and
// what demultiplexing adds to it, end to end and by the server's probes.
//
// Paired measurement (docs/experiments.md, "Paired measurement"; paired_design.h): for each grid
// point (N servants x K operations) one server process hosts every strategy as an adapter of its
// own with the N servants, beside a reference adapter (active demultiplexing, 1 servant x 1
// operation) and its A/A twin, all reached over one connection; a raw-socket ping-pong on a
// connection of its own is the sentinel. A block visits each of them once (--per-visit calls
// each) in a carry-over balanced random order, every strategy with the same request of the
// invocation algorithm's sequence. A strategy's block value minus the reference's is its added
// latency in that block; the mean of the middle half of a round's blocks is the round's (robust as
// a median, but finer than the clock's 10 ns steps); the median of the round values, with its
// distribution-free 95 % interval, is the cell's (statistics.h). The twin minus
// the reference (the A/A pair) must be zero: its interval is the run's resolution. The sentinel
// labels each block with the machine's mode (fast or slow), and the estimates are given per mode
// where there are two. Two treatments compared are measured microseconds apart, so a machine
// that switches modes every few seconds moves both alike.
//
// The server's probes, read before and after each round, give each strategy's demultiplexing time
// in those very blocks; probe_added_us is that minus the reference's, to set beside added_us.
// --series collocated runs the same grid through the ORB's collocated calls (-ORBCollocation
// thru-adapter): the adapters live in this process's ORB and a call crosses the adapter's
// demultiplexing and the skeleton in the calling thread, with no socket: the kernel-free series.
//
// Outputs: demux_added.csv (the paired estimates) and demux_added_rounds.csv (their round values),
// demux.csv and demux_rounds.csv (absolute
// latencies of the same visits), whitebox.csv (every layer of each strategy at the largest point,
// worst case, from a contiguous burst of calls after the rounds).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/demux_interfaces.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/layer_profile.h"
#include "benchmarks/sy_bench/paired_design.h"
#include "benchmarks/sy_bench/peer_tools.h"
#include "benchmarks/sy_bench/socket_sentinel.h"
#include "benchmarks/sy_bench/statistics.h"
#include "switchyard/exception.h"
#include "switchyard/instrument.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

using request = std::pair<std::uint32_t, std::uint32_t>;  // (servant, operation)
using request_plan = std::vector<request>;
constexpr double not_measured = std::numeric_limits<double>::quiet_NaN();

// The papers' four, and binary search and the perfect-fast hash (docs/demux.md).
const std::vector<std::string> all_strategies = {"linear", "binary", "dynamic", "perfect", "perfect-fast", "active"};
const std::vector<std::string> all_invocations = {"request-train", "round-robin", "random", "worst-case"};
const std::vector<std::string> all_series = {"iiop", "collocated"};
const std::string reference_adapter = "reference", twin_adapter = "reference-twin";

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
  std::vector<std::pair<std::string, std::string>> pairs;  // (servant demux, operation demux)
  std::vector<std::string> invocations, series;
  std::vector<std::size_t> servants, operations;
  std::size_t rounds = 0;
  std::size_t blocks = 0;     // per round, per invocation
  std::size_t per_visit = 1;  // calls per visit of a treatment
  std::size_t warmup = 0;     // untimed blocks per invocation before the rounds
  std::uint32_t seed = 0;
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
std::string signed_us_field(double us) { return std::isnan(us) ? "" : format_number(us, 4); }

double median_of(std::vector<double> values) {
  if (values.empty()) return not_measured;
  return summarize(std::move(values)).median;
}

std::string adapter_name(const std::pair<std::string, std::string>& pair) { return pair.first + "+" + pair.second; }

// A treatment of a block: a strategy pair's adapter, the reference, its twin, or the sentinel.
struct treatment {
  std::string adapter;  // empty: the sentinel
  std::string servant_demux, operation_demux;
  std::string servant_lookup, operation_lookup;
  std::unique_ptr<demux_caller> caller;  // null: the sentinel
  bool is_reference = false;             // the reference or its twin: calls (0, 0) of ttcp_demux_1
};

// One grid point of one series: its treatments and where its probes are read.
struct grid_point {
  std::string series;  // iiop or collocated
  std::size_t servants = 0, operations = 0;
  std::vector<treatment> treatments;  // the pairs in settings order, then reference, twin, [sentinel]
  std::size_t reference = 0, twin = 0, sentinel = std::numeric_limits<std::size_t>::max();
  std::function<layer_profile()> read_probes;  // empty: no probes
};

// What one (grid point, invocation) measured.
struct group_record {
  std::string series, invocation;
  std::size_t servants = 0, operations = 0;
  std::vector<std::string> labels;  // per treatment: pair adapter name, reference, twin, sentinel
  std::vector<std::pair<std::string, std::string>> strategy;  // per treatment
  std::vector<std::string> servant_lookup, operation_lookup;  // per treatment
  std::size_t reference = 0, twin = 0, sentinel = std::numeric_limits<std::size_t>::max();
  std::size_t treatments = 0;
  std::vector<float> visit_us;             // blocks x treatments, microseconds per call
  std::vector<std::uint32_t> block_round;  // per block
  std::vector<std::size_t> block_serial;   // per block: its index in the run's sentinel series
  // Per round and treatment: the servant + operation demultiplexing time (ns) by the probes,
  // NaN where the probes could not tell it apart.
  std::vector<std::vector<double>> round_probe_ns;
  std::vector<std::vector<double>> round_servant_ns, round_operation_ns;
  layer_profile whitebox;  // worst case at the largest point: per pair, in whitebox_of
  std::map<std::size_t, layer_profile> whitebox_of;
};

// Splits one round's probe readings among the treatments. A (layer, strategy) cell belongs to a
// treatment when that treatment alone used the strategy for that layer; the active label is
// shared by an active pair, the reference and the twin, whose share is known from the reference
// burst (`reference_ns`: servant and operation, per call).
void attribute_probes(const grid_point& point, const layer_profile& blocks, std::size_t calls_per_treatment,
                      std::pair<double, double> reference_ns, std::vector<double>& servant_ns,
                      std::vector<double>& operation_ns) {
  const std::size_t n = point.treatments.size();
  servant_ns.assign(n, not_measured);
  operation_ns.assign(n, not_measured);
  for (std::size_t layer_index = 0; layer_index < 2; ++layer_index) {
    const std::string layer = layer_index == 0 ? "servant_demux" : "operation_demux";
    auto& out = layer_index == 0 ? servant_ns : operation_ns;
    std::map<std::string, std::vector<std::size_t>> users;
    for (std::size_t t = 0; t < n; ++t) {
      auto& tr = point.treatments[t];
      if (tr.caller) users[layer_index == 0 ? tr.servant_demux : tr.operation_demux].push_back(t);
    }
    for (auto& [label, who] : users) {
      auto it = blocks.cells.find({layer, label});
      if (it == blocks.cells.end() || it->second.calls == 0) continue;
      double total_ns = it->second.total_us * 1000.0;
      double calls = static_cast<double>(it->second.calls);
      std::vector<std::size_t> pairs;
      for (auto t : who)
        if (!point.treatments[t].is_reference) pairs.push_back(t);
      double reference_share = layer_index == 0 ? reference_ns.first : reference_ns.second;
      std::size_t references = who.size() - pairs.size();
      if (pairs.size() == 1 && references == 0) {
        out[pairs[0]] = total_ns / calls;
      } else if (pairs.size() == 1 && !std::isnan(reference_share)) {
        double reference_calls = static_cast<double>(references * calls_per_treatment);
        if (calls > reference_calls)
          out[pairs[0]] = (total_ns - reference_share * reference_calls) / (calls - reference_calls);
      }
    }
    out[point.reference] = layer_index == 0 ? reference_ns.first : reference_ns.second;
  }
}

// The mean servant and operation demultiplexing times (ns per call) of one strategy label.
std::pair<double, double> label_means(const layer_profile& profile, const std::string& label) {
  auto mean = [&](const char* layer) {
    auto it = profile.cells.find({layer, label});
    return it == profile.cells.end() || it->second.calls == 0
               ? not_measured
               : it->second.total_us * 1000.0 / static_cast<double>(it->second.calls);
  };
  return {mean("servant_demux"), mean("operation_demux")};
}

class paired_run {
 public:
  paired_run(const common_options& common, const demux_settings& settings) : common_(common), s_(settings) {}
  ~paired_run() {
    sentinel_.reset();
    if (client_orb_) client_orb_->destroy();
  }
  paired_run(const paired_run&) = delete;
  paired_run& operator=(const paired_run&) = delete;

  // Measures every grid point of `series`, appending to groups_.
  void measure_series(const std::string& series);
  void write_results() const;

 private:
  std::unique_ptr<grid_point> open_iiop(std::size_t servants, std::size_t operations,
                                        std::unique_ptr<bench_server>& server);
  std::unique_ptr<grid_point> open_collocated(std::size_t servants, std::size_t operations,
                                              std::shared_ptr<orb>& local);
  std::vector<demux_adapter_spec> specs(std::size_t servants, std::size_t operations) const;
  void add_treatments(grid_point& point, const std::shared_ptr<orb>& client,
                      const std::map<std::string, demux_adapter_objects>& adapters) const;
  void measure_point(grid_point& point, std::mt19937& random);
  void visit(grid_point& point, std::size_t t, const request_plan& plan, std::size_t from);
  void start_sentinel(const bench_server& server);

  const common_options& common_;
  const demux_settings& s_;
  std::shared_ptr<orb> client_orb_;
  std::unique_ptr<socket_sentinel> sentinel_;
  std::vector<double> sentinel_series_;  // every block's sentinel visit, in time order
  std::vector<group_record> groups_;
  std::size_t request_bytes_ = 0, reply_bytes_ = 0;
};

std::vector<demux_adapter_spec> paired_run::specs(std::size_t servants, std::size_t operations) const {
  std::vector<demux_adapter_spec> list;
  for (auto& pair : s_.pairs) list.push_back({adapter_name(pair), pair.first, pair.second, servants, operations});
  list.push_back({reference_adapter, "active", "active", 1, 1});
  list.push_back({twin_adapter, "active", "active", 1, 1});
  return list;
}

void paired_run::add_treatments(grid_point& point, const std::shared_ptr<orb>& client,
                                const std::map<std::string, demux_adapter_objects>& adapters) const {
  auto add = [&](const std::string& name, const std::string& servant_demux, const std::string& operation_demux,
                 std::size_t operations, bool is_reference) {
    auto& objects = adapters.at(name);
    std::vector<object_ref> targets;
    for (auto& ior : objects.iors) targets.push_back(client->string_to_object(ior));
    treatment t;
    t.adapter = name;
    t.servant_demux = servant_demux;
    t.operation_demux = operation_demux;
    t.servant_lookup = objects.servant_lookup;
    t.operation_lookup = objects.operation_lookup;
    t.caller = make_demux_caller(targets, operations);
    t.is_reference = is_reference;
    point.treatments.push_back(std::move(t));
  };
  for (auto& pair : s_.pairs) add(adapter_name(pair), pair.first, pair.second, point.operations, false);
  point.reference = point.treatments.size();
  add(reference_adapter, "active", "active", 1, true);
  point.twin = point.treatments.size();
  add(twin_adapter, "active", "active", 1, true);
}

// The server ORB's arguments: reactive unless the command line says otherwise (the papers'
// servers were select loops), with the probes on and their dump at shutdown going nowhere.
std::vector<std::string> server_orb_args(const common_options& common, bool instrument) {
  std::vector<std::string> args;
  const bool names_concurrency = std::any_of(common.orb_args.begin(), common.orb_args.end(), [](const std::string& a) {
    return a == "-ORBConcurrency" || a == "-ORBDedicatedThreads" || a == "-ORBThreads";
  });
  if (!names_concurrency) args.insert(args.end(), {"-ORBConcurrency", "reactive"});
  if (instrument) {
    args.push_back("-ORBInstrument");
    if (std::find(common.orb_args.begin(), common.orb_args.end(), "-ORBInstrumentFile") == common.orb_args.end())
      args.insert(args.end(), {"-ORBInstrumentFile", "/dev/null"});
  }
  return args;
}

// The sentinel sends as many bytes each way as the reference call, counted once through a relay.
void paired_run::start_sentinel(const bench_server& server) {
  auto program = built_tool("baselines/socket_baseline");
  if (!program) throw std::runtime_error("demux: the socket baseline (baselines/socket_baseline) is not built");
  auto& reference = server.demux_adapters().at(reference_adapter);
  if (reference.first_url.empty()) throw std::runtime_error("demux: the reference adapter has no corbaloc URL");
  auto [port, url] = split_url(reference.first_url, 0);
  byte_counting_relay relay(port, server_host(common_));
  auto relayed = client_orb_->string_to_object(split_url(reference.first_url, relay.port()).second);
  auto caller = make_demux_caller({relayed}, 1);
  caller->call(0, 0);  // the first request on a connection carries more service contexts
  auto before = std::pair(relay.to_server(), relay.to_client());
  caller->call(0, 0);
  request_bytes_ = relay.to_server() - before.first;
  reply_bytes_ = relay.to_client() - before.second;
  sentinel_ =
      std::make_unique<socket_sentinel>(*program, common_.out, request_bytes_, reply_bytes_, server_host(common_));
  std::cerr << "demux: socket sentinel: " << request_bytes_ << " bytes out, " << reply_bytes_
            << " back (the reference call's)\n";
}

std::unique_ptr<grid_point> paired_run::open_iiop(std::size_t servants, std::size_t operations,
                                                  std::unique_ptr<bench_server>& server) {
  server = std::make_unique<bench_server>(common_, specs(servants, operations), server_orb_args(common_, s_.instrument),
                                          common_.out, s_.object_id_table);
  if (!client_orb_) client_orb_ = orb_init(common_.orb_args);
  auto point = std::make_unique<grid_point>();
  point->series = "iiop";
  point->servants = servants;
  point->operations = operations;
  add_treatments(*point, client_orb_, server->demux_adapters());
  if (!sentinel_) start_sentinel(*server);
  point->sentinel = point->treatments.size();
  point->treatments.emplace_back();  // the sentinel: no adapter, no caller
  if (s_.instrument) {
    auto control = client_orb_->string_to_object(server->control_ior());
    point->read_probes = [control] { return parse_layer_profile(fetch_instrumentation(control)); };
  }
  return point;
}

std::unique_ptr<grid_point> paired_run::open_collocated(std::size_t servants, std::size_t operations,
                                                        std::shared_ptr<orb>& local) {
  // One ORB per grid point (adapters are never removed): the adapters live beside the caller.
  std::vector<std::string> args = common_.orb_args;
  auto server_args = server_orb_args(common_, s_.instrument);
  args.insert(args.end(), server_args.begin(), server_args.end());
  args.insert(args.end(), {"-ORBCollocation", "thru-adapter"});
  auto listen = listen_arguments("iiop");
  args.insert(args.end(), listen.begin(), listen.end());
  local = orb_init(args);
  auto point = std::make_unique<grid_point>();
  point->series = "collocated";
  point->servants = servants;
  point->operations = operations;
  add_treatments(*point, local, activate_demux_adapters(local, specs(servants, operations), s_.object_id_table));
  if (s_.instrument) {
    orb* self = local.get();
    point->read_probes = [self] {
      std::ostringstream text;
      self->dump_instrumentation(text);
      return parse_layer_profile(text.str());
    };
  }
  return point;
}

// `per_visit` calls of treatment t, starting at plan[from] (the reference calls its one servant).
inline void paired_run::visit(grid_point& point, std::size_t t, const request_plan& plan, std::size_t from) {
  auto& tr = point.treatments[t];
  for (std::size_t k = 0; k < s_.per_visit; ++k) {
    if (!tr.caller) {
      sentinel_->round_trip();
    } else if (tr.is_reference) {
      tr.caller->call(0, 0);
    } else {
      auto [servant, operation] = plan[(from + k) % plan.size()];
      tr.caller->call(servant, operation);
    }
  }
}

void paired_run::measure_point(grid_point& point, std::mt19937& random) {
  const std::size_t n = point.treatments.size();
  const std::size_t first_group = groups_.size();
  std::vector<request_plan> plans;
  for (auto& invocation : s_.invocations) {
    group_record g;
    g.series = point.series;
    g.invocation = invocation;
    g.servants = point.servants;
    g.operations = point.operations;
    g.treatments = n;
    g.reference = point.reference;
    g.twin = point.twin;
    g.sentinel = point.sentinel;
    for (auto& tr : point.treatments) {
      g.labels.push_back(tr.caller ? tr.adapter : "sentinel");
      g.strategy.emplace_back(tr.servant_demux, tr.operation_demux);
      g.servant_lookup.push_back(tr.servant_lookup);
      g.operation_lookup.push_back(tr.operation_lookup);
    }
    g.visit_us.reserve(s_.rounds * s_.blocks * n);
    groups_.push_back(std::move(g));
    plans.push_back(
        make_plan(invocation, point.servants, point.operations, s_.rounds * s_.blocks * s_.per_visit, random));
  }
  balanced_order order(n, static_cast<std::uint32_t>(random()));

  // Every servant once (connection, caches), then warm-up blocks of each invocation.
  for (auto& tr : point.treatments) {
    if (!tr.caller) continue;
    std::size_t servants = tr.is_reference ? 1 : point.servants;
    for (std::uint32_t j = 0; j < servants; ++j) tr.caller->call(j, 0);
  }
  for (std::size_t i = 0; i < s_.invocations.size(); ++i)
    for (std::size_t b = 0; b < s_.warmup; ++b)
      for (auto t : order.next()) visit(point, t, plans[i], b * s_.per_visit);

  // Visits are timed by the probes' clock (instrument.h: the time-stamp counter on x86, one tick
  // a fraction of a nanosecond): steady_clock moves in 10 ns steps on the VMs we run on, coarse
  // against a 200 ns collocated call.
  const double us_per_tick = instrument::nanoseconds_per_tick() / 1000.0 / static_cast<double>(s_.per_visit);
  std::vector<std::size_t> invocation_order(s_.invocations.size());
  std::vector<double> visit_us(n);
  for (std::size_t round = 0; round < s_.rounds; ++round) {
    for (std::size_t i = 0; i < invocation_order.size(); ++i) invocation_order[i] = i;
    std::shuffle(invocation_order.begin(), invocation_order.end(), random);
    for (auto i : invocation_order) {
      auto& g = groups_[first_group + i];
      auto& plan = plans[i];
      auto before = point.read_probes ? point.read_probes() : layer_profile{};
      for (std::size_t b = 0; b < s_.blocks; ++b) {
        const std::size_t from = (round * s_.blocks + b) * s_.per_visit;
        for (auto t : order.next()) {
          auto t0 = instrument::read_clock();
          visit(point, t, plan, from);
          auto t1 = instrument::read_clock();
          visit_us[t] = static_cast<double>(instrument::elapsed_ticks(t0, t1)) * us_per_tick;
        }
        for (double v : visit_us) g.visit_us.push_back(static_cast<float>(v));
        g.block_round.push_back(static_cast<std::uint32_t>(round));
        if (point.sentinel < n) {
          g.block_serial.push_back(sentinel_series_.size());
          sentinel_series_.push_back(visit_us[point.sentinel]);
        }
      }
      std::vector<double> servant_ns(n, not_measured), operation_ns(n, not_measured);
      if (point.read_probes) {
        auto blocks = point.read_probes() - before;
        // The reference's own demultiplexing time: a burst of the reference and its twin alone
        // (the active label is theirs and the active pair's alike in the blocks).
        auto burst_before = point.read_probes();
        for (std::size_t b = 0; b < std::max<std::size_t>(32, s_.blocks / 4); ++b) {
          visit(point, point.reference, plan, 0);
          visit(point, point.twin, plan, 0);
        }
        auto reference = label_means(point.read_probes() - burst_before, "active");
        attribute_probes(point, blocks, s_.blocks * s_.per_visit, reference, servant_ns, operation_ns);
      }
      std::vector<double> total(n, not_measured);
      for (std::size_t t = 0; t < n; ++t) total[t] = servant_ns[t] + operation_ns[t];
      g.round_probe_ns.push_back(total);
      g.round_servant_ns.push_back(servant_ns);
      g.round_operation_ns.push_back(operation_ns);
    }
  }

  // Every layer of each pair, worst case at the largest point: a contiguous burst of its calls.
  if (point.read_probes && point.servants == s_.servants.back() && point.operations == s_.operations.back()) {
    for (std::size_t i = 0; i < s_.invocations.size(); ++i) {
      if (s_.invocations[i] != "worst-case") continue;
      for (std::size_t t = 0; t < n; ++t) {
        if (!point.treatments[t].caller || point.treatments[t].is_reference) continue;
        auto before = point.read_probes();
        for (std::size_t b = 0; b < std::max<std::size_t>(100, s_.blocks); ++b) visit(point, t, plans[i], b);
        groups_[first_group + i].whitebox_of[t] = point.read_probes() - before;
      }
    }
  }
}

void paired_run::measure_series(const std::string& series) {
  std::mt19937 random(s_.seed + (series == "iiop" ? 0 : 1));
  std::size_t done = 0, total = s_.servants.size() * s_.operations.size();
  auto started = std::chrono::steady_clock::now();
  for (auto operations : s_.operations) {
    for (auto servants : s_.servants) {
      std::unique_ptr<bench_server> server;
      std::shared_ptr<orb> local;
      auto point =
          series == "iiop" ? open_iiop(servants, operations, server) : open_collocated(servants, operations, local);
      measure_point(*point, random);
      point.reset();  // the stubs before their ORB
      if (server) server->stop();
      if (local) local->destroy();
      std::cerr << "demux " << series << ": " << ++done << "/" << total << " grid points (" << servants << " x "
                << operations << "), "
                << format_number(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 1)
                << " s\n";
    }
  }
}

// ---- The estimates ---------------------------------------------------------------------------

struct estimate {
  median_interval added, absolute;
  std::vector<std::pair<std::uint32_t, double>> round_added;  // (round, value), for demux_added_rounds.csv
  double reference_us = not_measured, sentinel_us = not_measured, probe_added_us = not_measured;
  std::size_t rounds = 0, blocks = 0;
};

// Treatment t against the reference over the blocks whose mode is `mode` (-1: all), round by round.
estimate paired_estimate(const group_record& g, std::size_t t, int mode, const mode_labels& labels,
                         std::size_t min_blocks) {
  std::map<std::uint32_t, std::vector<double>> added, absolute, reference, sentinel;
  const std::size_t n = g.treatments;
  const std::size_t blocks = g.block_round.size();
  estimate e;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (mode >= 0 && (b >= g.block_serial.size() || labels.slow[g.block_serial[b]] != mode)) continue;
    const float* v = &g.visit_us[b * n];
    auto round = g.block_round[b];
    added[round].push_back(static_cast<double>(v[t]) - v[g.reference]);
    absolute[round].push_back(v[t]);
    reference[round].push_back(v[g.reference]);
    if (g.sentinel < n) sentinel[round].push_back(v[g.sentinel]);
    ++e.blocks;
  }
  std::vector<double> round_added, round_absolute, round_reference, round_sentinel, round_probe;
  for (auto& [round, values] : added) {
    if (values.size() < min_blocks) continue;
    round_added.push_back(trimmed_mean(values));
    e.round_added.emplace_back(round, round_added.back());
    round_absolute.push_back(median_of(absolute[round]));
    round_reference.push_back(median_of(reference[round]));
    if (!sentinel[round].empty()) round_sentinel.push_back(median_of(sentinel[round]));
    double probe = g.round_probe_ns[round][t], reference_probe = g.round_probe_ns[round][g.reference];
    if (!std::isnan(probe) && !std::isnan(reference_probe)) round_probe.push_back((probe - reference_probe) / 1000.0);
  }
  e.rounds = round_added.size();
  e.added = median_with_interval(round_added);
  e.absolute = median_with_interval(round_absolute);
  e.reference_us = median_of(round_reference);
  e.sentinel_us = median_of(round_sentinel);
  e.probe_added_us = median_of(round_probe);
  return e;
}

void paired_run::write_results() const {
  const std::string pin = common_.pin == pin_mode::same ? "same" : common_.pin == pin_mode::split ? "split" : "none";
  mode_labels modes = label_modes(sentinel_series_);
  if (modes.two_modes) {
    std::size_t slow = static_cast<std::size_t>(std::count(modes.slow.begin(), modes.slow.end(), 1));
    std::cerr << "demux: the sentinel saw two modes: fast " << format_number(modes.fast_median_us, 2) << " us, slow "
              << format_number(modes.slow_median_us, 2) << " us (" << slow << " of " << modes.slow.size()
              << " blocks slow)\n";
  } else if (!sentinel_series_.empty()) {
    std::cerr << "demux: the sentinel saw one mode (median " << format_number(median_of(sentinel_series_), 2)
              << " us)\n";
  }
  const std::size_t min_blocks = std::max<std::size_t>(3, s_.blocks / 10);

  csv_table added;
  added.columns = {"kind",           "servant_demux", "operation_demux", "servants",   "operations",   "invocation",
                   "transport",      "added_us",      "ci_low_us",       "ci_high_us", "rounds",       "probe_added_us",
                   "mode",           "per_visit",     "blocks",          "median_us",  "reference_us", "sentinel_us",
                   "ratio_to_socket"};
  // Every round's value of every cell: the report compares two strategies round by round (they
  // were measured in the same blocks), which their intervals alone would understate.
  csv_table added_rounds;
  added_rounds.columns = {"kind",      "servant_demux", "operation_demux", "servants", "operations", "invocation",
                          "transport", "mode",          "round",           "added_us"};
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

  for (auto& g : groups_) {
    const std::string transport = g.series == "iiop" ? common_.transport : "collocated";
    std::vector<std::pair<int, std::string>> mode_list = {{-1, "all"}};
    if (modes.two_modes && g.sentinel < g.treatments) mode_list.insert(mode_list.end(), {{0, "fast"}, {1, "slow"}});
    for (std::size_t t = 0; t < g.treatments; ++t) {
      bool is_pair = t != g.reference && t != g.twin && t != g.sentinel;
      if (!is_pair && t != g.twin) continue;
      const auto& [servant_demux, operation_demux] = g.strategy[t];
      std::string kind = !is_pair ? "aa" : servant_demux == operation_demux ? servant_demux : g.labels[t];
      for (auto& [mode, mode_name] : mode_list) {
        auto e = paired_estimate(g, t, mode, modes, min_blocks);
        // A mode no round ran long enough in (every treatment of the group shares its blocks, so
        // the A/A row goes too): no row rather than an empty one.
        if (mode >= 0 && e.rounds == 0) continue;
        double ratio = e.absolute.median / e.sentinel_us;
        added.add({kind, servant_demux, operation_demux, std::to_string(g.servants), std::to_string(g.operations),
                   g.invocation, transport, signed_us_field(e.added.median), signed_us_field(e.added.low),
                   signed_us_field(e.added.high), std::to_string(e.rounds),
                   is_pair ? signed_us_field(e.probe_added_us) : "", mode_name, std::to_string(s_.per_visit),
                   std::to_string(e.blocks), us_field(e.absolute.median), us_field(e.reference_us),
                   us_field(e.sentinel_us), std::isnan(ratio) ? "" : format_number(ratio, 3)});
        for (auto& [round, value] : e.round_added)
          added_rounds.add({kind, servant_demux, operation_demux, std::to_string(g.servants),
                            std::to_string(g.operations), g.invocation, transport, mode_name, std::to_string(round + 1),
                            signed_us_field(value)});
        if (mode == -1 && is_pair) {
          std::cerr << "demux " << transport << " " << kind << " " << g.servants << " x " << g.operations << " "
                    << g.invocation << ": +" << format_number(e.added.median, 3) << " us";
          if (e.added.has_interval())
            std::cerr << " [" << format_number(e.added.low, 3) << ", " << format_number(e.added.high, 3) << "]";
          if (!std::isnan(e.probe_added_us)) std::cerr << ", probes +" << format_number(e.probe_added_us, 3) << " us";
          std::cerr << "; median " << format_number(e.absolute.median, 2) << " us\n";
        }
      }
      // demux.csv, demux_rounds.csv and whitebox.csv: the absolute latencies of the same visits, of
      // the first series (the report's older tables know one transport).
      if (!is_pair || g.series != s_.series.front()) continue;
      std::vector<double> samples, servant_ns, operation_ns, demux_rounds;
      std::map<std::uint32_t, std::vector<double>> by_round;
      for (std::size_t b = 0; b < g.block_round.size(); ++b) {
        double v = g.visit_us[b * g.treatments + t];
        samples.push_back(v);
        by_round[g.block_round[b]].push_back(v);
      }
      for (std::size_t r = 0; r < g.round_probe_ns.size(); ++r) {
        if (!std::isnan(g.round_probe_ns[r][t])) demux_rounds.push_back(g.round_probe_ns[r][t]);
        if (!std::isnan(g.round_servant_ns[r][t])) servant_ns.push_back(g.round_servant_ns[r][t]);
        if (!std::isnan(g.round_operation_ns[r][t])) operation_ns.push_back(g.round_operation_ns[r][t]);
      }
      std::vector<double> round_medians;
      for (auto& [round, values] : by_round) round_medians.push_back(median_of(values));
      auto stats = summarize(samples);
      auto latency = median_with_interval(round_medians);
      auto demux = median_with_interval(demux_rounds);
      std::string id_table = servant_demux != "perfect" ? "none" : s_.object_id_table ? "build-time" : "runtime-hash";
      std::vector<std::string> key = {servant_demux, operation_demux, std::to_string(g.servants),
                                      std::to_string(g.operations), g.invocation};
      auto row = key;
      for (auto field : {std::to_string(stats.samples * s_.per_visit),
                         format_number(stats.mean),
                         us_field(latency.median),
                         format_number(stats.p99),
                         format_number(stats.stddev),
                         format_number(stats.min),
                         ns_field(median_of(servant_ns)),
                         ns_field(median_of(operation_ns)),
                         ns_field(demux.median),
                         transport,
                         pin,
                         id_table,
                         std::to_string(round_medians.size()),
                         us_field(latency.low),
                         us_field(latency.high),
                         format_number(latency.coverage, 4),
                         ns_field(demux.low),
                         ns_field(demux.high),
                         format_number(stats.median),
                         link_label(common_),
                         g.operation_lookup[t],
                         g.servant_lookup[t]})
        row.push_back(field);
      table.add(row);
      std::size_t r = 0;
      for (auto& [round, values] : by_round) {
        auto line = key;
        // Every treatment stands in every place of a block equally often: no one position.
        for (auto field : {std::to_string(++r), std::string("0"), format_number(median_of(values)),
                           ns_field(round < g.round_probe_ns.size() ? g.round_probe_ns[round][t] : not_measured)})
          line.push_back(field);
        rounds.add(line);
      }
      if (auto it = g.whitebox_of.find(t); it != g.whitebox_of.end()) {
        double total = it->second.total_us();
        for (auto& [layer_key, probe] : it->second.cells) {
          if (probe.calls == 0) continue;
          auto line = key;
          for (auto field : {layer_key.first, layer_key.second, std::to_string(probe.calls),
                             format_number(probe.total_us * 1000.0 / static_cast<double>(probe.calls), 1),
                             format_number(total > 0 ? 100.0 * probe.total_us / total : 0, 2)})
            line.push_back(field);
          whitebox.add(line);
        }
      }
    }
  }
  added.write(common_.out / "demux_added.csv");
  added_rounds.write(common_.out / "demux_added_rounds.csv");
  table.write(common_.out / "demux.csv");
  rounds.write(common_.out / "demux_rounds.csv");
  if (!whitebox.rows.empty()) {
    whitebox.write(common_.out / "whitebox.csv");
  } else if (s_.instrument) {
    std::cerr << "demux: the server's instrumentation table was empty (probes not wired or compiled out): "
                 "no probe columns, no whitebox.csv\n";
  }
}

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
  auto servant_demux = parser.list("--servant-demux", strategies);
  auto operation_demux = parser.list("--operation-demux", strategies);
  bool paired = !parser.flag("--all-pairs") && !paper;  // by default servant and operation demux go together
  s.invocations =
      parser.list("--invocation", quick ? std::vector<std::string>{"random", "worst-case"} : all_invocations);
  s.servants = parser.number_list(
      "--servants", quick ? std::vector<std::size_t>{1, 500} : std::vector<std::size_t>{1, 100, 200, 300, 400, 500});
  s.operations = parser.number_list("--operations",
                                    quick ? std::vector<std::size_t>{1, 100} : std::vector<std::size_t>{1, 10, 100});
  // Across namespaces the network is the point: the collocated series only when asked for.
  s.series = parser.list(
      "--series", common.netns ? std::vector<std::string>{"iiop"} : std::vector<std::string>{"iiop", "collocated"});
  // Rounds and blocks (docs/experiments.md): 20 rounds of 300 blocks by default (a 95 % interval
  // from the 6th and 15th of 20 round values); --quick 6 rounds, the fewest that give one.
  s.rounds = parser.number("--rounds").value_or(quick ? 6 : paper ? 40 : 20);
  s.blocks = parser.number("--blocks").value_or(quick ? 40 : paper ? 500 : 300);
  s.per_visit = parser.number("--per-visit").value_or(1);
  s.warmup = parser.number("--warmup").value_or(quick ? 10 : 50);
  s.seed = static_cast<std::uint32_t>(parser.number("--seed").value_or(20240501));
  s.instrument = !parser.flag("--no-instrument");
  s.object_id_table = !parser.flag("--no-object-id-table");
  parser.finish();
  check_names(servant_demux, all_strategies, "--servant-demux");
  check_names(operation_demux, all_strategies, "--operation-demux");
  check_names(s.invocations, all_invocations, "--invocation");
  check_names(s.series, all_series, "--series");
  for (auto n : s.servants)
    if (n == 0 || n > 100000) throw usage_error("--servants: expected 1..100000");
  for (auto k : s.operations)
    if (k == 0 || k > 10000) throw usage_error("--operations: expected 1..10000");
  if (s.rounds == 0 || s.rounds > 10000) throw usage_error("--rounds: expected 1..10000");
  if (s.blocks == 0 || s.blocks > 1000000) throw usage_error("--blocks: expected 1..1000000");
  if (s.per_visit == 0 || s.per_visit > 100000) throw usage_error("--per-visit: expected 1..100000");
  if (common.collocated)
    throw usage_error(
        "--collocated: the demux experiment's in-process series is --series collocated (calls "
        "through the ORB's collocation, no socket)");
  if (common.netns && std::find(s.series.begin(), s.series.end(), "collocated") != s.series.end())
    throw usage_error("--netns measures the network: name --series iiop");
  std::sort(s.servants.begin(), s.servants.end());
  std::sort(s.operations.begin(), s.operations.end());
  if (paired && servant_demux.size() != operation_demux.size()) paired = false;
  for (std::size_t i = 0; i < servant_demux.size(); ++i)
    for (std::size_t j = 0; j < operation_demux.size(); ++j)
      if (!paired || i == j) s.pairs.emplace_back(servant_demux[i], operation_demux[j]);
  if (s.rounds < 6) std::cerr << "demux: fewer than 6 rounds give no 95 % interval: the CI columns stay empty\n";
  set_up_network(common);

  std::filesystem::create_directories(common.out);
  std::cerr << "demux: " << apply_pinning(common.pin) << ", preset " << to_string(common.size) << ", out "
            << common.out.string() << "\n";
  note_run(common, "demux",
           "paired: " + std::to_string(s.rounds) + " rounds of " + std::to_string(s.blocks) +
               " blocks per invocation, " + std::to_string(s.per_visit) + " call(s) per visit, " +
               std::to_string(s.pairs.size()) + " strategy pairs + reference + A/A twin + socket sentinel per block, " +
               "warm-up " + std::to_string(s.warmup) + " blocks, seed " + std::to_string(s.seed));

  auto started = std::chrono::steady_clock::now();
  paired_run run(common, s);
  for (auto& series : s.series) run.measure_series(series);
  run.write_results();
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "demux: " << s.servants.size() * s.operations.size() << " grid points x " << s.invocations.size()
            << " invocations x " << s.series.size() << " series in " << format_number(seconds, 1) << " s -> "
            << (common.out / "demux_added.csv").string() << "\n";
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
