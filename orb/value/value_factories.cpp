// The value factory registry: one per process (switchyard/value.h says why).
#include <mutex>
#include <shared_mutex>
#include <string>

#include <boost/unordered/unordered_flat_map.hpp>

#include "switchyard/exception.h"
#include "switchyard/value.h"

namespace switchyard {

namespace {

struct transparent_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
struct transparent_equal {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const noexcept { return a == b; }
};

struct registry {
  std::shared_mutex mutex;
  boost::unordered_flat_map<std::string, value_factory_ref, transparent_hash, transparent_equal> factories;
};

// Built on first use: generated code registers from static initializers in any order.
registry& the_registry() {
  static registry r;
  return r;
}

}  // namespace

value_factory_ref register_value_factory(std::string_view repository_id, value_factory_ref factory) {
  if (!factory)
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(1), CompletionStatus::no,
                          "register_value_factory: null factory for " + std::string(repository_id));
  registry& r = the_registry();
  std::unique_lock lock(r.mutex);
  auto [where, inserted] = r.factories.try_emplace(std::string(repository_id), factory);
  if (inserted) return nullptr;
  value_factory_ref previous = std::move(where->second);
  where->second = std::move(factory);
  return previous;
}

void unregister_value_factory(std::string_view repository_id) {
  registry& r = the_registry();
  std::unique_lock lock(r.mutex);
  auto found = r.factories.find(repository_id);
  if (found == r.factories.end())
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(1), CompletionStatus::no,
                          "unregister_value_factory: no factory for " + std::string(repository_id));
  r.factories.erase(found);
}

value_factory_ref lookup_value_factory(std::string_view repository_id) {
  registry& r = the_registry();
  std::shared_lock lock(r.mutex);
  auto found = r.factories.find(repository_id);
  return found == r.factories.end() ? nullptr : found->second;
}

}  // namespace switchyard
