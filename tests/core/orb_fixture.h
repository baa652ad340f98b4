// Test helpers: an ORB serving in a thread of its own on loopback, servants that record what they
// received, and a temporary file for -ORBTrace to write into.
#pragma once

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/core/hand_interfaces.h"

namespace test {

// A server ORB listening on 127.0.0.1 (any free port unless given), run() in its own thread from
// start() until the fixture goes.
class serving_orb {
 public:
  explicit serving_orb(std::vector<std::string> args = {}, std::string endpoint = "iiop://127.0.0.1:0") {
    args.push_back("-ORBListenEndpoints");
    args.push_back(std::move(endpoint));
    orb = switchyard::orb_init(std::move(args));
  }
  void start() {
    thread_ = std::thread([this] { orb->run(); });
  }
  void stop() {
    if (!orb) return;
    orb->shutdown(true);
    if (thread_.joinable()) thread_.join();
    orb->destroy();
  }
  ~serving_orb() { stop(); }

  std::shared_ptr<switchyard::orb> orb;

 private:
  std::thread thread_;
};

struct recording_ttcp final : hand::ttcp_sequence_skeleton {
  std::atomic<int> twoway{0};
  std::atomic<int> oneway{0};
  std::vector<hand::BinStruct> structs;
  std::vector<std::uint8_t> octets;
  void sendStructSeq_2way(const std::vector<hand::BinStruct>& seq) override {
    structs = seq;
    ++twoway;
  }
  void sendOctetSeq_2way(const std::vector<std::uint8_t>& seq) override {
    octets = seq;
    ++twoway;
  }
  void sendNoParams_2way() override { ++twoway; }
  void sendNoParams_1way() override { ++oneway; }
};

struct test_probe final : hand::probe_skeleton {
  std::mutex mutex;
  std::condition_variable changed;
  bool released = false;
  int waiting = 0;

  std::int32_t echo_long(std::int32_t v) override { return v; }
  std::string echo_string(const std::string& v) override { return v; }
  void raise_system() override {
    throw switchyard::SystemException(switchyard::SystemExceptionKind::NO_RESOURCES, 7,
                                      switchyard::CompletionStatus::yes, "servant out of resources");
  }
  void raise_standard() override { throw std::runtime_error("servant bug"); }
  void raise_user(std::int32_t code) override {
    if (code != 0) {
      hand::refused e;
      e.code = code;
      throw e;
    }
  }
  // Blocks (at most 10 s) until release(); counts itself as waiting meanwhile.
  void wait_for_release() override {
    std::unique_lock lock(mutex);
    ++waiting;
    changed.notify_all();
    changed.wait_for(lock, std::chrono::seconds(10), [this] { return released; });
    --waiting;
  }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
  bool wait_until_waiting(std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, limit, [this] { return waiting > 0; });
  }
};

// The kind of the SystemException `f` raises (UNKNOWN if something else, or nothing, is thrown).
template <class F>
switchyard::SystemException system_exception_of(F&& f) {
  try {
    f();
  } catch (const switchyard::SystemException& e) {
    return e;
  }
  throw std::logic_error("no SystemException raised");
}

// A file's whole text ("" when it cannot be read).
inline std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A temporary file's name (for -ORBTrace's output), removed when the test ends.
struct trace_file {
  trace_file() {
    char pattern[] = "/tmp/sy_trace_XXXXXX";
    const int fd = ::mkstemp(pattern);
    if (fd >= 0) ::close(fd);
    path = pattern;
  }
  ~trace_file() { ::unlink(path.c_str()); }
  trace_file(const trace_file&) = delete;
  trace_file& operator=(const trace_file&) = delete;
  std::string path;
};

}  // namespace test
