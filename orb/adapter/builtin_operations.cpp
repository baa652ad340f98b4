#include "orb/adapter/builtin_operations.h"

#include "switchyard/exception.h"
#include "switchyard/server_request.h"

namespace switchyard::adapter {

namespace {

constexpr std::string_view object_repository_id = "IDL:omg.org/CORBA/Object:1.0";

void is_a(servant& self, server_request& request) {
  std::string_view asked = request.arguments().read_string_view();
  bool answer = asked == object_repository_id;
  for (std::string_view id : self._interface().repository_ids) answer = answer || id == asked;
  if (request.response_expected()) request.reply().write_boolean(answer);
}

void non_existent_false(servant&, server_request& request) {
  if (request.response_expected()) request.reply().write_boolean(false);
}

void non_existent_true(servant&, server_request& request) {
  if (request.response_expected()) request.reply().write_boolean(true);
}

void repository_id(servant& self, server_request& request) {
  if (request.response_expected()) request.reply().write_string(self._interface().repository_id);
}

void interface(servant&, server_request&) {
  // No interface repository here.
  throw SystemException(SystemExceptionKind::NO_IMPLEMENT, minor::omg_minor(3), CompletionStatus::no,
                        "_interface: no interface repository");
}

}  // namespace

skeleton_function find_builtin_operation(std::string_view operation) noexcept {
  if (operation.size() < 2 || operation[0] != '_') return nullptr;
  if (operation == "_is_a") return &is_a;
  if (is_non_existent(operation)) return &non_existent_false;
  if (operation == "_repository_id") return &repository_id;
  if (operation == "_interface") return &interface;
  return nullptr;
}

// Stands in for the missing servant when _non_existent answers for an object that is not there.
class absent_servant final : public servant {
 public:
  const interface_info& _interface() const noexcept override {
    static const interface_info none{"", {}, {}, nullptr};
    return none;
  }
};

lookup_status answer_non_existent(dispatch_target& out) noexcept {
  static absent_servant absent;
  // Aliasing constructor: points at the static, owns nothing.
  out.target = std::shared_ptr<servant>(std::shared_ptr<servant>(), &absent);
  out.skeleton = &non_existent_true;
  return lookup_status::found;
}

}  // namespace switchyard::adapter
