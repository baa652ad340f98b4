// Test helper: an ORB listening on 127.0.0.1 (a free port), run() in a thread of its own until the
// helper goes. Both object_io_tests.cpp and naming_tests.cpp serve objects with it.
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "switchyard/orb.h"

namespace naming_test {

class serving_orb {
 public:
  explicit serving_orb(std::vector<std::string> args = {}) {
    args.push_back("-ORBListenEndpoints");
    args.push_back("iiop://127.0.0.1:0");
    orb = switchyard::orb_init(std::move(args));
    thread_ = std::thread([this] { orb->run(); });
  }
  ~serving_orb() {
    orb->shutdown(true);
    if (thread_.joinable()) thread_.join();
    orb->destroy();
  }
  serving_orb(const serving_orb&) = delete;
  serving_orb& operator=(const serving_orb&) = delete;

  std::shared_ptr<switchyard::orb> orb;

 private:
  std::thread thread_;
};

}  // namespace naming_test
