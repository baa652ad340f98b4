// `sy-bench soak`: many requests over many servants from several clients at once, in each
// concurrency model, watching the server's resident memory, descriptors and threads at the start,
// the middle and the end (issue: a server that a faulty peer cannot bloat must not bloat by
// itself either). soak.csv has a row per model and phase; the report adds a line per model to
// summary.md.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/experiments.h"
#include "switchyard/exception.h"
#include "switchyard/invocation.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

const std::vector<std::string> all_models = {"adaptive", "reactive", "thread-per-connection", "thread-pool"};

std::vector<std::string> model_arguments(const std::string& model) {
  if (model == "thread-pool") return {"-ORBThreads", "4"};
  return {"-ORBConcurrency", model};
}

// What the server holds now: resident kB, open descriptors, threads.
struct server_resources {
  std::size_t rss_kb = 0, descriptors = 0, threads = 0;
};

server_resources sample(pid_t pid) {
  server_resources now;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") status >> now.rss_kb;
    else if (key == "Threads:") status >> now.threads;
    status.ignore(1 << 20, '\n');
  }
  std::error_code ignored;
  for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ignored);
       it != std::filesystem::directory_iterator(); it.increment(ignored))
    ++now.descriptors;
  return now;
}

}  // namespace

int soak_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto common = parse_common(parser);
  const bool quick = common.size == preset::quick;
  const std::size_t requests = parser.number("--requests").value_or(quick ? 40'000 : 10'000'000);
  const std::size_t servants = parser.number("--servants").value_or(quick ? 100 : 1000);
  const std::size_t clients = parser.number("--clients").value_or(quick ? 2 : 4);
  auto models = parser.list("--models", all_models);
  parser.finish();
  for (auto& m : models)
    if (std::find(all_models.begin(), all_models.end(), m) == all_models.end())
      throw usage_error("--models: unknown model '" + m + "'");
  if (requests == 0 || servants == 0 || clients == 0 || clients > 256)
    throw usage_error("--requests, --servants: at least 1; --clients: 1..256");
  if (common.collocated) throw usage_error("soak watches a server process: --collocated does not apply");
  if (common.netns) throw usage_error("soak runs on loopback: --netns and --link do not apply");

  std::filesystem::create_directories(common.out);
  std::cerr << "soak: " << apply_pinning(common.pin) << ", " << requests << " requests over " << servants
            << " servants from " << clients << " clients, out " << common.out.string() << "\n";
  note_run(common, "soak",
           std::to_string(requests) + " requests, " + std::to_string(servants) + " servants, " +
               std::to_string(clients) + " clients");
  csv_table table;
  table.columns = {"model",       "phase",   "requests_done", "elapsed_s", "rss_kb",
                   "descriptors", "threads", "failures",      "servants",  "clients"};
  const auto op = send_operation(element_type::none, true);

  for (const auto& model : models) {
    bench_server server(common, servants, 1, model_arguments(model), common.out);
    std::atomic<std::size_t> done{0};
    std::atomic<std::size_t> failures{0};
    std::atomic<bool> warm{false};
    std::atomic<std::size_t> ready{0};
    std::atomic<bool> release{false};  // the end is sampled with every client still connected
    std::vector<std::thread> threads;
    const auto started = std::chrono::steady_clock::now();
    auto row = [&](const char* phase) {
      auto now = sample(server.pid());
      auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      table.add({model, phase, std::to_string(done.load()), format_number(seconds, 1), std::to_string(now.rss_kb),
                 std::to_string(now.descriptors), std::to_string(now.threads), std::to_string(failures.load()),
                 std::to_string(servants), std::to_string(clients)});
      std::cerr << "soak " << model << " " << phase << ": " << done.load() << " requests, RSS " << now.rss_kb << " kB, "
                << now.descriptors << " descriptors, " << now.threads << " threads, " << failures.load()
                << " failures\n";
    };
    for (std::size_t c = 0; c < clients; ++c) {
      threads.emplace_back([&, c] {
        // Each client an ORB of its own: a connection of its own, as separate processes would.
        // A call that gets no reply within 10 s counts as a failure (a stalled server ends the run).
        auto client_args = common.orb_args;
        if (std::find(client_args.begin(), client_args.end(), "-ORBCallTimeout") == client_args.end())
          client_args.insert(client_args.end(), {"-ORBCallTimeout", "10000"});
        auto orb = orb_init(client_args);
        std::vector<object_ref> targets;
        for (auto& ior : server.ttcp_iors()) targets.push_back(orb->string_to_object(ior));
        auto call = [&](std::size_t servant) {
          try {
            invocation(targets[servant], op.name, op.index).invoke();
          } catch (const SystemException&) {
            failures.fetch_add(1, std::memory_order_relaxed);
          }
        };
        for (std::size_t j = 0; j < targets.size(); ++j) call(j);  // connected, every servant seen
        ready.fetch_add(1);
        while (!warm.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const std::size_t mine = requests / clients + (c < requests % clients ? 1 : 0);
        for (std::size_t i = 0; i < mine; ++i) {
          call((c * 7919 + i) % targets.size());  // each client round robin from its own place
          done.fetch_add(1, std::memory_order_relaxed);
        }
        while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        orb->destroy();
      });
    }
    while (ready.load() < clients) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    row("start");
    warm = true;
    bool middle = false;
    auto last_progress = std::chrono::steady_clock::now();
    while (done.load() < requests) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (!middle && done.load() >= requests / 2) {
        row("middle");
        middle = true;
      }
      if (std::chrono::steady_clock::now() - last_progress > std::chrono::seconds(10)) {
        std::cerr << "soak " << model << ": " << done.load() << " of " << requests << " requests\n";
        last_progress = std::chrono::steady_clock::now();
      }
    }
    if (!middle) row("middle");
    row("end");
    release = true;
    for (auto& t : threads) t.join();
    server.stop();
    table.write(common.out / "soak.csv");
  }
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
