// Test helpers for the valuetype tests: factories registered for a test's lifetime, streams over
// written bytes, and the minor code of the MARSHAL a read raises.
#pragma once

#include <catch2/catch.hpp>

#include <pthread.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/value.h"

namespace switchyard::test::values {

// Registers the factories a test needs for its lifetime.
class factories {
 public:
  template <class... T>
  static factories of() {
    factories f;
    (f.add<T>(), ...);
    return f;
  }
  factories(factories&& other) noexcept : ids_(std::move(other.ids_)) {}
  ~factories() {
    for (auto id : ids_) {
      try {
        unregister_value_factory(id);
      } catch (const SystemException&) {  // a failed test left it unregistered
      }
    }
  }
  template <class T>
  void add() {
    register_value_factory(T::repository_id, std::make_shared<default_value_factory<T>>());
    ids_.push_back(T::repository_id);
  }

 private:
  factories() = default;
  std::vector<std::string_view> ids_;
};

// Takes the factory registered for `repository_id` away for a test's lifetime (as if the program
// did not know the type), and puts it back after.
class factory_removed {
 public:
  explicit factory_removed(std::string_view repository_id)
      : id_(repository_id), saved_(lookup_value_factory(repository_id)) {
    REQUIRE(saved_);
    unregister_value_factory(id_);
  }
  ~factory_removed() { register_value_factory(id_, saved_); }
  factory_removed(const factory_removed&) = delete;
  factory_removed& operator=(const factory_removed&) = delete;

 private:
  std::string_view id_;
  value_factory_ref saved_;
};

inline std::vector<std::byte> bytes_of(const cdr::output_stream& out) { return {out.data(), out.data() + out.size()}; }

inline cdr::input_stream reader_of(const std::vector<std::byte>& bytes) {
  return cdr::input_stream(bytes, cdr::native_byte_order);
}

// Runs `f` on a thread with a small stack (256 KiB by default: a server's worker may have no
// more): a recursion as deep as a long chain of values would overflow it.
inline void on_small_stack(void (*f)(), std::size_t stack_bytes = 256 * 1024) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, stack_bytes);
  pthread_t thread;
  REQUIRE(pthread_create(
              &thread, &attributes,
              [](void* g) -> void* {
                reinterpret_cast<void (*)()>(g)();
                return nullptr;
              },
              reinterpret_cast<void*>(f)) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
}

inline std::uint32_t marshal_minor_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const SystemException& e) {
    REQUIRE(e.kind() == SystemExceptionKind::MARSHAL);
    return e.minor();
  }
  FAIL("no MARSHAL raised");
  return 0;
}

}  // namespace switchyard::test::values
