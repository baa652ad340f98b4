// `sy-bench ttcp`: the throughput paper's flooding model. The client sends `total` bytes as
// one-way sends of sequences of `buffer` bytes (octets, scalars or BinStructs), then one two-way
// call that returns once the server has taken every send (one connection, served in order); the
// time runs from the first send to that reply. The C sockets and ACE baselines send the same bytes
// raw with an acknowledgement at the end; omniORB's peer sends octets and BinStructs one-way too.
// Each point is run `--repeats` times (6 by default, 10 with --paper as the paper's), once per
// round, the rounds running every point in a shuffled order; a point is reported by its median run
// and, from 6 runs on, the median's 95 % interval.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/network_namespaces.h"
#include "benchmarks/sy_bench/peer_tools.h"
#include "benchmarks/sy_bench/statistics.h"
#include "benchmarks/sy_bench/tls_material.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

struct ttcp_row {
  std::string series;
  element_type type;
  std::size_t buffer, queue, total;
  std::vector<double> runs;       // seconds of each run; the row reports their median
  std::string transport = "tcp";  // iiop, ssliop, uiop; "tcp" for the baselines
  double seconds() const { return summarize(runs).median; }
};

std::string queue_name(std::size_t q) { return q == 0 ? "default" : std::to_string(q); }

// One point of the grid (series, type, buffer, queue): `run` floods once and returns the seconds,
// or nothing when the run failed (omniORB's peer: the point is then skipped).
struct ttcp_point {
  ttcp_row row;
  std::function<std::optional<double>()> run;
  bool dead = false;
};

// Our ORB's side of one socket queue: a server, a client ORB with the same queues, the target.
struct switchyard_side {
  std::unique_ptr<bench_server> server;
  std::shared_ptr<switchyard::orb> client;
  object_ref target;
};

}  // namespace

int ttcp_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto common = parse_common(parser, true);
  bool quick = common.size == preset::quick;
  auto type_names =
      parser.list("--types", quick ? std::vector<std::string>{"octet", "binstruct"}
                                   : std::vector<std::string>{"octet", "short", "long", "double", "char", "binstruct"});
  auto buffers = parser.number_list(
      "--buffers", quick ? std::vector<std::size_t>{64 * 1024}
                         : std::vector<std::size_t>{1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072});
  std::vector<std::size_t> queues;
  // Over a shaped link the quick run keeps the ATM paper's two socket queues, 8 K and 64 K.
  auto quick_queues = common.link.empty() ? std::vector<std::string>{"default"} : std::vector<std::string>{"8K", "64K"};
  for (auto& q : parser.list("--queues", quick ? quick_queues : std::vector<std::string>{"8K", "64K", "default"})) {
    if (q == "default" || q == "0") {
      queues.push_back(0);
    } else {
      arg_parser one({"--q", q});
      queues.push_back(*one.number("--q"));
    }
  }
  // 64 MB as the paper; 8 MB with --quick.
  std::size_t total = parser.number("--total-bytes").value_or(quick ? 8u << 20 : 64u << 20);
  // Runs per point (median reported): one 64 MB run lasts 5-50 ms, and a shared machine's stalls
  // move single runs by 30 %; 6 runs (the fewest that give a 95 % interval, [slowest, fastest])
  // keep the default preset within a few minutes; --paper makes the paper's ten.
  std::size_t repeats = parser.number("--repeats").value_or(quick ? 1 : common.size == preset::paper ? 10 : 6);
  auto series = parser.list("--series", {"switchyard", "socket", "ace", "omniorb"});
  parser.finish();
  std::vector<element_type> types;
  for (auto& t : type_names) {
    auto type = parse_element_type(t);
    if (!type || *type == element_type::none) throw usage_error("--types: unknown type '" + t + "'");
    types.push_back(*type);
  }
  for (auto b : buffers)
    if (b < 24 || b > (16u << 20)) throw usage_error("--buffers: expected 24 bytes .. 16M");
  if (total == 0) throw usage_error("--total-bytes: at least 1");
  if (repeats == 0 || repeats > 1000) throw usage_error("--repeats: expected 1..1000");
  auto wants = [&](const char* s) { return std::find(series.begin(), series.end(), s) != series.end(); };
  set_up_network(common);
  const std::string host = server_host(common);
  if (!common.link.empty()) {
    double seconds =
        static_cast<double>(total) * 8 / static_cast<double>(check_link_shape(common.link).bits_per_second);
    std::cerr << "ttcp: over " << common.link << " one run of " << total << " bytes takes at least "
              << format_number(seconds, 2) << " s\n";
  }

  std::filesystem::create_directories(common.out);
  std::cerr << "ttcp: " << apply_pinning(common.pin) << ", preset " << to_string(common.size) << ", " << total
            << " bytes per run, " << repeats << " runs per point, out " << common.out.string() << "\n";
  note_run(common, "ttcp",
           std::to_string(total) + " bytes per run, median of " + std::to_string(repeats) +
               " runs per point in shuffled rounds");
  // Every server up front (per queue: ours, the baselines', omniORB's), then the runs in rounds:
  // each round runs every point once in a freshly shuffled order, so a slow stretch of a shared
  // machine spreads over the points instead of landing on one (docs/experiments.md).
  std::vector<ttcp_point> points;
  std::vector<std::unique_ptr<switchyard_side>> ours;
  std::vector<std::unique_ptr<baseline_server>> baselines;
  std::vector<std::unique_ptr<omni_server>> omnis;
  payload none(element_type::none, 0);
  std::map<std::pair<element_type, std::size_t>, std::unique_ptr<payload>> payloads;
  // --transport ssliop: certificates for our ORB's and omniORB's servers and clients, made once.
  std::unique_ptr<tls_material> tls;
  if (std::find(common.transports.begin(), common.transports.end(), "ssliop") != common.transports.end())
    tls = std::make_unique<tls_material>(common.tls_certs);
  std::vector<std::string> omni_transports;
  for (auto& t : common.transports)
    if (std::find(omni_transports.begin(), omni_transports.end(), omni_transport(t)) == omni_transports.end())
      omni_transports.push_back(omni_transport(t));
  auto payload_for = [&](element_type type, std::size_t units) -> const payload& {
    auto& slot = payloads[{type, units}];
    if (!slot) slot = std::make_unique<payload>(type, units);
    return *slot;
  };
  for (auto queue : queues) {
    std::vector<std::string> queue_args;
    if (queue != 0)
      queue_args = {"-ORBSendBufferSize", std::to_string(queue), "-ORBRecvBufferSize", std::to_string(queue)};
    for (auto& transport : common.transports) {
      if (!wants("switchyard")) break;
      auto side = std::make_unique<switchyard_side>();
      auto client_args = common.orb_args;
      client_args.insert(client_args.end(), queue_args.begin(), queue_args.end());
      auto server_args = queue_args;
      if (transport == "ssliop") {
        auto more = tls->server_args(host);
        server_args.insert(server_args.end(), more.begin(), more.end());
        auto mine = tls->client_args();
        client_args.insert(client_args.end(), mine.begin(), mine.end());
      }
      common_options over = common;
      over.transport = transport;
      side->server = std::make_unique<bench_server>(over, 1, 0, server_args, common.out);
      side->client = side->server->local_orb() ? side->server->local_orb() : orb_init(client_args);
      side->target = side->client->string_to_object(side->server->ttcp_iors().front());
      send(side->target, none, true);
      for (auto type : types) {
        for (auto buffer : buffers) {
          std::size_t units = std::max<std::size_t>(1, buffer / element_bytes(type));
          std::size_t bytes = units * element_bytes(type);
          std::size_t sends = std::max<std::size_t>(1, total / bytes);
          const payload& data = payload_for(type, units);
          auto& target = side->target;
          points.push_back(
              {{"switchyard", type, bytes, queue, sends * bytes, {}, transport}, [&target, &data, &none, sends] {
                 for (int i = 0; i < 4; ++i) send(target, data, false);  // buffers at full size
                 send(target, none, true);
                 auto t0 = std::chrono::steady_clock::now();
                 for (std::size_t i = 0; i < sends; ++i) send(target, data, false);
                 send(target, none, true);
                 return std::optional<double>(
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
               }});
        }
      }
      ours.push_back(std::move(side));
    }
    for (const char* baseline : {"socket", "ace"}) {
      if (!wants(baseline)) continue;
      auto program = built_tool(std::string("baselines/") + baseline + "_baseline");
      if (!program) {
        if (queue == queues.front())
          std::cerr << "ttcp: " << baseline << "_baseline not built: no " << baseline << " series\n";
        continue;
      }
      baselines.push_back(std::make_unique<baseline_server>(*program, common.out, queue, host));
      int port = baselines.back()->port();
      for (auto buffer : buffers) {
        std::vector<std::string> argv = {program->string(), "ttcp",
                                         "--host",          host,
                                         "--port",          std::to_string(port),
                                         "--buffer-bytes",  std::to_string(buffer),
                                         "--total-bytes",   std::to_string(total / buffer * buffer)};
        if (queue != 0) argv.insert(argv.end(), {"--socket-queue", std::to_string(queue)});
        std::string name = baseline;
        points.push_back(
            {{name, element_type::octet, buffer, queue, total / buffer * buffer, {}, "tcp"}, [argv, name, &common] {
               auto seconds = parse_seconds(run_client(argv, common.out));
               if (!seconds || *seconds <= 0) throw std::runtime_error(name + "_baseline printed no time");
               return seconds;
             }});
      }
    }
    if (wants("omniorb")) {
      auto server_program = built_tool("peers/omni_server");
      auto client_program = built_tool("peers/omni_bench_client");
      if (!server_program || !client_program) {
        if (queue == queues.front()) std::cerr << "ttcp: omniORB peers not built: no omniorb series\n";
      } else {
        for (auto& transport : omni_transports) {
          std::vector<std::string> ssl;
          if (transport == "ssliop") {
            // omniORB's peers set socket queues on TCP only (--socket-queue with --ssl is refused).
            if (queue != 0) {
              std::cerr << "ttcp: no omniorb ssliop series for queue " << queue_name(queue)
                        << " (the peers' --socket-queue is for TCP only)\n";
              continue;
            }
            ssl = tls->omni_args();
          }
          try {
            omnis.push_back(std::make_unique<omni_server>(*server_program, common.out, 1, queue, ssl, host));
          } catch (const std::exception& e) {
            std::cerr << "ttcp: omniorb " << transport << " series skipped for queue " << queue_name(queue) << ": "
                      << e.what() << "\n";
            continue;
          }
          auto ior_file = omnis.back()->ior_file();
          for (auto type : types) {
            if (type != element_type::octet && type != element_type::binstruct) continue;
            for (auto buffer : buffers) {
              std::size_t bytes = std::max<std::size_t>(1, buffer / element_bytes(type)) * element_bytes(type);
              std::size_t sent = std::max<std::size_t>(1, total / bytes) * bytes;
              std::vector<std::string> argv = {client_program->string(),
                                               "--ior-file",
                                               ior_file.string(),
                                               "--object",
                                               "ttcp/0",
                                               "ttcp",
                                               "--type",
                                               std::string(to_string(type)),
                                               "--buffer-bytes",
                                               std::to_string(bytes),
                                               "--total-bytes",
                                               std::to_string(sent),
                                               "--oneway"};
              if (queue != 0) argv.insert(argv.end(), {"--socket-queue", std::to_string(queue)});
              argv.insert(argv.end(), ssl.begin(), ssl.end());
              // A run that takes a minute has hung (omni_bench_client with an 8 K queue and buffers
              // over 8 K did before the peers set queues before the TCP handshake): the point fails
              // and is not run again.
              points.push_back(
                  {{"omniorb", type, bytes, queue, sent, {}, transport}, [argv, &common]() -> std::optional<double> {
                     auto seconds = parse_seconds(run_client(argv, common.out, std::chrono::seconds(60)));
                     if (!seconds || *seconds <= 0) return std::nullopt;
                     return seconds;
                   }});
            }
          }
        }
      }
    }
  }

  auto mbit = [](const ttcp_row& r, double seconds) { return static_cast<double>(r.total) * 8 / seconds / 1e6; };
  std::mt19937 random(20240501);
  std::vector<std::size_t> order(points.size());
  for (std::size_t round = 0; round < repeats; ++round) {
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), random);
    for (auto i : order) {
      auto& point = points[i];
      if (point.dead) continue;
      std::optional<double> seconds;
      try {
        seconds = point.run();
      } catch (const std::exception& e) {
        if (point.row.series != "omniorb") throw;
        std::cerr << "ttcp omniorb " << point.row.transport << " " << to_string(point.row.type) << " buffer "
                  << point.row.buffer << " queue " << queue_name(point.row.queue) << ": " << e.what() << "\n";
      }
      if (!seconds) {
        point.dead = true;
        continue;
      }
      point.row.runs.push_back(*seconds);
      if (round + 1 == repeats || repeats == 1)
        std::cerr << "ttcp " << point.row.series << " " << point.row.transport << " " << to_string(point.row.type)
                  << " buffer " << point.row.buffer << " queue " << queue_name(point.row.queue) << ": "
                  << format_number(mbit(point.row, point.row.seconds()), 0) << " Mbit/s (median of "
                  << point.row.runs.size() << ")\n";
    }
    if (repeats > 1)
      std::cerr << "ttcp: round " << round + 1 << "/" << repeats << " of " << points.size() << " points\n";
  }
  for (auto& side : ours) {
    side->server->stop();
    if (!side->server->local_orb() && side->client) side->client->destroy();
  }
  ours.clear();
  baselines.clear();
  omnis.clear();
  std::vector<ttcp_row> rows;
  for (auto& point : points)
    if (!point.row.runs.empty()) rows.push_back(point.row);

  // Ratio to the C sockets at the same buffer and queue (the socket sends raw bytes of any type).
  std::map<std::pair<std::size_t, std::size_t>, double> socket_mbps;
  auto mbps = [](const ttcp_row& r) { return static_cast<double>(r.total) * 8 / r.seconds() / 1e6; };
  for (auto& r : rows)
    if (r.series == "socket") socket_mbps[{r.buffer, r.queue}] = mbps(r);
  csv_table table;
  table.columns = {"series",      "type",         "buffer_bytes", "socket_queue_bytes", "total_bytes",     "runs",
                   "seconds",     "mbps",         "mbps_min",     "mbps_max",           "ratio_to_socket", "link",
                   "mbps_ci_low", "mbps_ci_high", "transport"};
  for (auto& r : rows) {
    // Buffers of BinStructs are whole structs (a 1 K buffer holds 42 of them: 1008 bytes): the
    // socket figure of the nearest power of two is the reference.
    std::size_t reference = std::size_t{1} << static_cast<int>(std::round(std::log2(static_cast<double>(r.buffer))));
    auto it = socket_mbps.find({reference, r.queue});
    auto spread = summarize(r.runs);
    auto interval = median_with_interval(r.runs);  // of the seconds: the slow end is the low rate
    auto rate = [&](double seconds) { return format_number(static_cast<double>(r.total) * 8 / seconds / 1e6, 1); };
    table.add({r.series, std::string(to_string(r.type)), std::to_string(r.buffer), queue_name(r.queue),
               std::to_string(r.total), std::to_string(r.runs.size()), format_number(r.seconds(), 6),
               format_number(mbps(r), 1), rate(spread.max), rate(spread.min),
               it != socket_mbps.end() && it->second > 0 ? format_number(mbps(r) / it->second, 3) : "",
               link_label(common), interval.has_interval() ? rate(interval.high) : "",
               interval.has_interval() ? rate(interval.low) : "", r.transport});
  }
  table.write(common.out / "ttcp.csv");
  std::cerr << "ttcp: " << table.rows.size() << " rows -> " << (common.out / "ttcp.csv").string() << "\n";
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
