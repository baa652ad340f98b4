#include "switchyard/exception.h"

#include <array>
#include <cstdio>

namespace switchyard {

namespace {

// In the order of SystemExceptionKind.
constexpr std::array<std::string_view, 36> kind_names = {
    "UNKNOWN",
    "BAD_PARAM",
    "NO_MEMORY",
    "IMP_LIMIT",
    "COMM_FAILURE",
    "INV_OBJREF",
    "NO_PERMISSION",
    "INTERNAL",
    "MARSHAL",
    "INITIALIZE",
    "NO_IMPLEMENT",
    "BAD_TYPECODE",
    "BAD_OPERATION",
    "NO_RESOURCES",
    "NO_RESPONSE",
    "PERSIST_STORE",
    "BAD_INV_ORDER",
    "TRANSIENT",
    "FREE_MEM",
    "INV_IDENT",
    "INV_FLAG",
    "INTF_REPOS",
    "BAD_CONTEXT",
    "OBJ_ADAPTER",
    "DATA_CONVERSION",
    "OBJECT_NOT_EXIST",
    "TRANSACTION_REQUIRED",
    "TRANSACTION_ROLLEDBACK",
    "INVALID_TRANSACTION",
    "INV_POLICY",
    "CODESET_INCOMPATIBLE",
    "REBIND",
    "TIMEOUT",
    "TRANSACTION_UNAVAILABLE",
    "TRANSACTION_MODE",
    "BAD_QOS",
};
static_assert(kind_names.size() == static_cast<std::size_t>(SystemExceptionKind::BAD_QOS) + 1);

// "IDL:omg.org/CORBA/" + name + ":1.0", built once.
struct RepositoryIds {
  std::array<std::string, kind_names.size()> ids;
  RepositoryIds() {
    for (std::size_t i = 0; i < kind_names.size(); ++i)
      ids[i] = "IDL:omg.org/CORBA/" + std::string(kind_names[i]) + ":1.0";
  }
};
const RepositoryIds& repository_ids() {
  static const RepositoryIds table;
  return table;
}

}  // namespace

std::string_view to_string(CompletionStatus status) noexcept {
  switch (status) {
    case CompletionStatus::yes:
      return "yes";
    case CompletionStatus::no:
      return "no";
    case CompletionStatus::maybe:
      return "maybe";
  }
  return "invalid";
}

SystemException::SystemException(SystemExceptionKind kind, std::uint32_t minor, CompletionStatus completed,
                                 std::string detail)
    : kind_(kind), minor_(minor), completed_(completed), detail_(std::move(detail)) {
  char head[96];
  std::snprintf(head, sizeof head, "%.*s (minor 0x%08x, completed %.*s)", static_cast<int>(name(kind_).size()),
                name(kind_).data(), minor_, static_cast<int>(to_string(completed_).size()),
                to_string(completed_).data());
  message_ = head;
  if (!detail_.empty()) message_ += ": " + detail_;
}

std::string_view SystemException::repository_id() const noexcept {
  return repository_ids().ids[static_cast<std::size_t>(kind_)];
}

std::string_view SystemException::name(SystemExceptionKind kind) noexcept {
  auto index = static_cast<std::size_t>(kind);
  return index < kind_names.size() ? kind_names[index] : std::string_view("UNKNOWN");
}

SystemExceptionKind SystemException::kind_from_repository_id(std::string_view id) noexcept {
  constexpr std::string_view prefix = "IDL:omg.org/CORBA/";
  constexpr std::string_view suffix = ":1.0";
  if (!id.starts_with(prefix) || !id.ends_with(suffix)) return SystemExceptionKind::UNKNOWN;
  id = id.substr(prefix.size(), id.size() - prefix.size() - suffix.size());
  for (std::size_t i = 0; i < kind_names.size(); ++i)
    if (kind_names[i] == id) return static_cast<SystemExceptionKind>(i);
  return SystemExceptionKind::UNKNOWN;
}

}  // namespace switchyard
