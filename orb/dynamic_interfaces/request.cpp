// The DII's request (switchyard/request.h), built on the public invocation API as a generated
// stub is: the arguments are written from their Anys, the results read into theirs through their
// TypeCodes' plans.
#include "switchyard/request.h"

#include <optional>
#include <utility>

#include "switchyard/invocation.h"

namespace switchyard {

namespace {

// A USER_EXCEPTION reply, carried out of the invocation to the request, which decodes it with its
// exception list while the invocation (and so the reply's buffer) still lives.
struct pending_user_exception {
  std::string id;
  cdr::input_stream body;  // positioned after the repository id
};

void throw_pending(std::string_view id, cdr::input_stream& body) {
  throw pending_user_exception{std::string(id), body};
}

[[noreturn]] void bad_inv_order(std::string detail) {
  throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(0), CompletionStatus::no,
                        std::move(detail));
}

}  // namespace

std::string_view unknown_user_exception::repository_id() const noexcept {
  try {
    const type_code t = exception_.type().unaliased();
    return t.kind() == tc_kind::tk_except ? std::string_view(exception_.type().unaliased().id()) : std::string_view();
  } catch (const SystemException&) {
    return {};
  }
}

// The outstanding deferred call: its invocation lives until the reply is taken.
struct request::deferred {
  deferred(const object_ref& target, std::string_view operation, std::uint32_t index)
      : call(deferred_call, target, operation, index) {}
  invocation call;
};

request::request(object_ref target, std::string operation)
    : target_(std::move(target)), operation_(std::move(operation)), operation_index_(no_operation_index) {
  result_.set_type(type_code::basic(tc_kind::tk_void));
}

request::~request() {
  if (deferred_) deferred_->call.forget_reply();
}

request::request(request&&) noexcept = default;

request& request::operator=(request&& other) noexcept {
  if (this != &other && deferred_) deferred_->call.forget_reply();
  target_ = std::move(other.target_);
  operation_ = std::move(other.operation_);
  operation_index_ = other.operation_index_;
  arguments_ = std::move(other.arguments_);
  context_ = std::move(other.context_);
  context_patterns_ = std::move(other.context_patterns_);
  result_ = std::move(other.result_);
  exceptions_ = std::move(other.exceptions_);
  state_ = std::exchange(other.state_, call_state::idle);
  deferred_ = std::move(other.deferred_);
  failure_ = std::move(other.failure_);
  return *this;
}

any& request::add_in_arg(std::string_view name) {
  arguments_.push_back({std::string(name), any(), arg_mode::in});
  return arguments_.back().value;
}

any& request::add_inout_arg(std::string_view name) {
  arguments_.push_back({std::string(name), any(), arg_mode::inout});
  return arguments_.back().value;
}

any& request::add_out_arg(type_code type, std::string_view name) {
  arguments_.push_back({std::string(name), any(), arg_mode::out});
  arguments_.back().value.set_type(std::move(type));
  return arguments_.back().value;
}

void request::set_return_type(type_code type) { result_.set_type(std::move(type)); }

void request::add_exception(type_code exception_type) {
  if (exception_type.unaliased().kind() != tc_kind::tk_except)
    throw SystemException(
        SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
        "add_exception: " + std::string(to_string(exception_type.kind())) + " is not an exception's TypeCode");
  exceptions_.push_back(std::move(exception_type));
}

void request::marshal_arguments(cdr::output_stream& out) const {
  for (const named_value& argument : arguments_)
    if (argument.mode != arg_mode::out) write_value(out, argument.value);
  if (!context_patterns_.empty()) {
    const std::vector<std::string_view> patterns(context_patterns_.begin(), context_patterns_.end());
    write_context(out, context_, patterns);
  }
}

void request::demarshal_results(cdr::input_stream& in) {
  const tc_kind result_kind = result_.type().kind();
  if (result_kind != tc_kind::tk_void && result_kind != tc_kind::tk_null) result_.assign_from(result_.type(), in);
  for (named_value& argument : arguments_)
    if (argument.mode != arg_mode::in) argument.value.assign_from(argument.value.type(), in);
}

void request::raise_user_exception(std::string_view id, cdr::input_stream& body) const {
  for (const type_code& listed : exceptions_) {
    const type_code type = listed.unaliased();
    if (type.id() != id) continue;
    // In an Any an exception is its repository id, then its members.
    cdr::output_stream value(64, 2);
    value.write_string(id);
    for (std::uint32_t k = 0; k < type.member_count(); ++k) copy_value(type.member_type(k), body, value);
    any exception;
    exception.assign(listed, value.bytes());
    throw unknown_user_exception(std::move(exception));
  }
  throw SystemException(
      SystemExceptionKind::UNKNOWN, minor::omg_minor(1), CompletionStatus::yes,
      "'" + operation_ + "' raised a user exception its exception list does not name: " + std::string(id));
}

namespace {

// Arguments that would send nothing: refused before anything goes out.
void check_arguments(const std::vector<named_value>& arguments, const std::string& operation) {
  for (std::size_t k = 0; k < arguments.size(); ++k)
    if (arguments[k].mode != arg_mode::out && !arguments[k].value.has_value())
      throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
                            "'" + operation + "': argument " + std::to_string(k) +
                                (arguments[k].name.empty() ? "" : " (" + arguments[k].name + ")") + " has no value");
}

}  // namespace

void request::invoke() {
  if (state_ != call_state::idle) bad_inv_order("invoke: a deferred call of '" + operation_ + "' is outstanding");
  check_arguments(arguments_, operation_);
  invocation call(target_, operation_, operation_index_);
  try {
    cdr::input_stream& results =
        call.invoke([this](cdr::output_stream& out) { marshal_arguments(out); }, &throw_pending);
    demarshal_results(results);
  } catch (const pending_user_exception& pending) {
    cdr::input_stream body = pending.body;
    raise_user_exception(pending.id, body);
  }
}

void request::send_oneway() {
  if (state_ != call_state::idle) bad_inv_order("send_oneway: a deferred call of '" + operation_ + "' is outstanding");
  check_arguments(arguments_, operation_);
  invocation call(target_, operation_, operation_index_);
  call.invoke_oneway([this](cdr::output_stream& out) { marshal_arguments(out); });
}

void request::send_deferred() {
  if (state_ != call_state::idle) bad_inv_order("send_deferred: '" + operation_ + "' is outstanding already");
  check_arguments(arguments_, operation_);
  auto outstanding = std::make_unique<deferred>(target_, operation_, operation_index_);
  outstanding->call.send_deferred([this](cdr::output_stream& out) { marshal_arguments(out); });
  deferred_ = std::move(outstanding);
  failure_ = nullptr;
  state_ = call_state::sent;
}

void request::take_response() {
  try {
    try {
      cdr::input_stream& results =
          deferred_->call.receive_reply([this](cdr::output_stream& out) { marshal_arguments(out); }, &throw_pending);
      demarshal_results(results);
    } catch (const pending_user_exception& pending) {
      cdr::input_stream body = pending.body;
      raise_user_exception(pending.id, body);
    }
  } catch (...) {
    failure_ = std::current_exception();
  }
  deferred_.reset();
  state_ = call_state::answered;
}

bool request::poll_response() {
  if (state_ == call_state::idle)
    bad_inv_order("poll_response: no deferred call of '" + operation_ + "' is outstanding");
  if (state_ == call_state::answered) return true;
  bool arrived = false;
  try {
    arrived = deferred_->call.reply_arrived();
  } catch (...) {
    // The connection broke: the call is over, and get_response raises why.
    failure_ = std::current_exception();
    deferred_.reset();
    state_ = call_state::answered;
    return true;
  }
  if (!arrived) return false;
  take_response();
  return true;
}

void request::get_response() {
  if (state_ == call_state::idle)
    bad_inv_order("get_response: no deferred call of '" + operation_ + "' is outstanding");
  if (state_ == call_state::sent) take_response();
  state_ = call_state::idle;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

}  // namespace switchyard
