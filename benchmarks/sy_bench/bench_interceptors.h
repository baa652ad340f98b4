// No-op portable interceptors, for measuring what the interception points cost a call when each
// point is an empty virtual call: `sy-bench latency --interceptors N`, `sy-bench server
// --interceptors N` and null_call's NULL_CALL_INTERCEPTORS. Header-only: null_call links no
// sy-bench code.
#pragma once

#include <cstddef>
#include <memory>

#include "switchyard/interceptors.h"

namespace switchyard::bench {

class no_op_client_interceptor final : public client_request_interceptor {};
class no_op_server_interceptor final : public server_request_interceptor {};

// Adds `count` no-op client and `count` no-op server request interceptors to each ORB it sees.
class no_op_interceptors final : public orb_initializer {
 public:
  explicit no_op_interceptors(std::size_t count) : count_(count) {}
  void pre_init(orb_init_info& info) override {
    for (std::size_t i = 0; i < count_; ++i) {
      info.add_client_request_interceptor(std::make_shared<no_op_client_interceptor>());
      info.add_server_request_interceptor(std::make_shared<no_op_server_interceptor>());
    }
  }

 private:
  std::size_t count_;
};

// The ORBs made while it lives get `count` no-op interceptors of each kind (none for 0); the ORB
// initializers are cleared when it goes, so that later ORBs (a control ORB, the next series'
// client) are made without them.
class no_op_interceptors_scope {
 public:
  explicit no_op_interceptors_scope(std::size_t count) : registered_(count != 0) {
    if (registered_) register_orb_initializer(std::make_shared<no_op_interceptors>(count));
  }
  ~no_op_interceptors_scope() {
    if (registered_) clear_orb_initializers();
  }
  no_op_interceptors_scope(const no_op_interceptors_scope&) = delete;
  no_op_interceptors_scope& operator=(const no_op_interceptors_scope&) = delete;

 private:
  bool registered_;
};

}  // namespace switchyard::bench
