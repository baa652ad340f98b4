// The smallest client and server of the null two-way call (ttcp_sequence::sendNoParams_2way,
// syidl's generated stub and skeleton), for counting the instructions one call costs with
// callgrind (count_instructions.sh) and for quick timing beside the socket baseline. The
// figures in docs/ come from sy-bench latency; this is the microscope.
//
//   null_call server IOR_FILE [-ORB...]   activates one servant, writes its IOR, serves until killed
//   null_call client IOR_FILE CALLS       CALLS calls after 1000 warm-up calls; prints us per call
//   null_call client IOR_FILE CALLS --dii reuse|per-call
//                                         the same call through the DII (<switchyard/request.h>):
//                                         one request invoked again, or one made per call
//   null_call local CALLS thru-adapter|direct|virtual [-ORB...]
//                                         no server process: the stub of a servant in the same ORB
//                                         (-ORBCollocation thru-adapter or direct), or the servant's
//                                         method called through a base-class pointer; prints ns per call
//
// NULL_CALL_INTERCEPTORS=N (environment, every mode): N no-op client and N no-op server request
// interceptors (switchyard/interceptors.h) registered before orb_init, to count what the hook
// costs a call.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks/sy_bench/bench_interceptors.h"
#include "switchyard/orb.h"
#include "switchyard/request.h"
#include "ttcp_sequence.h"

namespace {

class null_servant final : public ttcp_sequence_skeleton {
 public:
  void sendStructSeq_2way(const ttcp_sequence::StructSeq&) override {}
  void sendOctetSeq_2way(std::span<const std::uint8_t>) override {}
  void sendNoParams_2way() override {}
  void sendNoParams_1way() override {}
};

// NULL_CALL_INTERCEPTORS: false when it is not a whole number from 0 to 100.
bool register_interceptors() {
  const char* text = std::getenv("NULL_CALL_INTERCEPTORS");
  if (text == nullptr || *text == '\0') return true;
  char* end = nullptr;
  const long count = std::strtol(text, &end, 10);
  if (*end != '\0' || count < 0 || count > 100) return false;
  if (count > 0)
    switchyard::register_orb_initializer(
        std::make_shared<switchyard::bench::no_op_interceptors>(static_cast<std::size_t>(count)));
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: null_call server IOR_FILE [-ORB...] | null_call client IOR_FILE CALLS [--dii reuse|per-call] "
               "[-ORB...] | null_call local CALLS thru-adapter|direct|virtual [-ORB...]\n");
  return 2;
}

int serve(const std::string& ior_file, std::vector<std::string> args) {
  auto orb = switchyard::orb_init(args);
  auto reference = orb->root_adapter().activate(std::make_shared<null_servant>());
  {
    std::ofstream out(ior_file + ".tmp");
    out << orb->object_to_string(reference) << "\n";
  }
  std::rename((ior_file + ".tmp").c_str(), ior_file.c_str());  // readers never see half a file
  orb->run();
  return 0;
}

// The operation's position in ttcp_sequence, which the stub sends for active demultiplexing.
constexpr std::uint32_t send_no_params_2way_index = 2;

int call(const std::string& ior_file, long calls, const std::string& dii, std::vector<std::string> args) {
  std::ifstream in(ior_file);
  std::string ior;
  if (!std::getline(in, ior)) {
    std::fprintf(stderr, "null_call: no IOR in %s\n", ior_file.c_str());
    return 1;
  }
  auto orb = switchyard::orb_init(args);
  auto reference = orb->string_to_object(ior);
  ttcp_sequence target(reference);
  switchyard::request reused(reference, "sendNoParams_2way");
  reused.set_operation_index(send_no_params_2way_index);
  // Decided once: the loop below compares no strings of its own.
  const int kind = dii.empty() ? 0 : dii == "reuse" ? 1 : 2;
  auto one_call = [&] {
    if (kind == 0) {
      target.sendNoParams_2way();
    } else if (kind == 1) {
      reused.invoke();
    } else {
      switchyard::request fresh(reference, "sendNoParams_2way");
      fresh.set_operation_index(send_no_params_2way_index);
      fresh.invoke();
    }
  };
  for (int i = 0; i < 1000; ++i) one_call();
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) one_call();
  auto elapsed = std::chrono::steady_clock::now() - start;
  std::printf("%.3f us per call\n", std::chrono::duration<double, std::micro>(elapsed).count() / double(calls));
  return 0;
}

// A virtual call the compiler cannot see through: the servant comes through an atomic.
std::atomic<ttcp_sequence_skeleton*> virtual_target{nullptr};

int call_locally(long calls, const std::string& mode, std::vector<std::string> args) {
  const bool virtual_call = mode == "virtual";
  if (!virtual_call) {
    args.push_back("-ORBCollocation");
    args.push_back(mode);
  }
  args.push_back("-ORBListenEndpoints");
  args.push_back("iiop://127.0.0.1:0");
  auto orb = switchyard::orb_init(args);
  auto servant = std::make_shared<null_servant>();
  // As a client would have it: from the reference's string form.
  ttcp_sequence target(orb->string_to_object(orb->object_to_string(orb->root_adapter().activate(servant))));
  virtual_target.store(servant.get());
  ttcp_sequence_skeleton* direct = virtual_target.load();
  auto one_call = [&] {
    if (virtual_call) direct->sendNoParams_2way();
    else target.sendNoParams_2way();
  };
  for (int i = 0; i < 1000; ++i) one_call();
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) one_call();
  auto elapsed = std::chrono::steady_clock::now() - start;
  std::printf("%.1f ns per call\n", std::chrono::duration<double, std::nano>(elapsed).count() / double(calls));
  orb->destroy();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string mode = argv[1];
  if (!register_interceptors()) {
    std::fprintf(stderr, "null_call: NULL_CALL_INTERCEPTORS: expected a whole number from 0 to 100\n");
    return 2;
  }
  try {
    if (mode == "server") return serve(argv[2], {argv + 3, argv + argc});
    if (mode == "local" && argc >= 4) {
      char* end = nullptr;
      long calls = std::strtol(argv[2], &end, 10);
      const std::string how = argv[3];
      if (*end != '\0' || calls <= 0 || (how != "thru-adapter" && how != "direct" && how != "virtual")) return usage();
      return call_locally(calls, how, {argv + 4, argv + argc});
    }
    if (mode == "client" && argc >= 4) {
      char* end = nullptr;
      long calls = std::strtol(argv[3], &end, 10);
      if (*end != '\0' || calls <= 0) return usage();
      std::string dii;
      int rest = 4;
      if (argc >= 6 && std::string(argv[4]) == "--dii") {
        dii = argv[5];
        if (dii != "reuse" && dii != "per-call") return usage();
        rest = 6;
      }
      return call(argv[2], calls, dii, {argv + rest, argv + argc});
    }
  } catch (const switchyard::SystemException& e) {
    std::fprintf(stderr, "null_call: %s\n", e.what());
    return 1;
  }
  return usage();
}
