// The Integrity::Echo servant of the omniORB benchmark server: every operation does what
// idl/integrity.idl says (values come back unchanged; twist doubles a and reverses s; split
// returns the parts of v; refuse raises Refused{"refused", code} unless code is 0; label keeps
// what was set; calls counts every operation and attribute access served before the current one).
// Also the Echo of omni_server (the interop tests' server, in this folder).
#pragma once

#include "integrity.hh"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>

namespace switchyard::bench {

class omni_echo_servant final : public POA_Integrity::Echo {
 public:
  CORBA::Boolean echo_boolean(CORBA::Boolean v) override { return count(), v; }
  CORBA::Octet echo_octet(CORBA::Octet v) override { return count(), v; }
  CORBA::Char echo_char(CORBA::Char v) override { return count(), v; }
  CORBA::Short echo_short(CORBA::Short v) override { return count(), v; }
  CORBA::UShort echo_ushort(CORBA::UShort v) override { return count(), v; }
  CORBA::Long echo_long(CORBA::Long v) override { return count(), v; }
  CORBA::ULong echo_ulong(CORBA::ULong v) override { return count(), v; }
  CORBA::LongLong echo_longlong(CORBA::LongLong v) override { return count(), v; }
  CORBA::ULongLong echo_ulonglong(CORBA::ULongLong v) override { return count(), v; }
  CORBA::Float echo_float(CORBA::Float v) override { return count(), v; }
  CORBA::Double echo_double(CORBA::Double v) override { return count(), v; }
  char* echo_string(const char* v) override { return count(), CORBA::string_dup(v); }
  CORBA::WChar* echo_wstring(const CORBA::WChar* v) override { return count(), CORBA::wstring_dup(v); }
  Integrity::Color echo_color(Integrity::Color v) override { return count(), v; }
  Integrity::Record echo_record(const Integrity::Record& v) override { return count(), v; }
  Integrity::NARecord echo_narecord(const Integrity::NARecord& v) override { return count(), v; }
  Integrity::Variant* echo_variant(const Integrity::Variant& v) override { return count(), new Integrity::Variant(v); }
  Integrity::Matrix_slice* echo_matrix(const Integrity::Matrix v) override { return count(), Integrity::Matrix_dup(v); }
  Integrity::Nested* echo_nested(const Integrity::Nested& v) override { return count(), new Integrity::Nested(v); }
  Integrity::Octets* echo_octets(const Integrity::Octets& v) override { return count(), new Integrity::Octets(v); }
  Integrity::Longs* echo_longs(const Integrity::Longs& v) override { return count(), new Integrity::Longs(v); }
  Integrity::Doubles* echo_doubles(const Integrity::Doubles& v) override { return count(), new Integrity::Doubles(v); }
  Integrity::Records* echo_records(const Integrity::Records& v) override { return count(), new Integrity::Records(v); }
  Integrity::NARecords* echo_narecords(const Integrity::NARecords& v) override {
    return count(), new Integrity::NARecords(v);
  }
  Integrity::Strings* echo_strings(const Integrity::Strings& v) override { return count(), new Integrity::Strings(v); }
  CORBA::Any* echo_any(const CORBA::Any& v) override { return count(), new CORBA::Any(v); }

  void twist(CORBA::Long& a, char*& s) override {
    count();
    a *= 2;
    std::string reversed(s);
    std::reverse(reversed.begin(), reversed.end());
    CORBA::string_free(s);
    s = CORBA::string_dup(reversed.c_str());
  }
  CORBA::Long split(const Integrity::Nested& v, CORBA::String_out name, Integrity::Longs_out values) override {
    count();
    name = CORBA::string_dup(v.name);
    values = new Integrity::Longs(v.values);
    return static_cast<CORBA::Long>(v.values.length());
  }
  CORBA::Long refuse(CORBA::Long code) override {
    count();
    if (code != 0) throw Integrity::Refused("refused", code);
    return 0;
  }
  char* label() override {
    count();
    std::lock_guard<std::mutex> lock(label_mutex_);
    return CORBA::string_dup(label_.c_str());
  }
  void label(const char* v) override {
    count();
    std::lock_guard<std::mutex> lock(label_mutex_);
    label_ = v;
  }
  CORBA::ULong calls() override { return count(); }

 private:
  CORBA::ULong count() { return calls_.fetch_add(1, std::memory_order_relaxed); }

  std::atomic<CORBA::ULong> calls_{0};
  std::mutex label_mutex_;
  std::string label_;
};

}  // namespace switchyard::bench
