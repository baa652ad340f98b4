// `sy-bench ttcp`: the throughput paper's flooding model. The client sends `total` bytes as
// one-way sends of sequences of `buffer` bytes (octets, scalars or BinStructs), then one two-way
// call that returns once the server has taken every send (one connection, served in order); the
// time runs from the first send to that reply. The C sockets and ACE baselines send the same bytes
// raw with an acknowledgement at the end; omniORB's peer sends octets and BinStructs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/peer_tools.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

struct ttcp_row {
  std::string series;
  element_type type;
  std::size_t buffer, queue, total;
  double seconds;
};

std::string queue_name(std::size_t q) { return q == 0 ? "default" : std::to_string(q); }

}  // namespace

int ttcp_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto common = parse_common(parser);
  bool quick = common.size == preset::quick;
  auto type_names = parser.list("--types", quick ? std::vector<std::string>{"octet", "binstruct"}
                                                 : std::vector<std::string>{"octet", "short", "long", "double", "char", "binstruct"});
  auto buffers = parser.number_list("--buffers", quick ? std::vector<std::size_t>{64 * 1024}
                                                       : std::vector<std::size_t>{1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072});
  std::vector<std::size_t> queues;
  for (auto& q : parser.list("--queues", quick ? std::vector<std::string>{"default"} : std::vector<std::string>{"8K", "64K", "default"})) {
    if (q == "default" || q == "0") {
      queues.push_back(0);
    } else {
      arg_parser one({"--q", q});
      queues.push_back(*one.number("--q"));
    }
  }
  // 64 MB as the paper; 8 MB with --quick.
  std::size_t total = parser.number("--total-bytes").value_or(quick ? 8u << 20 : 64u << 20);
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
  auto wants = [&](const char* s) { return std::find(series.begin(), series.end(), s) != series.end(); };

  std::filesystem::create_directories(common.out);
  std::cerr << "ttcp: " << apply_pinning(common.pin) << ", preset " << to_string(common.size) << ", "
            << total << " bytes per run, out " << common.out.string() << "\n";
  note_run(common, "ttcp", std::to_string(total) + " bytes per run");
  std::vector<ttcp_row> rows;
  auto report = [&](const ttcp_row& r) {
    rows.push_back(r);
    std::cerr << "ttcp " << r.series << " " << to_string(r.type) << " buffer " << r.buffer << " queue "
              << queue_name(r.queue) << ": " << format_number(static_cast<double>(r.total) * 8 / r.seconds / 1e6, 0)
              << " Mbit/s\n";
  };

  for (auto queue : queues) {
    std::vector<std::string> queue_args;
    if (queue != 0)
      queue_args = {"-ORBSendBufferSize", std::to_string(queue), "-ORBRecvBufferSize", std::to_string(queue)};
    if (wants("switchyard")) {
      auto client_args = common.orb_args;
      client_args.insert(client_args.end(), queue_args.begin(), queue_args.end());
      bench_server server(common, 1, 0, queue_args, common.out);
      auto client = server.local_orb() ? server.local_orb() : orb_init(client_args);
      auto target = client->string_to_object(server.ttcp_iors().front());
      payload none(element_type::none, 0);
      send(target, none, true);
      for (auto type : types) {
        for (auto buffer : buffers) {
          std::size_t units = std::max<std::size_t>(1, buffer / element_bytes(type));
          std::size_t bytes = units * element_bytes(type);
          std::size_t sends = std::max<std::size_t>(1, total / bytes);
          payload data(type, units);
          for (int i = 0; i < 4; ++i) send(target, data, false);  // warm-up: buffers at full size
          send(target, none, true);
          auto t0 = std::chrono::steady_clock::now();
          for (std::size_t i = 0; i < sends; ++i) send(target, data, false);
          send(target, none, true);
          double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          report({"switchyard", type, bytes, queue, sends * bytes, seconds});
        }
      }
      server.stop();
      if (!server.local_orb() && client) client->destroy();
    }
    for (const char* baseline : {"socket", "ace"}) {
      if (!wants(baseline)) continue;
      auto program = built_tool(std::string("baselines/") + baseline + "_baseline");
      if (!program) {
        std::cerr << "ttcp: " << baseline << "_baseline not built: no " << baseline << " series\n";
        continue;
      }
      baseline_server server(*program, common.out, queue);
      for (auto buffer : buffers) {
        std::vector<std::string> argv = {program->string(), "ttcp", "--port", std::to_string(server.port()),
                                         "--buffer-bytes", std::to_string(buffer), "--total-bytes",
                                         std::to_string(total / buffer * buffer)};
        if (queue != 0) argv.insert(argv.end(), {"--socket-queue", std::to_string(queue)});
        auto seconds = parse_seconds(run_client(argv, common.out));
        if (!seconds || *seconds <= 0) throw std::runtime_error(std::string(baseline) + "_baseline printed no time");
        report({baseline, element_type::octet, buffer, queue, total / buffer * buffer, *seconds});
      }
    }
    if (wants("omniorb")) {
      auto server_program = built_tool("peers/omni_bench_server");
      auto client_program = built_tool("peers/omni_bench_client");
      if (!server_program || !client_program) {
        std::cerr << "ttcp: omniORB peers not built: no omniorb series\n";
      } else {
        try {
          omni_server server(*server_program, common.out, 1, queue);
          bool hung = false;
          for (auto type : types) {
            if (type != element_type::octet && type != element_type::binstruct) continue;
            for (auto buffer : buffers) {
              if (hung) break;
              std::size_t bytes = std::max<std::size_t>(1, buffer / element_bytes(type)) * element_bytes(type);
              std::size_t sent = std::max<std::size_t>(1, total / bytes) * bytes;
              std::vector<std::string> argv = {client_program->string(), "--ior-file", server.ior_file().string(),
                                               "--object", "ttcp/0", "ttcp", "--type", std::string(to_string(type)),
                                               "--buffer-bytes", std::to_string(bytes), "--total-bytes",
                                               std::to_string(sent)};
              if (queue != 0) argv.insert(argv.end(), {"--socket-queue", std::to_string(queue)});
              try {
                // A run that takes a minute has hung (omni_bench_client with an 8 K queue and
                // buffers over 8 K does): the rest of this queue setting is skipped.
                auto output = run_client(argv, common.out, std::chrono::seconds(60));
                auto seconds = parse_seconds(output);
                std::size_t reported = sent;
                if (auto at = output.find("bytes="); at != std::string::npos) reported = std::stoull(output.substr(at + 6));
                if (seconds && *seconds > 0) report({"omniorb", type, bytes, queue, reported, *seconds});
              } catch (const std::exception& e) {
                std::cerr << "ttcp omniorb " << to_string(type) << " buffer " << bytes << " queue " << queue_name(queue)
                          << ": " << e.what() << "\n";
                hung = std::string(e.what()).find("timed out") != std::string::npos;
                if (hung) std::cerr << "ttcp: omniorb skipped for the rest of queue " << queue_name(queue) << "\n";
              }
            }
          }
        } catch (const std::exception& e) {
          std::cerr << "ttcp: omniorb series skipped: " << e.what() << "\n";
        }
      }
    }
  }

  // Ratio to the C sockets at the same buffer and queue (the socket sends raw bytes of any type).
  std::map<std::pair<std::size_t, std::size_t>, double> socket_mbps;
  auto mbps = [](const ttcp_row& r) { return static_cast<double>(r.total) * 8 / r.seconds / 1e6; };
  for (auto& r : rows)
    if (r.series == "socket") socket_mbps[{r.buffer, r.queue}] = mbps(r);
  csv_table table;
  table.columns = {"series", "type", "buffer_bytes", "socket_queue_bytes", "total_bytes", "seconds", "mbps",
                   "ratio_to_socket"};
  for (auto& r : rows) {
    // Buffers of BinStructs are whole structs (a 1 K buffer holds 42 of them: 1008 bytes): the
    // socket figure of the nearest power of two is the reference.
    std::size_t reference = std::size_t{1} << static_cast<int>(std::round(std::log2(static_cast<double>(r.buffer))));
    auto it = socket_mbps.find({reference, r.queue});
    table.add({r.series, std::string(to_string(r.type)), std::to_string(r.buffer), queue_name(r.queue),
               std::to_string(r.total), format_number(r.seconds, 6), format_number(mbps(r), 1),
               it != socket_mbps.end() && it->second > 0 ? format_number(mbps(r) / it->second, 3) : ""});
  }
  table.write(common.out / "ttcp.csv");
  std::cerr << "ttcp: " << table.rows.size() << " rows -> " << (common.out / "ttcp.csv").string() << "\n";
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
