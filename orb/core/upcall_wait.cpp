#include "orb/core/upcall_wait.h"

#include "orb/core/server.h"
#include "orb/core/server_connection.h"
#include "orb/core/worker_pool.h"

namespace switchyard::core {

upcall_wait::upcall_wait(upcall_frame& frame) : upcall_(frame.connection.shared_from_this()), replies_(4096) {
  server_connection& upcall = frame.connection;
  server& owner = upcall.owner_;
  if (worker_pool* pool = owner.pool()) {
    pool_ = pool;
    probes_ = &owner.lease_probe_table();
  } else if (server_loop* loop = upcall.loop_) {
    loop_ = loop;
    loop_wait_.emplace(*loop, frame);
    handle_ = loop->events().poll_handle();
  } else if (upcall.begin_dedicated_wait()) {
    handle_ = upcall.handle_;
  }
}

upcall_wait::~upcall_wait() {
  if (pool_ != nullptr) upcall_->owner_.give_back_probe_table(*probes_);
  if (loop_ == nullptr && pool_ == nullptr) upcall_->end_dedicated_wait();
}

void upcall_wait::run(bool ready) noexcept {
  if (loop_ != nullptr) {
    try {
      loop_->run_once(std::chrono::milliseconds(0));
    } catch (...) {
      // epoll failed (it does not, short of a kernel bug): the outer round goes on.
    }
    return;
  }
  if (pool_ != nullptr) {
    pool_->serve_one(replies_, *probes_);
    return;
  }
  // TLS may hold a request read ahead, which no poll of the socket shows.
  ready = ready || upcall_->connection_->has_buffered_input();
  if (ready && !upcall_->serve_while_waiting(replies_)) handle_ = -1;
}

}  // namespace switchyard::core
