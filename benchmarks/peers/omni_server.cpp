// omni_server: the omniORB server, for sy-bench's `omniorb` series and the interop tests alike
// (see README.md).
//
//   omni_server --ior-file PATH [--servants N] [--host H] [--port P] [--seconds S]
//               [--poa ins|root] [--echo static|dsi] [--socket-queue Q] [--nap] [--verbose]
//               [--ssl DIR [--ssl-key FILE] [--ssl-and-tcp]] [-ORB<option> <value> ...]
//
// Serves one Integrity::Echo servant and N ttcp_sequence servants on H:P (127.0.0.1 and any port
// by default), writes "echo <IOR>", "ttcp/0 <IOR>", ... "ttcp/<N-1> <IOR>" to PATH (a temporary
// file renamed into place, so a reader never sees half of it) and serves until SIGTERM/SIGINT or
// until --seconds run out.
//
// --poa ins (the default) activates the objects in omniORB's INS POA, so their object keys are
// the plain strings "echo", "ttcp0", "ttcp1", ... and corbaloc::127.0.0.1:P/echo reaches them;
// --poa root uses the RootPOA (omniORB's usual transient keys). --echo dsi serves Echo through
// omniORB's DSI (omni_dsi_echo.h) instead of its generated skeleton. --socket-queue Q sets
// SO_RCVBUF and SO_SNDBUF of every connection to Q bytes. The ttcp servants count the calls,
// octets and structs they receive, shown with --verbose when the server stops. Any -ORB option
// goes to omniORB untouched; when one of them is -ORBendPoint, --host and --port are not used.
// --nap adds the load experiment's slow object (load_nap.idl: nap(ms) sleeps in the upcall) as the
// last line, "nap <IOR>" (object id "nap" in the INS POA).
// --ssl DIR listens with omniORB's SSL transport only (endpoint giop:ssl:H:P instead of
// giop:tcp:H:P): CA DIR/ca.pem, certificate and key DIR/omni-server.pem or --ssl-key FILE (one
// PEM file holding both), as scripts/make-tls-certs writes them; clients must present a
// certificate that chains to ca.pem (omni_ssl.h). omniORB then writes port 0 in the IOR's IIOP
// profile and the SSL port in a TAG_SSL_SEC_TRANS component. --ssl-and-tcp listens on both:
// giop:tcp:H:P and giop:ssl:H:0 (any free port). --socket-queue is for TCP only.
// --echo-context ID answers a request's service context of id ID with a reply context of id ID + 1,
// "omniORB saw: " and its octets, through omniORB's interceptor hooks (omni_service_contexts.h).
#include "integrity.hh"
#include "load_nap.hh"
#include "omni_dsi_echo.h"
#include "omni_echo_servant.h"
#include "omni_service_contexts.h"
#include "omni_socket_queue.h"
#include "omni_ssl.h"
#include "ttcp_sequence.hh"

#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace {

// sy-bench load's slow call: sleeps in the upcall, holding whatever thread omniORB gave it.
class nap_servant final : public POA_LoadNap {
 public:
  void nap(CORBA::Long ms) override {
    if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  }
};

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
  std::string host = "127.0.0.1";
  unsigned port = 0;
  unsigned servants = 1;
  unsigned seconds = 0;  // 0: until a signal
  bool ins_poa = true;
  bool dsi_echo = false;
  int socket_queue = 0;  // 0: the system's defaults
  bool nap = false;
  bool verbose = false;
  long echo_context = -1;  // -1: none
  switchyard::bench::omni_ssl_options ssl;
  bool ssl_and_tcp = false;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "omni_server: " << why << "\n"
            << "usage: omni_server --ior-file PATH [--servants N] [--host H] [--port P] [--seconds S]\n"
               "                   [--poa ins|root] [--echo static|dsi] [--socket-queue Q] [--nap] [--verbose]\n"
               "                   [--ssl DIR [--ssl-key FILE] [--ssl-and-tcp]] [--echo-context ID]\n"
               "                   [-ORB<option> <value> ...]\n";
  std::exit(2);
}

unsigned long to_number(const char* text, unsigned long max, const std::string& what) {
  char* end = nullptr;
  errno = 0;
  unsigned long value = std::strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || value > max)
    usage(what + ": '" + text + "' is not a number up to " + std::to_string(max));
  return value;
}

// Splits our own options from the -ORB ones, which go to CORBA::ORB_init untouched.
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
    } else if (arg == "--host") {
      opts.host = value();
    } else if (arg == "--port") {
      opts.port = static_cast<unsigned>(to_number(value(), 65535, "--port"));
    } else if (arg == "--seconds") {
      opts.seconds = static_cast<unsigned>(to_number(value(), 1000000, "--seconds"));
    } else if (arg == "--poa") {
      const std::string poa = value();
      if (poa != "ins" && poa != "root") usage("--poa is ins or root");
      opts.ins_poa = poa == "ins";
    } else if (arg == "--echo") {
      const std::string echo = value();
      if (echo != "static" && echo != "dsi") usage("--echo is static or dsi");
      opts.dsi_echo = echo == "dsi";
    } else if (arg == "--socket-queue") {
      opts.socket_queue = static_cast<int>(to_number(value(), 1 << 30, "--socket-queue"));
      if (opts.socket_queue == 0) usage("--socket-queue must be at least 1");
    } else if (arg == "--nap") {
      opts.nap = true;
    } else if (arg == "--verbose") {
      opts.verbose = true;
    } else if (arg == "--ssl") {
      opts.ssl.dir = value();
    } else if (arg == "--ssl-key") {
      opts.ssl.key_file = value();
    } else if (arg == "--ssl-and-tcp") {
      opts.ssl_and_tcp = true;
    } else if (arg == "--echo-context") {
      opts.echo_context = static_cast<long>(to_number(value(), 0xfffffffe, "--echo-context"));
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (opts.ior_file.empty()) usage("--ior-file is required");
  if (opts.ssl.dir.empty() && (!opts.ssl.key_file.empty() || opts.ssl_and_tcp))
    usage("--ssl-key and --ssl-and-tcp need --ssl DIR");
  if (!opts.ssl.dir.empty() && opts.socket_queue > 0) usage("--socket-queue is for TCP only, not with --ssl");
  if (!opts.ssl.dir.empty()) {
    const std::string why = switchyard::bench::configure_omni_ssl(opts.ssl, "omni-server.pem");
    if (!why.empty()) usage("--ssl: " + why);
  }
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

// Waits for SIGTERM/SIGINT, or until `seconds` pass when not 0.
void wait_for_stop(const sigset_t& stop_signals, unsigned seconds) {
  const timespec limit{static_cast<time_t>(seconds), 0};
  for (;;) {
    const int got = seconds != 0 ? sigtimedwait(&stop_signals, nullptr, &limit) : sigwaitinfo(&stop_signals, nullptr);
    if (got >= 0 || errno != EINTR) return;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> orb_args;
  bool has_endpoint = false;
  options opts = parse(argc, argv, orb_args, has_endpoint);
  std::string endpoint_flag = "-ORBendPoint";
  const bool ssl = !opts.ssl.dir.empty();
  std::string endpoint =
      std::string(ssl && !opts.ssl_and_tcp ? "giop:ssl:" : "giop:tcp:") + opts.host + ":" + std::to_string(opts.port);
  std::string ssl_endpoint = "giop:ssl:" + opts.host + ":0";  // --ssl-and-tcp's second endpoint
  if (!has_endpoint) {
    orb_args.push_back(endpoint_flag.data());
    orb_args.push_back(endpoint.data());
    if (ssl && opts.ssl_and_tcp) {
      orb_args.push_back(endpoint_flag.data());
      orb_args.push_back(ssl_endpoint.data());
    }
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
    if (opts.socket_queue > 0)
      switchyard::bench::set_socket_queue_on_server_connections(opts.socket_queue, opts.verbose);
    if (opts.echo_context >= 0) switchyard::bench::echo_request_context(static_cast<unsigned long>(opts.echo_context));
    PortableServer::POA_var poa =
        PortableServer::POA::_narrow(orb->resolve_initial_references(opts.ins_poa ? "omniINSPOA" : "RootPOA"));

    // The POA owns the servants (reference counted); our pointers are for the counters only.
    std::vector<counting_ttcp_servant*> ttcp_servants;
    std::string lines;
    auto activate = [&](PortableServer::ServantBase* servant, const std::string& id, const std::string& name) {
      PortableServer::ObjectId_var oid;
      if (opts.ins_poa) {
        oid = PortableServer::string_to_ObjectId(id.c_str());
        poa->activate_object_with_id(oid, servant);
      } else {
        oid = poa->activate_object(servant);
      }
      CORBA::Object_var object = poa->id_to_reference(oid);
      CORBA::String_var ior = orb->object_to_string(object);
      lines += name + " " + ior.in() + "\n";
    };
    PortableServer::ServantBase* echo = opts.dsi_echo
                                            ? static_cast<PortableServer::ServantBase*>(new test::omni_dsi_echo(orb))
                                            : new switchyard::bench::omni_echo_servant;
    activate(echo, "echo", "echo");
    echo->_remove_ref();
    for (unsigned i = 0; i < opts.servants; ++i) {
      auto* servant = new counting_ttcp_servant;
      activate(servant, "ttcp" + std::to_string(i), "ttcp/" + std::to_string(i));
      ttcp_servants.push_back(servant);  // released after the ORB stops, when the counts are read
    }
    if (opts.nap) {
      auto* nap = new nap_servant;
      activate(nap, "nap", "nap");
      nap->_remove_ref();
    }
    PortableServer::POAManager_var manager = poa->the_POAManager();
    manager->activate();
    if (!write_whole_file(opts.ior_file, lines)) {
      std::cerr << "omni_server: cannot write " << opts.ior_file << "\n";
      for (auto* servant : ttcp_servants) servant->_remove_ref();
      orb->destroy();
      return 1;
    }

    // The stopper is joined however run() ends: a joinable std::thread destroyed while an
    // exception unwinds would abort the process ("terminate called without an active exception")
    // and hide the exception. shutdown() may find the ORB already down.
    std::thread stopper([&] {
      wait_for_stop(stop_signals, opts.seconds);
      try {
        orb->shutdown(false);
      } catch (const CORBA::Exception&) {
      }
    });
    if (opts.verbose)
      std::cerr << "omni_server: serving echo and " << opts.servants << " ttcp servant(s); IORs in " << opts.ior_file
                << std::endl;
    try {
      orb->run();
    } catch (...) {
      ::kill(::getpid(), SIGTERM);  // blocked in every thread but the stopper's wait: it returns
      stopper.join();
      throw;
    }
    stopper.join();
    if (opts.verbose) {
      for (unsigned i = 0; i < ttcp_servants.size(); ++i)
        std::cerr << "omni_server: ttcp/" << i << " calls " << ttcp_servants[i]->calls() << " octets "
                  << ttcp_servants[i]->octets() << " structs " << ttcp_servants[i]->structs() << "\n";
    }
    for (auto* servant : ttcp_servants) servant->_remove_ref();
    manager = PortableServer::POAManager::_nil();  // references released before the ORB goes
    poa = PortableServer::POA::_nil();
    orb->destroy();
    if (opts.verbose) std::cerr << "omni_server: stopped" << std::endl;
  } catch (const CORBA::SystemException& e) {
    std::cerr << "omni_server: CORBA::" << e._name() << " minor 0x" << std::hex << e.minor() << std::dec << " ("
              << (e.NP_minorString() ? e.NP_minorString() : "") << ")\n";
    return 1;
  } catch (const CORBA::Exception& e) {
    std::cerr << "omni_server: CORBA::" << e._name() << "\n";
    return 1;
  }
  return 0;
}
