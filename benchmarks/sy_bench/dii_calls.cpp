#include "benchmarks/sy_bench/dii_calls.h"

#include <array>
#include <utility>

namespace switchyard::bench {

std::string_view to_string(dii_request_mode mode) noexcept {
  return mode == dii_request_mode::reuse ? "reuse" : "per-call";
}

std::optional<dii_request_mode> parse_dii_request_mode(std::string_view name) noexcept {
  if (name == "reuse") return dii_request_mode::reuse;
  if (name == "per-call") return dii_request_mode::per_call;
  return std::nullopt;
}

namespace {

type_code make_ttcp_sequence_type(element_type type) {
  auto basic = [](tc_kind kind) { return type_code::make_sequence(type_code::basic(kind)); };
  switch (type) {
    case element_type::none:
      return type_code();
    case element_type::octet:
      return type_code::make_alias("IDL:ttcp_sequence/OctetSeq:1.0", "OctetSeq", basic(tc_kind::tk_octet));
    case element_type::short_:
      return basic(tc_kind::tk_short);
    case element_type::long_:
      return basic(tc_kind::tk_long);
    case element_type::double_:
      return basic(tc_kind::tk_double);
    case element_type::char_:
      return basic(tc_kind::tk_char);
    case element_type::binstruct: {
      auto bin_struct = type_code::make_struct("IDL:BinStruct:1.0", "BinStruct",
                                               {{"s", type_code::basic(tc_kind::tk_short)},
                                                {"c", type_code::basic(tc_kind::tk_char)},
                                                {"l", type_code::basic(tc_kind::tk_long)},
                                                {"o", type_code::basic(tc_kind::tk_octet)},
                                                {"d", type_code::basic(tc_kind::tk_double)}});
      return type_code::make_alias("IDL:ttcp_sequence/StructSeq:1.0", "StructSeq",
                                   type_code::make_sequence(bin_struct));
    }
  }
  return type_code();
}

}  // namespace

const type_code& ttcp_sequence_type(element_type type) {
  // Built on first use (function-local statics: thread-safe), kept for the life of the program.
  static const std::array<type_code, 7> types = [] {
    std::array<type_code, 7> made;
    for (auto t : {element_type::none, element_type::octet, element_type::short_, element_type::long_,
                   element_type::double_, element_type::char_, element_type::binstruct})
      made[static_cast<std::size_t>(t)] = make_ttcp_sequence_type(t);
    return made;
  }();
  return types[static_cast<std::size_t>(type)];
}

any ttcp_sequence_any(const payload& data) {
  any value;
  if (data.type() == element_type::none) return value;
  // Canonical CDR from alignment 0: the sequence exactly as the SII stub writes it.
  value.replace(ttcp_sequence_type(data.type()), [&](cdr::output_stream& out) { data.marshal(out); });
  return value;
}

dii_call::dii_call(dii_operation operation, dii_request_mode mode) : operation_(std::move(operation)), mode_(mode) {}

void dii_call::prepare(request& call) const {
  if (operation_.argument) call.add_in_arg(operation_.argument_name) = *operation_.argument;
  call.set_return_type(operation_.result);
  call.set_operation_index(operation_.index);
}

void dii_call::send(request& call, any* result) {
  if (operation_.twoway) {
    call.invoke();
    if (result) *result = call.return_value();
  } else {
    call.send_oneway();
  }
}

void dii_call::operator()(const object_ref& target, std::size_t slot, any* result) {
  if (mode_ == dii_request_mode::per_call) {
    request call(target, operation_.name);
    prepare(call);
    send(call, result);
    return;
  }
  if (slot >= reused_.size()) reused_.resize(slot + 1);
  auto& kept = reused_[slot];
  if (!kept) {
    kept.emplace(target, operation_.name);
    prepare(*kept);
  } else if (operation_.argument) {
    // New argument values into the same request (VisiBroker's reuse): an Any copy, a pointer.
    kept->argument(0).value = *operation_.argument;
  }
  send(*kept, result);
}

}  // namespace switchyard::bench
