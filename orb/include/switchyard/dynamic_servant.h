// The Dynamic Skeleton Interface (CORBA 3.0, chapter 8; the C++ mapping's
// PortableServer::DynamicImplementation and CORBA::ServerRequest): a servant that receives every
// operation by name and reads its arguments through TypeCodes it supplies at run time, for a
// server without a skeleton (a bridge, a gateway, a test double). It is activated like any servant
// and found under every demultiplexing strategy; the ORB answers _is_a, _non_existent and
// _repository_id from the repository ids it gives.
//
//   class echo final : public switchyard::dynamic_servant {
//    public:
//     echo() : dynamic_servant({"IDL:Integrity/Echo:1.0"}) {}
//     void invoke(switchyard::dynamic_request& request) override {
//       if (request.operation() != "echo_long")
//         throw switchyard::SystemException(switchyard::SystemExceptionKind::BAD_OPERATION, 0);
//       std::vector<switchyard::named_value> list(1);
//       list[0].value.set_type(switchyard::type_code::basic(switchyard::tc_kind::tk_long));
//       auto& args = request.arguments(std::move(list));  // reads v by its TypeCode
//       request.set_result(args[0].value);
//     }
//   };
//
// The reply a request gets: a system exception the servant throws (as from any servant); a user
// exception given to set_exception (or thrown as unknown_user_exception); else the result, then
// the out and inout arguments of the list arguments() keeps, in order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "switchyard/any.h"
#include "switchyard/context.h"
#include "switchyard/request.h"
#include "switchyard/servant.h"
#include "switchyard/server_request.h"

namespace switchyard {

// The request a dynamic servant serves (CORBA::ServerRequest). Valid during invoke().
class dynamic_request {
 public:
  std::string_view operation() const noexcept { return request_.operation(); }
  bool response_expected() const noexcept { return request_.response_expected(); }

  // Reads the in and inout arguments into the Anys of `list` through their TypeCodes (set them
  // with any::set_type; out arguments are not read), and keeps the list: the servant sets the out
  // and inout values in the list returned, which are sent with the result. Once per request:
  // BAD_INV_ORDER the second time. MARSHAL when the request does not hold such values.
  std::vector<named_value>& arguments(std::vector<named_value> list);
  // The IDL context the caller sent after the arguments (switchyard/context.h): for an operation
  // with a context clause, after arguments(). Read once, then kept. BAD_INV_ORDER before
  // arguments(); MARSHAL when no context follows them.
  const context& ctx();
  // The operation's result (none for a void operation). BAD_INV_ORDER after set_exception.
  void set_result(any result);
  // A user exception, an Any of its tk_except TypeCode (the generated `<<=` makes one), answers
  // the request instead of a result. BAD_PARAM for an Any that holds no exception.
  void set_exception(any exception);

 private:
  friend class dynamic_servant;
  explicit dynamic_request(server_request& request) noexcept : request_(request) {}
  // Writes the reply (when one is expected) from what the servant set.
  void answer();

  server_request& request_;
  std::vector<named_value> arguments_;
  bool arguments_read_ = false;
  context context_;
  bool context_read_ = false;
  any result_;
  any exception_;
  bool has_result_ = false;
  bool has_exception_ = false;
};

class dynamic_servant : public servant {
 public:
  // The interfaces this object implements, most derived first: the first is the type id its
  // references carry and what _repository_id answers; _is_a is true for each (and for Object).
  explicit dynamic_servant(std::vector<std::string> repository_ids);
  ~dynamic_servant() override;
  dynamic_servant(const dynamic_servant&) = delete;
  dynamic_servant& operator=(const dynamic_servant&) = delete;

  // Serves one request. May throw SystemException (the client gets it) or unknown_user_exception
  // (sent as set_exception sends it).
  virtual void invoke(dynamic_request& request) = 0;

  const interface_info& _interface() const noexcept final { return interface_; }

 private:
  static void dispatch(servant& self, server_request& request);

  std::vector<std::string> ids_;
  std::vector<std::string_view> id_views_;
  interface_info interface_;
};

}  // namespace switchyard
