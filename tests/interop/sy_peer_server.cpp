// sy_peer_server: our ORB serving N ttcp_sequence servants, for omniORB's client (omni_peer_client)
// and the benchmarks' cross-ORB series.
//
//   sy_peer_server --ior-file PATH [--servants N] [--seconds S] [--counts] [--dsi-echo]
//                  [--echo-context ID] [-ORB<option> <value> ...]
//
// Writes "ttcp/0 <IOR>", "ttcp/1 <IOR>", ... and "endpoint iiop://127.0.0.1:P" (what the ORB
// listens on) to --ior-file, through a temporary file and a rename so a reader never sees half a
// file. The object ids are ttcp0, ttcp1, ... and each is also bound as a plain key, so
// corbaloc::127.0.0.1:P/ttcp0 works. -ORB options go to orb_init (-ORBServantDemux,
// -ORBOperationDemux, -ORBGIOPVersion, ...); without -ORBListenEndpoints the ORB listens on
// iiop://127.0.0.1:0. Serves until SIGTERM/SIGINT or until --seconds run out.
//
// --dsi-echo also serves Integrity::Echo through our DSI (tests/dynamic_interfaces/dsi_echo_servant.h),
// id and plain key `echo`, as the line "echo <IOR>", for omniORB's client (omni_peer_client
// --call echo-all).
//
// The servants check what they receive against what omni_peer_client sends (octet i is i mod 256;
// struct i is {i+1, 'A'+i%26, 1000(i+1), 0xF0+i%16, 0.5(i+1)}) and count calls and bad payloads;
// --echo-context ID: a server request interceptor answers a request's service context of id ID
// with a reply context of id ID + 1, "switchyard saw: " and its octets (omniORB's client reads it
// through its own hooks: omni_peer_client --send-context ID TEXT --expect-reply-context ...).
//
// --counts prints one line per servant on exit:
//   counts ttcp/0 twoway=12 oneway=3 octets=4 structs=2 bad=0
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/interceptors.h"
#include "switchyard/orb.h"
#include "tests/core/hand_interfaces.h"
#include "tests/dynamic_interfaces/dsi_echo_servant.h"

namespace {

// Counts calls and checks payloads against omni_peer_client's patterns.
class counting_ttcp final : public hand::ttcp_sequence_skeleton {
 public:
  void sendStructSeq_2way(const std::vector<hand::BinStruct>& seq) override {
    ++twoway;
    ++structs;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      hand::BinStruct want{static_cast<std::int16_t>(i + 1), static_cast<char>('A' + i % 26),
                           static_cast<std::int32_t>(1000 * (i + 1)), static_cast<std::uint8_t>(0xF0 + i % 16),
                           0.5 * static_cast<double>(i + 1)};
      if (!(seq[i] == want)) {
        ++bad;
        return;
      }
    }
  }
  void sendOctetSeq_2way(const std::vector<std::uint8_t>& seq) override {
    ++twoway;
    ++octets;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      if (seq[i] != static_cast<std::uint8_t>(i)) {
        ++bad;
        return;
      }
    }
  }
  void sendNoParams_2way() override { ++twoway; }
  void sendNoParams_1way() override { ++oneway; }

  std::atomic<unsigned long> twoway{0}, oneway{0}, octets{0}, structs{0}, bad{0};
};

struct options {
  std::string ior_file;
  unsigned servants = 1;
  unsigned seconds = 0;  // 0: until a signal
  bool print_counts = false;
  bool dsi_echo = false;
  long echo_context = -1;  // -1: none
  std::vector<std::string> orb_args;
};

// --echo-context: the reply context is added as the request's contexts are read, before the
// servant runs, so that it reaches the client at every GIOP version (interceptors.h).
class context_echo final : public switchyard::server_request_interceptor {
 public:
  explicit context_echo(std::uint32_t id) : id_(id) {}
  void receive_request_service_contexts(switchyard::server_request_info& info) override {
    const auto seen = info.get_request_service_context(id_);
    if (!seen) return;
    std::string text = "switchyard saw: ";
    text.append(reinterpret_cast<const char*>(seen->data()), seen->size());
    info.add_reply_service_context(id_ + 1, std::as_bytes(std::span(text.data(), text.size())), true);
  }

 private:
  std::uint32_t id_;
};

class context_echo_setup final : public switchyard::orb_initializer {
 public:
  explicit context_echo_setup(std::uint32_t id) : id_(id) {}
  void pre_init(switchyard::orb_init_info& info) override {
    info.add_server_request_interceptor(std::make_shared<context_echo>(id_));
  }

 private:
  std::uint32_t id_;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "sy_peer_server: " << why << "\n"
            << "usage: sy_peer_server --ior-file PATH [--servants N] [--seconds S] [--counts]"
               " [--dsi-echo] [--echo-context ID] [-ORB<option> <value> ...]\n";
  std::exit(2);
}

unsigned to_unsigned(const char* text, const char* what) {
  char* end = nullptr;
  errno = 0;
  unsigned long value = std::strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value > 1000000) usage(what);
  return static_cast<unsigned>(value);
}

options parse(int argc, char** argv) {
  options opts;
  bool has_endpoint = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) usage(what);
      return argv[++i];
    };
    if (arg.rfind("-ORB", 0) == 0) {
      if (arg == "-ORBListenEndpoints" || arg == "-ORBEndpoint") has_endpoint = true;
      // Every -ORB option but a bare -ORBInstrument takes a value; orb_init judges them.
      opts.orb_args.push_back(arg);
      if (i + 1 < argc && std::string(argv[i + 1]).rfind("-", 0) != 0) opts.orb_args.push_back(argv[++i]);
    } else if (arg == "--ior-file") {
      opts.ior_file = value("--ior-file needs a path");
    } else if (arg == "--servants") {
      opts.servants = to_unsigned(value("--servants needs a count"), "bad --servants");
      if (opts.servants == 0) usage("--servants must be at least 1");
    } else if (arg == "--seconds") {
      opts.seconds = to_unsigned(value("--seconds needs a number"), "bad --seconds");
    } else if (arg == "--counts") {
      opts.print_counts = true;
    } else if (arg == "--dsi-echo") {
      opts.dsi_echo = true;
    } else if (arg == "--echo-context") {
      opts.echo_context = to_unsigned(value("--echo-context needs an id"), "bad --echo-context");
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (opts.ior_file.empty()) usage("--ior-file is required");
  if (!has_endpoint) {
    opts.orb_args.push_back("-ORBListenEndpoints");
    opts.orb_args.push_back("iiop://127.0.0.1:0");
  }
  return opts;
}

bool write_ior_file(const std::string& path, const std::string& text) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text;
    if (!out.flush()) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  options opts = parse(argc, argv);

  // Block the stop signals before the ORB starts any thread, so that only the waiter below takes
  // them (sigwait): shutdown() then runs in an ordinary thread, not in a signal handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  try {
    if (opts.echo_context >= 0)
      switchyard::register_orb_initializer(
          std::make_shared<context_echo_setup>(static_cast<std::uint32_t>(opts.echo_context)));
    auto orb = switchyard::orb_init(opts.orb_args);
    auto& root = orb->root_adapter();
    std::vector<std::shared_ptr<counting_ttcp>> servants;
    std::string lines;
    for (unsigned i = 0; i < opts.servants; ++i) {
      servants.push_back(std::make_shared<counting_ttcp>());
      std::string id = "ttcp" + std::to_string(i);
      auto ref = root.activate_with_id(id, servants.back());
      orb->bind_key(id, ref);
      lines += "ttcp/" + std::to_string(i) + " " + orb->object_to_string(ref) + "\n";
    }
    auto dsi_echo = std::make_shared<test::dsi_echo_servant>();
    if (opts.dsi_echo) {
      auto ref = root.activate_with_id("echo", dsi_echo);
      orb->bind_key("echo", ref);
      lines += "echo " + orb->object_to_string(ref) + "\n";
    }
    for (const auto& endpoint : orb->endpoints()) lines += "endpoint " + endpoint + "\n";
    if (!write_ior_file(opts.ior_file, lines)) {
      std::cerr << "sy_peer_server: cannot write " << opts.ior_file << "\n";
      return 1;
    }

    std::thread stopper([&] {
      timespec limit{static_cast<time_t>(opts.seconds), 0};
      int got;
      do {
        got = opts.seconds ? sigtimedwait(&stop_signals, nullptr, &limit) : sigwaitinfo(&stop_signals, nullptr);
      } while (got < 0 && errno == EINTR);
      orb->shutdown(false);
    });
    std::cout << "sy_peer_server: serving " << opts.servants << " ttcp servant(s) on";
    for (const auto& endpoint : orb->endpoints()) std::cout << " " << endpoint;
    std::cout << "; IORs in " << opts.ior_file << std::endl;
    try {
      orb->run();
    } catch (...) {
      pthread_kill(stopper.native_handle(), SIGTERM);  // wakes the waiter, which has nothing left to stop
      stopper.join();
      throw;
    }
    stopper.join();
    orb->destroy();
    if (opts.print_counts) {
      for (std::size_t i = 0; i < servants.size(); ++i) {
        const auto& s = *servants[i];
        std::cout << "counts ttcp/" << i << " twoway=" << s.twoway << " oneway=" << s.oneway << " octets=" << s.octets
                  << " structs=" << s.structs << " bad=" << s.bad << "\n";
      }
      if (opts.dsi_echo) std::cout << "counts echo served=" << dsi_echo->served() << "\n";
    }
    std::cout << "sy_peer_server: stopped" << std::endl;
  } catch (const switchyard::Exception& e) {
    std::cerr << "sy_peer_server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
