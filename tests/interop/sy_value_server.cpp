// sy_value_server: our ORB serving Values::ValueEcho (tests/value/values.idl) for omniORB's client
// (omni_value_peer client, run by run_omni_client_sy_value_server.py).
//
//   sy_value_server --ior-file PATH [--seconds S] [-ORB<option> <value> ...]
//
// Writes "echo <IOR>" to PATH (through a rename: a reader never sees half a file) and serves
// until the client calls shutdown(), or --seconds (default 120) run out.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/value/value_echo_servant.h"

int main(int argc, char** argv) {
  std::vector<std::string> orb_args = {"-ORBListenEndpoints", "iiop://127.0.0.1:0"};
  std::string ior_file;
  unsigned seconds = 120;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::cerr << "sy_value_server: " << arg << " needs a value\n";
      return 2;
    }
    if (arg == "--ior-file") ior_file = argv[++i];
    else if (arg == "--seconds") seconds = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (arg.rfind("-ORB", 0) == 0) {
      orb_args.push_back(arg);
      orb_args.push_back(argv[++i]);
    } else {
      std::cerr << "usage: sy_value_server --ior-file PATH [--seconds S] [-ORB<option> <value> ...]\n";
      return 2;
    }
  }
  if (ior_file.empty()) {
    std::cerr << "sy_value_server: --ior-file is required\n";
    return 2;
  }
  try {
    auto orb = switchyard::orb_init(orb_args);
    test::register_caption_factory();  // Caption has an operation: syidl registers no factory for it
    auto servant = std::make_shared<test::value_echo_servant>();
    servant->on_shutdown = [&orb] { orb->shutdown(false); };
    auto ior = orb->object_to_string(orb->root_adapter().activate(servant));
    {
      std::ofstream out(ior_file + ".tmp");
      out << "echo " << ior << "\n";
    }
    if (std::rename((ior_file + ".tmp").c_str(), ior_file.c_str()) != 0) {
      std::cerr << "sy_value_server: cannot write " << ior_file << "\n";
      return 1;
    }
    std::thread limit([weak = std::weak_ptr<switchyard::orb>(orb), seconds] {
      std::this_thread::sleep_for(std::chrono::seconds(seconds));
      if (auto still = weak.lock()) {
        try {
          still->shutdown(false);
        } catch (const switchyard::Exception&) {  // already gone
        }
      }
    });
    limit.detach();
    orb->run();
    std::cout << "sy_value_server: served " << servant->served << " calls\n";
    orb->destroy();
  } catch (const std::exception& e) {
    std::cerr << "sy_value_server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
