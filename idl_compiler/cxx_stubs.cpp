#include "idl_compiler/cxx_stubs.h"

#include <string>
#include <utility>

#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/cxx_marshal.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

namespace {

constexpr std::string_view narrow_template = R"(
${class} ${class}::_narrow(const ::switchyard::object_ref& reference) {
  if (reference.is_nil()) return {};
  if (reference.repository_id() == _repository_id || reference.is_a(_repository_id))
    return ${class}(reference);
  return {};
}

)";

// An abstract interface's: a value's operations are local calls.
constexpr std::string_view value_narrow_template = R"(
${class} ${class}::_narrow(const ::switchyard::value_ref<::switchyard::value_base>& value) {
  return ${class}(value, dynamic_cast<${class}_operations*>(value.get()));
}

)";

constexpr std::string_view operation_template = R"(
${signature} {
  ${local_call}
  ::switchyard::invocation _call(_ref, "${wire_name}", ${index});
  ${call}
  ${results}
}

)";

// The request body: a lambda the invocation calls with its output stream.
constexpr std::string_view arguments_template = R"(
[&](::switchyard::cdr::output_stream& _out) {
  ${writes}
})";

// Reads a user exception the operation raises, by the repository id the reply names; the
// invocation turns any other id into UNKNOWN.
constexpr std::string_view raiser_template = R"(
[](std::string_view _id, ::switchyard::cdr::input_stream& _in) {
  ${cases}
})";

constexpr std::string_view raiser_case_template = R"(
if (_id == ${exception}::_repository_id) {
  ${exception} _e;
  cdr_read(_in, _e);
  throw _e;
}
)";

// The operation's C++ name and its arguments, as the stub received them.
std::pair<std::string, std::string> callee_and_arguments(const OperationEntry& e) {
  std::string callee, arguments;
  if (e.attribute != nullptr) {
    callee = identifier(e.attribute->name);
    if (e.setter) arguments = "value";
  } else {
    callee = identifier(e.operation->name);
    for (const auto& p : e.operation->parameters) arguments += (arguments.empty() ? "" : ", ") + identifier(p->name);
    // The servant sees what a remote call would send: the properties the clause matches.
    if (!e.operation->contexts.empty())
      arguments += std::string(arguments.empty() ? "" : ", ") + "_ctx.matching(" + context_patterns(*e.operation) + ")";
  }
  return {callee, arguments};
}

// An abstract interface's holder calls the value it holds, if it holds one.
std::string local_call(const OperationEntry& e) {
  const auto [callee, arguments] = callee_and_arguments(e);
  const std::string call = "_ops->" + callee + "(" + arguments + ")";
  if (e.result() != nullptr) return "if (_ops != nullptr) return " + call + ";";
  return "if (_ops != nullptr) {\n  " + call + ";\n  return;\n}";
}

// -ORBCollocation direct: the servant's method itself, when the reference is bound directly to a
// servant of this interface (switchyard::direct_servant); one load and a branch otherwise.
std::string direct_call(const std::string& cls, const OperationEntry& e) {
  const auto [callee, arguments] = callee_and_arguments(e);
  return "if (auto* _servant = ::switchyard::direct_servant<" + cls + "_skeleton>(_ref)) return _servant->" + callee +
         "(" + arguments + ");";
}

std::string operation_definition(const std::string& cls, const OperationEntry& e, std::size_t index,
                                 bool operation_indices, bool abstract) {
  const StubCallParts parts = stub_call_parts(e);
  std::string call, results;
  if (e.oneway()) {
    call = "_call.invoke_oneway(" + parts.arguments + ");";
  } else {
    const TypeSpec* result = e.result();
    const bool reads_reply = result != nullptr || !parts.out_reads.empty();
    call = std::string(reads_reply ? "::switchyard::cdr::input_stream& _in = " : "") + "_call.invoke(" +
           parts.arguments + ", " + parts.raiser + ");";
    results = parts.result_reads + parts.out_reads;
    if (result != nullptr) results += "return _result;\n";
  }
  return fill(operation_template, {{"signature", signature(e, cls + "::")},
                                   {"wire_name", e.wire_name},
                                   {"index", operation_index_literal(index, operation_indices)},
                                   {"local_call", abstract ? local_call(e) : direct_call(cls, e)},
                                   {"call", call},
                                   {"results", results}});
}

}  // namespace

StubCallParts stub_call_parts(const OperationEntry& e) {
  StubCallParts parts;
  std::string writes;
  bool values_in = false, values_out = false;  // valuetypes: one scope per message (switchyard/value.h)
  if (e.attribute != nullptr && e.setter) {
    write_value(writes, *e.attribute->type, "value", "");
    values_in = contains_value(*e.attribute->type);
  }
  if (e.operation != nullptr)
    for (const auto& p : e.operation->parameters) {
      if (p->direction != ParameterDirection::out) {
        write_value(writes, *p->type, identifier(p->name), "");
        values_in = values_in || contains_value(*p->type);
      }
      if (p->direction != ParameterDirection::in) {
        read_value(parts.out_reads, *p->type, identifier(p->name), "");
        values_out = values_out || contains_value(*p->type);
      }
    }
  if (e.operation != nullptr && !e.operation->contexts.empty())
    writes += "::switchyard::write_context(_out, _ctx, " + context_patterns(*e.operation) + ");\n";
  const TypeSpec* result = e.result();
  if (result != nullptr && contains_value(*result)) values_out = true;
  if (values_in) writes = "::switchyard::value_output_scope _values_out(_out);\n" + writes;
  parts.writes = writes;
  parts.arguments =
      writes.empty() ? "[](::switchyard::cdr::output_stream&) {}" : fill(arguments_template, {{"writes", writes}});
  if (!e.raises.empty()) {
    std::string cases;
    for (const Exception* x : e.raises) cases += fill(raiser_case_template, {{"exception", qualified(*x)}});
    parts.raiser = fill(raiser_template, {{"cases", cases}});
  }
  if (values_out) parts.result_reads = "::switchyard::value_input_scope _values_in(_in);\n";
  if (result != nullptr) {
    parts.result_reads += type_name(*result) + " _result{};\n";
    read_value(parts.result_reads, *result, "_result", "");
  }
  return parts;
}

std::string operation_index_literal(std::size_t index, bool operation_indices) {
  return operation_indices ? std::to_string(index) + "u" : "::switchyard::no_operation_index";
}

std::string stub_definitions(const Interface& interface, const std::vector<OperationEntry>& entries,
                             bool operation_indices) {
  const std::string cls = relative_name(interface);
  std::string out = fill(narrow_template, {{"class", cls}});
  if (interface.is_abstract) out += fill(value_narrow_template, {{"class", cls}});
  for (std::size_t k = 0; k < entries.size(); ++k)
    out += operation_definition(cls, entries[k], k, operation_indices, interface.is_abstract);
  return out;
}

}  // namespace switchyard::idl::cxx
