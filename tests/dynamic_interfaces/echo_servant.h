// Integrity::Echo as the IDL's comments say (generated skeleton): what the DII tests call.
#pragma once

#include "integrity.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>

namespace test {

class full_echo_servant : public Integrity::Echo_skeleton {
 public:
  bool echo_boolean(bool v) override { return counted(v); }
  std::uint8_t echo_octet(std::uint8_t v) override { return counted(v); }
  char echo_char(char v) override { return counted(v); }
  std::int16_t echo_short(std::int16_t v) override { return counted(v); }
  std::uint16_t echo_ushort(std::uint16_t v) override { return counted(v); }
  std::int32_t echo_long(std::int32_t v) override { return counted(v); }
  std::uint32_t echo_ulong(std::uint32_t v) override { return counted(v); }
  std::int64_t echo_longlong(std::int64_t v) override { return counted(v); }
  std::uint64_t echo_ulonglong(std::uint64_t v) override { return counted(v); }
  float echo_float(float v) override { return counted(v); }
  double echo_double(double v) override { return counted(v); }
  std::string echo_string(const std::string& v) override { return counted(v); }
  std::u16string echo_wstring(const std::u16string& v) override { return counted(v); }
  Integrity::Color echo_color(Integrity::Color v) override { return counted(v); }
  Integrity::Record echo_record(const Integrity::Record& v) override { return counted(v); }
  Integrity::NARecord echo_narecord(const Integrity::NARecord& v) override { return counted(v); }
  Integrity::Variant echo_variant(const Integrity::Variant& v) override { return counted(v); }
  Integrity::Matrix echo_matrix(const Integrity::Matrix& v) override { return counted(v); }
  Integrity::Nested echo_nested(const Integrity::Nested& v) override { return counted(v); }
  Integrity::Octets echo_octets(std::span<const std::uint8_t> v) override {
    return counted(Integrity::Octets(v.begin(), v.end()));
  }
  Integrity::Longs echo_longs(const Integrity::Longs& v) override { return counted(v); }
  Integrity::Doubles echo_doubles(const Integrity::Doubles& v) override { return counted(v); }
  Integrity::Records echo_records(const Integrity::Records& v) override { return counted(v); }
  Integrity::NARecords echo_narecords(const Integrity::NARecords& v) override { return counted(v); }
  Integrity::Strings echo_strings(const Integrity::Strings& v) override { return counted(v); }
  switchyard::any echo_any(const switchyard::any& v) override { return counted(v); }
  void twist(std::int32_t& a, std::string& s) override {
    ++calls_;
    a = static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * 2u);
    std::reverse(s.begin(), s.end());
  }
  std::int32_t split(const Integrity::Nested& v, std::string& name, Integrity::Longs& values) override {
    ++calls_;
    name = v.name;
    values = v.values;
    return static_cast<std::int32_t>(v.values.size());
  }
  std::int32_t refuse(std::int32_t code) override {
    ++calls_;
    if (code != 0) throw Integrity::Refused("refused", code);
    return 0;
  }
  std::string label() override {
    ++calls_;
    std::lock_guard lock(label_mutex_);
    return label_;
  }
  void label(const std::string& value) override {
    ++calls_;
    std::lock_guard lock(label_mutex_);
    label_ = value;
  }
  std::uint32_t calls() override { return calls_++; }

  std::uint32_t served() const noexcept { return calls_; }

 private:
  template <class T>
  T counted(T v) {
    ++calls_;
    return v;
  }
  std::atomic<std::uint32_t> calls_{0};
  std::mutex label_mutex_;
  std::string label_;
};

}  // namespace test
