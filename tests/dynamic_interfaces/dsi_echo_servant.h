// Integrity::Echo served through the DSI (switchyard/dynamic_servant.h): every operation the IDL
// declares, its arguments read through TypeCodes (syidl's _tc_ functions and basic ones), doing
// what the IDL's comments say, so that any client (our stubs, our DII, omniORB's stubs) can check
// it as it checks a generated skeleton. Shared by the DSI tests and tests/interop's sy_dsi_server.
#pragma once

#include "integrity.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "switchyard/dynamic_servant.h"

namespace test {

class dsi_echo_servant final : public switchyard::dynamic_servant {
 public:
  dsi_echo_servant() : dynamic_servant({"IDL:Integrity/Echo:1.0"}) {}

  void invoke(switchyard::dynamic_request& request) override {
    using namespace switchyard;
    const std::string_view operation = request.operation();
    // `calls` is what was served before this one (as the generated servants count).
    const std::uint32_t served_before = calls_++;
    if (std::optional<type_code> type = echoed_type(operation)) {
      std::vector<named_value> list(1);
      list[0].value.set_type(*type);
      auto& args = request.arguments(std::move(list));
      request.set_result(args[0].value);
      return;
    }
    if (operation == "twist") {
      std::vector<named_value> list(2);
      list[0].mode = list[1].mode = arg_mode::inout;
      list[0].value.set_type(type_code::basic(tc_kind::tk_long));
      list[1].value.set_type(type_code::make_string());
      auto& args = request.arguments(std::move(list));
      std::int32_t a = 0;
      std::string s;
      if (!(args[0].value >>= a) || !(args[1].value >>= s)) throw SystemException(SystemExceptionKind::BAD_PARAM, 0);
      std::reverse(s.begin(), s.end());
      args[0].value <<= static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * 2u);
      args[1].value <<= s;
      return;
    }
    if (operation == "split") {
      std::vector<named_value> list(3);
      list[0].value.set_type(Integrity::_tc_Nested());
      list[1].mode = list[2].mode = arg_mode::out;
      list[1].value.set_type(type_code::make_string());
      list[2].value.set_type(Integrity::_tc_Longs());
      auto& args = request.arguments(std::move(list));
      Integrity::Nested v;
      if (!(args[0].value >>= v)) throw SystemException(SystemExceptionKind::BAD_PARAM, 0);
      args[1].value <<= v.name;
      Integrity::insert_Longs(args[2].value, v.values);
      any count;
      count <<= static_cast<std::int32_t>(v.values.size());
      request.set_result(count);
      return;
    }
    if (operation == "refuse") {
      std::vector<named_value> list(1);
      list[0].value.set_type(type_code::basic(tc_kind::tk_long));
      auto& args = request.arguments(std::move(list));
      std::int32_t code = 0;
      args[0].value >>= code;
      if (code != 0) {
        any refused;
        refused <<= Integrity::Refused("refused", code);
        request.set_exception(refused);
        return;
      }
      any zero;
      zero <<= std::int32_t{0};
      request.set_result(zero);
      return;
    }
    if (operation == "_set_label") {
      std::vector<named_value> list(1);
      list[0].value.set_type(type_code::make_string());
      auto& args = request.arguments(std::move(list));
      std::lock_guard lock(label_mutex_);
      args[0].value >>= label_;
      return;
    }
    if (operation == "_get_label") {
      any label;
      {
        std::lock_guard lock(label_mutex_);
        label <<= label_;
      }
      request.set_result(label);
      return;
    }
    if (operation == "_get_calls") {
      any calls;
      calls <<= served_before;
      request.set_result(calls);
      return;
    }
    throw SystemException(SystemExceptionKind::BAD_OPERATION, minor::omg_minor(2), CompletionStatus::no,
                          "Echo has no operation '" + std::string(operation) + "'");
  }

  // The echo_* operations: one in argument, the result of its type.
  static std::optional<switchyard::type_code> echoed_type(std::string_view operation) {
    using namespace switchyard;
    static const std::vector<std::pair<std::string_view, type_code>> types = {
        {"echo_boolean", type_code::basic(tc_kind::tk_boolean)},
        {"echo_octet", type_code::basic(tc_kind::tk_octet)},
        {"echo_char", type_code::basic(tc_kind::tk_char)},
        {"echo_short", type_code::basic(tc_kind::tk_short)},
        {"echo_ushort", type_code::basic(tc_kind::tk_ushort)},
        {"echo_long", type_code::basic(tc_kind::tk_long)},
        {"echo_ulong", type_code::basic(tc_kind::tk_ulong)},
        {"echo_longlong", type_code::basic(tc_kind::tk_longlong)},
        {"echo_ulonglong", type_code::basic(tc_kind::tk_ulonglong)},
        {"echo_float", type_code::basic(tc_kind::tk_float)},
        {"echo_double", type_code::basic(tc_kind::tk_double)},
        {"echo_string", type_code::make_string()},
        {"echo_wstring", type_code::make_wstring()},
        {"echo_color", Integrity::_tc_Color()},
        {"echo_record", Integrity::_tc_Record()},
        {"echo_narecord", Integrity::_tc_NARecord()},
        {"echo_variant", Integrity::_tc_Variant()},
        {"echo_matrix", Integrity::_tc_Matrix()},
        {"echo_nested", Integrity::_tc_Nested()},
        {"echo_octets", Integrity::_tc_Octets()},
        {"echo_longs", Integrity::_tc_Longs()},
        {"echo_doubles", Integrity::_tc_Doubles()},
        {"echo_records", Integrity::_tc_Records()},
        {"echo_narecords", Integrity::_tc_NARecords()},
        {"echo_strings", Integrity::_tc_Strings()},
        {"echo_any", type_code::basic(tc_kind::tk_any)},
    };
    for (const auto& [name, type] : types)
      if (name == operation) return type;
    return std::nullopt;
  }

  std::uint32_t served() const noexcept { return calls_; }

 private:
  std::atomic<std::uint32_t> calls_{0};
  std::mutex label_mutex_;
  std::string label_;
};

}  // namespace test
