// The ORB: initialization from the command line, the event loop, object references as strings,
// initial references, and the root object adapter.
//
//   auto orb = switchyard::orb_init(argc, argv);     // consumes the -ORB options
//   auto ref = orb->root_adapter().activate(std::make_shared<my_servant>());
//   std::cout << orb->object_to_string(ref);
//   orb->run();
#pragma once

#include <chrono>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/object.h"
#include "switchyard/object_adapter.h"
#include "switchyard/policies.h"

namespace switchyard {

namespace core {
class orb_impl;
}
class value_factory;  // switchyard/value.h

class orb {
 public:
  ~orb();

  // The root adapter ("RootPOA").
  object_adapter& root_adapter();

  // "IOR:..." for a reference; the reference for "IOR:...", "corbaloc:iiop:...",
  // "corbaloc:rir:/Name". Malformed strings raise BAD_PARAM or MARSHAL naming what is wrong.
  std::string object_to_string(const object_ref& reference) const;
  object_ref string_to_object(std::string_view text);
  // "corbaloc:iiop:1.2@host:port/key" for one of our objects.
  std::string object_to_url(const object_ref& reference) const;

  // -ORBInitRef Name=URL, then -ORBDefaultInitRef URL/Name, then what was registered.
  // InvalidName is BAD_PARAM naming the name.
  object_ref resolve_initial_references(std::string_view name);
  void register_initial_reference(std::string_view name, const object_ref& reference);
  std::vector<std::string> list_initial_services() const;

  // Value factories (ORB::register_value_factory, switchyard/value.h): the registry is one per
  // process, shared by every ORB. register returns the factory it replaces (or null);
  // unregister raises BAD_PARAM when there is none; lookup gives null when there is none.
  std::shared_ptr<const value_factory> register_value_factory(std::string_view repository_id,
                                                              std::shared_ptr<const value_factory> factory);
  void unregister_value_factory(std::string_view repository_id);
  std::shared_ptr<const value_factory> lookup_value_factory(std::string_view repository_id) const;

  // Binds a plain key so that corbaloc::host:port/<key> reaches `reference` (one of ours).
  void bind_key(std::string_view key, const object_ref& reference);

  // The event loop. run() serves until shutdown(); perform_work() does one round of what is
  // pending without waiting; work_pending() says whether there is any.
  void run();
  bool work_pending();
  void perform_work();
  // Stops serving: closes listeners and connections (sending CloseConnection to clients). With
  // `wait_for_completion`, waits for requests in progress (BAD_INV_ORDER from inside an upcall).
  void shutdown(bool wait_for_completion = true);
  // shutdown(true), then releases every resource; the ORB cannot be used afterwards.
  void destroy();

  // The endpoints this ORB listens on, as it advertises them ("iiop://127.0.0.1:40112").
  std::vector<std::string> endpoints() const;

  // The instrumentation table so far (when compiled in and switched on by -ORBInstrument).
  void dump_instrumentation(std::ostream& out) const;

  core::orb_impl& impl() noexcept { return *impl_; }

 private:
  friend std::shared_ptr<orb> orb_init(int& argc, char** argv);
  friend std::shared_ptr<orb> orb_init(std::vector<std::string> args);
  explicit orb(std::shared_ptr<core::orb_impl> impl) noexcept;
  std::shared_ptr<core::orb_impl> impl_;
};

// Makes an ORB from the command line: consumes the -ORB options it knows and leaves the rest in
// argc/argv. An unknown -ORB option raises BAD_PARAM naming it.
std::shared_ptr<orb> orb_init(int& argc, char** argv);
// The same from a list of arguments (no program name).
std::shared_ptr<orb> orb_init(std::vector<std::string> args);

}  // namespace switchyard
