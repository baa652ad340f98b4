// Test helper: asserts that a call raises a SystemException of a given kind and minor code whose
// detail mentions a given phrase.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "switchyard/exception.h"

namespace switchyard::test {

template <typename F>
void require_system_exception(F&& f, SystemExceptionKind kind, std::uint32_t minor_code, std::string_view phrase) {
  try {
    f();
    FAIL("no exception; expected one mentioning \"" << phrase << "\"");
  } catch (const SystemException& e) {
    INFO("what(): " << e.what());
    CHECK(e.kind() == kind);
    CHECK(e.minor() == minor_code);
    CHECK(e.detail().find(phrase) != std::string::npos);
  }
}

template <typename F>
void require_bad_ior(F&& f, std::string_view phrase) {
  require_system_exception(std::forward<F>(f), SystemExceptionKind::MARSHAL, minor::bad_ior, phrase);
}

template <typename F>
void require_bad_url(F&& f, std::string_view phrase) {
  require_system_exception(std::forward<F>(f), SystemExceptionKind::BAD_PARAM, minor::bad_url, phrase);
}

}  // namespace switchyard::test
