#include "idl_compiler/cxx_ami.h"

#include <string>

#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/cxx_stubs.h"
#include "idl_compiler/cxx_types.h"

namespace switchyard::idl::cxx {

namespace {

constexpr std::string_view forward_template = R"(
class AMI_${name}Handler;
class AMI_${name}Poller;
)";

constexpr std::string_view classes_template = R"(
// ${repository_id}: the reply handler of asynchronous calls (syidl --ami). Per two-way operation,
// a function given its result and out and inout values, and one given what it raised; called
// once per call on the ORB's reply thread (docs/orb.md, "Asynchronous calls").
class AMI_${name}Handler {
 public:
  virtual ~AMI_${name}Handler() = default;
  ${handler_operations}
};

// ${repository_id}: the poller of one asynchronous call (sendp_). Its operation for the call it
// polls waits up to `ami_timeout` and gives the results once (TIMEOUT if the reply has not come,
// OBJECT_NOT_EXIST when asked again); another operation's is BAD_OPERATION.
class AMI_${name}Poller {
 public:
  AMI_${name}Poller() = default;
  AMI_${name}Poller(::switchyard::ami::poller poller, std::string_view operation) noexcept
      : _poller(std::move(poller)), _operation(operation) {}
  // Whether the reply has come, waiting for it up to `timeout` (zero: look only).
  bool is_ready(std::chrono::milliseconds timeout) const { return _poller.is_ready(timeout); }
  ${poller_operations}

 private:
  ::switchyard::ami::poller _poller;
  std::string_view _operation;  // the wire name of the operation it polls
};

)";

constexpr std::string_view sendc_template = R"(
void ${class}::sendc_${name}(${parameters}) {
  ::switchyard::ami::send_callback(_ref, "${wire_name}", ${writer},
      [ami_handler = std::move(ami_handler)](::switchyard::cdr::input_stream* _in_p,
                                             const ::switchyard::exception_holder* _raised) {
        if (!ami_handler) return;  // a nil handler: the reply is dropped
        if (_raised != nullptr) {
          ami_handler->${name}_excep(*_raised);
          return;
        }
        ${reads}
        ami_handler->${name}(${results});
      },
      ${raiser}, ${index});
}

AMI_${interface}Poller ${class}::sendp_${name}(${in_parameters}) {
  return AMI_${interface}Poller(
      ::switchyard::ami::send_poller(_ref, "${wire_name}", ${writer}, ${raiser}, ${index}), "${wire_name}");
}

${poller_result} AMI_${interface}Poller::${name}(${poller_parameters}) {
  if (_operation != "${wire_name}")
    throw ::switchyard::SystemException(::switchyard::SystemExceptionKind::BAD_OPERATION, 0,
                                        ::switchyard::CompletionStatus::no,
                                        "this poller's call is '" + std::string(_operation) + "', not '${wire_name}'");
  ${poll}
}

)";

constexpr std::string_view writer_template = R"([${captures}](::switchyard::cdr::output_stream& _out) {
  ${writes}
})";

// The AMI name of an entry: the operation's, or get_x / set_x for attribute x.
std::string ami_name(const OperationEntry& e) {
  if (e.attribute != nullptr) return std::string(e.setter ? "set_" : "get_") + identifier(e.attribute->name);
  return identifier(e.operation->name);
}

struct Parameter {
  const TypeSpec* type;
  std::string name;
};

// What the caller sends (in and inout), and what the reply brings (out and inout).
std::vector<Parameter> sent(const OperationEntry& e) {
  std::vector<Parameter> out;
  if (e.attribute != nullptr) {
    if (e.setter) out.push_back({e.attribute->type.get(), "value"});
    return out;
  }
  for (const auto& p : e.operation->parameters)
    if (p->direction != ParameterDirection::out) out.push_back({p->type.get(), identifier(p->name)});
  return out;
}

std::vector<Parameter> returned(const OperationEntry& e) {
  std::vector<Parameter> out;
  if (e.operation == nullptr) return out;
  for (const auto& p : e.operation->parameters)
    if (p->direction != ParameterDirection::in) out.push_back({p->type.get(), identifier(p->name)});
  return out;
}

std::string in_parameter_list(const std::vector<Parameter>& parameters) {
  std::string s;
  for (const Parameter& p : parameters)
    s += (s.empty() ? "" : ", ") + parameter_type(*p.type, ParameterDirection::in) + " " + p.name;
  return s;
}

bool has_context(const OperationEntry& e) { return e.operation != nullptr && !e.operation->contexts.empty(); }

// What sendc_ and sendp_ take after the handler: the in and inout values, then the context.
std::string sent_parameter_list(const OperationEntry& e) {
  std::string s = in_parameter_list(sent(e));
  if (has_context(e)) s += std::string(s.empty() ? "" : ", ") + "const ::switchyard::context& _ctx";
  return s;
}

// The handler's function for the reply: the result, then the out and inout values.
std::string handler_parameters(const OperationEntry& e) {
  std::string s;
  if (const TypeSpec* result = e.result()) s = parameter_type(*result, ParameterDirection::in) + " ami_return_val";
  const std::string values = in_parameter_list(returned(e));
  return s.empty() ? values : values.empty() ? s : s + ", " + values;
}

std::string poller_parameters(const OperationEntry& e) {
  std::string s = "std::chrono::milliseconds ami_timeout";
  for (const Parameter& p : returned(e)) s += ", " + parameter_type(*p.type, ParameterDirection::out) + " " + p.name;
  return s;
}

std::string result_type(const OperationEntry& e) { return e.result() != nullptr ? type_name(*e.result()) : "void"; }

// The argument writer: the in and inout values copied into the lambda, since it runs again if
// the request goes out again after the stub has returned.
std::string writer(const OperationEntry& e, const StubCallParts& parts) {
  if (parts.writes.empty()) return "{}";
  std::string captures;
  for (const Parameter& p : sent(e)) {
    const std::string owned = type_name(*p.type);
    captures += (captures.empty() ? "" : ", ") + p.name + " = " + owned +
                (is_octet_sequence(*p.type) ? "(" + p.name + ".begin(), " + p.name + ".end())" : "(" + p.name + ")");
  }
  if (has_context(e)) captures += std::string(captures.empty() ? "" : ", ") + "_ctx = ::switchyard::context(_ctx)";
  return fill(writer_template, {{"captures", captures}, {"writes", parts.writes}});
}

std::string operation_definitions(const std::string& cls, const std::string& interface, const OperationEntry& e,
                                  std::size_t index, bool operation_indices) {
  const StubCallParts parts = stub_call_parts(e);
  const std::string name = ami_name(e);
  const std::vector<Parameter> values = returned(e);
  const bool reads_reply = e.result() != nullptr || !values.empty();
  // The handler: locals for the results, read, then passed on.
  std::string reads = "(void)_in_p;\n", results;
  if (reads_reply) {
    reads = "::switchyard::cdr::input_stream& _in = *_in_p;\n";
    for (const Parameter& p : values) reads += type_name(*p.type) + " " + p.name + "{};\n";
    reads += parts.result_reads + parts.out_reads;
    if (e.result() != nullptr) results = "_result";
    for (const Parameter& p : values) results += (results.empty() ? "" : ", ") + p.name;
  }
  // The poller: the same reads into its caller's variables.
  std::string poll = "(void)_poller.results(ami_timeout);\n";
  if (reads_reply) {
    poll =
        "::switchyard::cdr::input_stream& _in = _poller.results(ami_timeout);\n" + parts.result_reads + parts.out_reads;
    if (e.result() != nullptr) poll += "return _result;\n";
  }
  const std::string in_parameters = sent_parameter_list(e);
  const std::string handler_parameter = "std::shared_ptr<AMI_" + interface + "Handler> ami_handler";
  return fill(sendc_template,
              {{"class", cls},
               {"interface", interface},
               {"name", name},
               {"wire_name", e.wire_name},
               {"parameters", in_parameters.empty() ? handler_parameter : handler_parameter + ", " + in_parameters},
               {"in_parameters", in_parameters},
               {"writer", writer(e, parts)},
               {"reads", reads},
               {"results", results},
               {"raiser", parts.raiser},
               {"index", operation_index_literal(index, operation_indices)},
               {"poller_result", result_type(e)},
               {"poller_parameters", poller_parameters(e)},
               {"poll", poll}});
}

}  // namespace

std::string ami_forward_declarations(const Interface& interface) {
  return fill(forward_template, {{"name", identifier(interface.name)}});
}

std::string ami_stub_declarations(const Interface& interface, const std::vector<OperationEntry>& entries) {
  const std::string name = identifier(interface.name);
  std::string out = "// Asynchronous calls (syidl --ami): sendc_ replies to a handler, sendp_ to a poller.\n";
  for (const OperationEntry& e : entries) {
    if (e.oneway()) continue;
    const std::string in_parameters = sent_parameter_list(e);
    const std::string handler = "std::shared_ptr<AMI_" + name + "Handler> ami_handler";
    out +=
        "void sendc_" + ami_name(e) + "(" + (in_parameters.empty() ? handler : handler + ", " + in_parameters) + ");\n";
    out += "AMI_" + name + "Poller sendp_" + ami_name(e) + "(" + in_parameters + ");\n";
  }
  return out;
}

std::string ami_class_definitions(const Interface& interface, const std::vector<OperationEntry>& entries) {
  std::string handler_operations, poller_operations;
  for (const OperationEntry& e : entries) {
    if (e.oneway()) continue;
    const std::string name = ami_name(e);
    handler_operations += "virtual void " + name + "(" + handler_parameters(e) + ") = 0;\n";
    handler_operations += "virtual void " + name + "_excep(const ::switchyard::exception_holder& excep_holder) = 0;\n";
    poller_operations += result_type(e) + " " + name + "(" + poller_parameters(e) + ");\n";
  }
  return fill(classes_template, {{"repository_id", interface.repository_id},
                                 {"name", identifier(interface.name)},
                                 {"handler_operations", handler_operations},
                                 {"poller_operations", poller_operations}});
}

std::string ami_definitions(const Interface& interface, const std::vector<OperationEntry>& entries,
                            bool operation_indices) {
  const std::string cls = relative_name(interface);
  const std::string name = identifier(interface.name);
  std::string out;
  for (std::size_t k = 0; k < entries.size(); ++k)
    if (!entries[k].oneway()) out += operation_definitions(cls, name, entries[k], k, operation_indices);
  return out;
}

}  // namespace switchyard::idl::cxx
