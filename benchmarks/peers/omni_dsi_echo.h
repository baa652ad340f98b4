// Integrity::Echo through omniORB's DSI (PortableServer::DynamicImplementation): every operation
// the IDL declares, its arguments read through omniidl's TypeCodes, doing what the IDL's comments
// say. omni_server serves it instead of the generated servant with `--echo dsi`, so that our
// DII and stubs can be checked against another ORB's dynamic skeleton. omniORB only.
#pragma once

#include "integrity.hh"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>

namespace test {

class omni_dsi_echo final : public PortableServer::DynamicImplementation {
 public:
  explicit omni_dsi_echo(CORBA::ORB_ptr orb) : orb_(CORBA::ORB::_duplicate(orb)) {}

  char* _primary_interface(const PortableServer::ObjectId&, PortableServer::POA_ptr) override {
    return CORBA::string_dup("IDL:Integrity/Echo:1.0");
  }

  void invoke(CORBA::ServerRequest_ptr request) override {
    const std::string operation = request->operation();
    const CORBA::ULong served_before = calls_++;
    CORBA::NVList_ptr args;  // the request owns it once given to arguments()
    orb_->create_list(0, args);
    if (CORBA::TypeCode_ptr type = echoed_type(operation)) {
      add(args, CORBA::ARG_IN, type);
      request->arguments(args);
      request->set_result(*args->item(0)->value());
      return;
    }
    if (operation == "twist") {
      add(args, CORBA::ARG_INOUT, CORBA::_tc_long);
      add(args, CORBA::ARG_INOUT, CORBA::_tc_string);
      request->arguments(args);
      CORBA::Long a = 0;
      const char* s = nullptr;
      *args->item(0)->value() >>= a;
      *args->item(1)->value() >>= s;
      std::string reversed(s != nullptr ? s : "");
      std::reverse(reversed.begin(), reversed.end());
      *args->item(0)->value() <<= static_cast<CORBA::Long>(static_cast<CORBA::ULong>(a) * 2u);
      *args->item(1)->value() <<= reversed.c_str();
      return;
    }
    if (operation == "split") {
      add(args, CORBA::ARG_IN, Integrity::_tc_Nested);
      add(args, CORBA::ARG_OUT, CORBA::_tc_string);
      add(args, CORBA::ARG_OUT, Integrity::_tc_Longs);
      request->arguments(args);
      const Integrity::Nested* v = nullptr;
      *args->item(0)->value() >>= v;
      *args->item(1)->value() <<= v->name.in();
      *args->item(2)->value() <<= v->values;
      CORBA::Any count;
      count <<= static_cast<CORBA::Long>(v->values.length());
      request->set_result(count);
      return;
    }
    if (operation == "refuse") {
      add(args, CORBA::ARG_IN, CORBA::_tc_long);
      request->arguments(args);
      CORBA::Long code = 0;
      *args->item(0)->value() >>= code;
      CORBA::Any answer;
      if (code != 0) {
        answer <<= Integrity::Refused("refused", code);
        request->set_exception(answer);
      } else {
        answer <<= static_cast<CORBA::Long>(0);
        request->set_result(answer);
      }
      return;
    }
    if (operation == "_set_label") {
      add(args, CORBA::ARG_IN, CORBA::_tc_string);
      request->arguments(args);
      const char* label = nullptr;
      *args->item(0)->value() >>= label;
      std::lock_guard lock(label_mutex_);
      label_ = label != nullptr ? label : "";
      return;
    }
    if (operation == "_get_label") {
      request->arguments(args);
      CORBA::Any label;
      {
        std::lock_guard lock(label_mutex_);
        label <<= label_.c_str();
      }
      request->set_result(label);
      return;
    }
    if (operation == "_get_calls") {
      request->arguments(args);
      CORBA::Any calls;
      calls <<= served_before;
      request->set_result(calls);
      return;
    }
    CORBA::release(args);
    throw CORBA::BAD_OPERATION(0, CORBA::COMPLETED_NO);
  }

 private:
  // The echo_* operations: one in argument, the result of its type (borrowed TypeCodes).
  static CORBA::TypeCode_ptr echoed_type(const std::string& operation) {
    static const std::pair<const char*, CORBA::TypeCode_ptr> types[] = {
        {"echo_boolean", CORBA::_tc_boolean},     {"echo_octet", CORBA::_tc_octet},
        {"echo_char", CORBA::_tc_char},           {"echo_short", CORBA::_tc_short},
        {"echo_ushort", CORBA::_tc_ushort},       {"echo_long", CORBA::_tc_long},
        {"echo_ulong", CORBA::_tc_ulong},         {"echo_longlong", CORBA::_tc_longlong},
        {"echo_ulonglong", CORBA::_tc_ulonglong}, {"echo_float", CORBA::_tc_float},
        {"echo_double", CORBA::_tc_double},       {"echo_string", CORBA::_tc_string},
        {"echo_wstring", CORBA::_tc_wstring},     {"echo_color", Integrity::_tc_Color},
        {"echo_record", Integrity::_tc_Record},   {"echo_narecord", Integrity::_tc_NARecord},
        {"echo_variant", Integrity::_tc_Variant}, {"echo_matrix", Integrity::_tc_Matrix},
        {"echo_nested", Integrity::_tc_Nested},   {"echo_octets", Integrity::_tc_Octets},
        {"echo_longs", Integrity::_tc_Longs},     {"echo_doubles", Integrity::_tc_Doubles},
        {"echo_records", Integrity::_tc_Records}, {"echo_narecords", Integrity::_tc_NARecords},
        {"echo_strings", Integrity::_tc_Strings}, {"echo_any", CORBA::_tc_any},
    };
    for (const auto& [name, type] : types)
      if (operation == name) return type;
    return nullptr;
  }

  // An argument of type `type` and no value yet: replace() with no value sets the TypeCode alone
  // (type() would insist that the new TypeCode be equivalent to the empty Any's tk_null).
  static void add(CORBA::NVList_ptr args, CORBA::Flags mode, CORBA::TypeCode_ptr type) {
    args->add(mode)->value()->replace(type, nullptr);
  }

  CORBA::ORB_var orb_;
  std::atomic<CORBA::ULong> calls_{0};
  std::mutex label_mutex_;
  std::string label_;
};

}  // namespace test
