// robust_server: the server the robustness suite attacks, in a process of its own so that the
// suite can watch it live or die and read its memory (/proc/PID/status).
//
//   robust_server --out PATH [--max-files N] [-ORB<option> <value> ...]
//
// Serves a test probe (echo_long, echo_string: large replies on demand) and a ttcp servant on
// 127.0.0.1 with the given -ORB options, and writes, through a temporary file and a rename:
//   probe <IOR>
//   probe_key <object key in hex>
//   port <TCP port>
// --max-files N lowers the descriptor limit first (the EMFILE scenario). Serves until SIGTERM.
#include <sys/resource.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "orb/core/object_state.h"
#include "orb/ior/components.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/tags.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/orb_fixture.h"

namespace {

// Read by another thread than the handler's: a lock-free atomic (signal-safe, and no race).
std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);
void on_signal(int) { stop_requested.store(true); }

std::string hex(std::span<const std::byte> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::byte b : bytes) {
    out += digits[std::to_integer<unsigned>(b) >> 4];
    out += digits[std::to_integer<unsigned>(b) & 15];
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  std::vector<std::string> orb_args{"-ORBListenEndpoints", "iiop://127.0.0.1:0"};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else if (arg == "--max-files" && i + 1 < argc) {
      rlimit limit{};
      limit.rlim_cur = limit.rlim_max = std::strtoul(argv[++i], nullptr, 10);
      if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) {
        std::perror("robust_server: setrlimit");
        return 2;
      }
    } else {
      orb_args.push_back(arg);
    }
  }
  if (out_path.empty()) {
    std::cerr << "usage: robust_server --out PATH [--max-files N] [-ORB<option> <value> ...]\n";
    return 2;
  }
  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  try {
    auto orb = switchyard::orb_init(orb_args);
    auto probe = orb->root_adapter().activate(std::make_shared<test::test_probe>());
    orb->root_adapter().activate(std::make_shared<test::recording_ttcp>());
    const auto& reference = probe.state()->ior();
    auto profile = switchyard::iop::decode_iiop_profile(reference.profiles.at(0).data);
    {
      std::ofstream out(out_path + ".tmp");
      out << "probe " << orb->object_to_string(probe) << "\n"
          << "probe_key " << hex(profile.object_key) << "\n"
          << "port " << profile.port << "\n";
      // Listening on ssliop too (-ORBListenEndpoints ssliop://127.0.0.1:0): its port.
      if (const auto* ssl = switchyard::iop::find_component(profile.components, switchyard::iop::tag_ssl_sec_trans))
        out << "tls_port " << switchyard::iop::decode_ssl_transport(*ssl).port << "\n";
    }
    std::rename((out_path + ".tmp").c_str(), out_path.c_str());
    std::atomic<bool> run_returned{false};
    std::thread watcher([&] {
      while (!stop_requested.load()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      orb->shutdown(true);  // bounded by -ORBShutdownTimeout, whatever the servants do
      // ORB::run's own thread may be held by a servant that does not return (docs/orb.md,
      // "Shutting down with a servant that does not return"): then the process ends here.
      for (int i = 0; i < 100 && !run_returned.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (!run_returned.load()) {
        std::fprintf(stderr, "robust_server: ORB::run is held by a servant that does not return; exiting\n");
        std::_Exit(0);
      }
    });
    orb->run();
    run_returned = true;
    watcher.join();
    orb->destroy();
  } catch (const switchyard::SystemException& e) {
    std::cerr << "robust_server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
