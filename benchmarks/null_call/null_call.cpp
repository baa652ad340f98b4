// The smallest client and server of the null two-way call (ttcp_sequence::sendNoParams_2way,
// syidl's generated stub and skeleton), for counting the instructions one call costs with
// callgrind (count_instructions.sh) and for quick timing beside the socket baseline. The
// figures in docs/ come from sy-bench latency; this is the microscope.
//
//   null_call server IOR_FILE [-ORB...]   activates one servant, writes its IOR, serves until killed
//   null_call client IOR_FILE CALLS       CALLS calls after 1000 warm-up calls; prints us per call
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/orb.h"
#include "ttcp_sequence.h"

namespace {

class null_servant final : public ttcp_sequence_skeleton {
 public:
  void sendStructSeq_2way(const ttcp_sequence::StructSeq&) override {}
  void sendOctetSeq_2way(std::span<const std::uint8_t>) override {}
  void sendNoParams_2way() override {}
  void sendNoParams_1way() override {}
};

int usage() {
  std::fprintf(stderr, "usage: null_call server IOR_FILE [-ORB...] | null_call client IOR_FILE CALLS [-ORB...]\n");
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

int call(const std::string& ior_file, long calls, std::vector<std::string> args) {
  std::ifstream in(ior_file);
  std::string ior;
  if (!std::getline(in, ior)) {
    std::fprintf(stderr, "null_call: no IOR in %s\n", ior_file.c_str());
    return 1;
  }
  auto orb = switchyard::orb_init(args);
  ttcp_sequence target(orb->string_to_object(ior));
  for (int i = 0; i < 1000; ++i) target.sendNoParams_2way();
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) target.sendNoParams_2way();
  auto elapsed = std::chrono::steady_clock::now() - start;
  std::printf("%.3f us per call\n", std::chrono::duration<double, std::micro>(elapsed).count() / double(calls));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string mode = argv[1];
  try {
    if (mode == "server") return serve(argv[2], {argv + 3, argv + argc});
    if (mode == "client" && argc >= 4) {
      char* end = nullptr;
      long calls = std::strtol(argv[3], &end, 10);
      if (*end != '\0' || calls <= 0) return usage();
      return call(argv[2], calls, {argv + 4, argv + argc});
    }
  } catch (const switchyard::SystemException& e) {
    std::fprintf(stderr, "null_call: %s\n", e.what());
    return 1;
  }
  return usage();
}
