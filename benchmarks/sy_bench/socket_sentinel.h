// The paired demux experiment's socket sentinel: a raw-socket ping-pong with the C sockets
// baseline (benchmarks/baselines/socket_baseline), on a connection of its own, sending as many
// bytes each way as the ORB's reference call. Visited in every block beside the strategies, it
// says which mode the machine was in (paired_design.h) and is the socket ratio's denominator.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks/sy_bench/peer_tools.h"

namespace switchyard::bench {

class socket_sentinel {
 public:
  // Starts the baseline server (in this process's CPU set) and connects to it on `host`.
  socket_sentinel(const std::filesystem::path& program, const std::filesystem::path& work_dir,
                  std::size_t request_bytes, std::size_t reply_bytes, const std::string& host = "127.0.0.1");
  ~socket_sentinel();
  socket_sentinel(const socket_sentinel&) = delete;
  socket_sentinel& operator=(const socket_sentinel&) = delete;

  // One round trip: the request's bytes out, the reply's back. Raises std::runtime_error when the
  // connection fails.
  void round_trip();

 private:
  baseline_server server_;
  int fd_ = -1;
  std::vector<char> request_, reply_;
};

}  // namespace switchyard::bench
