// Portable interceptors inside the ORB (switchyard/interceptors.h): the request info of one call
// on each side, and the flow rules (which points run, in which order, and what an interceptor's
// exception turns the rest into). Made only when the ORB has interceptors: a call without them
// never reaches this file (one test of a pointer in invocation::begin, complete_twoway,
// complete_oneway and dispatch_request). Internal to orb/core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orb/giop/service_context.h"
#include "switchyard/interceptors.h"
#include "switchyard/object.h"

namespace switchyard::core {

using client_interceptor_list = std::vector<std::shared_ptr<client_request_interceptor>>;
using server_interceptor_list = std::vector<std::shared_ptr<server_request_interceptor>>;

// Messaging::SyncScope from a request's GIOP 1.2 response flags.
inline sync_scope sync_scope_of(std::uint8_t response_flags) noexcept {
  switch (response_flags & 0x03) {
    case 0x00:
      return sync_scope::none;
    case 0x01:
      return sync_scope::with_server;
    default:
      return sync_scope::with_target;
  }
}

// Contexts an interceptor added: their octets owned here.
class owned_contexts {
 public:
  // BAD_INV_ORDER (minor 15) when `id` is there and not `replace`.
  void add(std::uint32_t id, std::span<const std::byte> data, bool replace);
  std::optional<std::span<const std::byte>> find(std::uint32_t id) const;
  bool empty() const noexcept { return entries_.empty(); }
  std::size_t size() const noexcept { return entries_.size(); }
  void clear() noexcept {
    entries_.clear();
    ++changes_;
  }
  // Counts every add and clear: whether the list changed since a reply header was written.
  std::uint64_t changes() const noexcept { return changes_; }
  // Appends a view of each to `out`.
  void append_to(std::vector<giop::service_context>& out) const;

 private:
  struct entry {
    std::uint32_t id;
    std::vector<std::byte> data;
  };
  std::vector<entry> entries_;
  std::uint64_t changes_ = 0;
};

// What both sides' ending points share: the reply status and exception they see, and how many
// interceptors started (the ones they run on, in reverse).
struct ending_points {
  interceptor_reply_status reply_status = interceptor_reply_status::none;
  std::size_t started = 0;
  std::unique_ptr<SystemException> exception;
  std::string exception_id;

  // Sets the outcome (`system` null for a user exception named `exception_id`, or none), then
  // runs `point(interceptor)` on the started interceptors in reverse. An interceptor's exception
  // becomes the outcome (system_exception) the ones after it see; true when one raised.
  template <class Interceptors, class Point>
  bool run(const Interceptors& interceptors, interceptor_reply_status status, const SystemException* system,
           std::string_view exception_id, Point point);
};

// One invocation's interception (kept across the requests a LOCATION_FORWARD or a resend makes).
class client_interception final : public client_request_info {
 public:
  client_interception(const client_interceptor_list& interceptors, const object_ref& target,
                      std::string_view operation) noexcept
      : interceptors_(interceptors), target_(target), operation_(operation) {}

  // A new request: runs send_request on each interceptor in order. When one raises, those before
  // it get receive_exception (in reverse) and the final exception is thrown: the request must
  // not go out.
  void send_request(std::uint32_t request_id, std::uint8_t response_flags, std::span<const std::byte> object_key);
  // The contexts the interceptors added, for the request header.
  const owned_contexts& added_contexts() const noexcept { return request_contexts_; }

  // The reply's contexts (views into the reply, kept by the invocation).
  void set_reply_contexts(const giop::service_context_list& contexts) noexcept { reply_contexts_ = contexts; }
  // The ending points, in reverse order over the interceptors whose send_request ran:
  // receive_reply (successful), receive_exception (system or user exception; `system` null for a
  // user exception named `exception_id`), receive_other (location_forward, transport_retry, or
  // successful for a oneway). An interceptor's exception turns the rest into receive_exception
  // with it, and is thrown at the end; otherwise this returns and the call goes on as it would.
  void finish(interceptor_reply_status status, const SystemException* system = nullptr,
              std::string_view exception_id = {});

  // client_request_info
  std::uint32_t request_id() const noexcept override { return request_id_; }
  std::string_view operation() const noexcept override { return operation_; }
  bool response_expected() const noexcept override { return (response_flags_ & 0x01) != 0; }
  switchyard::sync_scope sync_scope() const noexcept override { return sync_scope_of(response_flags_); }
  interceptor_reply_status reply_status() const noexcept override { return ending_.reply_status; }
  std::optional<std::span<const std::byte>> get_request_service_context(std::uint32_t id) const override {
    return request_contexts_.find(id);
  }
  std::optional<std::span<const std::byte>> get_reply_service_context(std::uint32_t id) const override;
  std::string_view target_repository_id() const noexcept override { return target_.repository_id(); }
  std::span<const std::byte> target_object_key() const noexcept override { return object_key_; }
  void add_request_service_context(std::uint32_t id, std::span<const std::byte> data, bool replace) override;
  const SystemException* received_exception() const noexcept override { return ending_.exception.get(); }
  std::string_view received_exception_id() const noexcept override { return ending_.exception_id; }

 private:
  const client_interceptor_list& interceptors_;
  const object_ref& target_;
  std::string_view operation_;
  std::span<const std::byte> object_key_;
  std::uint32_t request_id_ = 0;
  std::uint8_t response_flags_ = 0x03;
  bool in_send_request_ = false;
  // `started`: how many interceptors' send_request completed.
  ending_points ending_;
  owned_contexts request_contexts_;
  giop::service_context_list reply_contexts_;
};

// One request's interception on the server.
class server_interception final : public server_request_info {
 public:
  server_interception(const server_interceptor_list& interceptors, std::uint32_t request_id, std::string_view operation,
                      std::uint8_t response_flags, const giop::service_context_list& request_contexts,
                      std::span<const std::byte> object_key, std::span<const std::byte> object_id) noexcept
      : interceptors_(interceptors),
        operation_(operation),
        request_contexts_(request_contexts),
        object_key_(object_key),
        object_id_(object_id),
        request_id_(request_id),
        response_flags_(response_flags) {}

  // receive_request_service_contexts on each in order; the first exception is thrown (the
  // request's reply) and the ending points run only on the interceptors before it.
  void receive_request_service_contexts();
  // receive_request on each in order; an exception is thrown (send_exception then runs on all).
  void receive_request();
  // The ending points in reverse: send_reply, send_exception, send_other by `status`. An
  // interceptor's exception turns the rest into send_exception with it; returns it (the reply
  // becomes that exception), or nullptr when the reply stands.
  const SystemException* finish(interceptor_reply_status status, const SystemException* system = nullptr,
                                std::string_view exception_id = {});

  // Contexts for the reply header.
  const owned_contexts& reply_contexts() const noexcept { return reply_contexts_; }

  // server_request_info
  std::uint32_t request_id() const noexcept override { return request_id_; }
  std::string_view operation() const noexcept override { return operation_; }
  bool response_expected() const noexcept override { return (response_flags_ & 0x01) != 0; }
  switchyard::sync_scope sync_scope() const noexcept override { return sync_scope_of(response_flags_); }
  interceptor_reply_status reply_status() const noexcept override { return ending_.reply_status; }
  std::optional<std::span<const std::byte>> get_request_service_context(std::uint32_t id) const override {
    return request_contexts_.find(id);
  }
  std::optional<std::span<const std::byte>> get_reply_service_context(std::uint32_t id) const override {
    return reply_contexts_.find(id);
  }
  std::span<const std::byte> object_key() const noexcept override { return object_key_; }
  std::span<const std::byte> object_id() const noexcept override { return object_id_; }
  void add_reply_service_context(std::uint32_t id, std::span<const std::byte> data, bool replace) override {
    reply_contexts_.add(id, data, replace);
  }
  const SystemException* sending_exception() const noexcept override { return ending_.exception.get(); }
  std::string_view sending_exception_id() const noexcept override { return ending_.exception_id; }

 private:
  const server_interceptor_list& interceptors_;
  std::string_view operation_;
  const giop::service_context_list& request_contexts_;
  std::span<const std::byte> object_key_;
  std::span<const std::byte> object_id_;
  std::uint32_t request_id_;
  std::uint8_t response_flags_;
  // `started`: how many interceptors' receive_request_service_contexts completed.
  ending_points ending_;
  owned_contexts reply_contexts_;
};

// Deletes an invocation's interception, out of line: the invocation's destructor only calls it
// (inlining the deletion there would change what the compiler inlines on the plain path).
void destroy(client_interception* interception) noexcept;

// The initializers register_orb_initializer holds now, in order: orb_init runs pre_init of each,
// makes the ORB, then post_init of each.
std::vector<std::shared_ptr<orb_initializer>> registered_orb_initializers();

}  // namespace switchyard::core
