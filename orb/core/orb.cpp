// The public ORB: forwards to orb_impl.
#include "switchyard/orb.h"

#include <ostream>

#include "orb/adapter/adapter_impl.h"
#include "orb/adapter/adapter_registry.h"
#include "orb/adapter/object_key.h"
#include "orb/core/object_state.h"
#include "orb/core/orb_impl.h"
#include "orb/ior/corbaloc.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/tags.h"
#include "switchyard/exception.h"
#include "switchyard/interceptors.h"
#include "switchyard/value.h"

namespace switchyard {

namespace {

const core::object_state& state_of(const object_ref& reference, std::string_view what) {
  if (reference.is_nil())
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
                          std::string(what) + ": nil reference");
  return *reference.state();
}

}  // namespace

orb::orb(std::shared_ptr<core::orb_impl> impl) noexcept : impl_(std::move(impl)) {}

orb::~orb() {
  try {
    destroy();
  } catch (...) {
    // Destroying from inside an upcall: the ORB goes when its last reference does.
  }
}

object_adapter& orb::root_adapter() { return impl_->adapters().root(); }

std::string orb::object_to_string(const object_ref& reference) const {
  if (reference.is_nil()) return iop::to_ior_string({});
  return iop::to_ior_string(reference.state()->ior());
}

object_ref orb::string_to_object(std::string_view text) { return impl_->string_to_object(text); }

std::string orb::object_to_url(const object_ref& reference) const {
  const auto& state = state_of(reference, "object_to_url");
  for (const auto& profile : state.ior().profiles) {
    if (profile.tag != iop::tag_internet_iop) continue;
    auto iiop = iop::decode_iiop_profile(profile.data);
    return iop::make_corbaloc(iiop.host, iiop.port, iiop.object_key, iiop.version);
  }
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_url, CompletionStatus::no,
                        "object_to_url: the reference has no IIOP profile");
}

object_ref orb::resolve_initial_references(std::string_view name) { return impl_->resolve_initial_references(name); }

std::shared_ptr<const value_factory> orb::register_value_factory(std::string_view repository_id,
                                                                 std::shared_ptr<const value_factory> factory) {
  return switchyard::register_value_factory(repository_id, std::move(factory));
}

void orb::unregister_value_factory(std::string_view repository_id) {
  switchyard::unregister_value_factory(repository_id);
}

std::shared_ptr<const value_factory> orb::lookup_value_factory(std::string_view repository_id) const {
  return switchyard::lookup_value_factory(repository_id);
}

void orb::register_initial_reference(std::string_view name, const object_ref& reference) {
  impl_->register_initial_reference(name, reference);
}

std::vector<std::string> orb::list_initial_services() const { return impl_->list_initial_services(); }

void orb::bind_key(std::string_view key, const object_ref& reference) {
  const auto& state = state_of(reference, "bind_key");
  for (const auto& target : iop::targets_of(state.ior())) {
    std::string_view object_key(reinterpret_cast<const char*>(target.object_key.data()), target.object_key.size());
    if (adapter::parse_object_key(object_key)) {
      impl_->adapters().bind_key(key, object_key);
      return;
    }
  }
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
                        "bind_key: not a reference to an object of this ORB");
}

void orb::run() { impl_->run(); }
bool orb::work_pending() { return impl_->work_pending(); }
void orb::perform_work() { impl_->perform_work(); }
void orb::shutdown(bool wait_for_completion) { impl_->shutdown(wait_for_completion); }

void orb::destroy() {
  if (!impl_) return;
  impl_->shutdown(true);
  impl_->release_references();
}

std::vector<std::string> orb::endpoints() const {
  std::vector<std::string> out;
  for (const auto& endpoint : impl_->advertised_endpoints()) out.push_back(endpoint.to_string());
  return out;
}

void orb::dump_instrumentation(std::ostream& out) const { impl_->dump_instrumentation(out); }

// Here rather than in orb/adapter: only the core knows what is inside a reference.
bool object_adapter::deactivate(const object_ref& reference) {
  if (reference.is_nil()) return false;
  for (const auto& target : iop::targets_of(reference.state()->ior())) {
    std::string_view key(reinterpret_cast<const char*>(target.object_key.data()), target.object_key.size());
    if (impl_->deactivate_key(key)) return true;
  }
  return false;
}

namespace {

// The registered ORB initializers (switchyard/interceptors.h) around the ORB's making: pre_init,
// the ORB, post_init, then the interceptors they added go into it. Without initializers, the ORB
// as it was.
std::shared_ptr<core::orb_impl> make_orb_impl(core::orb_options options, std::vector<std::string> arguments) {
  const auto initializers = core::registered_orb_initializers();
  if (initializers.empty()) return std::make_shared<core::orb_impl>(std::move(options));
  orb_init_info info(std::move(arguments));
  for (const auto& initializer : initializers) initializer->pre_init(info);
  auto impl = std::make_shared<core::orb_impl>(std::move(options));
  for (const auto& initializer : initializers) initializer->post_init(info);
  impl->set_interceptors(info.client_request_interceptors(), info.server_request_interceptors());
  return impl;
}

}  // namespace

std::shared_ptr<orb> orb_init(int& argc, char** argv) {
  std::vector<std::string> arguments(argv, argv + argc);
  auto options = core::parse_orb_options(argc, argv);
  return std::shared_ptr<orb>(new orb(make_orb_impl(std::move(options), std::move(arguments))));
}

std::shared_ptr<orb> orb_init(std::vector<std::string> args) {
  std::vector<std::string> arguments = args;
  auto options = core::parse_orb_options(args);
  return std::shared_ptr<orb>(new orb(make_orb_impl(std::move(options), std::move(arguments))));
}

}  // namespace switchyard
