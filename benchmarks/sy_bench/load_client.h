// The raw GIOP client of `sy-bench load`: pre-built GIOP 1.2 Request octets sent back to back over
// many connections, each reply checked, every round trip recorded. It measures the servers, not a
// client ORB: every series (our server in each concurrency model, omniORB's, the epoll socket
// server) is driven by these same octets. `sy-bench load` starts it as the hidden subcommand
// `sy-bench load-client` in several processes (load_experiment.cpp says how they meet):
//
//   sy-bench load-client --host H --port P --key HEX --call null|octet1k --connections N
//       --threads T --go-file F [--setup-timeout-ms 60000] [--drain-ms 5000]
//       [--nap-key HEX --blocking-fraction F --blocking-ms M [--seed S]]
//
// Each of the T threads opens its share of the N connections one at a time and makes one call on
// each (every connection established and served before any load), then the process prints
// "ready". With --nap-key and a --blocking-fraction F above 0 (the blocking mix, `sy-bench load
// --mix blocking`), each request sent in the window is, with probability F, LoadNap::nap(M) on the
// --nap-key object instead of the fast call: one seeded PRNG per thread (--seed, the thread's
// index mixed in) draws for every send, so the slow calls fall on every connection. The slow
// calls' replies are counted apart ("slow_requests", "slow_histogram") and never enter the
// fast calls' "requests" and "histogram". When F appears (two numbers: the window's start and end on the steady clock,
// in ns) the threads, each an epoll loop over its connections, keep one request outstanding per connection until the
// window ends, then wait up to --drain-ms for the replies still due. Replies that arrive within the window are counted
// and their round trips recorded. At the end it prints "requests N", "errors E" (replies other than a NO_EXCEPTION
// Reply with the request's id, connections lost, replies never received) and "histogram ..."
// (latency_histogram::to_text). A setup failure ends it with status 1 and a line on stderr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/sy_bench/latency_histogram.h"

namespace switchyard::bench {

// The calls of the load experiment on ttcp_sequence: sendNoParams_2way(), and
// sendOctetSeq_2way() with 1024 octets.
enum class load_call { null_call, octets_1k };
std::string_view to_string(load_call call) noexcept;  // "null", "octet1k"
std::optional<load_call> parse_load_call(std::string_view name) noexcept;

// A GIOP 1.2 Request for `call` on `object_key`: native byte order, response expected, KeyAddr,
// no service contexts. set_request_id patches the id in place for the next send.
struct raw_request {
  std::vector<std::byte> bytes;
  std::size_t request_id_offset = 0;
  void set_request_id(std::uint32_t id) noexcept;
};
raw_request build_raw_request(std::span<const std::byte> object_key, load_call call);
// The blocking mix's slow call: LoadNap::nap(ms) (benchmarks/peers/load_nap.idl) on `object_key`.
raw_request build_nap_request(std::span<const std::byte> object_key, std::int32_t ms);

// Which requests of the blocking mix are slow: each draw of a splitmix64 sequence from `seed` is
// slow with probability `fraction` (0: never, 1: always). The same seed gives the same choices.
class blocking_mix {
 public:
  blocking_mix(double fraction, std::uint64_t seed) noexcept;
  bool next_is_slow() noexcept;

 private:
  double fraction_;
  std::uint64_t state_;
};

// One thread's (or process's) account of the replies: the fast calls' round trips within the
// window go into `fast`, the slow calls' into `slow`; a reply that is not ok is an error, whatever
// the call; replies outside the window are not counted.
struct load_tally {
  latency_histogram fast, slow;
  std::uint64_t fast_requests = 0, slow_requests = 0, errors = 0;
  void reply(bool slow_call, bool ok, bool in_window, std::uint64_t round_trip_ns);
};

// What one complete message (12-octet header included) is as the answer to request `request_id`.
enum class reply_check { ok, malformed, not_a_reply, wrong_request_id, not_no_exception };
std::string_view to_string(reply_check check) noexcept;
reply_check check_reply(std::span<const std::byte> message, std::uint32_t request_id) noexcept;

// "0a1b..." -> octets; raises std::invalid_argument on an odd length or a non-hex digit.
std::vector<std::byte> octets_from_hex(std::string_view hex);
std::string hex_of(std::span<const std::byte> octets);

// "0.01" -> 0.01: a fraction from 0 to 1 (nullopt for anything else).
std::optional<double> parse_blocking_fraction(std::string_view text) noexcept;

// Raises this process's descriptor limit (RLIMIT_NOFILE) to its hard limit; returns the new soft
// limit.
std::size_t raise_descriptor_limit() noexcept;

// The hidden subcommand.
int load_client_main(std::vector<std::string> args);

}  // namespace switchyard::bench
