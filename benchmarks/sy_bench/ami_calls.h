// The latency experiment's AMI series (--interface ami): each two-way call sent with the callback
// model (switchyard/ami.h) and timed from the send to the moment its reply handler runs on the
// ORB's reply thread; the caller waits for that before its next call, so one call is outstanding
// at a time, as in the stubs' series. The ttcp sends go through ami::send_callback with the same
// hand-written marshaling as the stub series (bench_interface.h); the Echo calls through syidl
// --ami's sendc_ stubs (echo_calls.h).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "benchmarks/sy_bench/bench_interface.h"
#include "switchyard/object.h"

namespace switchyard::bench {

// One outstanding call's end: the reply handler calls finish(); the caller waits().
class async_completion {
 public:
  using clock = std::chrono::steady_clock;
  // Before a send (send_async and call_async do it): no reply yet.
  void expect();
  // From the reply handler: the reply came now; `failure` empty if it was what was expected.
  void finish(std::string failure = {});
  // Waits for the reply (at most 30 s: a lost reply ends the run) and returns when the handler
  // ran; raises std::runtime_error with the failure or on the timeout.
  clock::time_point wait();

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool done_ = false;
  clock::time_point at_{};
  std::string failure_;
};

// A two-way ttcp send of `data` (sendNoParams_2way for `none`) through the callback model;
// `done` is finished by its reply.
void send_async(const object_ref& target, const payload& data, async_completion& done);

}  // namespace switchyard::bench
