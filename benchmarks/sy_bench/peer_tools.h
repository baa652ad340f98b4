// The other programs an experiment runs beside the ORB: the baselines (benchmarks/baselines), the
// omniORB peers (benchmarks/peers), and a relay that counts the bytes of the ORB's messages so the
// socket baseline sends exactly as many.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "benchmarks/sy_bench/process.h"

namespace switchyard::bench {

// A program built beside sy-bench ("baselines/socket_baseline"), if it exists.
std::optional<std::filesystem::path> built_tool(const std::string& relative);

// A baseline server (`<baseline> server --port-file F [--socket-queue Q] [--host H]`), stopped on
// destruction. `host`: the address it listens on (sy-bench's server_host).
class baseline_server {
 public:
  baseline_server(const std::filesystem::path& program, const std::filesystem::path& work_dir, std::size_t socket_queue,
                  const std::string& host = "127.0.0.1");
  int port() const noexcept { return port_; }

 private:
  child_process process_;
  int port_ = 0;
};

// omni_server --ior-file F [--servants N] [-ORB... options]: its lines by name ("ttcp/0" -> IOR),
// listening on `host` (-ORBendPoint when it is not 127.0.0.1).
class omni_server {
 public:
  omni_server(const std::filesystem::path& program, const std::filesystem::path& work_dir, std::size_t servants,
              std::size_t socket_queue, const std::vector<std::string>& orb_args = {},
              const std::string& host = "127.0.0.1");
  ~omni_server();
  const std::filesystem::path& ior_file() const noexcept { return ior_file_; }
  pid_t pid() const noexcept { return process_.pid(); }

 private:
  child_process process_;
  std::filesystem::path ior_file_, out_file_;
};

// Runs a client to completion (at most `timeout`); its stdout. Raises std::runtime_error naming
// the program when it fails.
std::string run_client(const std::vector<std::string>& argv, const std::filesystem::path& work_dir,
                       std::chrono::seconds timeout = std::chrono::seconds(300));

// One number per line (nanoseconds) as microseconds.
std::vector<double> read_samples_us(const std::filesystem::path& path);

// "seconds=<f> bytes=<n>" -> seconds.
std::optional<double> parse_seconds(const std::string& output);

// A TCP relay on 127.0.0.1 that forwards one connection to `upstream_host`:`upstream_port` and
// counts bytes each way.
class byte_counting_relay {
 public:
  explicit byte_counting_relay(int upstream_port, const std::string& upstream_host = "127.0.0.1");
  ~byte_counting_relay();
  int port() const noexcept { return port_; }
  std::uint64_t to_server() const noexcept { return to_server_.load(); }
  std::uint64_t to_client() const noexcept { return to_client_.load(); }

 private:
  void run();
  int listener_ = -1;
  int port_ = 0;
  int upstream_port_;
  std::string upstream_host_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> to_server_{0}, to_client_{0};
  std::thread thread_;
};

// Waits (bounded, one second) until the relay has seen at least `at_least` bytes toward the server.
void wait_for_bytes(const byte_counting_relay& relay, std::uint64_t at_least);

// "corbaloc:iiop:1.2@host:port/key": the port, and the URL to 127.0.0.1:`new_port` (a relay).
std::pair<int, std::string> split_url(const std::string& url, int new_port);

}  // namespace switchyard::bench
