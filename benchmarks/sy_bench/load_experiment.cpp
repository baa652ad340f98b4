// `sy-bench load`: many clients at once (issue 10, "Fast by default and under load"). For each
// call (the null two-way call, a 1 KB octet sequence), each number of connections and each series
// (our server in every concurrency model, omniORB's in its two, the epoll socket server), a fresh
// server is started and driven by the same raw GIOP client (load_client.h), in several processes
// of a few threads, every connection with one request outstanding, back to back: a warm-up, then
// a fixed window in which replies are counted and round trips recorded. The server's CPU time
// over the window and its resident memory at the end come from /proc. load.csv has a row per
// point; the report draws load.png and adds the ratios to the socket and to omniORB to
// summary.md.
//
// The client processes meet at a go file: each connects its share (one at a time, each served
// once), prints "ready"; then this driver writes the window's start and end (steady clock, shared
// by every process on the machine) and the clients run until the end. Every wait is bounded: a
// hung server costs a point (recorded with its errors), never the run.
//
// The blocking mix (issue 28; --mix blocking, or --blocking-fraction F --blocking-ms M): the
// servers also serve LoadNap (benchmarks/peers/load_nap.idl), whose nap(M) sleeps in the upcall,
// and at every point each series runs twice on fresh servers, first fast-only, then with a
// fraction F of the requests (a seeded draw per request, load_client.h) nap(M) instead of the
// fast call. Only the fast calls' round trips make p50 and p99; the slow ones are counted apart.
// The rows go to load_blocking.csv (load.csv is not written); the socket series has no nap and
// is left out. The report puts p99(mix) / p99(fast-only) per series and connection count beside
// each other: a blocking upcall should hold up its own connection, not the others.
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/latency_histogram.h"
#include "benchmarks/sy_bench/load_client.h"
#include "benchmarks/sy_bench/peer_tools.h"
#include "orb/ior/object_reference.h"

namespace switchyard::bench {
namespace {

using steady = std::chrono::steady_clock;

enum class server_kind { switchyard, omniorb, socket };

struct series_spec {
  std::string name;         // load.csv's series
  std::string concurrency;  // load.csv's concurrency
  server_kind kind;
  std::vector<std::string> orb_args;
};

// The built-in series, in the order they run at each point. -ORB options on the command line add
// one more switchyard series with those options (load_main).
const std::vector<std::string> builtin_series = {"switchyard-adaptive",
                                                 "switchyard-reactive",
                                                 "switchyard-thread-per-connection",
                                                 "switchyard-thread-pool",
                                                 "omniorb-thread-per-connection",
                                                 "omniorb-thread-pool",
                                                 "socket"};

series_spec builtin(const std::string& name) {
  if (name == "switchyard-adaptive")
    return {name, "adaptive", server_kind::switchyard, {"-ORBConcurrency", "adaptive"}};
  if (name == "switchyard-reactive")
    return {name, "reactive", server_kind::switchyard, {"-ORBConcurrency", "reactive"}};
  if (name == "switchyard-thread-per-connection")
    return {name, "thread-per-connection", server_kind::switchyard, {"-ORBConcurrency", "thread-per-connection"}};
  if (name == "switchyard-thread-pool") return {name, "thread-pool", server_kind::switchyard, {"-ORBThreads", "4"}};
  // omniORB's defaults otherwise: thread per connection (up to threadPerConnectionUpperLimit,
  // 10000); its pool has up to maxServerThreadPoolSize (100) threads, and a thread that has served
  // a request watches that connection for the next one (threadPoolWatchConnection 1).
  if (name == "omniorb-thread-per-connection")
    return {name, "thread-per-connection", server_kind::omniorb, {"-ORBthreadPerConnectionPolicy", "1"}};
  if (name == "omniorb-thread-pool")
    return {name, "thread-pool", server_kind::omniorb, {"-ORBthreadPerConnectionPolicy", "0"}};
  return {name, "epoll", server_kind::socket, {}};
}

// The series the command line's -ORB options make: "switchyard -ORBDedicatedThreads 64".
series_spec options_series(const std::vector<std::string>& orb_args) {
  series_spec spec{"switchyard", "adaptive", server_kind::switchyard, orb_args};
  for (std::size_t i = 0; i < orb_args.size(); ++i) {
    std::string word = orb_args[i];
    std::replace(word.begin(), word.end(), ',', ';');  // CSV fields hold no commas
    spec.name += " " + word;
    if (i + 1 < orb_args.size() && orb_args[i] == "-ORBConcurrency") spec.concurrency = orb_args[i + 1];
    if (i + 1 < orb_args.size() && orb_args[i] == "-ORBThreads" && orb_args[i + 1] != "0")
      spec.concurrency = "thread-pool";
  }
  return spec;
}

// The blocking mix: a fraction of the requests is nap(ms). fraction 0: off (load.csv's run).
struct blocking_settings {
  double fraction = 0;
  std::int32_t ms = 10;
  bool on() const noexcept { return fraction > 0; }
};

// 0.01 -> "0.01", 1 -> "1": the fraction as written on the command line.
std::string shortest(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// "blocking 1% x 10 ms", "fast-only": load_blocking.csv's mix column.
std::string mix_label(const blocking_settings& mix) {
  if (!mix.on()) return "fast-only";
  return "blocking " + shortest(mix.fraction * 100) + "% x " + std::to_string(mix.ms) + " ms";
}

struct load_settings {
  std::chrono::milliseconds window{5000}, warmup{1000};
  std::size_t processes = 2, threads = 2, socket_threads = 1;
  std::chrono::milliseconds setup_timeout{60000}, drain{5000};
};

// Where a series' server listens for the load, and its process.
struct load_target {
  std::string host;
  std::uint16_t port = 0;
  std::vector<std::byte> key;
  std::vector<std::byte> nap_key;  // the LoadNap object's (servers started with `nap`), or empty
  pid_t pid = -1;
};

iop::invocation_target first_iiop_target(const std::string& ior_text) {
  for (auto& target : iop::targets_of(iop::parse_ior_string(ior_text)))
    if (target.where.kind == iop::transport_kind::iiop) return target;
  throw std::runtime_error("the server's IOR has no IIOP profile");
}

load_target target_from_ior(const std::string& ior_text, pid_t pid) {
  auto target = first_iiop_target(ior_text);
  return {target.where.host, target.where.port, target.object_key, {}, pid};
}

// One series' server for one point: started by the constructor, stopped by the destructor. `nap`:
// the ORB servers serve the LoadNap object too (the blocking mix's runs, both of their points).
class load_server {
 public:
  load_server(const series_spec& spec, const common_options& common, const load_settings& settings,
              const std::vector<std::byte>& socket_key, bool nap = false) {
    if (spec.kind == server_kind::switchyard) {
      // The built-in series run with their model's options alone; the options series with the
      // command line's (bench_server puts common.orb_args first).
      common_options server_common = common;
      server_common.orb_args.clear();
      switchyard_ = std::make_unique<bench_server>(server_common, 1, 0, spec.orb_args, common.out, true, nap);
      target_ = target_from_ior(switchyard_->ttcp_iors().front(), switchyard_->pid());
      if (nap) target_.nap_key = first_iiop_target(switchyard_->nap_ior()).object_key;
    } else if (spec.kind == server_kind::omniorb) {
      auto program = built_tool("peers/omni_server");
      if (!program) throw std::runtime_error("omni_server not built");
      auto args = spec.orb_args;
      if (nap) args.insert(args.begin(), "--nap");  // omni_server's own option, before the -ORB ones
      omniorb_ = std::make_unique<omni_server>(*program, common.out, 1, 0, args);
      std::ifstream in(omniorb_->ior_file());
      std::vector<std::string> lines;
      for (std::string line; std::getline(in, line);) lines.push_back(line);
      auto named = read_ior_lines(lines);
      auto it = named.find("ttcp/0");
      if (it == named.end()) throw std::runtime_error("omni_server's IOR file lacks ttcp/0");
      target_ = target_from_ior(it->second, omniorb_->pid());
      if (nap) {
        auto nap_line = named.find("nap");
        if (nap_line == named.end()) throw std::runtime_error("omni_server's IOR file lacks nap");
        target_.nap_key = first_iiop_target(nap_line->second).object_key;
      }
    } else {
      auto program = built_tool("baselines/epoll_server");
      if (!program) throw std::runtime_error("epoll_server not built");
      auto port_file = common.out / (".epoll-port-" + std::to_string(getpid()));
      std::filesystem::remove(port_file);
      socket_ = child_process::start(
          {program->string(), "--port-file", port_file.string(), "--threads", std::to_string(settings.socket_threads)},
          true);
      auto lines = wait_for_lines(port_file, 1, socket_, std::chrono::seconds(20));
      std::filesystem::remove(port_file);
      target_ = {"127.0.0.1", static_cast<std::uint16_t>(std::stoul(lines.front())), socket_key, {}, socket_.pid()};
    }
  }
  ~load_server() {
    try {
      if (switchyard_) switchyard_->stop();
    } catch (...) {
    }
  }
  load_server(const load_server&) = delete;
  load_server& operator=(const load_server&) = delete;
  const load_target& target() const noexcept { return target_; }

 private:
  std::unique_ptr<bench_server> switchyard_;
  std::unique_ptr<omni_server> omniorb_;
  child_process socket_;
  load_target target_;
};

// utime + stime of the whole process (every thread, live or ended), in seconds; -1 if unreadable.
double process_cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto paren = text.rfind(')');
  if (paren == std::string::npos) return -1;
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {  // field 3 is the state; 14 utime, 15 stime
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::size_t resident_kb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  std::size_t kb = 0;
  while (status >> key) {
    if (key == "VmRSS:") status >> kb;
    status.ignore(1 << 20, '\n');
  }
  return kb;
}

struct point_result {
  std::uint64_t requests = 0, errors = 0;  // requests: the fast calls'
  latency_histogram histogram;             // the fast calls' round trips
  std::uint64_t slow_requests = 0;         // the blocking mix's naps, and their round trips
  latency_histogram slow_histogram;
  double cpu_pct = 0;
  std::size_t rss_kb = 0;
  std::size_t processes = 0, threads = 0;
  std::string failure;  // empty when every client reported
};

std::int64_t steady_ns(steady::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

void write_whole_file(const std::filesystem::path& path, const std::string& text) {
  auto temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, path);
}

point_result run_point(const load_target& target, load_call call, std::size_t connections,
                       const load_settings& settings, const std::filesystem::path& work_dir,
                       const blocking_settings& mix = {}) {
  static int counter = 0;
  point_result result;
  const std::string stem = ".load-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  const auto go_file = work_dir / (stem + "-go");
  std::filesystem::remove(go_file);
  result.processes = std::min(settings.processes, connections);
  std::vector<child_process> clients;
  std::vector<std::filesystem::path> outputs;
  for (std::size_t p = 0; p < result.processes; ++p) {
    std::size_t share = connections / result.processes + (p < connections % result.processes ? 1 : 0);
    std::size_t threads = std::min(settings.threads, share);
    result.threads = std::max(result.threads, threads);
    outputs.push_back(work_dir / (stem + "-client-" + std::to_string(p)));
    std::vector<std::string> argv = {self_path(),
                                     "load-client",
                                     "--host",
                                     target.host,
                                     "--port",
                                     std::to_string(target.port),
                                     "--key",
                                     hex_of(target.key),
                                     "--call",
                                     std::string(to_string(call)),
                                     "--connections",
                                     std::to_string(share),
                                     "--threads",
                                     std::to_string(threads),
                                     "--go-file",
                                     go_file.string(),
                                     "--setup-timeout-ms",
                                     std::to_string(settings.setup_timeout.count()),
                                     "--drain-ms",
                                     std::to_string(settings.drain.count())};
    if (mix.on())  // each process its own seed (and each thread its own draws from it)
      argv.insert(argv.end(), {"--nap-key", hex_of(target.nap_key), "--blocking-fraction", shortest(mix.fraction),
                               "--blocking-ms", std::to_string(mix.ms), "--seed", std::to_string(p + 1)});
    clients.push_back(child_process::start(argv, false, outputs.back()));
  }
  auto cleanup = [&] {
    for (auto& c : clients) c.stop();
    std::error_code ignored;
    std::filesystem::remove(go_file, ignored);
    for (auto& o : outputs) std::filesystem::remove(o, ignored);
  };
  try {
    // Every client connected and served once (its own setup timeout, and a few seconds more here).
    auto setup_deadline = steady::now() + settings.setup_timeout + std::chrono::seconds(5);
    for (std::size_t p = 0; p < clients.size(); ++p) {
      for (;;) {
        std::ifstream in(outputs[p]);
        std::string line;
        if (std::getline(in, line) && line == "ready") break;
        if (auto status = clients[p].wait(std::chrono::milliseconds(0)))
          throw std::runtime_error("load client " + std::to_string(p) + " ended (status " + std::to_string(*status) +
                                   ") before it was ready");
        if (steady::now() > setup_deadline)
          throw std::runtime_error("load client " + std::to_string(p) + " not ready in time");
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    }
    auto start = steady::now() + settings.warmup;
    auto end = start + settings.window;
    write_whole_file(go_file, std::to_string(steady_ns(start)) + " " + std::to_string(steady_ns(end)) + "\n");
    std::this_thread::sleep_until(start);
    double cpu_start = process_cpu_seconds(target.pid);
    auto sampled_start = steady::now();
    std::this_thread::sleep_until(end);
    double cpu_end = process_cpu_seconds(target.pid);
    auto sampled_end = steady::now();
    result.rss_kb = resident_kb(target.pid);
    double elapsed = std::chrono::duration<double>(sampled_end - sampled_start).count();
    if (cpu_start >= 0 && cpu_end >= 0 && elapsed > 0) result.cpu_pct = 100.0 * (cpu_end - cpu_start) / elapsed;
    // The clients end after the window and their drain.
    auto end_deadline = end + settings.drain + std::chrono::seconds(10);
    for (std::size_t p = 0; p < clients.size(); ++p) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end_deadline - steady::now());
      auto status = clients[p].wait(std::max(left, std::chrono::milliseconds(1)));
      if (!status) throw std::runtime_error("load client " + std::to_string(p) + " did not end in time");
      if (*status != 0)
        throw std::runtime_error("load client " + std::to_string(p) + " failed (status " + std::to_string(*status) +
                                 ")");
      std::ifstream in(outputs[p]);
      bool reported = false;
      for (std::string word; in >> word;) {
        if (word == "requests") {
          std::uint64_t n = 0;
          in >> n;
          result.requests += n;
        } else if (word == "errors") {
          std::uint64_t n = 0;
          in >> n;
          result.errors += n;
        } else if (word == "histogram") {
          std::string rest;
          std::getline(in, rest);
          result.histogram.merge(latency_histogram::parse(rest));
          reported = true;
        } else if (word == "slow_requests") {
          std::uint64_t n = 0;
          in >> n;
          result.slow_requests += n;
        } else if (word == "slow_histogram") {
          std::string rest;
          std::getline(in, rest);
          result.slow_histogram.merge(latency_histogram::parse(rest));
        }
      }
      if (!reported) throw std::runtime_error("load client " + std::to_string(p) + " reported nothing");
    }
  } catch (const std::exception& e) {
    result.failure = e.what();
  }
  cleanup();
  return result;
}

// One point on a fresh server (a series at a number of connections): run_point's result, or the
// failure, which counts every connection as an error.
point_result measure_point(const series_spec& spec, const common_options& common, const load_settings& settings,
                           const std::vector<std::byte>& socket_key, load_call call, std::size_t connections,
                           const blocking_settings& mix, bool nap) {
  point_result result;
  try {
    load_server server(spec, common, settings, socket_key, nap);
    result = run_point(server.target(), call, connections, settings, common.out, mix);
  } catch (const std::exception& e) {
    result.failure = std::string("server: ") + e.what();
  }
  if (!result.failure.empty()) result.errors = std::max<std::uint64_t>(result.errors, connections);
  return result;
}

// The object key of sy-bench server's ttcp/0 with the ORB's defaults: what the socket series'
// requests carry, so that the epoll server reads the octets our server reads.
std::vector<std::byte> switchyard_key(const common_options& common) {
  common_options plain = common;
  plain.orb_args.clear();
  bench_server server(plain, 1, 0, {}, common.out);
  auto target = first_iiop_target(server.ttcp_iors().front());
  server.stop();
  return target.object_key;
}

// Rows of an earlier load.csv with these columns, for --append.
std::vector<std::vector<std::string>> earlier_rows(const std::filesystem::path& path,
                                                   const std::vector<std::string>& columns) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  if (!std::getline(in, line) || split(line, ',') != columns) return rows;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::size_t from = 0;
    for (;;) {  // empty fields kept (split() drops them)
      auto comma = line.find(',', from);
      fields.push_back(line.substr(from, comma - from));
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    if (fields.size() == columns.size()) rows.push_back(std::move(fields));
  }
  return rows;
}

// The blocking mix's runs (the file's first comment): at every point each ORB series fast-only,
// then with the mix, on fresh servers that serve LoadNap both times; rows to load_blocking.csv.
// The number of points that failed.
std::size_t run_blocking_mix(const std::vector<load_call>& calls, const std::vector<std::size_t>& connection_counts,
                             const std::vector<series_spec>& series, const load_settings& settings,
                             const common_options& common, const blocking_settings& mix, bool append) {
  csv_table table;
  table.columns = {"series",
                   "concurrency",
                   "connections",
                   "mix",
                   "blocking_fraction",
                   "blocking_ms",
                   "fast_requests_per_s",
                   "fast_p50_us",
                   "fast_p99_us",
                   "slow_requests",
                   "slow_p50_ms",
                   "slow_p99_ms",
                   "server_cpu_pct",
                   "server_rss_kb",
                   "call",
                   "fast_requests",
                   "errors",
                   "client_processes",
                   "client_threads",
                   "window_s",
                   "fast_max_ms"};
  const auto csv_path = common.out / "load_blocking.csv";
  if (append) {
    std::set<std::string> measured;
    for (auto& s : series) measured.insert(s.name);
    for (auto& row : earlier_rows(csv_path, table.columns))
      if (!measured.count(row[0])) table.add(row);
  }
  const double window_s = std::chrono::duration<double>(settings.window).count();
  const std::vector<blocking_settings> mixes = {blocking_settings{0, mix.ms}, mix};
  std::size_t failed_points = 0;
  for (auto call : calls) {
    for (auto connections : connection_counts) {
      for (auto& spec : series) {
        for (auto& m : mixes) {
          point_result result = measure_point(spec, common, settings, {}, call, connections, m, true);
          const bool failed = !result.failure.empty();
          if (failed) ++failed_points;
          double rate = failed ? 0 : static_cast<double>(result.requests) / window_s;
          auto quantile = [&](const latency_histogram& h, double q, double unit_ns) {
            return failed || h.count() == 0 ? std::string() : format_number(h.quantile_ns(q) / unit_ns, 1);
          };
          table.add({spec.name,
                     spec.concurrency,
                     std::to_string(connections),
                     mix_label(m),
                     shortest(m.fraction),
                     std::to_string(m.on() ? m.ms : 0),
                     format_number(rate, 0),
                     quantile(result.histogram, 0.5, 1e3),
                     quantile(result.histogram, 0.99, 1e3),
                     std::to_string(result.slow_requests),
                     quantile(result.slow_histogram, 0.5, 1e6),
                     quantile(result.slow_histogram, 0.99, 1e6),
                     format_number(result.cpu_pct, 1),
                     std::to_string(result.rss_kb),
                     std::string(to_string(call)),
                     std::to_string(result.requests),
                     std::to_string(result.errors),
                     std::to_string(result.processes),
                     std::to_string(result.threads),
                     format_number(window_s, 3),
                     quantile(result.histogram, 1.0, 1e6)});
          table.write(csv_path);
          std::cerr << "load " << spec.name << " " << to_string(call) << " x" << connections << " " << mix_label(m)
                    << ": ";
          if (failed) std::cerr << "FAILED: " << result.failure << "\n";
          else
            std::cerr << format_number(rate, 0) << " fast requests/s, fast p50 " << quantile(result.histogram, 0.5, 1e3)
                      << " us, p99 " << quantile(result.histogram, 0.99, 1e3) << " us, " << result.slow_requests
                      << " slow calls, " << result.errors << " errors\n";
        }
      }
    }
  }
  std::cerr << "load: " << table.rows.size() << " rows -> " << csv_path.string()
            << (failed_points ? ", " + std::to_string(failed_points) + " points failed" : std::string()) << "\n";
  return failed_points;
}

}  // namespace

int load_main(std::vector<std::string> args) {
  const bool pin_given =
      std::any_of(args.begin(), args.end(), [](const std::string& a) { return a.starts_with("--pin"); });
  arg_parser parser(std::move(args));
  auto common = parse_common(parser);
  if (!pin_given) common.pin = pin_mode::none;  // many processes: unpinned unless asked
  const bool quick = common.size == preset::quick;
  auto connection_counts =
      parser.number_list("--connections", quick ? std::vector<std::size_t>{1, 16, 256}
                                                : std::vector<std::size_t>{1, 4, 16, 64, 256, 1024});
  auto call_names = parser.list("--calls", {"null", "octet1k"});
  auto series_names = parser.list("--series", builtin_series);
  load_settings settings;
  settings.window = std::chrono::milliseconds(parser.number("--window-ms").value_or(quick ? 1000 : 5000));
  settings.warmup = std::chrono::milliseconds(parser.number("--warmup-ms").value_or(quick ? 300 : 1000));
  settings.processes = parser.number("--client-processes").value_or(2);
  settings.threads = parser.number("--client-threads").value_or(2);
  const auto cpus = static_cast<std::size_t>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  settings.socket_threads = parser.number("--socket-threads").value_or(cpus);
  const bool append = parser.flag("--append");
  // The blocking mix: --mix blocking is 1 % of the calls nap(10 ms); --blocking-fraction and
  // --blocking-ms set either (and imply the mix). --mix fast (the default): load.csv as before.
  blocking_settings mix;
  auto mix_name = parser.value("--mix").value_or("fast");
  auto fraction_text = parser.value("--blocking-fraction");
  auto blocking_ms = parser.number("--blocking-ms");
  parser.finish();
  if (mix_name != "fast" && mix_name != "blocking") throw usage_error("--mix: fast or blocking");
  if (mix_name == "blocking" || fraction_text || blocking_ms) mix.fraction = 0.01;
  if (fraction_text) {
    auto parsed = parse_blocking_fraction(*fraction_text);
    if (!parsed || *parsed <= 0) throw usage_error("--blocking-fraction: a number above 0, up to 1");
    mix.fraction = *parsed;
  }
  if (blocking_ms) {
    if (*blocking_ms == 0 || *blocking_ms > 60000) throw usage_error("--blocking-ms: 1..60000");
    mix.ms = static_cast<std::int32_t>(*blocking_ms);
  }

  std::vector<load_call> calls;
  for (auto& name : call_names) {
    auto call = parse_load_call(name);
    if (!call) throw usage_error("--calls: unknown call '" + name + "' (null, octet1k)");
    calls.push_back(*call);
  }
  std::vector<series_spec> series;
  const bool have_omniorb = built_tool("peers/omni_server").has_value();
  for (auto& name : series_names) {
    if (std::find(builtin_series.begin(), builtin_series.end(), name) == builtin_series.end())
      throw usage_error("--series: unknown series '" + name + "'");
    if (name.starts_with("omniorb") && !have_omniorb) {
      std::cerr << "load: omniORB peers not built: no " << name << " series\n";
      continue;
    }
    if (mix.on() && name == "socket") {
      std::cerr << "load: the blocking mix leaves out the socket series (its server has no nap)\n";
      continue;
    }
    series.push_back(builtin(name));
  }
  if (!common.orb_args.empty()) {
    // The options series runs before the first series that is not ours.
    auto at = std::find_if(series.begin(), series.end(), [](auto& s) { return s.kind != server_kind::switchyard; });
    series.insert(at, options_series(common.orb_args));
  }
  if (series.empty()) throw std::runtime_error("no series to run");
  for (auto n : connection_counts)
    if (n == 0 || n > 65536) throw usage_error("--connections: expected 1..65536");
  if (settings.window.count() == 0) throw usage_error("--window-ms: at least 1");
  if (settings.processes == 0 || settings.processes > 256 || settings.threads == 0 || settings.threads > 256)
    throw usage_error("--client-processes, --client-threads: 1..256");
  if (settings.socket_threads == 0 || settings.socket_threads > 1024) throw usage_error("--socket-threads: 1..1024");
  if (common.collocated) throw usage_error("load drives server processes: --collocated does not apply");
  if (common.netns) throw usage_error("load runs on loopback: --netns and --link do not apply");
  if (common.transport != "iiop") throw usage_error("load drives TCP connections: --transport iiop only");

  // Servers and clients inherit the raised limit: 1024 connections need more than the usual 1024.
  const std::size_t descriptors = raise_descriptor_limit();
  const std::size_t most = *std::max_element(connection_counts.begin(), connection_counts.end());
  if (descriptors < most + 64)
    throw usage_error("--connections " + std::to_string(most) + " needs " + std::to_string(most + 64) +
                      " descriptors per process; the hard limit (ulimit -Hn) is " + std::to_string(descriptors));

  std::filesystem::create_directories(common.out);
  const std::size_t points = calls.size() * connection_counts.size() * series.size() * (mix.on() ? 2 : 1);
  const double seconds_per_point =
      std::chrono::duration<double>(settings.window + settings.warmup).count() + 0.7;  // + server start, setup
  std::cerr << "load: " << apply_pinning(common.pin) << ", " << points << " points of "
            << format_number(std::chrono::duration<double>(settings.window).count(), 1) << " s (about "
            << format_number(static_cast<double>(points) * seconds_per_point / 60, 1) << " min), out "
            << common.out.string() << "\n";
  std::string connection_list;
  for (auto n : connection_counts) connection_list += (connection_list.empty() ? "" : ",") + std::to_string(n);
  note_run(common, "load",
           "connections " + connection_list + ", window " +
               format_number(std::chrono::duration<double>(settings.window).count(), 1) + " s after " +
               format_number(std::chrono::duration<double>(settings.warmup).count(), 1) + " s warm-up, up to " +
               std::to_string(settings.processes) + " client processes x " + std::to_string(settings.threads) +
               " threads" +
               (mix.on() ? std::string(", no socket series (no nap)")
                         : ", socket server " + std::to_string(settings.socket_threads) + " epoll loops") +
               (pin_given ? std::string() : std::string(" (load runs unpinned by default: many processes)")) +
               (mix.on() ? ", each point fast-only and " + mix_label(mix) + " (load_blocking.csv)" : std::string()));

  if (mix.on()) {
    run_blocking_mix(calls, connection_counts, series, settings, common, mix, append);
    run_report(common.out);
    return 0;
  }

  csv_table table;
  table.columns = {"series", "concurrency",      "connections",    "requests_per_s", "p50_us",
                   "p99_us", "server_cpu_pct",   "server_rss_kb",  "call",           "requests",
                   "errors", "client_processes", "client_threads", "window_s"};
  const auto csv_path = common.out / "load.csv";
  if (append) {
    std::set<std::string> measured;
    for (auto& s : series) measured.insert(s.name);
    for (auto& row : earlier_rows(csv_path, table.columns))
      if (!measured.count(row[0])) table.add(row);
  }
  std::vector<std::byte> socket_key;
  if (std::any_of(series.begin(), series.end(), [](auto& s) { return s.kind == server_kind::socket; }))
    socket_key = switchyard_key(common);

  const double window_s = std::chrono::duration<double>(settings.window).count();
  std::size_t failed_points = 0;
  for (auto call : calls) {
    for (auto connections : connection_counts) {
      for (auto& spec : series) {
        point_result result = measure_point(spec, common, settings, socket_key, call, connections, {}, false);
        const bool failed = !result.failure.empty();
        if (failed) ++failed_points;
        double rate = failed ? 0 : static_cast<double>(result.requests) / window_s;
        auto us = [&](double q) {
          return failed || result.histogram.count() == 0 ? std::string()
                                                         : format_number(result.histogram.quantile_ns(q) / 1000.0, 1);
        };
        table.add({spec.name, spec.concurrency, std::to_string(connections), format_number(rate, 0), us(0.5), us(0.99),
                   format_number(result.cpu_pct, 1), std::to_string(result.rss_kb), std::string(to_string(call)),
                   std::to_string(result.requests), std::to_string(result.errors), std::to_string(result.processes),
                   std::to_string(result.threads), format_number(window_s, 3)});
        table.write(csv_path);
        std::cerr << "load " << spec.name << " " << to_string(call) << " x" << connections << ": ";
        if (failed) std::cerr << "FAILED: " << result.failure << "\n";
        else
          std::cerr << format_number(rate, 0) << " requests/s, p50 " << us(0.5) << " us, p99 " << us(0.99)
                    << " us, server CPU " << format_number(result.cpu_pct, 0) << " %, RSS " << result.rss_kb << " kB, "
                    << result.errors << " errors\n";
      }
    }
  }
  std::cerr << "load: " << table.rows.size() << " rows -> " << csv_path.string()
            << (failed_points ? ", " + std::to_string(failed_points) + " points failed" : std::string()) << "\n";
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
