// The public object_adapter and servant: thin forwarders to adapter_impl.
#include "switchyard/object_adapter.h"

#include "orb/adapter/adapter_impl.h"
#include "orb/adapter/object_key.h"

namespace switchyard {

servant::~servant() = default;

const std::string& object_adapter::name() const noexcept { return impl_->name(); }
demux_strategy object_adapter::servant_demux() const noexcept { return impl_->servant_demux(); }
demux_strategy object_adapter::operation_demux() const noexcept { return impl_->operation_demux(); }

object_adapter& object_adapter::create_child(std::string_view name, const adapter_policies& policies) {
  return impl_->create_child(name, policies);
}
object_adapter* object_adapter::find_child(std::string_view name) noexcept { return impl_->find_child(name); }
void object_adapter::set_access_policy(access_policy policy) { impl_->set_access(std::move(policy)); }
void object_adapter::clear_access_policy() { impl_->set_access(std::nullopt); }

object_ref object_adapter::activate(std::shared_ptr<servant> servant) {
  return impl_->activate({}, std::move(servant), true);
}
object_ref object_adapter::activate_with_id(std::string_view object_id, std::shared_ptr<servant> servant) {
  return impl_->activate(object_id, std::move(servant), false);
}
bool object_adapter::deactivate(std::string_view object_id) { return impl_->deactivate(object_id); }
object_ref object_adapter::reference_to(std::string_view object_id) const { return impl_->reference_to(object_id); }
std::shared_ptr<servant> object_adapter::servant_of(std::string_view object_id) const {
  return impl_->servant_of(object_id);
}
std::size_t object_adapter::active_count() const noexcept { return impl_->active_count(); }
std::size_t object_adapter::servant_map_bytes() const noexcept { return impl_->servant_map_bytes(); }
void object_adapter::use_object_ids(const object_id_table& table) { impl_->use_object_ids(table); }
const object_id_table* object_adapter::object_ids() const noexcept { return impl_->object_ids(); }

}  // namespace switchyard
