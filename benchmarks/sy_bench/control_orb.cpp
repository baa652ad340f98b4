#include "benchmarks/sy_bench/control_orb.h"

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

std::vector<std::string> control_listen_arguments(const std::vector<std::string>& args, const std::string& transport) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "-ORBListenEndpoints" && args[i] != "-ORBEndpoint") continue;
    std::string endpoint = args[i + 1].substr(0, args[i + 1].find(','));
    if (endpoint.starts_with("uiop:")) return listen_arguments("uiop");
    if (endpoint.starts_with("iiop://")) {
      std::string address = endpoint.substr(7);
      auto colon = address.rfind(':');
      return listen_arguments("iiop", colon == std::string::npos ? address : address.substr(0, colon));
    }
  }
  return listen_arguments(transport);
}

}  // namespace

control_orb::control_orb(const std::vector<std::string>& benchmark_orb_args, const std::string& transport)
    : orb_(orb_init(control_listen_arguments(benchmark_orb_args, transport))) {}

control_orb::~control_orb() {
  try {
    stop();
  } catch (...) {
  }
}

std::string control_orb::activate(const std::shared_ptr<switchyard::orb>& served) {
  auto reference = orb_->root_adapter().activate(make_control_servant(served));
  if (!thread_.joinable()) thread_ = std::thread([o = orb_] { o->run(); });
  return orb_->object_to_string(reference);
}

void control_orb::stop() {
  if (!orb_) return;
  orb_->shutdown(true);
  if (thread_.joinable()) thread_.join();
  orb_->destroy();
  orb_.reset();
}

}  // namespace switchyard::bench
