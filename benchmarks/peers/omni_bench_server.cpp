// omni_bench_server: omniORB's server for sy-bench's `omniorb` series (see README.md).
//
//   omni_bench_server --ior-file PATH [--servants N] [--port P] [--socket-queue Q] [--verbose]
//                     [-ORB<option> <value> ...]
//
// Serves one Integrity::Echo servant and N ttcp_sequence servants on 127.0.0.1:P (P = 0: any
// port), writes "echo <IOR>", "ttcp/0 <IOR>", ... "ttcp/<N-1> <IOR>" to PATH (a temporary file
// renamed into place, so a reader never sees half of it) and serves until SIGTERM or SIGINT.
// The ttcp servants count the calls, octets and structs they receive (shown with --verbose when
// the server stops). --socket-queue Q sets SO_RCVBUF and SO_SNDBUF of every connection to Q bytes.
#include "omni_echo_servant.h"
#include "omni_socket_queue.h"
#include "ttcp_sequence.hh"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using switchyard::bench::omni_echo_servant;

// Counts what arrives; the operations do nothing else, as in the papers' TTCP receivers.
class counting_ttcp_servant final : public POA_ttcp_sequence {
 public:
  void sendStructSeq_2way(const ttcp_sequence::StructSeq& seq) override {
    calls_.fetch_add(1, std::memory_order_relaxed);
    structs_.fetch_add(seq.length(), std::memory_order_relaxed);
  }
  void sendOctetSeq_2way(const ttcp_sequence::OctetSeq& seq) override {
    calls_.fetch_add(1, std::memory_order_relaxed);
    octets_.fetch_add(seq.length(), std::memory_order_relaxed);
  }
  void sendNoParams_2way() override { calls_.fetch_add(1, std::memory_order_relaxed); }
  void sendNoParams_1way() override { calls_.fetch_add(1, std::memory_order_relaxed); }

  unsigned long long calls() const { return calls_.load(); }
  unsigned long long octets() const { return octets_.load(); }
  unsigned long long structs() const { return structs_.load(); }

 private:
  std::atomic<unsigned long long> calls_{0};
  std::atomic<unsigned long long> octets_{0};
  std::atomic<unsigned long long> structs_{0};
};

struct options {
  std::string ior_file;
  unsigned servants = 1;
  unsigned port = 0;
  int socket_queue = 0;  // 0: the system's defaults
  bool verbose = false;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "omni_bench_server: " << why << "\n"
            << "usage: omni_bench_server --ior-file PATH [--servants N] [--port P]"
               " [--socket-queue Q] [--verbose] [-ORB<option> <value> ...]\n";
  std::exit(2);
}

unsigned long to_number(const char* text, unsigned long max, const std::string& what) {
  char* end = nullptr;
  errno = 0;
  unsigned long value = std::strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || value > max) {
    usage(what + ": '" + text + "' is not a number up to " + std::to_string(max));
  }
  return value;
}

// Splits our options from the -ORB ones, which go to CORBA::ORB_init untouched.
options parse(int argc, char** argv, std::vector<char*>& orb_args, bool& has_endpoint) {
  options opts;
  orb_args.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg.rfind("-ORB", 0) == 0) {
      if (arg == "-ORBendPoint" || arg == "-ORBendpoint") has_endpoint = true;
      orb_args.push_back(argv[i]);
      orb_args.push_back(const_cast<char*>(value()));
    } else if (arg == "--ior-file") {
      opts.ior_file = value();
    } else if (arg == "--servants") {
      opts.servants = static_cast<unsigned>(to_number(value(), 100000, "--servants"));
      if (opts.servants == 0) usage("--servants must be at least 1");
    } else if (arg == "--port") {
      opts.port = static_cast<unsigned>(to_number(value(), 65535, "--port"));
    } else if (arg == "--socket-queue") {
      opts.socket_queue = static_cast<int>(to_number(value(), 1 << 30, "--socket-queue"));
      if (opts.socket_queue == 0) usage("--socket-queue must be at least 1");
    } else if (arg == "--verbose") {
      opts.verbose = true;
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (opts.ior_file.empty()) usage("--ior-file is required");
  return opts;
}

bool write_whole_file(const std::string& path, const std::string& text) {
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
  std::string endpoint_flag = "-ORBendPoint";
  std::string endpoint = "giop:tcp:127.0.0.1:" + std::to_string(opts.port);
  if (!has_endpoint) {
    orb_args.push_back(endpoint_flag.data());
    orb_args.push_back(endpoint.data());
  }
  if (opts.socket_queue > 0) switchyard::bench::add_send_buffer_option(orb_args, opts.socket_queue);
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
    if (opts.socket_queue > 0) {
      switchyard::bench::set_socket_queue_on_server_connections(opts.socket_queue, opts.verbose);
    }
    // The INS POA gives readable object keys ("echo", "ttcp0", ...) that corbaloc: URLs reach.
    PortableServer::POA_var poa =
        PortableServer::POA::_narrow(orb->resolve_initial_references("omniINSPOA"));

    // The POA owns the servants (reference counted); our pointers are for the counters only.
    std::vector<counting_ttcp_servant*> ttcp_servants;
    std::string lines;
    auto activate = [&](PortableServer::ServantBase* servant, const std::string& id,
                        const std::string& name) {
      PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(id.c_str());
      poa->activate_object_with_id(oid, servant);
      CORBA::Object_var object = poa->id_to_reference(oid);
      CORBA::String_var ior = orb->object_to_string(object);
      lines += name + " " + ior.in() + "\n";
    };
    auto* echo = new omni_echo_servant;
    activate(echo, "echo", "echo");
    echo->_remove_ref();
    for (unsigned i = 0; i < opts.servants; ++i) {
      auto* servant = new counting_ttcp_servant;
      activate(servant, "ttcp" + std::to_string(i), "ttcp/" + std::to_string(i));
      ttcp_servants.push_back(servant);  // its POA reference keeps it alive until destroy
    }
    PortableServer::POAManager_var manager = poa->the_POAManager();
    manager->activate();
    if (!write_whole_file(opts.ior_file, lines)) {
      std::cerr << "omni_bench_server: cannot write " << opts.ior_file << "\n";
      orb->destroy();
      return 1;
    }

    std::thread stopper([&] {
      while (sigwaitinfo(&stop_signals, nullptr) < 0 && errno == EINTR) {
      }
      orb->shutdown(false);
    });
    if (opts.verbose) {
      std::cerr << "omni_bench_server: serving echo and " << opts.servants
                << " ttcp servant(s); IORs in " << opts.ior_file << std::endl;
    }
    orb->run();
    stopper.join();
    if (opts.verbose) {
      for (unsigned i = 0; i < ttcp_servants.size(); ++i) {
        std::cerr << "omni_bench_server: ttcp/" << i << " calls " << ttcp_servants[i]->calls()
                  << " octets " << ttcp_servants[i]->octets() << " structs "
                  << ttcp_servants[i]->structs() << "\n";
      }
    }
    for (auto* servant : ttcp_servants) servant->_remove_ref();
    manager = PortableServer::POAManager::_nil();  // references released before the ORB goes
    poa = PortableServer::POA::_nil();
    orb->destroy();
    if (opts.verbose) std::cerr << "omni_bench_server: stopped" << std::endl;
  } catch (const CORBA::SystemException& e) {
    std::cerr << "omni_bench_server: CORBA::" << e._name() << " minor 0x" << std::hex
              << e.minor() << std::dec << " (" << (e.NP_minorString() ? e.NP_minorString() : "")
              << ")\n";
    return 1;
  } catch (const CORBA::Exception& e) {
    std::cerr << "omni_bench_server: CORBA::" << e._name() << "\n";
    return 1;
  }
  return 0;
}
