// The DSI's servant and server request (switchyard/dynamic_servant.h), built on the public
// skeleton API as generated skeletons are: the adapter calls `dispatch` for every operation the
// servant's interface does not list (interface_info::any_operation), which is all of them.
#include "switchyard/dynamic_servant.h"

#include <utility>

namespace switchyard {

namespace {

[[noreturn]] void bad_inv_order(std::string detail) {
  throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(0), CompletionStatus::no,
                        std::move(detail));
}

}  // namespace

std::vector<named_value>& dynamic_request::arguments(std::vector<named_value> list) {
  if (arguments_read_) bad_inv_order("'" + std::string(operation()) + "': arguments() called twice");
  arguments_read_ = true;
  arguments_ = std::move(list);
  cdr::input_stream& in = request_.arguments();
  for (named_value& argument : arguments_)
    if (argument.mode != arg_mode::out) argument.value.assign_from(argument.value.type(), in);
  request_.mark(instrument::layer::demarshal);
  return arguments_;
}

const context& dynamic_request::ctx() {
  if (!arguments_read_) bad_inv_order("'" + std::string(operation()) + "': ctx() before arguments()");
  if (!context_read_) {
    context_ = read_context(request_.arguments());
    context_read_ = true;
  }
  return context_;
}

void dynamic_request::set_result(any result) {
  if (has_exception_) bad_inv_order("'" + std::string(operation()) + "': set_result after set_exception");
  result_ = std::move(result);
  has_result_ = true;
}

void dynamic_request::set_exception(any exception) {
  if (exception.type().unaliased().kind() != tc_kind::tk_except || !exception.has_value())
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
                          "'" + std::string(operation()) + "': set_exception with an Any that holds no exception");
  exception_ = std::move(exception);
  has_exception_ = true;
}

void dynamic_request::answer() {
  if (!request_.response_expected()) return;
  if (has_exception_) {
    // The exception's value is its repository id, then its members: the body of the reply.
    write_value(request_.user_exception_reply(), exception_);
    return;
  }
  // Checked before the reply is begun, so that a missing value is answered as BAD_PARAM.
  for (std::size_t k = 0; k < arguments_.size(); ++k)
    if (arguments_[k].mode != arg_mode::in && !arguments_[k].value.has_value())
      throw SystemException(
          SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::yes,
          "'" + std::string(operation()) + "': out argument " + std::to_string(k) + " was given no value");
  cdr::output_stream& out = request_.reply();
  if (has_result_) write_value(out, result_);
  for (const named_value& argument : arguments_)
    if (argument.mode != arg_mode::in) write_value(out, argument.value);
}

dynamic_servant::dynamic_servant(std::vector<std::string> repository_ids) : ids_(std::move(repository_ids)) {
  if (ids_.empty())
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
                          "dynamic_servant: no repository id");
  id_views_.assign(ids_.begin(), ids_.end());
  interface_.repository_id = id_views_.front();
  interface_.repository_ids = id_views_;
  interface_.operations = {};
  interface_.perfect_lookup = nullptr;
  interface_.any_operation = &dispatch;
}

dynamic_servant::~dynamic_servant() = default;

void dynamic_servant::dispatch(servant& self, server_request& request) {
  dynamic_request dynamic(request);
  try {
    static_cast<dynamic_servant&>(self).invoke(dynamic);
  } catch (const unknown_user_exception& e) {
    dynamic.has_result_ = false;
    dynamic.set_exception(e.exception());
  }
  request.mark(instrument::layer::upcall);
  dynamic.answer();
}

}  // namespace switchyard
