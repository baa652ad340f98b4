// A value whose type the receiver knows only by a TypeCode (an Any's, or one inside it): read
// where no factory is registered for its repository id, it keeps its state as canonical CDR with
// the values inside it apart, so that it is written again exactly as read (sharing and cycles
// included) and can be extracted later into a generated type once a factory exists. Internal to
// orb/dynamic: applications meet it only as a value_base inside an Any.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "orb/dynamic/value_plan.h"
#include "switchyard/value.h"

namespace switchyard::detail {

class dynamic_value final : public value_base {
 public:
  // `value_step` is the plan of the value's type, kept alive by `owner`.
  dynamic_value(std::shared_ptr<const type_code_node> owner, const value_plan& value_step) noexcept
      : owner_(std::move(owner)), step_(value_step) {}

  std::string_view _repository_id() const noexcept override { return step_.truncatable_ids.front(); }
  std::span<const std::string_view> _truncatable_ids() const noexcept override { return step_.truncatable_ids; }
  void _write_state(cdr::output_stream& out) const override;
  void _read_state(cdr::input_stream& in) override;
  void _release_values() noexcept override { values_.clear(); }

 private:
  std::shared_ptr<const type_code_node> owner_;
  const value_plan& step_;
  // The state, canonical, laid out from position origin_: exactly its octets (a message may hold
  // millions of small values, so nothing more is kept per value than this).
  std::unique_ptr<std::byte[]> state_;
  std::uint32_t state_size_ = 0;
  std::uint8_t origin_ = 0;
  std::vector<value_ref<value_base>> values_;  // the values in the state, in order
};

// What read_value falls back on for one plan_step::value.
class dynamic_value_factory final : public value_factory {
 public:
  dynamic_value_factory(const std::shared_ptr<const type_code_node>& owner, const value_plan& value_step) noexcept
      : owner_(owner), step_(value_step) {}
  value_ref<value_base> create_for_unmarshal() const override {
    return value_ref<value_base>(new dynamic_value(owner_, step_));
  }

 private:
  const std::shared_ptr<const type_code_node>& owner_;
  const value_plan& step_;
};

}  // namespace switchyard::detail
