#include "benchmarks/sy_bench/ami_calls.h"

#include <stdexcept>

#include "switchyard/ami.h"
#include "switchyard/exception.h"

namespace switchyard::bench {

void async_completion::expect() {
  std::lock_guard lock(mutex_);
  done_ = false;
  failure_.clear();
}

void async_completion::finish(std::string failure) {
  auto now = clock::now();
  {
    std::lock_guard lock(mutex_);
    done_ = true;
    at_ = now;
    failure_ = std::move(failure);
  }
  changed_.notify_one();
}

async_completion::clock::time_point async_completion::wait() {
  std::unique_lock lock(mutex_);
  if (!changed_.wait_for(lock, std::chrono::seconds(30), [&] { return done_; }))
    throw std::runtime_error("ami: no reply within 30 s");
  if (!failure_.empty()) throw std::runtime_error("ami: " + failure_);
  return at_;
}

void send_async(const object_ref& target, const payload& data, async_completion& done) {
  auto operation = send_operation(data.type(), true);
  done.expect();
  // Both functions capture one pointer: std::function keeps them without allocating.
  ami::send_callback(
      target, operation.name, [&data](cdr::output_stream& out) { data.marshal(out); },
      [&done](cdr::input_stream*, const exception_holder* raised) {
        if (raised == nullptr) {
          done.finish();
          return;
        }
        try {
          raised->raise_exception();
        } catch (const std::exception& e) {
          done.finish(e.what());
        } catch (...) {
          done.finish("an exception not derived from std::exception");
        }
      },
      nullptr, operation.index);
}

}  // namespace switchyard::bench
