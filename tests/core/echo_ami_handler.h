// An Integrity::AMI_EchoHandler (syidl --ami) that records, by operation name, what each reply
// brought (as text) or what it raised; shared by the AMI tests against our server and omniORB's.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <type_traits>

#include "integrity.h"
#include "switchyard/exception.h"

namespace test {

// Records what each reply brought, as text, by operation name; counts the replies.
class recording_echo_handler final : public Integrity::AMI_EchoHandler {
 public:
  bool wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return replies_ >= count; });
  }
  std::string got(const std::string& operation) {
    std::lock_guard lock(mutex_);
    return got_[operation];
  }

#define SY_RECORDED(op, T)                                                      \
  void op(T ami_return_val) override { record(#op, describe(ami_return_val)); } \
  void op##_excep(const switchyard::exception_holder& holder) override { record(#op, failure(holder)); }
  SY_RECORDED(echo_boolean, bool)
  SY_RECORDED(echo_octet, std::uint8_t)
  SY_RECORDED(echo_char, char)
  SY_RECORDED(echo_short, std::int16_t)
  SY_RECORDED(echo_ushort, std::uint16_t)
  SY_RECORDED(echo_long, std::int32_t)
  SY_RECORDED(echo_ulong, std::uint32_t)
  SY_RECORDED(echo_longlong, std::int64_t)
  SY_RECORDED(echo_ulonglong, std::uint64_t)
  SY_RECORDED(echo_float, float)
  SY_RECORDED(echo_double, double)
  SY_RECORDED(echo_string, const std::string&)
  SY_RECORDED(echo_wstring, const std::u16string&)
  SY_RECORDED(echo_color, Integrity::Color)
  SY_RECORDED(echo_record, const Integrity::Record&)
  SY_RECORDED(echo_narecord, const Integrity::NARecord&)
  SY_RECORDED(echo_variant, const Integrity::Variant&)
  SY_RECORDED(echo_matrix, const Integrity::Matrix&)
  SY_RECORDED(echo_nested, const Integrity::Nested&)
  SY_RECORDED(echo_octets, std::span<const std::uint8_t>)
  SY_RECORDED(echo_longs, const Integrity::Longs&)
  SY_RECORDED(echo_doubles, const Integrity::Doubles&)
  SY_RECORDED(echo_records, const Integrity::Records&)
  SY_RECORDED(echo_narecords, const Integrity::NARecords&)
  SY_RECORDED(echo_strings, const Integrity::Strings&)
  SY_RECORDED(echo_any, const switchyard::any&)
  SY_RECORDED(refuse, std::int32_t)
  SY_RECORDED(get_label, const std::string&)
  SY_RECORDED(get_calls, std::uint32_t)
#undef SY_RECORDED
  void twist(std::int32_t a, const std::string& s) override { record("twist", std::to_string(a) + " " + s); }
  void twist_excep(const switchyard::exception_holder& holder) override { record("twist", failure(holder)); }
  void split(std::int32_t ami_return_val, const std::string& name, const Integrity::Longs& values) override {
    record("split", std::to_string(ami_return_val) + " " + name + " " + describe(values));
  }
  void split_excep(const switchyard::exception_holder& holder) override { record("split", failure(holder)); }
  void set_label() override { record("set_label", "done"); }
  void set_label_excep(const switchyard::exception_holder& holder) override { record("set_label", failure(holder)); }

 private:
  template <class T>
  static std::string describe(const T& v) {
    if constexpr (std::is_arithmetic_v<T>) return std::to_string(v);
    else if constexpr (std::is_same_v<T, std::string>) return v;
    else if constexpr (std::is_same_v<T, Integrity::Longs>) {
      std::string s;
      for (auto x : v) s += std::to_string(x) + ",";
      return s;
    } else if constexpr (std::is_same_v<T, std::span<const std::uint8_t>>) {
      return std::to_string(v.size()) + " octets";
    } else {
      return "value";
    }
  }
  static std::string failure(const switchyard::exception_holder& holder) {
    try {
      holder.raise_exception();
    } catch (const Integrity::Refused& e) {
      return "Refused " + e.reason + " " + std::to_string(e.code);
    } catch (const switchyard::SystemException& e) {
      return std::string(switchyard::SystemException::name(e.kind()));
    } catch (...) {
    }
    return "other";
  }
  void record(const std::string& operation, std::string what) {
    std::lock_guard lock(mutex_);
    got_[operation] = std::move(what);
    ++replies_;
    changed_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t replies_ = 0;
  std::map<std::string, std::string> got_;
};

}  // namespace test
