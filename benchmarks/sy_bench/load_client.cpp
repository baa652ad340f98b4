#include "benchmarks/sy_bench/load_client.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/latency_histogram.h"
#include "orb/giop/message_header.h"
#include "orb/giop/messages.h"
#include "orb/giop/protocol.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::bench {

std::string_view to_string(load_call call) noexcept { return call == load_call::null_call ? "null" : "octet1k"; }

std::optional<load_call> parse_load_call(std::string_view name) noexcept {
  if (name == "null") return load_call::null_call;
  if (name == "octet1k") return load_call::octets_1k;
  return std::nullopt;
}

void raw_request::set_request_id(std::uint32_t id) noexcept {
  std::memcpy(bytes.data() + request_id_offset, &id, sizeof id);  // written in native order
}

raw_request build_raw_request(std::span<const std::byte> object_key, load_call call) {
  cdr::output_stream out(2048, 2);
  giop::request_fields fields;
  fields.request_id = 1;
  fields.response_flags = giop::response_flags::with_target;
  fields.target = giop::target_address::by_key(object_key);
  fields.operation = call == load_call::null_call ? "sendNoParams_2way" : "sendOctetSeq_2way";
  const auto& protocol = giop::giop_1_2();
  auto mark = protocol.begin_request(out, fields);
  if (call == load_call::octets_1k) {
    std::vector<std::uint8_t> octets(1024);
    for (std::size_t i = 0; i < octets.size(); ++i) octets[i] = static_cast<std::uint8_t>(i * 7);
    out.write_sequence(octets.data(), octets.size());
  }
  auto message = giop::protocol::finish(out, mark);
  raw_request request;
  request.bytes.assign(message.begin(), message.end());
  request.request_id_offset = mark.request_id_offset - mark.header_offset;
  return request;
}

raw_request build_nap_request(std::span<const std::byte> object_key, std::int32_t ms) {
  cdr::output_stream out(256, 2);
  giop::request_fields fields;
  fields.request_id = 1;
  fields.response_flags = giop::response_flags::with_target;
  fields.target = giop::target_address::by_key(object_key);
  fields.operation = "nap";
  const auto& protocol = giop::giop_1_2();
  auto mark = protocol.begin_request(out, fields);
  out.write_long(ms);
  auto message = giop::protocol::finish(out, mark);
  raw_request request;
  request.bytes.assign(message.begin(), message.end());
  request.request_id_offset = mark.request_id_offset - mark.header_offset;
  return request;
}

blocking_mix::blocking_mix(double fraction, std::uint64_t seed) noexcept
    : fraction_(std::clamp(fraction, 0.0, 1.0)), state_(seed) {}

bool blocking_mix::next_is_slow() noexcept {
  if (fraction_ <= 0) return false;
  // splitmix64: one draw per request, 53 bits of it as a double in [0, 1).
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53 < fraction_;
}

void load_tally::reply(bool slow_call, bool ok, bool in_window, std::uint64_t round_trip_ns) {
  if (!ok) {
    ++errors;
    return;
  }
  if (!in_window) return;
  if (slow_call) {
    ++slow_requests;
    slow.record(round_trip_ns);
  } else {
    ++fast_requests;
    fast.record(round_trip_ns);
  }
}

std::string_view to_string(reply_check check) noexcept {
  switch (check) {
    case reply_check::ok:
      return "ok";
    case reply_check::malformed:
      return "malformed message";
    case reply_check::not_a_reply:
      return "not a Reply";
    case reply_check::wrong_request_id:
      return "Reply to another request";
    case reply_check::not_no_exception:
      return "Reply status other than NO_EXCEPTION";
  }
  return "?";
}

reply_check check_reply(std::span<const std::byte> message, std::uint32_t request_id) noexcept {
  try {
    auto view = giop::make_message_view(message);
    if (view.header.type != giop::message_type::reply) return reply_check::not_a_reply;
    const auto* protocol = giop::protocol_for(view.header.ver.minor);
    if (protocol == nullptr) return reply_check::malformed;
    auto reply = protocol->decode_reply(view);
    if (reply.request_id != request_id) return reply_check::wrong_request_id;
    if (reply.status != giop::reply_status::no_exception) return reply_check::not_no_exception;
    return reply_check::ok;
  } catch (...) {
    return reply_check::malformed;
  }
}

std::vector<std::byte> octets_from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) throw std::invalid_argument("hex: odd number of digits");
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument(std::string("hex: '") + c + "' is not a hex digit");
  };
  std::vector<std::byte> octets;
  for (std::size_t i = 0; i < hex.size(); i += 2)
    octets.push_back(static_cast<std::byte>(digit(hex[i]) * 16 + digit(hex[i + 1])));
  return octets;
}

std::string hex_of(std::span<const std::byte> octets) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  for (auto b : octets) {
    text += digits[static_cast<unsigned>(b) >> 4];
    text += digits[static_cast<unsigned>(b) & 15];
  }
  return text;
}

std::optional<double> parse_blocking_fraction(std::string_view text) noexcept {
  std::string copy(text);
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || errno != 0 || end != copy.c_str() + copy.size() || !(value >= 0 && value <= 1))
    return std::nullopt;
  return value;
}

std::size_t raise_descriptor_limit() noexcept {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
    ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  return static_cast<std::size_t>(limit.rlim_cur);
}

namespace {

using steady = std::chrono::steady_clock;

std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(steady::now().time_since_epoch()).count();
}

struct client_options {
  std::string host = "127.0.0.1";
  std::string port;
  std::vector<std::byte> key;
  load_call call = load_call::null_call;
  std::size_t connections = 1, threads = 1;
  std::filesystem::path go_file;
  std::int64_t setup_timeout_ns = 60'000'000'000;
  std::int64_t drain_ns = 5'000'000'000;
  std::int64_t go_timeout_ns = 300'000'000'000;
  // The blocking mix (off when nap_key is empty or blocking_fraction is 0).
  std::vector<std::byte> nap_key;
  double blocking_fraction = 0;
  std::int32_t blocking_ms = 10;
  std::uint64_t seed = 1;
};

// What the threads share: readiness, the window, the first failure.
struct shared_state {
  std::atomic<std::size_t> ready{0};
  std::atomic<bool> go{false};
  std::atomic<bool> failed{false};
  std::int64_t window_start = 0, window_end = 0;  // written before `go` is set
  std::mutex failure_lock;
  std::string failure;

  void fail(const std::string& why) {
    std::lock_guard lock(failure_lock);
    if (failure.empty()) failure = why;
    failed = true;
  }
};

struct thread_result {
  std::unique_ptr<load_tally> tally = std::make_unique<load_tally>();
};

struct connection {
  int fd = -1;
  std::uint32_t request_id = 0;
  std::int64_t sent_at = 0;
  bool waiting = false;  // a request is out
  bool slow = false;     // the request out is the blocking mix's nap
  std::vector<std::byte> in = std::vector<std::byte>(512);
  std::size_t have = 0;
};

addrinfo* resolve(const client_options& options) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int rc = ::getaddrinfo(options.host.c_str(), options.port.c_str(), &hints, &found);
  if (rc != 0 || found == nullptr)
    throw std::runtime_error("cannot resolve " + options.host + ":" + options.port + ": " + gai_strerror(rc));
  return found;
}

int open_connection(const addrinfo* where) {
  int fd = ::socket(where->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  timeval bound{10, 0};  // connect gives up after 10 s (SO_SNDTIMEO bounds it on Linux)
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
  while (::connect(fd, where->ai_addr, where->ai_addrlen) != 0) {
    if (errno == EINTR) continue;
    int error = errno;
    ::close(fd);
    throw std::runtime_error(std::string("connect: ") + std::strerror(error));
  }
  return fd;
}

bool send_all(int fd, const std::byte* data, std::size_t size) noexcept {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Octets of the complete message at the front of `c.in` (0: not complete yet; grows the buffer to
// hold it), or -1 when the header is not GIOP we can read.
long complete_message(connection& c) {
  if (c.have < giop::header_size) return 0;
  auto header = giop::decode_header(std::span(c.in.data(), c.have));
  if (header.status != giop::header_status::ok) return -1;
  std::size_t total = giop::header_size + header.header.body_size;
  if (c.have < total) {
    if (c.in.size() < total) c.in.resize(total);
    return 0;
  }
  return static_cast<long>(total);
}

void consume(connection& c, std::size_t octets) {
  if (c.have > octets) std::memmove(c.in.data(), c.in.data() + octets, c.have - octets);
  c.have -= octets;
}

// The setup call: one request on a fresh connection and its reply, within `deadline`.
void first_call(connection& c, raw_request& request, std::int64_t deadline) {
  request.set_request_id(++c.request_id);
  if (!send_all(c.fd, request.bytes.data(), request.bytes.size()))
    throw std::runtime_error(std::string("first request not sent: ") + std::strerror(errno));
  for (;;) {
    long total = complete_message(c);
    if (total < 0) throw std::runtime_error("first reply: not a GIOP message");
    if (total > 0) {
      auto verdict = check_reply(std::span(c.in.data(), static_cast<std::size_t>(total)), c.request_id);
      if (verdict != reply_check::ok) throw std::runtime_error("first reply: " + std::string(to_string(verdict)));
      consume(c, static_cast<std::size_t>(total));
      return;
    }
    auto left_ms = (deadline - now_ns()) / 1'000'000;
    if (left_ms <= 0) throw std::runtime_error("no reply to the first request (setup timeout)");
    pollfd p{c.fd, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left_ms, 1000)));
    if (ready < 0 && errno != EINTR) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    if (ready <= 0) continue;
    ssize_t n = ::recv(c.fd, c.in.data() + c.have, c.in.size() - c.have, 0);
    if (n == 0) throw std::runtime_error("the server closed the connection before the first reply");
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("recv: ") + std::strerror(errno));
    }
    c.have += static_cast<std::size_t>(n);
  }
}

void run_thread(const client_options& options, const addrinfo* where, std::size_t count, std::size_t index,
                shared_state& shared, thread_result& result) {
  auto request = build_raw_request(options.key, options.call);
  const bool mixed = !options.nap_key.empty() && options.blocking_fraction > 0;
  auto nap_request = mixed ? build_nap_request(options.nap_key, options.blocking_ms) : raw_request{};
  blocking_mix mix(mixed ? options.blocking_fraction : 0.0, options.seed * 0x100000001b3ULL + index);
  auto& tally = *result.tally;
  std::vector<connection> connections(count);
  const std::int64_t setup_deadline = now_ns() + options.setup_timeout_ns;
  std::size_t opened = 0;
  try {
    // One at a time: connected and served before the next connect, so the listen backlog never
    // overflows and every connection is known to be served before the window.
    for (auto& c : connections) {
      if (shared.failed) return;
      c.fd = open_connection(where);
      ++opened;
      first_call(c, request, setup_deadline);
    }
  } catch (const std::exception& e) {
    shared.fail("connection " + std::to_string(opened) + " of " + std::to_string(count) + ": " + e.what());
    return;
  }
  shared.ready.fetch_add(1);
  while (!shared.go.load(std::memory_order_acquire)) {
    if (shared.failed) return;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  const std::int64_t start = shared.window_start, end = shared.window_end;

  int poller = ::epoll_create1(EPOLL_CLOEXEC);
  if (poller < 0) {
    shared.fail(std::string("epoll_create1: ") + std::strerror(errno));
    return;
  }
  std::size_t waiting = 0;
  bool sending = true;
  auto drop = [&](connection& c) {
    ::epoll_ctl(poller, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    c.fd = -1;
    ++tally.errors;  // a connection lost (with its request, if one was out) is one error
    if (c.waiting) {
      c.waiting = false;
      --waiting;
    }
  };
  auto send_next = [&](connection& c) {
    c.slow = mix.next_is_slow();
    auto& next = c.slow ? nap_request : request;
    next.set_request_id(++c.request_id);
    c.sent_at = now_ns();
    if (!send_all(c.fd, next.bytes.data(), next.bytes.size())) {
      drop(c);
      return;
    }
    c.waiting = true;
    ++waiting;
  };
  for (auto& c : connections) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.ptr = &c;
    if (::epoll_ctl(poller, EPOLL_CTL_ADD, c.fd, &event) != 0) {
      shared.fail(std::string("epoll_ctl: ") + std::strerror(errno));
      ::close(poller);
      return;
    }
  }
  for (auto& c : connections) send_next(c);

  std::vector<epoll_event> events(256);
  for (;;) {
    std::int64_t now = now_ns();
    if (sending && now >= end) sending = false;
    if (!sending && (waiting == 0 || now >= end + options.drain_ns)) break;
    std::int64_t until = sending ? end : end + options.drain_ns;
    int timeout_ms = static_cast<int>(std::clamp<std::int64_t>((until - now) / 1'000'000 + 1, 1, 100));
    int n = ::epoll_wait(poller, events.data(), static_cast<int>(events.size()), timeout_ms);
    if (n < 0) {
      if (errno == EINTR) continue;
      shared.fail(std::string("epoll_wait: ") + std::strerror(errno));
      break;
    }
    for (int i = 0; i < n; ++i) {
      auto& c = *static_cast<connection*>(events[i].data.ptr);
      if (c.fd < 0) continue;
      if (c.in.size() - c.have < 256) c.in.resize(c.in.size() * 2);
      ssize_t got = ::recv(c.fd, c.in.data() + c.have, c.in.size() - c.have, MSG_DONTWAIT);
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
      if (got <= 0) {
        drop(c);
        continue;
      }
      c.have += static_cast<std::size_t>(got);
      for (;;) {
        long total = complete_message(c);
        if (total == 0) break;
        if (total < 0) {
          drop(c);
          break;
        }
        std::int64_t arrived = now_ns();
        auto verdict = check_reply(std::span(c.in.data(), static_cast<std::size_t>(total)), c.request_id);
        consume(c, static_cast<std::size_t>(total));
        if (!c.waiting) {
          ++tally.errors;  // a message nobody asked for (a CloseConnection among them)
          continue;
        }
        c.waiting = false;
        --waiting;
        tally.reply(c.slow, verdict == reply_check::ok, arrived >= start && arrived < end,
                    static_cast<std::uint64_t>(arrived - c.sent_at));
        if (sending && arrived < end) send_next(c);
        if (c.fd < 0) break;
      }
    }
  }
  tally.errors += waiting;  // replies that never came
  for (auto& c : connections)
    if (c.fd >= 0) ::close(c.fd);
  ::close(poller);
}

client_options parse_client_options(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  client_options options;
  if (auto host = parser.value("--host")) options.host = *host;
  auto port = parser.number("--port");
  auto key = parser.value("--key");
  auto call = parser.value("--call");
  options.connections = parser.number("--connections").value_or(1);
  options.threads = parser.number("--threads").value_or(1);
  auto go_file = parser.value("--go-file");
  if (auto ms = parser.number("--setup-timeout-ms"))
    options.setup_timeout_ns = static_cast<std::int64_t>(*ms) * 1'000'000;
  if (auto ms = parser.number("--drain-ms")) options.drain_ns = static_cast<std::int64_t>(*ms) * 1'000'000;
  if (auto ms = parser.number("--go-timeout-ms")) options.go_timeout_ns = static_cast<std::int64_t>(*ms) * 1'000'000;
  auto nap_key = parser.value("--nap-key");
  auto fraction = parser.value("--blocking-fraction");
  auto blocking_ms = parser.number("--blocking-ms");
  if (auto seed = parser.number("--seed")) options.seed = *seed;
  parser.finish();
  if (fraction) {
    auto parsed = parse_blocking_fraction(*fraction);
    if (!parsed) throw usage_error("load-client: --blocking-fraction: expected a number from 0 to 1");
    options.blocking_fraction = *parsed;
  }
  if (blocking_ms) {
    if (*blocking_ms > 60000) throw usage_error("load-client: --blocking-ms: 0..60000");
    options.blocking_ms = static_cast<std::int32_t>(*blocking_ms);
  }
  if (options.blocking_fraction > 0 && !nap_key)
    throw usage_error("load-client: --blocking-fraction needs --nap-key HEX (the LoadNap object)");
  if (!port || *port == 0 || *port > 65535) throw usage_error("load-client: --port 1..65535 is required");
  if (!key) throw usage_error("load-client: --key HEX is required");
  if (!go_file) throw usage_error("load-client: --go-file is required");
  if (!call || !parse_load_call(*call)) throw usage_error("load-client: --call null|octet1k is required");
  if (options.connections == 0 || options.threads == 0 || options.threads > options.connections)
    throw usage_error("load-client: --connections at least 1, --threads 1..connections");
  try {
    options.key = octets_from_hex(*key);
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("load-client: --key: ") + e.what());
  }
  if (nap_key) {
    try {
      options.nap_key = octets_from_hex(*nap_key);
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string("load-client: --nap-key: ") + e.what());
    }
  }
  options.port = std::to_string(*port);
  options.call = *parse_load_call(*call);
  options.go_file = *go_file;
  return options;
}

// Waits for the go file; false after `timeout_ns`.
bool wait_for_window(const client_options& options, shared_state& shared) {
  const std::int64_t deadline = now_ns() + options.go_timeout_ns;
  while (now_ns() < deadline) {
    std::ifstream in(options.go_file);
    std::int64_t start = 0, end = 0;
    if (in >> start >> end && end > start) {
      shared.window_start = start;
      shared.window_end = end;
      shared.go.store(true, std::memory_order_release);
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

}  // namespace

int load_client_main(std::vector<std::string> args) {
  auto options = parse_client_options(std::move(args));
  raise_descriptor_limit();
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> where(resolve(options), &::freeaddrinfo);
  shared_state shared;
  std::vector<thread_result> results(options.threads);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < options.threads; ++t) {
    std::size_t count = options.connections / options.threads + (t < options.connections % options.threads ? 1 : 0);
    threads.emplace_back([&, t, count] { run_thread(options, where.get(), count, t, shared, results[t]); });
  }
  // Setup is bounded by --setup-timeout-ms in every thread; a failure ends the process at once
  // (the other threads may still be connecting).
  while (shared.ready.load() < options.threads && !shared.failed)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (shared.failed) {
    std::lock_guard lock(shared.failure_lock);
    std::cerr << "load-client: setup failed: " << shared.failure << std::endl;
    std::_Exit(1);
  }
  std::cout << "ready" << std::endl;
  if (!wait_for_window(options, shared)) {
    std::cerr << "load-client: no window in " << options.go_file << " in time" << std::endl;
    std::_Exit(1);
  }
  for (auto& t : threads) t.join();
  if (shared.failed) {
    std::cerr << "load-client: " << shared.failure << std::endl;
    return 1;
  }
  auto all = std::make_unique<load_tally>();
  for (auto& r : results) {
    all->fast.merge(r.tally->fast);
    all->slow.merge(r.tally->slow);
    all->fast_requests += r.tally->fast_requests;
    all->slow_requests += r.tally->slow_requests;
    all->errors += r.tally->errors;
  }
  std::cout << "requests " << all->fast_requests << "\nerrors " << all->errors << "\nhistogram " << all->fast.to_text()
            << "\n";
  if (!options.nap_key.empty())
    std::cout << "slow_requests " << all->slow_requests << "\nslow_histogram " << all->slow.to_text() << "\n";
  std::cout << std::flush;
  return 0;
}

}  // namespace switchyard::bench
