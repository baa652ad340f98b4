// omni_peer_server: the omniORB server of the interop tests (tests/interop, tests/dynamic).
//
// Serves N ttcp_sequence servants and one Integrity::Echo servant on loopback, writes one line per
// object ("echo <IOR>", "ttcp/0 <IOR>", ...) to --ior-file (through a temporary file and a rename,
// so a reader never sees half a file), and serves until SIGTERM/SIGINT or --seconds run out.
//
//   omni_peer_server --ior-file PATH [--servants N] [--host H] [--port P] [--seconds S]
//                    [--poa ins|root] [--echo static|dsi] [-ORB<option> <value> ...]
//
// --poa ins (the default) activates the objects in omniORB's INS POA, so their object keys are
// the plain strings "echo", "ttcp0", "ttcp1", ... and corbaloc::127.0.0.1:P/echo reaches them;
// --poa root uses the RootPOA (omniORB's usual transient keys). Any -ORB option is passed to
// omniORB; when one of them is -ORBendPoint, --host/--port are not used. --echo dsi serves Echo
// through omniORB's DSI (omni_dsi_echo.h) instead of its generated skeleton.
#include "integrity.hh"
#include "omni_dsi_echo.h"
#include "omni_echo_servant.h"
#include "ttcp_sequence.hh"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

class ttcp_servant final : public POA_ttcp_sequence {
 public:
  void sendStructSeq_2way(const ttcp_sequence::StructSeq&) override {}
  void sendOctetSeq_2way(const ttcp_sequence::OctetSeq&) override {}
  void sendNoParams_2way() override {}
  void sendNoParams_1way() override {}
};

// The Echo servant is the omniORB benchmark peer's (every operation as integrity.idl says).
using echo_servant = switchyard::bench::omni_echo_servant;

struct options {
  std::string ior_file;
  std::string host = "127.0.0.1";
  unsigned port = 0;
  unsigned servants = 1;
  unsigned seconds = 0;  // 0: until a signal
  bool ins_poa = true;
  bool dsi_echo = false;
};

[[noreturn]] void usage(const char* why) {
  std::cerr << "omni_peer_server: " << why << "\n"
            << "usage: omni_peer_server --ior-file PATH [--servants N] [--host H] [--port P]"
               " [--seconds S] [--poa ins|root] [--echo static|dsi] [-ORB<option> <value> ...]\n";
  std::exit(2);
}

unsigned to_unsigned(const char* text, const char* what) {
  char* end = nullptr;
  errno = 0;
  unsigned long value = std::strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value > 1000000) usage(what);
  return static_cast<unsigned>(value);
}

// Splits our own options from the -ORB ones, which go to CORBA::ORB_init untouched.
options parse(int argc, char** argv, std::vector<char*>& orb_args, bool& has_endpoint) {
  options opts;
  orb_args.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) usage(what);
      return argv[++i];
    };
    if (arg.rfind("-ORB", 0) == 0) {
      if (arg == "-ORBendPoint" || arg == "-ORBendpoint") has_endpoint = true;
      orb_args.push_back(argv[i]);
      if (i + 1 < argc) orb_args.push_back(argv[++i]);
    } else if (arg == "--ior-file") {
      opts.ior_file = value("--ior-file needs a path");
    } else if (arg == "--servants") {
      opts.servants = to_unsigned(value("--servants needs a count"), "bad --servants");
      if (opts.servants == 0) usage("--servants must be at least 1");
    } else if (arg == "--host") {
      opts.host = value("--host needs an address");
    } else if (arg == "--port") {
      opts.port = to_unsigned(value("--port needs a number"), "bad --port");
      if (opts.port > 65535) usage("bad --port");
    } else if (arg == "--seconds") {
      opts.seconds = to_unsigned(value("--seconds needs a number"), "bad --seconds");
    } else if (arg == "--poa") {
      std::string poa = value("--poa needs ins or root");
      if (poa != "ins" && poa != "root") usage("--poa is ins or root");
      opts.ins_poa = poa == "ins";
    } else if (arg == "--echo") {
      std::string echo = value("--echo needs static or dsi");
      if (echo != "static" && echo != "dsi") usage("--echo is static or dsi");
      opts.dsi_echo = echo == "dsi";
    } else {
      usage(("unknown argument " + arg).c_str());
    }
  }
  if (opts.ior_file.empty()) usage("--ior-file is required");
  return opts;
}

bool write_ior_file(const std::string& path, const std::string& text) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text;
    if (!out.flush()) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> orb_args;
  bool has_endpoint = false;
  options opts = parse(argc, argv, orb_args, has_endpoint);
  std::string endpoint = "giop:tcp:" + opts.host + ":" + std::to_string(opts.port);
  std::string endpoint_flag = "-ORBendPoint";
  if (!has_endpoint) {
    orb_args.push_back(endpoint_flag.data());
    orb_args.push_back(endpoint.data());
  }
  orb_args.push_back(nullptr);

  // Block the stop signals before omniORB starts its threads, so only the waiter below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  int orb_argc = static_cast<int>(orb_args.size()) - 1;
  try {
    CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_args.data());
    const char* poa_name = opts.ins_poa ? "omniINSPOA" : "RootPOA";
    PortableServer::POA_var poa =
        PortableServer::POA::_narrow(orb->resolve_initial_references(poa_name));

    // The POA owns the servants (reference counted): orb->destroy() deletes them.
    std::string lines;
    auto activate = [&](PortableServer::ServantBase* servant, const std::string& id,
                        const std::string& name) {
      CORBA::Object_var object;
      if (opts.ins_poa) {
        PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(id.c_str());
        poa->activate_object_with_id(oid, servant);
        object = poa->id_to_reference(oid);
      } else {
        PortableServer::ObjectId_var oid = poa->activate_object(servant);
        object = poa->id_to_reference(oid);
      }
      servant->_remove_ref();
      CORBA::String_var ior = orb->object_to_string(object);
      lines += name + " " + ior.in() + "\n";
    };
    if (opts.dsi_echo) activate(new test::omni_dsi_echo(orb), "echo", "echo");
    else activate(new echo_servant, "echo", "echo");
    for (unsigned i = 0; i < opts.servants; ++i) {
      activate(new ttcp_servant, "ttcp" + std::to_string(i), "ttcp/" + std::to_string(i));
    }
    PortableServer::POAManager_var manager = poa->the_POAManager();
    manager->activate();
    if (!write_ior_file(opts.ior_file, lines)) {
      std::cerr << "omni_peer_server: cannot write " << opts.ior_file << "\n";
      return 1;
    }

    // Stops the ORB on SIGTERM/SIGINT or when --seconds run out.
    std::thread stopper([&] {
      timespec limit{static_cast<time_t>(opts.seconds), 0};
      int got = opts.seconds ? sigtimedwait(&stop_signals, nullptr, &limit)
                             : sigwaitinfo(&stop_signals, nullptr);
      while (got < 0 && errno == EINTR) {
        got = opts.seconds ? sigtimedwait(&stop_signals, nullptr, &limit)
                           : sigwaitinfo(&stop_signals, nullptr);
      }
      orb->shutdown(false);
    });
    std::cout << "omni_peer_server: serving " << opts.servants << " ttcp servant(s) and echo; "
              << "IORs in " << opts.ior_file << std::endl;
    orb->run();
    stopper.join();
    manager = PortableServer::POAManager::_nil();  // references released before the ORB goes
    poa = PortableServer::POA::_nil();
    orb->destroy();
    std::cout << "omni_peer_server: stopped" << std::endl;
  } catch (const CORBA::SystemException& e) {
    std::cerr << "omni_peer_server: CORBA::" << e._name() << " minor 0x" << std::hex
              << e.minor() << "\n";
    return 1;
  } catch (const CORBA::Exception& e) {
    std::cerr << "omni_peer_server: CORBA::" << e._name() << "\n";
    return 1;
  }
  return 0;
}
