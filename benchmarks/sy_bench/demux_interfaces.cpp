#include "benchmarks/sy_bench/demux_interfaces.h"

#include "benchmarks/sy_bench/bench_interface.h"
#include "switchyard/config.h"
#include "switchyard/invocation.h"
#include "ttcp_demux_100_bench.h"  // write_demux_idl.py, with syidl's ttcp_demux_<K>.h
#include "ttcp_demux_10_bench.h"
#include "ttcp_demux_1_bench.h"

namespace switchyard::bench {
namespace {

// The generated stubs of one server's servants; op_i by member pointer (ttcp_demux_<K>_calls).
template <class Stub, std::size_t K>
class generated_caller final : public demux_caller {
 public:
  using call_table = void (Stub::*const[K])();
  generated_caller(const std::vector<object_ref>& targets, const call_table& calls) : calls_(calls) {
    stubs_.reserve(targets.size());
    for (auto& target : targets) stubs_.emplace_back(target);
  }
  void call(std::uint32_t servant, std::uint32_t operation) override { (stubs_[servant].*calls_[operation])(); }

 private:
  std::vector<Stub> stubs_;
  const call_table& calls_;
};

// The interface described at run time: the name and the index active demultiplexing carries.
class runtime_caller final : public demux_caller {
 public:
  runtime_caller(const std::vector<object_ref>& targets, std::size_t operations) : targets_(targets) {
    for (std::size_t i = 0; i < operations; ++i) names_.push_back(demux_operation_name(i));
  }
  void call(std::uint32_t servant, std::uint32_t operation) override {
    invocation one(targets_[servant], names_[operation], operation_indices::first_demux_operation + operation);
    one.invoke();
  }

 private:
  std::vector<object_ref> targets_;
  std::vector<std::string> names_;
};

}  // namespace

bool has_generated_demux_interface(std::size_t operations) noexcept {
  return operations == 1 || operations == 10 || operations == 100;
}

std::shared_ptr<servant> make_ttcp_servant(std::size_t operations) {
  switch (operations) {
    case 1:
      return std::make_shared<ttcp_demux_1_servant>();
    case 10:
      return std::make_shared<ttcp_demux_10_servant>();
    case 100:
      return std::make_shared<ttcp_demux_100_servant>();
    default:
      return std::make_shared<bench_servant>(operations);
  }
}

const interface_info& ttcp_interface(std::size_t operations) {
  switch (operations) {
    case 1:
      return ::ttcp_demux_1_skeleton::_info;
    case 10:
      return ::ttcp_demux_10_skeleton::_info;
    case 100:
      return ::ttcp_demux_100_skeleton::_info;
    default:
      return bench_interface(operations);
  }
}

std::unique_ptr<demux_caller> make_demux_caller(const std::vector<object_ref>& targets, std::size_t operations) {
  switch (operations) {
    case 1:
      return std::make_unique<generated_caller<::ttcp_demux_1, 1>>(targets, ttcp_demux_1_calls);
    case 10:
      return std::make_unique<generated_caller<::ttcp_demux_10, 10>>(targets, ttcp_demux_10_calls);
    case 100:
      return std::make_unique<generated_caller<::ttcp_demux_100, 100>>(targets, ttcp_demux_100_calls);
    default:
      return std::make_unique<runtime_caller>(targets, operations);
  }
}

namespace {
std::string common_label(demux_strategy strategy) {
  switch (strategy) {
    case demux_strategy::linear:
      return "linear";
    case demux_strategy::binary:
      return "binary";
    case demux_strategy::dynamic:
      return "hash";
    case demux_strategy::perfect:
      return "runtime-perfect";
    case demux_strategy::perfect_fast:
      return "perfect-fast";
    case demux_strategy::active:
      return "active";
  }
  return "unknown";
}
}  // namespace

std::string operation_lookup_label(demux_strategy strategy, const interface_info& interface) {
  strategy = compiled_operation_demux.resolve(strategy);
  // operation_dispatch_cache hands the generated lookup to the perfect table, and only to it.
  if (strategy == demux_strategy::perfect && interface.perfect_lookup != nullptr) return "gperf";
  return common_label(strategy);
}

std::string servant_lookup_label(demux_strategy strategy, const object_id_table* object_ids) {
  strategy = compiled_servant_demux.resolve(strategy);
  if (strategy == demux_strategy::perfect && object_ids != nullptr) return "gperf";
  return common_label(strategy);
}

}  // namespace switchyard::bench
