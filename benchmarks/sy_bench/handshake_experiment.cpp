// `sy-bench handshake`: what a new connection costs. Each sample is one new connection and its
// first call: our ORB resolves the reference and makes a two-way sendNoParams_2way on a client
// ORB that has never reached the server (its TCP connect, over ssliop the TLS handshake with
// both sides' certificates verified, the GIOP request and reply); the C socket connects, sends
// the same request bytes and reads the same reply bytes. The client ORBs are made before the
// clock starts and destroyed after it stops (a batch at a time), so neither orb_init nor the TLS
// context's loading of keys and certificates is in a sample: only what every new connection
// costs. Samples are taken in rounds, the series in a shuffled order in each, as the latency
// experiment's; a series is reported by the median of its round medians and its 95 % interval,
// and as connections per second (one after another: 1 / median). omniORB's series: one ORB that
// reaches the server at a new loopback address per sample (omni_bench_client connect).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <random>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/peer_tools.h"
#include "benchmarks/sy_bench/statistics.h"
#include "benchmarks/sy_bench/tls_material.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

struct handshake_point {
  std::string series, transport;
  // Measures n new connections, one sample (us) each.
  std::function<void(std::size_t, std::vector<double>&)> run;
  std::vector<double> samples{}, round_median_us{};
};

// The C socket's new connection: connect, the request bytes (after the baseline's 24-byte setup
// message, in the same write), the reply bytes; then close (outside the sample).
double socket_connection_us(const std::string& host, int port, std::size_t request_bytes, std::size_t reply_bytes) {
  std::vector<char> out(24 + request_bytes, 'q'), in(reply_bytes + 1);
  std::uint32_t setup[6] = {1, static_cast<std::uint32_t>(request_bytes), static_cast<std::uint32_t>(reply_bytes), 0, 0,
                            0};
  std::memcpy(out.data(), setup, 24);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  inet_pton(AF_INET, host.c_str(), &address.sin_addr);
  auto t0 = std::chrono::steady_clock::now();
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // as our ORB's connections
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    throw std::runtime_error("socket baseline: connect failed");
  }
  std::size_t sent = 0;
  while (sent < out.size()) {
    auto n = ::send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      close(fd);
      throw std::runtime_error("socket baseline: send failed");
    }
    sent += static_cast<std::size_t>(n);
  }
  std::size_t got = 0;
  while (got < reply_bytes) {
    auto n = ::recv(fd, in.data() + got, reply_bytes - got, 0);
    if (n <= 0) {
      close(fd);
      throw std::runtime_error("socket baseline: recv failed");
    }
    got += static_cast<std::size_t>(n);
  }
  double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  close(fd);
  return us;
}

// A TCP port free on every address now (omni_server's --port).
int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  socklen_t size = sizeof address;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    if (fd >= 0) close(fd);
    throw std::runtime_error("handshake: no free port for omni_server");
  }
  close(fd);
  return ntohs(address.sin_port);
}

}  // namespace

int handshake_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto common = parse_common(parser, true);
  bool quick = common.size == preset::quick;
  // Connections per series: 2000 by default (about 10 s over TLS), 10000 with --paper, 120 with --quick.
  std::size_t samples = parser.number("--connections")
                            .value_or(quick                          ? 120
                                      : common.size == preset::paper ? 10000
                                                                     : 2000);
  std::size_t rounds = parser.number("--rounds").value_or(quick ? 6 : common.size == preset::paper ? 20 : 10);
  // Client ORBs alive at once (made before the clock starts, destroyed after it stops).
  std::size_t batch = parser.number("--batch").value_or(50);
  auto series = parser.list("--series", {"switchyard", "socket", "omniorb"});
  parser.finish();
  if (samples == 0) throw usage_error("--connections: at least 1");
  if (rounds == 0 || rounds > samples) throw usage_error("--rounds: expected 1..connections");
  if (batch == 0 || batch > 1000) throw usage_error("--batch: expected 1..1000");
  for (auto& s : series)
    if (s != "switchyard" && s != "socket" && s != "omniorb")
      throw usage_error("--series: expected switchyard, socket or omniorb, got '" + s + "'");
  if (common.collocated) throw usage_error("handshake measures new connections: not with --collocated");
  auto wants = [&](const char* s) { return std::find(series.begin(), series.end(), s) != series.end(); };
  set_up_network(common);
  const std::string host = server_host(common);
  std::filesystem::create_directories(common.out);
  std::cerr << "handshake: " << apply_pinning(common.pin) << ", preset " << to_string(common.size) << ", " << samples
            << " connections per series in " << rounds << " rounds, out " << common.out.string() << "\n";
  note_run(common, "handshake",
           std::to_string(samples) + " new connections (and their first call) per series in " + std::to_string(rounds) +
               " interleaved rounds");

  std::unique_ptr<tls_material> tls;
  if (std::find(common.transports.begin(), common.transports.end(), "ssliop") != common.transports.end())
    tls = std::make_unique<tls_material>(common.tls_certs);
  const payload none(element_type::none, 0);

  // The first call's bytes on a new connection, counted through a relay (plain IIOP): what the
  // socket series sends and reads.
  std::uint64_t request_bytes = 0, reply_bytes = 0;
  std::vector<std::unique_ptr<bench_server>> servers;
  std::vector<handshake_point> points;
  {
    common_options iiop = common;
    iiop.transport = "iiop";
    bench_server server(iiop, 1, 0, {"-ORBInstrument", "0"}, common.out);
    byte_counting_relay relay(split_url(server.first_url(), 0).first, host);
    auto probe = orb_init(common.orb_args);
    send(probe->string_to_object(server.ttcp_iors().front()), none, true);  // loads what a first call loads
    probe->destroy();
    probe = orb_init(common.orb_args);
    send(probe->string_to_object(split_url(server.first_url(), relay.port()).second), none, true);
    wait_for_bytes(relay, 1);
    request_bytes = relay.to_server();
    reply_bytes = relay.to_client();
    probe->destroy();
  }
  for (auto& transport : common.transports) {
    if (!wants("switchyard")) break;
    common_options over = common;
    over.transport = transport;
    std::vector<std::string> server_args = {"-ORBInstrument", "0"}, client_args = common.orb_args;
    if (transport == "ssliop") {
      auto more = tls->server_args(host);
      server_args.insert(server_args.end(), more.begin(), more.end());
      auto mine = tls->client_args();
      client_args.insert(client_args.end(), mine.begin(), mine.end());
    }
    servers.push_back(std::make_unique<bench_server>(over, 1, 0, server_args, common.out));
    std::string ior = servers.back()->ttcp_iors().front();
    {  // the server's first connection (its lazily made parts), and a check that calls go through
      auto warm = orb_init(client_args);
      send(warm->string_to_object(ior), none, true);
      warm->destroy();
    }
    points.push_back(
        {"switchyard", transport, [client_args, ior, batch, &none](std::size_t n, std::vector<double>& out) {
           for (std::size_t done = 0; done < n;) {
             std::size_t now = std::min(batch, n - done);
             std::vector<std::shared_ptr<orb>> clients;
             for (std::size_t i = 0; i < now; ++i) clients.push_back(orb_init(client_args));
             for (auto& c : clients) {
               auto t0 = std::chrono::steady_clock::now();
               send(c->string_to_object(ior), none, true);
               out.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
             }
             for (auto& c : clients) c->destroy();
             done += now;
           }
         }});
  }
  std::unique_ptr<baseline_server> socket_server;
  if (wants("socket")) {
    auto program = built_tool("baselines/socket_baseline");
    if (!program) {
      std::cerr << "handshake: socket_baseline not built: no socket series\n";
    } else {
      socket_server = std::make_unique<baseline_server>(*program, common.out, 0, host);
      int port = socket_server->port();
      points.push_back(
          {"socket", "tcp", [host, port, request_bytes, reply_bytes](std::size_t n, std::vector<double>& out) {
             for (std::size_t i = 0; i < n; ++i)
               out.push_back(socket_connection_us(host, port, request_bytes, reply_bytes));
           }});
    }
  }

  // omniORB: omni_bench_client's connect command (a new address of 127.0.0.0/8 per sample: omniORB
  // keeps a connection per address for the process's life), one client process per round, the
  // server listening on every address (0.0.0.0) at a port chosen here.
  std::vector<std::unique_ptr<omni_server>> omnis;
  if (wants("omniorb")) {
    auto server_program = built_tool("peers/omni_server");
    auto client_program = built_tool("peers/omni_bench_client");
    if (!server_program || !client_program) {
      std::cerr << "handshake: omniORB peers not built: no omniorb series\n";
    } else if (common.netns) {
      std::cerr << "handshake: no omniorb series with --netns (its addresses are loopback ones)\n";
    } else {
      std::vector<std::string> omni_transports;
      for (auto& t : common.transports)
        if (std::find(omni_transports.begin(), omni_transports.end(), omni_transport(t)) == omni_transports.end())
          omni_transports.push_back(omni_transport(t));
      for (auto& transport : omni_transports) {
        int port = free_port();
        std::vector<std::string> args = {"--host", "0.0.0.0", "--port", std::to_string(port)};
        std::vector<std::string> ssl;
        if (transport == "ssliop") ssl = tls->omni_args();
        args.insert(args.end(), ssl.begin(), ssl.end());
        try {
          omnis.push_back(std::make_unique<omni_server>(*server_program, common.out, 1, 0, args));
        } catch (const std::exception& e) {
          std::cerr << "handshake: omniorb " << transport << " series skipped: " << e.what() << "\n";
          continue;
        }
        auto samples_file = common.out / (".samples-omniorb-" + transport);
        std::vector<std::string> argv = {client_program->string(),
                                         "--ior-file",
                                         omnis.back()->ior_file().string(),
                                         "connect",
                                         "--port",
                                         std::to_string(port),
                                         "--warmup",
                                         "2",
                                         "--samples-out",
                                         samples_file.string()};
        argv.insert(argv.end(), ssl.begin(), ssl.end());
        points.push_back({"omniorb", transport, [argv, samples_file, &common](std::size_t n, std::vector<double>& out) {
                            auto with_count = argv;
                            with_count.insert(with_count.end(), {"--samples", std::to_string(n)});
                            run_client(with_count, common.out);
                            auto got = read_samples_us(samples_file);
                            out.insert(out.end(), got.begin(), got.end());
                            std::error_code ignored;
                            std::filesystem::remove(samples_file, ignored);
                          }});
      }
    }
  }

  std::mt19937 random(24);
  std::vector<std::size_t> order(points.size());
  std::vector<double> round_samples;
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), random);
    std::size_t n = samples * (round + 1) / rounds - samples * round / rounds;
    for (auto i : order) {
      auto& point = points[i];
      round_samples.clear();
      point.run(n, round_samples);
      if (round_samples.empty()) continue;
      point.round_median_us.push_back(summarize(round_samples).median);
      point.samples.insert(point.samples.end(), round_samples.begin(), round_samples.end());
    }
    std::cerr << "handshake: round " << round + 1 << "/" << rounds << " of " << points.size() << " series\n";
  }
  for (auto& s : servers) s->stop();
  socket_server.reset();
  omnis.clear();

  // ratio_to_iiop: over the same ORB's plain IIOP (ours for ours, omniORB's for omniORB's).
  double socket_us = 0;
  std::map<std::string, double> iiop_us;
  for (auto& p : points) {
    if (p.samples.empty()) continue;
    double m = median_with_interval(p.round_median_us).median;
    if (p.series == "socket") socket_us = m;
    if (p.transport == "iiop") iiop_us[p.series] = m;
  }
  csv_table table;
  table.columns = {"series",
                   "transport",
                   "connections",
                   "rounds",
                   "mean_us",
                   "median_us",
                   "p99_us",
                   "ci_low_us",
                   "ci_high_us",
                   "connections_per_s",
                   "min_us",
                   "pooled_median_us",
                   "ratio_to_socket",
                   "ratio_to_iiop",
                   "request_bytes",
                   "reply_bytes",
                   "link"};
  for (auto& p : points) {
    if (p.samples.empty()) continue;
    auto stats = summarize(p.samples);
    auto median = median_with_interval(p.round_median_us);
    std::cerr << "handshake " << p.series << " " << p.transport << ": median " << format_number(median.median, 1)
              << " us per new connection and first call (" << format_number(1e6 / median.median, 0) << "/s)\n";
    table.add({p.series, p.transport, std::to_string(stats.samples), std::to_string(p.round_median_us.size()),
               format_number(stats.mean), format_number(median.median), format_number(stats.p99),
               median.has_interval() ? format_number(median.low) : "",
               median.has_interval() ? format_number(median.high) : "", format_number(1e6 / median.median, 0),
               format_number(stats.min), format_number(stats.median),
               socket_us > 0 ? format_number(median.median / socket_us, 3) : "",
               iiop_us.count(p.series) ? format_number(median.median / iiop_us[p.series], 3) : "",
               std::to_string(request_bytes), std::to_string(reply_bytes), link_label(common)});
  }
  table.write(common.out / "handshake.csv");
  std::cerr << "handshake: " << table.rows.size() << " rows -> " << (common.out / "handshake.csv").string() << "\n";
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
