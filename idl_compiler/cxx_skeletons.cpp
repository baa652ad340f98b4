#include "idl_compiler/cxx_skeletons.h"

#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/cxx_marshal.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

namespace {

constexpr std::string_view dispatch_template = R"(
void ${skeleton}::${dispatch_name}(::switchyard::servant& _self, ::switchyard::server_request& _request) {
  ${body}
}

)";

// The upcall, when the operation raises user exceptions: each is sent as a USER_EXCEPTION reply.
constexpr std::string_view try_template = R"(
try {
  ${upcall}
}${catches}
)";

constexpr std::string_view catch_template = R"( catch (const ${exception}& _e) {
  _request.mark(::switchyard::instrument::layer::upcall);
  if (!_request.response_expected()) return;
  ::switchyard::cdr::output_stream& _out = _request.user_exception_reply();
  _out.write_string(${exception}::_repository_id);
  cdr_write(_out, _e);
  return;
})";

constexpr std::string_view reply_template = R"(
if (!_request.response_expected()) return;
::switchyard::cdr::output_stream& _out = _request.reply();
${writes}
)";

std::string dispatch_definition(const std::string& skeleton, const OperationEntry& e) {
  std::string reads, arguments, writes;
  const TypeSpec* result = e.result();
  if (e.attribute != nullptr && e.setter) {
    reads += type_name(*e.attribute->type) + " value{};\n";
    read_value(reads, *e.attribute->type, "value", "");
    arguments = "value";
  }
  if (e.operation != nullptr) {
    for (const auto& p : e.operation->parameters) {
      const std::string n = identifier(p->name);
      if (p->direction == ParameterDirection::in && is_octet_sequence(*p->type)) {
        reads += "std::span<const std::uint8_t> " + n + ";\n";
        read_octet_view(reads, *p->type, n, "");
      } else {
        reads += type_name(*p->type) + " " + n + "{};\n";
        if (p->direction != ParameterDirection::out) read_value(reads, *p->type, n, "");
      }
      arguments += (arguments.empty() ? "" : ", ") + n;
    }
    if (!e.operation->contexts.empty()) {
      reads += "const ::switchyard::context _ctx = ::switchyard::read_context(_in);\n";
      arguments += std::string(arguments.empty() ? "" : ", ") + "_ctx";
    }
  }
  if (result != nullptr) write_value(writes, *result, "_result", "");
  if (e.operation != nullptr)
    for (const auto& p : e.operation->parameters)
      if (p->direction != ParameterDirection::in) write_value(writes, *p->type, identifier(p->name), "");

  // The phases the request-path profile times (docs/instrumentation.md): demarshal ends when the
  // arguments are read, upcall when the servant returns; the core marks marshal after the reply.
  // Valuetypes: one scope per message (switchyard/value.h).
  bool values_in = e.attribute != nullptr && e.setter && contains_value(*e.attribute->type);
  bool values_out = result != nullptr && contains_value(*result);
  if (e.operation != nullptr)
    for (const auto& p : e.operation->parameters) {
      if (p->direction != ParameterDirection::out && contains_value(*p->type)) values_in = true;
      if (p->direction != ParameterDirection::in && contains_value(*p->type)) values_out = true;
    }
  if (values_out) writes = "::switchyard::value_output_scope _values_out(_out);\n" + writes;
  std::string body;
  if (reads.find("_in") != std::string::npos) body += "::switchyard::cdr::input_stream& _in = _request.arguments();\n";
  if (values_in) body += "::switchyard::value_input_scope _values_in(_in);\n";
  body += reads;
  // The arguments are the servant's now: the scope ends before the upcall.
  if (values_in) body += "_values_in.end();\n";
  body += "_request.mark(::switchyard::instrument::layer::demarshal);\n";
  if (result != nullptr) body += type_name(*result) + " _result{};\n";
  const std::string function = identifier(e.attribute != nullptr ? e.attribute->name : e.operation->name);
  const std::string upcall = std::string(result != nullptr ? "_result = " : "") + "static_cast<" + skeleton +
                             "&>(_self)." + function + "(" + arguments + ");\n";
  if (e.raises.empty()) {
    body += upcall;
  } else {
    std::string catches;
    for (const Exception* x : e.raises) catches += fill(catch_template, {{"exception", qualified(*x)}});
    body += fill(try_template, {{"upcall", upcall}, {"catches", catches}});
  }
  body += "_request.mark(::switchyard::instrument::layer::upcall);\n";
  if (!writes.empty()) body += fill(reply_template, {{"writes", writes}});
  return fill(dispatch_template, {{"skeleton", skeleton}, {"dispatch_name", e.dispatch_name}, {"body", body}});
}

}  // namespace

std::string skeleton_definitions(const Interface& interface, const std::vector<OperationEntry>& entries) {
  const std::string skeleton = relative_name(interface) + "_skeleton";
  std::string out;
  for (const OperationEntry& e : entries) out += dispatch_definition(skeleton, e);
  return out;
}

}  // namespace switchyard::idl::cxx
