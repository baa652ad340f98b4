// omni_bench_client: omniORB's client for sy-bench's `omniorb` series (see README.md).
//
//   omni_bench_client --ior-file PATH [--object ttcp/0] [--verbose] [-ORB<option> <value> ...]
//       latency --mode twoway|oneway --type none|octet|binstruct --units N --samples K
//               --warmup W --samples-out FILE
//       latency --mode twoway --type echo_doubles|echo_longs|echo_records|echo_narecords --units N ...
//               (on --object echo: Integrity::Echo, N elements, the reply checked once)
//       ttcp --type octet|binstruct --buffer-bytes S --total-bytes T [--socket-queue Q] [--oneway]
//
// latency: W untimed calls, then K calls each timed with std::chrono::steady_clock; FILE gets one
// time in nanoseconds per line. twoway: the round trip of sendNoParams_2way, sendOctetSeq_2way (N
// octets) or sendStructSeq_2way (N BinStructs). oneway: sendNoParams_1way; with octet/binstruct,
// the sequence operation sent as a one-way request (no reply expected, see README.md); each
// sample is then the time to send, the call returning once the request is written to the socket.
// ttcp: the TTCP flooding model over ttcp_sequence. One buffer of S bytes (octets, or S/24
// BinStructs: 24 bytes each in CDR) is built once and sent back to back, sendOctetSeq_2way or
// sendStructSeq_2way, until T bytes are sent; prints "seconds=<float> bytes=<int> calls=<int>".
// Options may come before or after the command word; -ORB options pass through to omniORB.
// --ssl DIR [--ssl-key FILE] (either command): omniORB's SSL transport (omni_ssl.h), CA DIR/ca.pem,
// certificate and key DIR/omni-client.pem or FILE, for a server listening with SSL
// (omni_server --ssl); not with --socket-queue, which is for TCP only.
#include "integrity.hh"
#include "omni_socket_queue.h"
#include "omni_ssl.h"
#include "ttcp_sequence.hh"

#include <omniORB4/callDescriptor.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

constexpr unsigned long cdr_binstruct_bytes = 24;  // short char (pad) long octet (pad) double

enum class payload { none, octet, binstruct };

struct options {
  std::string ior_file;
  std::string object = "ttcp/0";
  std::string command;  // latency | ttcp | connect
  // connect: the server's port (omni_server --host 0.0.0.0 --port P)
  int port = 0;
  bool verbose = false;
  // latency
  std::string mode;  // twoway | oneway
  std::string type;  // none | octet | binstruct
  unsigned long units = 0;
  unsigned long samples = 0;
  unsigned long warmup = 0;
  std::string samples_out;
  bool has_units = false, has_samples = false, has_warmup = false;
  // ttcp
  unsigned long long buffer_bytes = 0;
  unsigned long long total_bytes = 0;
  int socket_queue = 0;
  bool oneway = false;
  switchyard::bench::omni_ssl_options ssl;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "omni_bench_client: " << why << "\n"
            << "usage: omni_bench_client --ior-file PATH [--object NAME] [--verbose] [-ORB...]\n"
               "         latency --mode twoway|oneway --type none|octet|binstruct --units N\n"
               "                 --samples K --warmup W --samples-out FILE\n"
               "       omni_bench_client --ior-file PATH [--object NAME] [--verbose] [-ORB...]\n"
               "         ttcp --type octet|binstruct --buffer-bytes S --total-bytes T\n"
               "              [--socket-queue Q] [--oneway]\n"
               "       omni_bench_client --ior-file PATH [-ORB...]\n"
               "         connect --port P --samples K --warmup W --samples-out FILE\n"
               "       either with [--ssl DIR [--ssl-key FILE]]\n";
  std::exit(2);
}

unsigned long long to_number(const std::string& text, unsigned long long max, const std::string& what) {
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || text.empty() || text[0] == '-' || *end != '\0' || value > max) {
    usage(what + ": '" + text + "' is not a number up to " + std::to_string(max));
  }
  return value;
}

options parse(int argc, char** argv, std::vector<char*>& orb_args) {
  options opts;
  orb_args.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg.rfind("-ORB", 0) == 0) {
      if (i + 1 >= argc) usage(arg + " needs a value");
      orb_args.push_back(argv[i]);
      orb_args.push_back(argv[++i]);
    } else if (arg == "latency" || arg == "ttcp" || arg == "connect") {
      if (!opts.command.empty()) usage("two commands given: " + opts.command + " and " + arg);
      opts.command = arg;
    } else if (arg == "--ior-file") {
      opts.ior_file = value();
    } else if (arg == "--object") {
      opts.object = value();
    } else if (arg == "--verbose") {
      opts.verbose = true;
    } else if (arg == "--mode") {
      opts.mode = value();
    } else if (arg == "--type") {
      opts.type = value();
    } else if (arg == "--units") {
      opts.units = to_number(value(), 1UL << 26, "--units");
      opts.has_units = true;
    } else if (arg == "--samples") {
      opts.samples = to_number(value(), 100000000UL, "--samples");
      opts.has_samples = true;
    } else if (arg == "--warmup") {
      opts.warmup = to_number(value(), 100000000UL, "--warmup");
      opts.has_warmup = true;
    } else if (arg == "--samples-out") {
      opts.samples_out = value();
    } else if (arg == "--buffer-bytes") {
      opts.buffer_bytes = to_number(value(), 1ULL << 30, "--buffer-bytes");
    } else if (arg == "--total-bytes") {
      opts.total_bytes = to_number(value(), 1ULL << 50, "--total-bytes");
    } else if (arg == "--socket-queue") {
      opts.socket_queue = static_cast<int>(to_number(value(), 1 << 30, "--socket-queue"));
      if (opts.socket_queue == 0) usage("--socket-queue must be at least 1");
    } else if (arg == "--port") {
      opts.port = static_cast<int>(to_number(value(), 65535, "--port"));
    } else if (arg == "--oneway") {
      opts.oneway = true;
    } else if (arg == "--ssl") {
      opts.ssl.dir = value();
    } else if (arg == "--ssl-key") {
      opts.ssl.key_file = value();
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (opts.ior_file.empty()) usage("--ior-file is required");
  if (opts.command == "latency") {
    if (opts.mode != "twoway" && opts.mode != "oneway") usage("--mode is twoway or oneway");
    bool echo = opts.type == "echo_doubles" || opts.type == "echo_longs" || opts.type == "echo_records" ||
                opts.type == "echo_narecords";
    if (opts.type != "none" && opts.type != "octet" && opts.type != "binstruct" && !echo) {
      usage("--type is none, octet, binstruct, echo_doubles, echo_longs, echo_records or echo_narecords");
    }
    if (echo && opts.mode != "twoway") usage("--type " + opts.type + " is two-way only");
    if (opts.type != "none" && !opts.has_units) usage("--units is required with --type " + opts.type);
    if (!opts.has_samples || opts.samples == 0) usage("--samples (at least 1) is required");
    if (!opts.has_warmup) usage("--warmup is required (0 for none)");
    if (opts.samples_out.empty()) usage("--samples-out is required");
  } else if (opts.command == "connect") {
    if (opts.port == 0) usage("connect: --port (1..65535) is required");
    if (!opts.has_samples || opts.samples == 0 || opts.samples + opts.warmup > 60000)
      usage("connect: --samples (1..60000 with the warm-up) is required");
    if (opts.samples_out.empty()) usage("--samples-out is required");
  } else if (opts.command == "ttcp") {
    if (opts.type != "octet" && opts.type != "binstruct") usage("ttcp --type is octet or binstruct");
    if (opts.buffer_bytes == 0) usage("--buffer-bytes (at least 1) is required");
    if (opts.type == "binstruct" && opts.buffer_bytes < cdr_binstruct_bytes) {
      usage("--buffer-bytes must hold one BinStruct (24 bytes)");
    }
    if (opts.total_bytes == 0) usage("--total-bytes (at least 1) is required");
  } else {
    usage("no command given (latency, ttcp or connect)");
  }
  if (opts.ssl.dir.empty() && !opts.ssl.key_file.empty()) usage("--ssl-key needs --ssl DIR");
  if (!opts.ssl.dir.empty() && opts.socket_queue > 0) usage("--socket-queue is for TCP only, not with --ssl");
  if (!opts.ssl.dir.empty()) {
    const std::string why = switchyard::bench::configure_omni_ssl(opts.ssl, "omni-client.pem");
    if (!why.empty()) usage("--ssl: " + why);
  }
  return opts;
}

// Reads the "name IOR" lines omni_server writes.
std::string find_ior(const std::string& path, const std::string& name) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "omni_bench_client: cannot read " << path << "\n";
    std::exit(1);
  }
  std::map<std::string, std::string> iors;
  for (std::string line; std::getline(in, line);) {
    auto space = line.find(' ');
    if (space != std::string::npos) iors[line.substr(0, space)] = line.substr(space + 1);
  }
  auto found = iors.find(name);
  if (found == iors.end()) {
    std::cerr << "omni_bench_client: no object named '" << name << "' in " << path << "\n";
    std::exit(1);
  }
  return found->second;
}

// ---- One-way requests for the sequence operations.
//
// ttcp_sequence declares only sendNoParams_1way as oneway. To send a sequence one-way, as the
// TTCP papers' oneway sendOctetSeq/sendStructSeq did, we hand omniORB the same call its stub
// makes, with the call descriptor's oneway flag set: the request goes out with response_expected
// false, and the server runs the operation without replying (GIOP allows this for any operation;
// it is what DII send_oneway does, without DII's per-call NVList and Any costs).

void no_local_call(omniCallDescriptor*, omniServant*) {
  throw CORBA::NO_IMPLEMENT(0, CORBA::COMPLETED_NO);  // the servant is always remote here
}

class oneway_octets_call final : public omniCallDescriptor {
 public:
  explicit oneway_octets_call(const ttcp_sequence::OctetSeq& seq)
      : omniCallDescriptor(no_local_call, "sendOctetSeq_2way", sizeof "sendOctetSeq_2way",
                           /*oneway=*/1, nullptr, 0, /*is_upcall=*/0),
        seq_(seq) {}
  void marshalArguments(cdrStream& stream) override { seq_ >>= stream; }

 private:
  const ttcp_sequence::OctetSeq& seq_;
};

class oneway_structs_call final : public omniCallDescriptor {
 public:
  explicit oneway_structs_call(const ttcp_sequence::StructSeq& seq)
      : omniCallDescriptor(no_local_call, "sendStructSeq_2way", sizeof "sendStructSeq_2way",
                           /*oneway=*/1, nullptr, 0, /*is_upcall=*/0),
        seq_(seq) {}
  void marshalArguments(cdrStream& stream) override { seq_ >>= stream; }

 private:
  const ttcp_sequence::StructSeq& seq_;
};

void send_oneway(ttcp_sequence_ptr target, const ttcp_sequence::OctetSeq& seq) {
  oneway_octets_call call(seq);
  target->_invoke(call);
}

void send_oneway(ttcp_sequence_ptr target, const ttcp_sequence::StructSeq& seq) {
  oneway_structs_call call(seq);
  target->_invoke(call);
}

// ---- Payloads: distinct values, built once before any timing.

ttcp_sequence::OctetSeq make_octets(unsigned long count) {
  ttcp_sequence::OctetSeq seq;
  seq.length(static_cast<CORBA::ULong>(count));
  for (unsigned long i = 0; i < count; ++i) seq[i] = static_cast<CORBA::Octet>(i * 31 + 7);
  return seq;
}

ttcp_sequence::StructSeq make_structs(unsigned long count) {
  ttcp_sequence::StructSeq seq;
  seq.length(static_cast<CORBA::ULong>(count));
  for (unsigned long i = 0; i < count; ++i) {
    BinStruct& b = seq[i];
    b.s = static_cast<CORBA::Short>(i);
    b.c = static_cast<CORBA::Char>('a' + i % 26);
    b.l = static_cast<CORBA::Long>(i * 1000);
    b.o = static_cast<CORBA::Octet>(i);
    b.d = static_cast<double>(i) * 0.5;
  }
  return seq;
}

// ---- connect: new connections (sy-bench handshake's omniorb series)

// Each sample: a reference to ttcp0 by corbaloc at an address this process has not reached yet,
// and its first sendNoParams_2way: omniORB opens a new connection (over SSL with --ssl: the TLS
// handshake, both certificates verified) for each address. omniORB keeps one connection per
// address for the life of the process and has no call that closes one, so the addresses differ:
// 127.0.X.Y, all loopback, the server listening on all of them (omni_server --host 0.0.0.0). The
// connections stay open until the process ends.
int run_connect(const options& opts, CORBA::ORB_ptr orb) {
  const std::string scheme = opts.ssl.dir.empty() ? "iiop" : "ssliop";
  std::vector<long long> nanoseconds;
  nanoseconds.reserve(opts.samples);
  for (unsigned long i = 0; i < opts.warmup + opts.samples; ++i) {
    const unsigned long n = i + 2;  // 127.0.0.2 on: 127.0.0.1 may be the IOR's own address
    const std::string url = "corbaloc:" + scheme + ":127.0." + std::to_string(n / 250) + "." +
                            std::to_string(1 + n % 250) + ":" + std::to_string(opts.port) + "/ttcp0";
    auto start = std::chrono::steady_clock::now();
    CORBA::Object_var object = orb->string_to_object(url.c_str());
    ttcp_sequence_var target = ttcp_sequence::_unchecked_narrow(object);
    target->sendNoParams_2way();
    auto stop = std::chrono::steady_clock::now();
    if (i >= opts.warmup)
      nanoseconds.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
  }
  std::ofstream out(opts.samples_out, std::ios::trunc);
  for (long long ns : nanoseconds) out << ns << '\n';
  if (!out.flush()) {
    std::cerr << "omni_bench_client: cannot write " << opts.samples_out << "\n";
    return 1;
  }
  return 0;
}

// ---- latency

int run_latency(const options& opts, ttcp_sequence_ptr target) {
  const bool twoway = opts.mode == "twoway";
  const payload kind = opts.type == "octet"       ? payload::octet
                       : opts.type == "binstruct" ? payload::binstruct
                                                  : payload::none;
  ttcp_sequence::OctetSeq octets = make_octets(kind == payload::octet ? opts.units : 0);
  ttcp_sequence::StructSeq structs = make_structs(kind == payload::binstruct ? opts.units : 0);

  auto call = [&] {
    switch (kind) {
      case payload::none:
        twoway ? target->sendNoParams_2way() : target->sendNoParams_1way();
        break;
      case payload::octet:
        twoway ? target->sendOctetSeq_2way(octets) : send_oneway(target, octets);
        break;
      case payload::binstruct:
        twoway ? target->sendStructSeq_2way(structs) : send_oneway(target, structs);
        break;
    }
  };

  // The connection is opened by a call outside the samples, even with --warmup 0.
  target->sendNoParams_2way();
  for (unsigned long i = 0; i < opts.warmup; ++i) call();
  std::vector<long long> nanoseconds(opts.samples);
  for (unsigned long i = 0; i < opts.samples; ++i) {
    auto start = std::chrono::steady_clock::now();
    call();
    auto stop = std::chrono::steady_clock::now();
    nanoseconds[i] = std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count();
  }
  // One-way requests carry no error back: a final two-way call proves they were all taken.
  if (!twoway) target->sendNoParams_2way();

  std::ofstream out(opts.samples_out, std::ios::trunc);
  for (long long ns : nanoseconds) out << ns << '\n';
  if (!out.flush()) {
    std::cerr << "omni_bench_client: cannot write " << opts.samples_out << "\n";
    return 1;
  }
  if (opts.verbose) {
    std::cerr << "omni_bench_client: " << opts.samples << " " << opts.mode << " " << opts.type << " samples (units "
              << opts.units << ") in " << opts.samples_out << "\n";
  }
  return 0;
}

// ---- latency of Integrity::Echo calls (the evaluation report's types)

template <class Sequence>
bool same(const Sequence& a, const Sequence& b,
          bool (*equal)(const typename std::remove_reference<decltype(a[0])>::type&,
                        const typename std::remove_reference<decltype(a[0])>::type&)) {
  if (a.length() != b.length()) return false;
  for (CORBA::ULong i = 0; i < a.length(); ++i)
    if (!equal(a[i], b[i])) return false;
  return true;
}

int run_echo_latency(const options& opts, Integrity::Echo_ptr echo) {
  const auto n = static_cast<CORBA::ULong>(opts.units == 0 ? 1 : opts.units);
  Integrity::Doubles doubles;
  Integrity::Longs longs;
  Integrity::Records records;
  Integrity::NARecords narecords;
  if (opts.type == "echo_doubles") doubles.length(n);
  if (opts.type == "echo_longs") longs.length(n);
  if (opts.type == "echo_records") records.length(n);
  if (opts.type == "echo_narecords") narecords.length(n);
  for (CORBA::ULong i = 0; i < n; ++i) {
    auto k = static_cast<CORBA::Long>(i);
    if (doubles.length()) doubles[i] = 0.5 + k;
    if (longs.length()) longs[i] = k * 7 - 3;
    if (records.length()) {
      Integrity::Record& r = records[i];
      r.l = k;
      r.d = 1.25 * k;
      r.s = static_cast<CORBA::Short>(k);
      r.o = static_cast<CORBA::Octet>(k);
      r.f = 0.5f * static_cast<float>(k);
      r.c = static_cast<CORBA::Char>('a' + k % 26);
      r.b = k % 2 == 0;
    }
    if (narecords.length()) {
      Integrity::NARecord& r = narecords[i];
      r.o = static_cast<CORBA::Octet>(k);
      r.d = 2.5 * k;
      r.c = static_cast<CORBA::Char>('A' + k % 26);
      r.ll = static_cast<CORBA::LongLong>(k) << 20;
      r.s = static_cast<CORBA::Short>(-k);
    }
  }
  // Returns whether the reply equals what was sent (checked on the first, untimed call only).
  auto call = [&](bool check) {
    if (doubles.length()) {
      Integrity::Doubles_var r = echo->echo_doubles(doubles);
      return !check || same(
                           r.in(), doubles, +[](const CORBA::Double& a, const CORBA::Double& b) { return a == b; });
    }
    if (longs.length()) {
      Integrity::Longs_var r = echo->echo_longs(longs);
      return !check || same(
                           r.in(), longs, +[](const CORBA::Long& a, const CORBA::Long& b) { return a == b; });
    }
    if (records.length()) {
      Integrity::Records_var r = echo->echo_records(records);
      return !check || same(
                           r.in(), records, +[](const Integrity::Record& a, const Integrity::Record& b) {
                             return a.l == b.l && a.d == b.d && a.s == b.s && a.o == b.o && a.f == b.f && a.c == b.c &&
                                    a.b == b.b;
                           });
    }
    Integrity::NARecords_var r = echo->echo_narecords(narecords);
    return !check || same(
                         r.in(), narecords, +[](const Integrity::NARecord& a, const Integrity::NARecord& b) {
                           return a.o == b.o && a.d == b.d && a.c == b.c && a.ll == b.ll && a.s == b.s;
                         });
  };
  if (!call(true)) {
    std::cerr << "omni_bench_client: " << opts.type << ": the reply differs from what was sent\n";
    return 1;
  }
  for (unsigned long i = 0; i < opts.warmup; ++i) call(false);
  std::vector<long long> nanoseconds(opts.samples);
  for (unsigned long i = 0; i < opts.samples; ++i) {
    auto start = std::chrono::steady_clock::now();
    call(false);
    auto stop = std::chrono::steady_clock::now();
    nanoseconds[i] = std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count();
  }
  std::ofstream out(opts.samples_out, std::ios::trunc);
  for (long long ns : nanoseconds) out << ns << '\n';
  if (!out.flush()) {
    std::cerr << "omni_bench_client: cannot write " << opts.samples_out << "\n";
    return 1;
  }
  return 0;
}

// ---- ttcp

int run_ttcp(const options& opts, ttcp_sequence_ptr target) {
  const bool octet = opts.type == "octet";
  const unsigned long units =
      static_cast<unsigned long>(octet ? opts.buffer_bytes : opts.buffer_bytes / cdr_binstruct_bytes);
  const unsigned long long bytes_per_call = octet ? units : units * cdr_binstruct_bytes;
  const unsigned long long calls = (opts.total_bytes + bytes_per_call - 1) / bytes_per_call;
  ttcp_sequence::OctetSeq octets = make_octets(octet ? units : 0);
  ttcp_sequence::StructSeq structs = make_structs(octet ? 0 : units);

  // The connection is opened (and the socket queues set) before the clock starts.
  target->sendNoParams_2way();
  if (opts.verbose) {
    std::cerr << "omni_bench_client: ttcp " << calls << " " << (opts.oneway ? "one-way" : "two-way") << " calls of "
              << bytes_per_call << " bytes\n";
  }
  auto start = std::chrono::steady_clock::now();
  for (unsigned long long i = 0; i < calls; ++i) {
    if (opts.oneway) {
      octet ? send_oneway(target, octets) : send_oneway(target, structs);
    } else {
      octet ? target->sendOctetSeq_2way(octets) : target->sendStructSeq_2way(structs);
    }
  }
  // One-way: the time ends when the server has taken every request (this reply follows them).
  if (opts.oneway) target->sendNoParams_2way();
  auto stop = std::chrono::steady_clock::now();
  double seconds = std::chrono::duration<double>(stop - start).count();
  std::printf("seconds=%.9f bytes=%llu calls=%llu\n", seconds, calls * bytes_per_call, calls);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> orb_args;
  options opts = parse(argc, argv, orb_args);
  if (opts.socket_queue > 0) switchyard::bench::add_send_buffer_option(orb_args, opts.socket_queue);
  orb_args.push_back(nullptr);
  std::string ior = find_ior(opts.ior_file, opts.object);

  int orb_argc = static_cast<int>(orb_args.size()) - 1;
  int status = 1;
  CORBA::ORB_var orb;
  try {
    orb = CORBA::ORB_init(orb_argc, orb_args.data());
    if (opts.socket_queue > 0) {
      switchyard::bench::set_socket_queue_on_client_connections(opts.socket_queue, opts.verbose);
    }
    CORBA::Object_var object = orb->string_to_object(ior.c_str());
    if (opts.command == "connect") {
      status = run_connect(opts, orb);
    } else if (opts.type.rfind("echo_", 0) == 0) {
      Integrity::Echo_var echo = Integrity::Echo::_narrow(object);
      if (CORBA::is_nil(echo)) {
        std::cerr << "omni_bench_client: '" << opts.object << "' is not an Integrity::Echo\n";
      } else {
        status = run_echo_latency(opts, echo);
      }
    } else {
      ttcp_sequence_var target = ttcp_sequence::_narrow(object);
      if (CORBA::is_nil(target)) {
        std::cerr << "omni_bench_client: '" << opts.object << "' is not a ttcp_sequence\n";
      } else {
        status = opts.command == "latency" ? run_latency(opts, target) : run_ttcp(opts, target);
      }
    }
  } catch (const CORBA::SystemException& e) {
    std::cerr << "omni_bench_client: CORBA::" << e._name() << " minor 0x" << std::hex << e.minor() << std::dec << " ("
              << (e.NP_minorString() ? e.NP_minorString() : "no minor text") << ") talking to '" << opts.object
              << "' from " << opts.ior_file << "\n";
    status = 1;
  } catch (const CORBA::Exception& e) {
    std::cerr << "omni_bench_client: CORBA::" << e._name() << "\n";
    status = 1;
  }
  try {
    if (!CORBA::is_nil(orb)) orb->destroy();
  } catch (const CORBA::Exception&) {
  }
  return status;
}
