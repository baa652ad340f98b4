// The control servant's ORB in a benchmark server (`instrumentation`, `shutdown`:
// bench_interface.h): a second ORB beside the benchmark one, listening on the same host, with no
// probes of its own. The control servant reads the benchmark ORB's probe table from inside an
// upcall; served by the benchmark ORB, that request's own layers (the table's formatting in its
// upcall, its reply) would land in every reading, and sy-bench demux's profile of 500 null calls
// would carry one dump's worth of upcall and marshal.
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace switchyard {
class orb;
}

namespace switchyard::bench {

class control_orb {
 public:
  // Listens where `benchmark_orb_args`' -ORBListenEndpoints does (same host, a port of its own;
  // a socket of its own for uiop), or as `transport` does by default.
  control_orb(const std::vector<std::string>& benchmark_orb_args, const std::string& transport);
  ~control_orb();
  control_orb(const control_orb&) = delete;
  control_orb& operator=(const control_orb&) = delete;

  // Activates the control servant of `served` and serves it from a thread; its reference.
  std::string activate(const std::shared_ptr<switchyard::orb>& served);
  // Shuts the ORB down and joins its thread (again: nothing).
  void stop();

 private:
  std::shared_ptr<switchyard::orb> orb_;
  std::thread thread_;
};

}  // namespace switchyard::bench
