#include "benchmarks/sy_bench/naming_directory.h"

#include <stdexcept>
#include <thread>

#include "switchyard/exception.h"
#include "switchyard/orb.h"

#if SY_BENCH_NAMING
#include "CosNaming.h"  // syidl over omniORB's COS/CosNaming.idl (meson.build)
#endif

namespace switchyard::bench {

#if SY_BENCH_NAMING

namespace {

CosNaming::NamingContextExt root_context(const std::shared_ptr<switchyard::orb>& orb, const std::string& url) {
  auto root = CosNaming::NamingContextExt::_narrow(orb->string_to_object(url));
  if (root._is_nil()) throw std::runtime_error(url + " is not a naming context");
  return root;
}

CosNaming::Name name_of(const std::string& context, const std::string& name) {
  CosNaming::Name n;
  n.push_back({context, "sy-bench"});
  if (!name.empty()) n.push_back({name, ""});
  return n;
}

}  // namespace

bool naming_available() noexcept { return true; }

bool wait_for_naming(const std::shared_ptr<switchyard::orb>& orb, const std::string& url,
                     std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto root = orb->string_to_object(url);
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      if (root.locate()) return true;
    } catch (const SystemException&) {
      // not listening yet, or its root context not active yet
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

void bind_in_naming(const std::shared_ptr<switchyard::orb>& orb, const std::string& url, const std::string& context,
                    const std::vector<std::pair<std::string, object_ref>>& objects) {
  auto root = root_context(orb, url);
  root.bind_new_context(name_of(context, ""));
  // Compound names from the root: we never call the context reference omniNames made, so its
  // address (the naming namespace's) need not be reachable from everywhere.
  for (auto& [name, object] : objects) root.bind(name_of(context, name), object);
}

std::vector<std::string> resolve_in_naming(const std::shared_ptr<switchyard::orb>& orb, const std::string& url,
                                           const std::string& context, const std::vector<std::string>& names) {
  auto root = root_context(orb, url);
  std::vector<std::string> references;
  references.reserve(names.size());
  for (auto& name : names) {
    try {
      references.push_back(orb->object_to_string(root.resolve(name_of(context, name))));
    } catch (const CosNaming::NamingContext::NotFound&) {
      throw std::runtime_error("the naming service at " + url + " has no " + context + ".sy-bench/" + name);
    }
  }
  return references;
}

#else

bool naming_available() noexcept { return false; }

bool wait_for_naming(const std::shared_ptr<switchyard::orb>&, const std::string&, std::chrono::milliseconds) {
  return false;
}

void bind_in_naming(const std::shared_ptr<switchyard::orb>&, const std::string&, const std::string&,
                    const std::vector<std::pair<std::string, object_ref>>&) {
  throw std::runtime_error("sy-bench was built without CosNaming stubs (omniORB's CosNaming.idl, Debian omniorb-idl)");
}

std::vector<std::string> resolve_in_naming(const std::shared_ptr<switchyard::orb>&, const std::string&,
                                           const std::string&, const std::vector<std::string>&) {
  throw std::runtime_error("sy-bench was built without CosNaming stubs (omniORB's CosNaming.idl, Debian omniorb-idl)");
}

#endif

}  // namespace switchyard::bench
