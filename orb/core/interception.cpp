#include "orb/core/interception.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <utility>

namespace switchyard {

namespace {

std::mutex& initializers_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::vector<std::shared_ptr<orb_initializer>>& initializers() {
  static std::vector<std::shared_ptr<orb_initializer>> list;
  return list;
}

template <class List>
void add_named(List& list, typename List::value_type interceptor) {
  if (!interceptor)
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
                          "add_request_interceptor: null interceptor");
  const std::string_view name = interceptor->name();
  if (!name.empty() && std::any_of(list.begin(), list.end(), [&](const auto& other) { return other->name() == name; }))
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(0), CompletionStatus::no,
                          "an interceptor named '" + std::string(name) + "' is already added (DuplicateName)");
  list.push_back(std::move(interceptor));
}

}  // namespace

void orb_init_info::add_client_request_interceptor(std::shared_ptr<client_request_interceptor> interceptor) {
  add_named(client_, std::move(interceptor));
}

void orb_init_info::add_server_request_interceptor(std::shared_ptr<server_request_interceptor> interceptor) {
  add_named(server_, std::move(interceptor));
}

void register_orb_initializer(std::shared_ptr<orb_initializer> initializer) {
  if (!initializer)
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
                          "register_orb_initializer: null initializer");
  std::lock_guard lock(initializers_mutex());
  initializers().push_back(std::move(initializer));
}

void clear_orb_initializers() noexcept {
  std::lock_guard lock(initializers_mutex());
  initializers().clear();
}

}  // namespace switchyard

namespace switchyard::core {

namespace {

// What an interceptor raised, as a system exception: anything else becomes UNKNOWN.
SystemException current_as_system_exception() {
  try {
    throw;
  } catch (const SystemException& e) {
    return e;
  } catch (const std::exception& e) {
    return SystemException(SystemExceptionKind::UNKNOWN, minor::omg_minor(1), CompletionStatus::maybe, e.what());
  } catch (...) {
    return SystemException(SystemExceptionKind::UNKNOWN, minor::omg_minor(1), CompletionStatus::maybe,
                           "an interceptor raised a non-CORBA exception");
  }
}

}  // namespace

std::vector<std::shared_ptr<orb_initializer>> registered_orb_initializers() {
  std::lock_guard lock(initializers_mutex());
  return initializers();
}

void owned_contexts::add(std::uint32_t id, std::span<const std::byte> data, bool replace) {
  ++changes_;
  for (entry& e : entries_) {
    if (e.id != id) continue;
    if (!replace)
      throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(15), CompletionStatus::no,
                            "a service context with this id is already added");
    e.data.assign(data.begin(), data.end());
    return;
  }
  entries_.push_back({id, std::vector<std::byte>(data.begin(), data.end())});
}

std::optional<std::span<const std::byte>> owned_contexts::find(std::uint32_t id) const {
  for (const entry& e : entries_)
    if (e.id == id) return std::span<const std::byte>(e.data);
  return std::nullopt;
}

void owned_contexts::append_to(std::vector<giop::service_context>& out) const {
  for (const entry& e : entries_) out.push_back({e.id, e.data});
}

template <class Interceptors, class Point>
bool ending_points::run(const Interceptors& interceptors, interceptor_reply_status status,
                        const SystemException* system, std::string_view id, Point point) {
  reply_status = status;
  if (system != nullptr) {
    exception = std::make_unique<SystemException>(*system);
    exception_id = system->repository_id();
  } else {
    exception_id = id;
  }
  bool replaced = false;
  while (started > 0) {
    try {
      point(*interceptors[--started]);
    } catch (...) {
      exception = std::make_unique<SystemException>(current_as_system_exception());
      exception_id = exception->repository_id();
      reply_status = interceptor_reply_status::system_exception;
      replaced = true;
    }
  }
  return replaced;
}

// --- Client.

[[gnu::noinline, gnu::cold]] void destroy(client_interception* interception) noexcept { delete interception; }

void client_interception::send_request(std::uint32_t request_id, std::uint8_t response_flags,
                                       std::span<const std::byte> object_key) {
  request_id_ = request_id;
  response_flags_ = response_flags;
  object_key_ = object_key;
  ending_.reply_status = interceptor_reply_status::none;
  ending_.started = 0;
  request_contexts_.clear();
  reply_contexts_ = {};
  ending_.exception.reset();
  ending_.exception_id.clear();
  in_send_request_ = true;
  for (const auto& interceptor : interceptors_) {
    try {
      interceptor->send_request(*this);
    } catch (...) {
      in_send_request_ = false;
      const SystemException raised = current_as_system_exception();
      finish(interceptor_reply_status::system_exception, &raised);
      throw raised;  // no earlier interceptor replaced it
    }
    ++ending_.started;
  }
  in_send_request_ = false;
}

void client_interception::add_request_service_context(std::uint32_t id, std::span<const std::byte> data, bool replace) {
  if (!in_send_request_)
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(14), CompletionStatus::no,
                          "add_request_service_context outside send_request");
  request_contexts_.add(id, data, replace);
}

std::optional<std::span<const std::byte>> client_interception::get_reply_service_context(std::uint32_t id) const {
  return reply_contexts_.find(id);
}

void client_interception::finish(interceptor_reply_status status, const SystemException* system,
                                 std::string_view exception_id) {
  const bool replaced =
      ending_.run(interceptors_, status, system, exception_id, [this](client_request_interceptor& interceptor) {
        switch (ending_.reply_status) {
          case interceptor_reply_status::successful:
            if (response_expected()) interceptor.receive_reply(*this);
            else interceptor.receive_other(*this);
            break;
          case interceptor_reply_status::system_exception:
          case interceptor_reply_status::user_exception:
            interceptor.receive_exception(*this);
            break;
          default:
            interceptor.receive_other(*this);
            break;
        }
      });
  if (replaced) throw SystemException(*ending_.exception);
}

// --- Server.

void server_interception::receive_request_service_contexts() {
  for (const auto& interceptor : interceptors_) {
    interceptor->receive_request_service_contexts(*this);
    ++ending_.started;
  }
}

void server_interception::receive_request() {
  for (const auto& interceptor : interceptors_) interceptor->receive_request(*this);
}

const SystemException* server_interception::finish(interceptor_reply_status status, const SystemException* system,
                                                   std::string_view exception_id) {
  const bool replaced =
      ending_.run(interceptors_, status, system, exception_id, [this](server_request_interceptor& interceptor) {
        switch (ending_.reply_status) {
          case interceptor_reply_status::successful:
            interceptor.send_reply(*this);
            break;
          case interceptor_reply_status::system_exception:
          case interceptor_reply_status::user_exception:
            interceptor.send_exception(*this);
            break;
          default:
            interceptor.send_other(*this);
            break;
        }
      });
  return replaced ? ending_.exception.get() : nullptr;
}

}  // namespace switchyard::core
