// greeter_dynamic_server: greeter_server without generated code, through the Dynamic Skeleton
// Interface (switchyard/dynamic_servant.h): one servant takes every operation by name and reads
// its arguments with TypeCodes made at run time.
//
//   greeter_dynamic_server [--ior-file PATH] [-ORB<option> <value>...]
//
// Behaves as greeter_server does (the same IOR output, the key "greeter", SIGINT/SIGTERM), so
// greeter_client and greeter_dynamic_client work against either.
#include <switchyard/any.h>
#include <switchyard/dynamic_servant.h>
#include <switchyard/exception.h>
#include <switchyard/orb.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using switchyard::tc_kind;
using switchyard::type_code;

// The servant: Hello::Greeter's operations, by name.
class dynamic_greeter final : public switchyard::dynamic_servant {
 public:
  dynamic_greeter() : dynamic_servant({"IDL:Hello/Greeter:1.0"}) {}

  void invoke(switchyard::dynamic_request& request) override {
    if (request.operation() == "greet") {
      std::vector<switchyard::named_value> list(1);
      list[0].value.set_type(type_code::make_string());
      auto& args = request.arguments(std::move(list));
      std::string name;
      args[0].value >>= name;
      if (name.empty() || name.size() > 64) {
        refuse(request, name.empty() ? "an empty name" : "a name longer than 64 characters");
        return;
      }
      // Hello::Greeting { string text; unsigned long number; }, marshaled member by member.
      const std::uint32_t number = ++count_;
      switchyard::any greeting;
      greeting.replace(greeting_type(), [&](switchyard::cdr::output_stream& out) {
        out.write_string("Hello, " + name + "!");
        out.write_ulong(number);
      });
      request.set_result(greeting);
    } else if (request.operation() == "_get_greetings") {
      switchyard::any count;
      count <<= count_.load();
      request.set_result(count);
    } else {
      throw switchyard::SystemException(switchyard::SystemExceptionKind::BAD_OPERATION, 0,
                                        switchyard::CompletionStatus::no,
                                        "Hello::Greeter has no operation " + std::string(request.operation()));
    }
  }

 private:
  static const type_code& greeting_type() {
    static const type_code t =
        type_code::make_struct("IDL:Hello/Greeting:1.0", "Greeting",
                               {{"text", type_code::make_string()}, {"number", type_code::basic(tc_kind::tk_ulong)}});
    return t;
  }
  // Hello::NameRefused { string reason; }: in an Any, its repository id, then its members.
  static void refuse(switchyard::dynamic_request& request, const std::string& reason) {
    static const type_code refused_type =
        type_code::make_exception("IDL:Hello/NameRefused:1.0", "NameRefused", {{"reason", type_code::make_string()}});
    switchyard::any refused;
    refused.replace(refused_type, [&](switchyard::cdr::output_stream& out) {
      out.write_string("IDL:Hello/NameRefused:1.0");
      out.write_string(reason);
    });
    request.set_exception(refused);
  }

  std::atomic<std::uint32_t> count_{0};
};

bool write_file(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text << '\n';
    if (!out.flush()) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  try {
    std::vector<std::string> orb_args;
    std::string ior_file;
    bool has_endpoint = false;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "--ior-file" && i + 1 < argc) {
        ior_file = argv[++i];
      } else if (arg.rfind("-ORB", 0) == 0 && i + 1 < argc) {
        has_endpoint = has_endpoint || arg == "-ORBListenEndpoints" || arg == "-ORBEndpoint";
        orb_args.push_back(arg);
        orb_args.push_back(argv[++i]);
      } else {
        std::cerr << "usage: greeter_dynamic_server [--ior-file PATH] [-ORB<option> <value>...]\n";
        return 2;
      }
    }
    if (!has_endpoint) orb_args.insert(orb_args.end(), {"-ORBListenEndpoints", "iiop://127.0.0.1:0"});

    auto orb = switchyard::orb_init(orb_args);
    // Activated like any servant; its references carry its first repository id.
    auto reference = orb->root_adapter().activate(std::make_shared<dynamic_greeter>());
    orb->bind_key("greeter", reference);
    const std::string ior = orb->object_to_string(reference);
    std::cout << ior << std::endl;
    if (!ior_file.empty() && !write_file(ior_file, ior)) {
      std::cerr << "greeter_dynamic_server: cannot write " << ior_file << "\n";
      return 1;
    }
    for (const auto& endpoint : orb->endpoints())
      std::cerr << "greeter_dynamic_server: listening on " << endpoint << "\n";

    std::thread stopper([&] {
      int got;
      do got = sigwaitinfo(&stop_signals, nullptr);
      while (got < 0 && errno == EINTR);
      orb->shutdown(false);
    });
    try {
      orb->run();
    } catch (...) {
      pthread_kill(stopper.native_handle(), SIGTERM);
      stopper.join();
      throw;
    }
    stopper.join();
    orb->destroy();
    std::cerr << "greeter_dynamic_server: stopped\n";
  } catch (const switchyard::Exception& e) {
    std::cerr << "greeter_dynamic_server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
