// Contexts::Probe (contexts.idl), shared by the backend tests and tests/interop: the servant our
// ORB serves, and the calls a client makes against any Probe server (ours or omniORB's), each
// checking which context properties arrived.
#pragma once

#include "contexts.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>

namespace test {

inline Contexts::Strings listed(const std::string& first, const switchyard::context& ctx) {
  Contexts::Strings out{first};
  for (const auto& [name, value] : ctx.properties()) out.push_back(name + "=" + value);
  return out;
}

struct probe_servant final : Contexts::Probe_skeleton {
  std::mutex mutex;
  Contexts::Strings last_remembered;

  Contexts::Strings seen(std::int32_t tag, std::string& note, const switchyard::context& _ctx) override {
    note += " seen";
    return listed(std::to_string(tag), _ctx);
  }
  Contexts::Strings seen_none(const std::string& label, const switchyard::context& _ctx) override {
    return listed(label, _ctx);
  }
  Contexts::Strings seen_without(std::int32_t tag) override { return {std::to_string(tag)}; }
  void remember(const std::string& label, const switchyard::context& _ctx) override {
    std::lock_guard lock(mutex);
    last_remembered = listed(label, _ctx);
  }
  Contexts::Strings remembered() override {
    std::lock_guard lock(mutex);
    return last_remembered;
  }
};

// The properties every call below offers: the clauses pick "test" and "app_*" of them.
inline switchyard::context offered_context() {
  switchyard::context ctx;
  ctx.set_one_value("test", "hello");
  ctx.set_one_value("app_user", "ada");
  ctx.set_one_value("app_", "empty suffix");
  ctx.set_one_value("apple", "not app_");
  ctx.set_one_value("testing", "not test");
  ctx.set_one_value("nothing", "only seen_none's pattern matches nothing*");
  return ctx;
}

inline void check_probe_calls(Contexts::Probe& probe) {
  const switchyard::context ctx = offered_context();
  std::string note = "a note";
  CHECK(probe.seen(7, note, ctx) == Contexts::Strings{"7", "app_=empty suffix", "app_user=ada", "test=hello"});
  CHECK(note == "a note seen");
  CHECK(probe.seen_none("none", ctx) == Contexts::Strings{"none", "nothing=only seen_none's pattern matches nothing*"});
  CHECK(probe.seen_none("none", switchyard::context()) == Contexts::Strings{"none"});
  switchyard::context only_apple;
  only_apple.set_one_value("apple", "x");
  CHECK(probe.seen(1, note, only_apple) == Contexts::Strings{"1"});
  CHECK(probe.seen_without(3) == Contexts::Strings{"3"});
  probe.remember("remembered", ctx);
  // A one-way may be served after a later call: asked again, at most 200 times 10 ms apart.
  Contexts::Strings remembered = probe.remembered();
  for (int k = 0; k < 200 && remembered.empty(); ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    remembered = probe.remembered();
  }
  CHECK(remembered == Contexts::Strings{"remembered", "test=hello"});
}

}  // namespace test
