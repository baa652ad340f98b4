// What the two baselines (C sockets and ACE socket wrappers) share: the command line, the setup
// message, and the latency and ttcp loops over a stream with send_n / recv_n. Header-only; each
// baseline supplies its stream, connector and acceptor.
//
//   <baseline> server --port-file PATH [--socket-queue Q]       serves connections one at a time
//   <baseline> latency --port P --request-bytes N --reply-bytes M --samples K --warmup W
//              --samples-out FILE [--socket-queue Q]             one round trip (ns) per line;
//                                                                 reply 0: one-way (time to send)
//   <baseline> ttcp --port P --buffer-bytes S --total-bytes T [--socket-queue Q]
//                                                                 prints "seconds=<f> bytes=<n>"
//   every command: [--host ADDRESS]  the server's IPv4 address to listen on or connect to
//                                    (default 127.0.0.1; sy-bench --netns: the veth's)
//
// The client's first 24 bytes say what follows: kind (1 latency, 2 ttcp), two sizes, total.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard::baselines {

struct setup_message {
  std::uint32_t kind = 0;    // 1 latency, 2 ttcp
  std::uint32_t first = 0;   // latency: request bytes; ttcp: buffer bytes
  std::uint32_t second = 0;  // latency: reply bytes
  std::uint32_t reserved = 0;
  std::uint64_t total = 0;  // ttcp: total bytes
};
static_assert(sizeof(setup_message) == 24);

struct arguments {
  std::string command;
  std::string port_file, samples_out;
  std::string host = "127.0.0.1";
  int port = 0;
  std::size_t request_bytes = 0, reply_bytes = 0, samples = 1000, warmup = 100;
  std::size_t buffer_bytes = 65536, total_bytes = 64u << 20, socket_queue = 0;
};

inline std::size_t to_number(const char* name, const char* text) {
  char* end = nullptr;
  unsigned long long n = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') throw std::runtime_error(std::string(name) + ": expected a number");
  return static_cast<std::size_t>(n);
}

inline arguments parse_arguments(int argc, char** argv) {
  if (argc < 2) throw std::runtime_error("usage: server|latency|ttcp ...");
  arguments a;
  a.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string_view name = argv[i];
    if (i + 1 >= argc) throw std::runtime_error(std::string(name) + " needs a value");
    const char* value = argv[++i];
    if (name == "--port-file") a.port_file = value;
    else if (name == "--samples-out") a.samples_out = value;
    else if (name == "--host") a.host = value;
    else if (name == "--port") a.port = static_cast<int>(to_number("--port", value));
    else if (name == "--request-bytes") a.request_bytes = to_number("--request-bytes", value);
    else if (name == "--reply-bytes") a.reply_bytes = to_number("--reply-bytes", value);
    else if (name == "--samples") a.samples = to_number("--samples", value);
    else if (name == "--warmup") a.warmup = to_number("--warmup", value);
    else if (name == "--buffer-bytes") a.buffer_bytes = to_number("--buffer-bytes", value);
    else if (name == "--total-bytes") a.total_bytes = to_number("--total-bytes", value);
    else if (name == "--socket-queue") a.socket_queue = to_number("--socket-queue", value);
    else throw std::runtime_error("unknown option " + std::string(name));
  }
  if (a.request_bytes > (64u << 20) || a.reply_bytes > (64u << 20) || a.buffer_bytes == 0 ||
      a.buffer_bytes > (64u << 20))
    throw std::runtime_error("sizes out of range");
  return a;
}

inline void write_port_file(const std::string& path, int port) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary);
    out << port << "\n";
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, path);
}

// Serves one connection: Stream has bool recv_n(void*, size_t) and bool send_n(const void*, size_t).
template <class Stream>
void serve(Stream& stream) {
  setup_message setup;
  if (!stream.recv_n(&setup, sizeof setup)) return;
  if (setup.kind == 1) {
    if (setup.first > (64u << 20) || setup.second > (64u << 20)) return;
    std::vector<char> request(setup.first + 1), reply(setup.second + 1, 'r');
    while (stream.recv_n(request.data(), setup.first)) {
      if (setup.second != 0 && !stream.send_n(reply.data(), setup.second)) return;
    }
  } else if (setup.kind == 2) {
    if (setup.first == 0 || setup.first > (64u << 20)) return;
    std::vector<char> buffer(setup.first);
    std::uint64_t left = setup.total;
    while (left > 0) {
      std::size_t n = left < setup.first ? static_cast<std::size_t>(left) : setup.first;
      if (!stream.recv_n(buffer.data(), n)) return;
      left -= n;
    }
    char ack = 'k';
    stream.send_n(&ack, 1);
  }
}

template <class Stream>
int run_latency(Stream& stream, const arguments& a) {
  setup_message setup{1, static_cast<std::uint32_t>(a.request_bytes), static_cast<std::uint32_t>(a.reply_bytes), 0, 0};
  if (!stream.send_n(&setup, sizeof setup)) throw std::runtime_error("send failed");
  std::vector<char> request(a.request_bytes + 1, 'q'), reply(a.reply_bytes + 1);
  std::vector<std::int64_t> samples;
  samples.reserve(a.samples);
  for (std::size_t i = 0; i < a.warmup + a.samples; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    if (!stream.send_n(request.data(), a.request_bytes)) throw std::runtime_error("send failed");
    if (a.reply_bytes != 0 && !stream.recv_n(reply.data(), a.reply_bytes)) throw std::runtime_error("recv failed");
    auto t1 = std::chrono::steady_clock::now();
    if (i >= a.warmup) samples.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
  }
  std::FILE* out = a.samples_out.empty() ? stdout : std::fopen(a.samples_out.c_str(), "w");
  if (out == nullptr) throw std::runtime_error("cannot write " + a.samples_out);
  for (auto s : samples) std::fprintf(out, "%lld\n", static_cast<long long>(s));
  if (out != stdout) std::fclose(out);
  return 0;
}

template <class Stream>
int run_ttcp(Stream& stream, const arguments& a) {
  setup_message setup{2, static_cast<std::uint32_t>(a.buffer_bytes), 0, 0, a.total_bytes};
  if (!stream.send_n(&setup, sizeof setup)) throw std::runtime_error("send failed");
  std::vector<char> buffer(a.buffer_bytes, 't');
  auto t0 = std::chrono::steady_clock::now();
  std::size_t left = a.total_bytes;
  while (left > 0) {
    std::size_t n = left < a.buffer_bytes ? left : a.buffer_bytes;
    if (!stream.send_n(buffer.data(), n)) throw std::runtime_error("send failed");
    left -= n;
  }
  char ack = 0;
  if (!stream.recv_n(&ack, 1)) throw std::runtime_error("no acknowledgement");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("seconds=%.9f bytes=%zu\n", seconds, a.total_bytes);
  return 0;
}

}  // namespace switchyard::baselines
