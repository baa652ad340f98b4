// The object adapter alone, no socket: adapter_registry and its adapters under every pair of
// servant and operation demultiplexing strategies (the one fixed at compile time, when a build
// fixes one), from object key and operation name to servant and skeleton. Activation with user
// and system ids, deactivation and reactivation, built-in operations, child adapters with their
// own strategies, malformed keys; with active demultiplexing the slot-and-generation hint, stale
// and forged, falling back to the id.
#include "orb/adapter/adapter_registry.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "demux/active_servant_map.h"
#include "demux/demux_strategy.h"
#include "orb/adapter/adapter_impl.h"
#include "orb/adapter/object_key.h"
#include "switchyard/config.h"
#include "switchyard/exception.h"
#include "switchyard/server_request.h"

using namespace switchyard;
using adapter::adapter_registry;
using adapter::dispatch_target;
using adapter::lookup_status;

namespace {

// The adapter asks for a reference on each activation; these tests read keys with key_of.
struct no_references final : adapter::reference_factory {
  object_ref make_reference(std::string_view, std::string_view) override { return {}; }
};

void op_a(servant&, server_request&) {}
void op_b(servant&, server_request&) {}
void long_operation_name(servant&, server_request&) {}

// A servant of a three-operation interface; `number` tells servants apart.
struct test_servant final : servant {
  explicit test_servant(int n) : number(n) {}
  int number;
  static constexpr operation_info operations[] = {
      {"op_a", &op_a}, {"op_b", &op_b}, {"an_operation_name_longer_than_sixteen_bytes", &long_operation_name}};
  static constexpr std::string_view ids[] = {"IDL:test/Servant:1.0"};
  static constexpr interface_info info{"IDL:test/Servant:1.0", ids, operations, nullptr};
  const interface_info& _interface() const noexcept override { return info; }
};

// The strategies this build can run: all of them, or the one fixed at compile time.
std::vector<demux_strategy> strategies(demux_choice compiled) {
  if (compiled.is_fixed) return {compiled.strategy};
  return {all_demux_strategies.begin(), all_demux_strategies.end()};
}

struct fixture {
  no_references references;
  adapter_registry registry;
  adapter::adapter_impl& root;
  fixture(demux_strategy servant_demux, demux_strategy operation_demux)
      : registry(references, servant_demux, operation_demux), root(registry.root().impl()) {}

  std::shared_ptr<test_servant> activate(std::string_view id, int n) {
    auto s = std::make_shared<test_servant>(n);
    root.activate(id, s, false);
    return s;
  }
  // Which servant a key reaches with `operation` (and the client's operation index), or -1.
  int reached(std::string_view key, std::string_view operation = "op_a",
              std::uint32_t index = demux::no_operation_index) {
    dispatch_target target;
    if (registry.find(key, operation, index, target) != lookup_status::found) return -1;
    auto* s = dynamic_cast<test_servant*>(target.target.get());
    return s == nullptr ? -1 : s->number;
  }
};

bool uses_active_keys(const adapter::adapter_impl& a) { return a.servant_demux() == demux_strategy::active; }

// The object key with its servant part's first 8 octets (an active key's hint) replaced.
std::string with_hint(const std::string& key, std::string_view hint) {
  std::string forged = key;
  forged.replace(adapter::object_key_header_size, demux::active_key_size, hint);
  return forged;
}
std::string_view hint_of(const std::string& key) {
  return std::string_view(key).substr(adapter::object_key_header_size, demux::active_key_size);
}

}  // namespace

TEST_CASE("adapter: object keys and operations reach their servant and skeleton under every strategy", "[adapter]") {
  for (auto servant_demux : strategies(compiled_servant_demux)) {
    for (auto operation_demux : strategies(compiled_operation_demux)) {
      INFO("servant demux " << demux::to_string(servant_demux) << ", operation demux "
                            << demux::to_string(operation_demux));
      fixture f(servant_demux, operation_demux);
      REQUIRE(f.root.servant_demux() == servant_demux);
      REQUIRE(f.root.operation_demux() == operation_demux);
      std::vector<std::string> ids;
      for (int i = 0; i < 200; ++i) {
        ids.push_back(i % 3 == 0   ? "user/" + std::to_string(i)
                      : i % 3 == 1 ? std::string(1, static_cast<char>(i))
                                   : "an id longer than sixteen bytes " + std::to_string(i));
        f.activate(ids.back(), i);
      }
      auto system = std::make_shared<test_servant>(1000);
      f.root.activate({}, system, true);
      REQUIRE(f.root.active_count() == 201);

      for (int i = 0; i < 200; ++i) {
        const std::string key = f.root.key_of(ids[i]);
        REQUIRE(adapter::parse_object_key(key).has_value());
        REQUIRE(f.reached(key, "op_a") == i);
        REQUIRE(f.reached(key, "an_operation_name_longer_than_sixteen_bytes") == i);
        // The index our clients send: right, wrong (active refuses it; the others look the
        // name up), none.
        REQUIRE(f.reached(key, "op_b", 1) == i);
        REQUIRE(f.reached(key, "op_b", 0) == (operation_demux == demux_strategy::active ? -1 : i));
        dispatch_target target;
        REQUIRE(f.registry.find(key, "op_b", demux::no_operation_index, target) == lookup_status::found);
        REQUIRE(target.skeleton == &op_b);
        REQUIRE(target.servant_demux == servant_demux);
        REQUIRE(target.operation_demux == operation_demux);
        REQUIRE(f.registry.find(key, "op_c", demux::no_operation_index, target) == lookup_status::no_operation);
        REQUIRE(f.registry.find(key, "op_", demux::no_operation_index, target) == lookup_status::no_operation);
        REQUIRE(f.registry.find(key, "_is_a", demux::no_operation_index, target) == lookup_status::found);
        REQUIRE(f.registry.object_exists(key));
      }
      // Every id found by its own key only: changing the last octet of a key never reaches
      // another servant.
      for (int i = 0; i < 200; ++i) {
        std::string key = f.root.key_of(ids[i]);
        key.back() = static_cast<char>(key.back() ^ 0x40);
        const int other = f.reached(key);
        REQUIRE(other != 1000);
        if (other != -1) {
          REQUIRE((other >= 0 && other < 200));
          const std::string& reached_id = ids[static_cast<std::size_t>(other)];
          REQUIRE(key.size() > reached_id.size());
          REQUIRE(key.substr(key.size() - reached_id.size()) == reached_id);
        }
      }
      // A system id (8 octets the adapter makes up).
      bool system_found = false;
      for (int i = 0; i < 2; ++i) {
        std::string id(8, '\0');
        id[0] = static_cast<char>(i);
        if (f.root.servant_of(id) == system) system_found = f.reached(f.root.key_of(id)) == 1000;
      }
      REQUIRE(system_found);
    }
  }
}

TEST_CASE("adapter: deactivated objects are gone, reactivated ones found again by their old keys", "[adapter]") {
  for (auto servant_demux : strategies(compiled_servant_demux)) {
    INFO("servant demux " << demux::to_string(servant_demux));
    fixture f(servant_demux, demux_strategy::linear);
    for (int i = 0; i < 50; ++i) f.activate("obj/" + std::to_string(i), i);
    const std::string old_key = f.root.key_of("obj/7");
    REQUIRE(f.reached(old_key) == 7);
    REQUIRE(f.root.deactivate("obj/7"));
    REQUIRE_FALSE(f.root.deactivate("obj/7"));
    REQUIRE(f.reached(old_key) == -1);
    REQUIRE_FALSE(f.registry.object_exists(old_key));
    // _non_existent answers TRUE for an object that is not there.
    dispatch_target target;
    REQUIRE(f.registry.find(old_key, "_non_existent", demux::no_operation_index, target) == lookup_status::found);
    REQUIRE(target.skeleton != nullptr);
    REQUIRE(f.registry.find(old_key, "op_a", demux::no_operation_index, target) == lookup_status::no_object);

    // Activated again under the same user id: the same CORBA object, so the old key reaches the
    // new servant. With active demultiplexing the old key's hint is stale (the slot's generation
    // moved on, or another object holds it): the id is found by hash.
    f.activate("obj/50", 50);  // likely in the freed slot
    f.activate("obj/7", 77);
    REQUIRE(f.reached(old_key) == 77);
    REQUIRE(f.reached(f.root.key_of("obj/7")) == 77);
    REQUIRE(f.reached(f.root.key_of("obj/50")) == 50);
    if (uses_active_keys(f.root)) REQUIRE(f.root.key_of("obj/7") != old_key);  // a new hint

    // deactivate_key finds the object as requests do, stale hints included.
    REQUIRE(f.root.deactivate_key(old_key));
    REQUIRE(f.reached(f.root.key_of("obj/7")) == -1);
    REQUIRE(f.root.key_of("obj/7").empty());
    REQUIRE_FALSE(f.root.deactivate_key(old_key));
    REQUIRE(f.root.active_count() == 50);
  }
}

TEST_CASE("adapter: system ids are never reused, so their stale keys stay dead", "[adapter]") {
  for (auto servant_demux : strategies(compiled_servant_demux)) {
    INFO("servant demux " << demux::to_string(servant_demux));
    fixture f(servant_demux, demux_strategy::dynamic);
    auto first = std::make_shared<test_servant>(1);
    f.root.activate({}, first, true);
    const std::string first_id(8, '\0');
    const std::string first_key = f.root.key_of(first_id);
    REQUIRE(f.reached(first_key) == 1);
    REQUIRE(f.root.deactivate(first_id));
    auto second = std::make_shared<test_servant>(2);
    f.root.activate({}, second, true);  // a new id, and with active demultiplexing the same slot
    REQUIRE(f.reached(first_key) == -1);
    std::string second_id(8, '\0');
    second_id[0] = 1;
    REQUIRE(f.reached(f.root.key_of(second_id)) == 2);
  }
}

TEST_CASE("adapter: active hints, forged and truncated, never reach another object", "[adapter][active]") {
  if (compiled_servant_demux.is_fixed && compiled_servant_demux.strategy != demux_strategy::active) return;
  fixture f(demux_strategy::active, demux_strategy::active);
  f.activate("alpha", 1);
  f.activate("beta", 2);
  f.activate("gamma", 3);
  const std::string alpha = f.root.key_of("alpha");
  const std::string beta = f.root.key_of("beta");
  REQUIRE(alpha.size() == adapter::object_key_header_size + demux::active_key_size + 5);
  REQUIRE(hint_of(alpha) != hint_of(beta));

  // Beta's hint with alpha's id: the hinted slot holds another id, so the id decides.
  REQUIRE(f.reached(with_hint(alpha, hint_of(beta))) == 1);
  // Beta's hint with an id nobody holds: nothing, never beta.
  std::string stranger = with_hint(alpha, hint_of(beta));
  stranger.replace(stranger.size() - 5, 5, "delta");
  REQUIRE(f.reached(stranger) == -1);
  // Hints that name nothing: out of range, wrong generation (even: a free slot's), all ones.
  for (auto hint : {demux::encode_active_key({1000, 1}), demux::encode_active_key({0, 2}),
                    demux::encode_active_key({0, 3}), demux::encode_active_key({0xffffffffu, 0xffffffffu})}) {
    const std::string_view h(hint.data(), hint.size());
    REQUIRE(f.reached(with_hint(alpha, h)) == 1);  // the id still finds alpha
    std::string nobody = with_hint(alpha, h);
    nobody.replace(nobody.size() - 5, 5, "delta");
    REQUIRE(f.reached(nobody) == -1);
  }
  // Truncated keys: no room for a hint, a hint cut short, the header alone, less than a header.
  const std::string header = alpha.substr(0, adapter::object_key_header_size);
  for (std::size_t cut = 0; cut < adapter::object_key_header_size + demux::active_key_size; ++cut)
    REQUIRE(f.reached(alpha.substr(0, cut)) == -1);
  REQUIRE(f.reached(header) == -1);
  // A whole hint and no id at all: the empty id, which nobody holds here.
  REQUIRE(f.reached(alpha.substr(0, adapter::object_key_header_size + demux::active_key_size)) == -1);
  // An id cut short or grown: another id.
  REQUIRE(f.reached(alpha.substr(0, alpha.size() - 1)) == -1);
  REQUIRE(f.reached(alpha + "x") == -1);
  // The adapter index changed: another adapter, or none.
  std::string other_adapter = alpha;
  other_adapter[4] = 9;
  REQUIRE(f.reached(other_adapter) == -1);
  REQUIRE(f.reached("") == -1);
  REQUIRE(f.reached(std::string(4096, 'S')) == -1);

  // The empty id is an id like any other.
  f.activate("", 4);
  REQUIRE(f.reached(f.root.key_of("")) == 4);
  REQUIRE(f.reached(alpha.substr(0, adapter::object_key_header_size + demux::active_key_size)) == 4);
}

TEST_CASE("adapter: child adapters keep their own strategies, maps and labels", "[adapter]") {
  fixture f(demux_strategy::dynamic, demux_strategy::dynamic);
  adapter_policies fast_policies;
  fast_policies.servant_demux = demux_strategy::perfect_fast;
  fast_policies.operation_demux = demux_strategy::binary;
  auto& fast = f.root.create_child("fast", fast_policies).impl();
  auto& plain = f.root.create_child("plain", {}).impl();
  REQUIRE(fast.servant_demux() == compiled_servant_demux.resolve(demux_strategy::perfect_fast));
  REQUIRE(fast.operation_demux() == compiled_operation_demux.resolve(demux_strategy::binary));
  REQUIRE(plain.servant_demux() == compiled_servant_demux.resolve(demux_strategy::dynamic));

  auto in_root = std::make_shared<test_servant>(1);
  auto in_fast = std::make_shared<test_servant>(2);
  f.root.activate("x", in_root, false);
  fast.activate("x", in_fast, false);
  REQUIRE(f.reached(f.root.key_of("x")) == 1);
  REQUIRE(f.reached(fast.key_of("x")) == 2);
  REQUIRE(f.root.key_of("x") != fast.key_of("x"));
  // The probes are labelled by the adapter that served the request.
  dispatch_target target;
  REQUIRE(f.registry.find(fast.key_of("x"), "op_a", demux::no_operation_index, target) == lookup_status::found);
  REQUIRE(target.servant_demux == fast.servant_demux());
  REQUIRE(target.operation_demux == fast.operation_demux());
  REQUIRE(f.registry.find(f.root.key_of("x"), "op_a", demux::no_operation_index, target) == lookup_status::found);
  REQUIRE(target.servant_demux == f.root.servant_demux());
  // A key of ours naming an adapter that does not exist: the ORB's labels, and no object.
  std::string nowhere = fast.key_of("x");
  nowhere[4] = 100;
  REQUIRE(f.registry.find(nowhere, "op_a", demux::no_operation_index, target) == lookup_status::no_object);
  REQUIRE(target.servant_demux == f.registry.servant_demux());
}

TEST_CASE("adapter: activation errors are BAD_PARAM, and lose nothing", "[adapter][errors]") {
  for (auto servant_demux : strategies(compiled_servant_demux)) {
    INFO("servant demux " << demux::to_string(servant_demux));
    fixture f(servant_demux, demux_strategy::perfect);
    f.activate("dup", 1);
    auto again = [&] { f.activate("dup", 2); };
    REQUIRE_THROWS_AS(again(), SystemException);
    REQUIRE(f.reached(f.root.key_of("dup")) == 1);
    REQUIRE_THROWS_AS(f.root.activate("null", nullptr, false), SystemException);
    REQUIRE(f.root.active_count() == 1);
  }
}
