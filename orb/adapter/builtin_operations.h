// The operations every CORBA object answers without its interface declaring them: _is_a,
// _non_existent (and its CORBA 2.2 spelling _not_existent), _repository_id, _interface.
// Internal to orb/adapter.
#pragma once

#include <string_view>

#include "orb/adapter/adapter_registry.h"
#include "switchyard/servant.h"

namespace switchyard::adapter {

// The skeleton of a built-in operation, or nullptr.
skeleton_function find_builtin_operation(std::string_view operation) noexcept;

inline bool is_non_existent(std::string_view operation) noexcept {
  return operation == "_non_existent" || operation == "_not_existent";
}

// _non_existent on an object that is not there answers TRUE rather than OBJECT_NOT_EXIST.
lookup_status answer_non_existent(dispatch_target& out) noexcept;

}  // namespace switchyard::adapter
