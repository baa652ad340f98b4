// dynamic_value (dynamic_value.h) and how a plan reads a value (value_plan.h, read_value_as).
#include "orb/dynamic/dynamic_value.h"

#include <cstring>

#include "orb/dynamic/type_code_node.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::detail {

void dynamic_value::_read_state(cdr::input_stream& in) {
  // Laid out from the position the state starts at, so that the copy is one block where it can be.
  origin_ = static_cast<std::uint8_t>(in.aligned_position() & 7);
  cdr::output_stream state(origin_ + 64, 2);
  for (std::uint8_t k = 0; k < origin_; ++k) state.write_octet(0);
  values_.clear();
  run_value_state(step_, owner_, in, state, {.check = true, .zero_padding = true}, {.into = &values_});
  const std::span<const std::byte> octets = state.bytes().subspan(origin_);
  state_size_ = static_cast<std::uint32_t>(octets.size());  // within a message: below 4 GiB
  state_.reset();
  if (!octets.empty()) {
    state_ = std::make_unique_for_overwrite<std::byte[]>(octets.size());
    std::memcpy(state_.get(), octets.data(), octets.size());
  }
  values_.shrink_to_fit();
}

void dynamic_value::_write_state(cdr::output_stream& out) const {
  const std::span<const std::byte> state(state_.get(), state_size_);
  cdr::input_stream in(state, cdr::native_byte_order, origin_, 2);
  run_value_state(step_, owner_, in, out, {.check = false, .zero_padding = false}, {.from = &values_});
}

value_ref<value_base> read_value_as(const value_plan& value_step, const std::shared_ptr<const type_code_node>& owner,
                                    cdr::input_stream& in) {
  const std::string_view id = value_step.truncatable_ids.front();
  if (!value_step.dynamic_state) return read_value(in, id);  // custom or abstract: its factory, or MARSHAL
  const dynamic_value_factory fallback(owner, value_step);
  return read_value(in, id, fallback);
}

}  // namespace switchyard::detail
