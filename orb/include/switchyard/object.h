// Object references: what a client holds to call an object, reference-counted, copied freely.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace switchyard {

namespace core {
class object_state;
}

// A reference to a CORBA object, local or remote; nil when default-constructed. Generated stubs
// wrap one. Copies share one state: its chosen profile, its forwarding target, and its
// connection (one per endpoint, shared by every reference to that endpoint).
class object_ref {
 public:
  object_ref() noexcept = default;
  explicit object_ref(std::shared_ptr<core::object_state> state) noexcept : state_(std::move(state)) {}

  bool is_nil() const noexcept { return state_ == nullptr; }
  explicit operator bool() const noexcept { return state_ != nullptr; }

  // The repository id the reference carries ("IDL:ttcp_sequence:1.0"; may be empty).
  std::string_view repository_id() const noexcept;
  // Asks the object whether it implements `repository_id` (the standard _is_a operation).
  bool is_a(std::string_view repository_id) const;
  // Asks whether the object is gone (_non_existent); a dead server raises TRANSIENT instead.
  bool non_existent() const;
  // Sends a LocateRequest: true when the object is here (after following any forward).
  bool locate() const;
  // The same IOR (profiles and keys compare equal).
  bool is_equivalent(const object_ref& other) const noexcept;

  core::object_state* state() const noexcept { return state_.get(); }
  const std::shared_ptr<core::object_state>& shared_state() const noexcept { return state_; }

 private:
  std::shared_ptr<core::object_state> state_;
};

}  // namespace switchyard
