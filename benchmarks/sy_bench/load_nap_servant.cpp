#include "benchmarks/sy_bench/load_nap_servant.h"

#include <chrono>
#include <thread>

#include "load_nap.h"  // syidl benchmarks/peers/load_nap.idl

namespace switchyard::bench {
namespace {

class load_nap_servant final : public LoadNap_skeleton {
 public:
  void nap(std::int32_t ms) override {
    if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  }
};

}  // namespace

std::shared_ptr<servant> make_load_nap_servant() { return std::make_shared<load_nap_servant>(); }

}  // namespace switchyard::bench
