// greeter_dynamic_client: greeter_client without generated code, through the Dynamic Invocation
// Interface (switchyard/request.h): the requests, their argument and result types and the
// exception they may raise are all made at run time from TypeCodes. Every greeting is sent at
// once as a deferred request, then the replies are collected in order.
//
//   greeter_dynamic_client IOR|FILE NAME... [-ORB<option> <value>...]
//
// Prints what greeter_client prints, against greeter_server or greeter_dynamic_server alike.
#include <switchyard/any.h>
#include <switchyard/exception.h>
#include <switchyard/orb.h>
#include <switchyard/request.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

using switchyard::tc_kind;
using switchyard::type_code;

// What the IDL says (greeter.idl), written as TypeCodes.
const type_code& greeting_type() {
  static const type_code t =
      type_code::make_struct("IDL:Hello/Greeting:1.0", "Greeting",
                             {{"text", type_code::make_string()}, {"number", type_code::basic(tc_kind::tk_ulong)}});
  return t;
}
const type_code& name_refused_type() {
  static const type_code t =
      type_code::make_exception("IDL:Hello/NameRefused:1.0", "NameRefused", {{"reason", type_code::make_string()}});
  return t;
}

std::string reference_text(const std::string& argument) {
  if (argument.rfind("IOR:", 0) == 0 || argument.rfind("corbaloc:", 0) == 0) return argument;
  std::ifstream in(argument);
  std::string text;
  if (!(in >> text)) {
    std::cerr << "greeter_dynamic_client: " << argument << " is neither a reference nor a readable file\n";
    std::exit(2);
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> orb_args, names;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("-ORB", 0) == 0 && i + 1 < argc) {
      orb_args.push_back(arg);
      orb_args.push_back(argv[++i]);
    } else {
      names.push_back(arg);
    }
  }
  if (names.size() < 2) {
    std::cerr << "usage: greeter_dynamic_client IOR|FILE NAME... [-ORB<option> <value>...]\n";
    return 2;
  }

  int status = 0;
  try {
    auto orb = switchyard::orb_init(orb_args);
    switchyard::object_ref greeter = orb->string_to_object(reference_text(names[0]));
    if (!greeter.is_a("IDL:Hello/Greeter:1.0")) {
      std::cerr << "greeter_dynamic_client: the object is not a Hello::Greeter\n";
      return 1;
    }
    // One request per name, all sent before any reply is read (deferred synchronous calls).
    std::vector<switchyard::request> greetings;
    for (std::size_t i = 1; i < names.size(); ++i) {
      greetings.emplace_back(greeter, "greet");
      greetings.back().add_in_arg("name") <<= names[i];
      greetings.back().set_return_type(greeting_type());
      greetings.back().add_exception(name_refused_type());
    }
    for (auto& call : greetings) call.send_deferred();
    for (auto& call : greetings) {
      try {
        call.get_response();
        // No generated type to extract into: the struct is read member by member from its CDR.
        auto value = call.return_value().value_stream();
        const std::string text = value.read_string();
        const std::uint32_t number = value.read_ulong();
        std::cout << text << " (greeting " << number << ")\n";
      } catch (const switchyard::unknown_user_exception& e) {  // NameRefused, in an Any
        auto value = e.exception().value_stream();
        (void)value.read_string_view();  // the repository id
        std::cout << "refused: " << value.read_string() << "\n";
        status = 3;
      }
    }
    // The attribute: its get operation is _get_greetings.
    switchyard::request count(greeter, "_get_greetings");
    count.set_return_type(type_code::basic(tc_kind::tk_ulong));
    count.invoke();
    std::uint32_t made = 0;
    count.return_value() >>= made;
    std::cout << "the server has made " << made << " greeting(s)\n";
    orb->destroy();
  } catch (const switchyard::SystemException& e) {
    std::cerr << "greeter_dynamic_client: " << e.what() << "\n";
    return 1;
  }
  return status;
}
