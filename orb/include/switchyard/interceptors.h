// Portable interceptors (CORBA 3.x, "Portable Interceptors"): client and server request
// interceptors, registered through ORB initializers. docs/orb.md, "Portable interceptors".
//
//   class stamp final : public switchyard::client_request_interceptor {
//     std::string_view name() const noexcept override { return "stamp"; }
//     void send_request(switchyard::client_request_info& info) override {
//       info.add_request_service_context(0x53590100, payload, false);
//     }
//   };
//   class setup final : public switchyard::orb_initializer {
//     void pre_init(switchyard::orb_init_info& info) override {
//       info.add_client_request_interceptor(std::make_shared<stamp>());
//     }
//   };
//   switchyard::register_orb_initializer(std::make_shared<setup>());   // before orb_init
//   auto orb = switchyard::orb_init(argc, argv);                        // runs setup, then returns
//
// An interceptor raises a SystemException to end the request (NO_PERMISSION to refuse it).
// Interceptors run on the threads that make and serve the calls: they must be thread-safe.
// What is not here: IOR interceptors, PICurrent slots, ForwardRequest from an interceptor, the
// operation's arguments, results and exception list, and the ORB's request id of a retry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/object.h"

namespace switchyard {

// PortableInterceptor::ReplyStatus, and `none` before there is a reply.
enum class interceptor_reply_status : std::uint8_t {
  successful,
  system_exception,
  user_exception,
  location_forward,
  transport_retry,
  none,
};

// What both sides share (PortableInterceptor::RequestInfo). Valid only inside the interception
// point it is given to.
class request_info {
 public:
  virtual std::uint32_t request_id() const noexcept = 0;
  virtual std::string_view operation() const noexcept = 0;
  virtual bool response_expected() const noexcept = 0;
  // Messaging::SyncScope as the request says it (GIOP 1.2 response flags): `none` for a one-way
  // call that expects no reply (none and with_transport look the same on the wire), with_server,
  // or with_target (every two-way call).
  virtual switchyard::sync_scope sync_scope() const noexcept = 0;
  // `none` until the reply is known (send_request, receive_request_service_contexts, receive_request).
  virtual interceptor_reply_status reply_status() const noexcept = 0;
  // The request's context with `id` (its octets, an encapsulation), or nothing.
  virtual std::optional<std::span<const std::byte>> get_request_service_context(std::uint32_t id) const = 0;
  // The reply's context with `id`, or nothing (client: after the reply came; server: the ones
  // added so far).
  virtual std::optional<std::span<const std::byte>> get_reply_service_context(std::uint32_t id) const = 0;

 protected:
  ~request_info() = default;
};

// PortableInterceptor::ClientRequestInfo.
class client_request_info : public request_info {
 public:
  // The target's repository id (from its IOR) and the object key the request goes to.
  virtual std::string_view target_repository_id() const noexcept = 0;
  virtual std::span<const std::byte> target_object_key() const noexcept = 0;
  // Adds a context to the request: only in send_request. A context with the same id already
  // added raises BAD_INV_ORDER (minor 15) unless `replace`. The octets are copied.
  virtual void add_request_service_context(std::uint32_t id, std::span<const std::byte> data, bool replace) = 0;
  // In receive_exception: the system exception received (or raised by an interceptor before),
  // nullptr for a user exception; and the exception's repository id, either kind.
  virtual const SystemException* received_exception() const noexcept = 0;
  virtual std::string_view received_exception_id() const noexcept = 0;

 protected:
  ~client_request_info() = default;
};

// PortableInterceptor::ServerRequestInfo.
class server_request_info : public request_info {
 public:
  // The object key the request names, and its object id (the key's part the adapter gave the
  // servant: empty when the key is not one of this ORB's adapters).
  virtual std::span<const std::byte> object_key() const noexcept = 0;
  virtual std::span<const std::byte> object_id() const noexcept = 0;
  // Adds a context to the reply: in any server interception point. Same rule as
  // add_request_service_context. A context added in send_reply, send_exception or send_other
  // reaches the client over GIOP 1.2 and collocated calls; over GIOP 1.0 and 1.1 only the ones
  // added before the servant runs do (the body's alignment depends on the header there).
  virtual void add_reply_service_context(std::uint32_t id, std::span<const std::byte> data, bool replace) = 0;
  // In send_exception: the exception the reply carries (nullptr for a user exception) and its
  // repository id.
  virtual const SystemException* sending_exception() const noexcept = 0;
  virtual std::string_view sending_exception_id() const noexcept = 0;

 protected:
  ~server_request_info() = default;
};

// PortableInterceptor::ClientRequestInterceptor. Every point does nothing unless overridden.
class client_request_interceptor {
 public:
  virtual ~client_request_interceptor() = default;
  // Interceptors with the same non-empty name may not be added twice to one ORB.
  virtual std::string_view name() const noexcept { return {}; }
  virtual void send_request(client_request_info&) {}
  // Never called: Switchyard has no time-independent polling requests.
  virtual void send_poll(client_request_info&) {}
  virtual void receive_reply(client_request_info&) {}
  virtual void receive_exception(client_request_info&) {}
  // A LOCATION_FORWARD (the request goes out again to the new target), a request sent again
  // on a new connection (transport_retry), or a oneway sent.
  virtual void receive_other(client_request_info&) {}
};

// PortableInterceptor::ServerRequestInterceptor.
class server_request_interceptor {
 public:
  virtual ~server_request_interceptor() = default;
  virtual std::string_view name() const noexcept { return {}; }
  // Before the servant is looked up.
  virtual void receive_request_service_contexts(server_request_info&) {}
  // Once the servant and operation are found, before the skeleton runs.
  virtual void receive_request(server_request_info&) {}
  virtual void send_reply(server_request_info&) {}
  virtual void send_exception(server_request_info&) {}
  // A LOCATION_FORWARD reply (a servant manager's or servant's forward_request).
  virtual void send_other(server_request_info&) {}
};

// PortableInterceptor::ORBInitInfo: what an initializer sees while orb_init runs.
class orb_init_info {
 public:
  explicit orb_init_info(std::vector<std::string> arguments) : arguments_(std::move(arguments)) {}
  // The arguments orb_init was given.
  const std::vector<std::string>& arguments() const noexcept { return arguments_; }
  // Interceptors run in the order they are added (the reply side in reverse). A second one with
  // the same non-empty name raises BAD_INV_ORDER (the spec's DuplicateName).
  void add_client_request_interceptor(std::shared_ptr<client_request_interceptor> interceptor);
  void add_server_request_interceptor(std::shared_ptr<server_request_interceptor> interceptor);

  const std::vector<std::shared_ptr<client_request_interceptor>>& client_request_interceptors() const noexcept {
    return client_;
  }
  const std::vector<std::shared_ptr<server_request_interceptor>>& server_request_interceptors() const noexcept {
    return server_;
  }

 private:
  std::vector<std::string> arguments_;
  std::vector<std::shared_ptr<client_request_interceptor>> client_;
  std::vector<std::shared_ptr<server_request_interceptor>> server_;
};

// PortableInterceptor::ORBInitializer.
class orb_initializer {
 public:
  virtual ~orb_initializer() = default;
  // Before the ORB exists, then once it does, both inside orb_init.
  virtual void pre_init(orb_init_info&) {}
  virtual void post_init(orb_init_info&) {}
};

// PortableInterceptor::register_orb_initializer: every orb_init called afterwards, in any thread,
// runs `initializer` (all of them, in the order registered) before it returns.
void register_orb_initializer(std::shared_ptr<orb_initializer> initializer);
// Forgets every registered initializer (for tests: ORBs made before keep their interceptors).
void clear_orb_initializers() noexcept;

}  // namespace switchyard
