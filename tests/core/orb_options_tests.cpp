// -ORB options: consumed and validated, the rest left in place.
#include "orb/core/orb_options.h"

#include <catch2/catch.hpp>

#include "switchyard/exception.h"

using namespace switchyard;
using switchyard::core::parse_orb_options;

TEST_CASE("without -ORB options: active demultiplexing, reactive, GIOP 1.2", "[options]") {
  int argc = 1;
  char name[] = "prog";
  char* argv[] = {name, nullptr};
  auto options = parse_orb_options(argc, argv);
  CHECK(argc == 1);
  CHECK(options.servant_demux == demux_strategy::active);
  CHECK(options.operation_demux == demux_strategy::active);
  CHECK(options.giop_minor == 2);
  CHECK(options.server_threads == 0);
  CHECK(options.collocation == switchyard::core::collocation_mode::thru_adapter);
}

TEST_CASE("known -ORB options are consumed and the rest kept in order", "[options]") {
  std::vector<std::string> storage{"prog",
                                   "--out",
                                   "x",
                                   "-ORBServantDemux",
                                   "linear",
                                   "2",
                                   "-ORBThreads",
                                   "2",
                                   "-ORBInstrument",
                                   "-ORBInitRef",
                                   "NameService=corbaloc::127.0.0.1:2809/NameService",
                                   "last"};
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(storage.size());
  auto options = parse_orb_options(argc, argv.data());
  REQUIRE(argc == 5);
  CHECK(std::string(argv[0]) == "prog");
  CHECK(std::string(argv[1]) == "--out");
  CHECK(std::string(argv[2]) == "x");
  CHECK(std::string(argv[3]) == "2");  // not the value of -ORBThreads: a plain argument
  CHECK(std::string(argv[4]) == "last");
  CHECK(argv[5] == nullptr);
  CHECK(options.servant_demux == demux_strategy::linear);
  CHECK(options.server_threads == 2);
  CHECK(options.instrument);
  REQUIRE(options.initial_references.size() == 1);
  CHECK(options.initial_references[0].first == "NameService");
}

TEST_CASE("every option parses its value", "[options]") {
  std::vector<std::string> args{"-ORBListenEndpoints",   "iiop://127.0.0.1:0;uiop:///tmp/x",
                                "-ORBOperationDemux",    "active",
                                "-ORBSendBufferSize",    "65536",
                                "-ORBRecvBufferSize",    "8192",
                                "-ORBCallTimeout",       "250",
                                "-ORBConnectTimeout",    "100",
                                "-ORBConcurrency",       "reactive",
                                "-ORBGIOPVersion",       "1.0",
                                "-ORBMaxMessageSize",    "100000",
                                "-ORBDefaultInitRef",    "corbaloc::h:1",
                                "-ORBInstrument",        "0",
                                "-ORBInstrumentFile",    "/tmp/probes.csv",
                                "-ORBDedicatedThreads",  "3",
                                "-ORBEventLoops",        "2",
                                "-ORBMaxConnections",    "50",
                                "-ORBMaxBufferedBytes",  "1048576",
                                "-ORBMaxQueuedRequests", "10",
                                "-ORBSendTimeout",       "1500",
                                "-ORBIdleTimeout",       "0",
                                "-ORBMessageTimeout",    "700",
                                "-ORBCollocation",       "none"};
  auto options = parse_orb_options(args);
  CHECK(args.empty());
  CHECK(options.listen_endpoints == std::vector<std::string>{"iiop://127.0.0.1:0", "uiop:///tmp/x"});
  CHECK(options.operation_demux == demux_strategy::active);
  CHECK(options.transport.send_buffer_size == 65536);
  CHECK(options.transport.recv_buffer_size == 8192);
  CHECK(options.call_timeout == std::chrono::milliseconds(250));
  CHECK(options.transport.connect_timeout == std::chrono::milliseconds(100));
  CHECK(options.concurrency == switchyard::core::concurrency_model::reactive);
  CHECK(options.dedicated_threads == 3);
  CHECK(options.event_loops == 2);
  CHECK(options.limits.max_connections == 50);
  CHECK(options.limits.max_buffered_bytes == 1048576);
  CHECK(options.limits.max_queued_requests == 10);
  CHECK(options.limits.send_timeout == std::chrono::milliseconds(1500));
  CHECK(options.limits.idle_timeout == std::chrono::milliseconds(0));
  CHECK(options.limits.message_timeout == std::chrono::milliseconds(700));
  CHECK(options.giop_minor == 0);
  CHECK(options.max_message_size == 100000);
  CHECK(options.default_initial_reference == "corbaloc::h:1");
  CHECK_FALSE(options.instrument);
  CHECK(options.instrument_file == "/tmp/probes.csv");
  CHECK(options.collocation == switchyard::core::collocation_mode::none);
}

namespace {
std::string bad_option_message(std::vector<std::string> args) {
  try {
    parse_orb_options(args);
  } catch (const SystemException& e) {
    REQUIRE(e.kind() == SystemExceptionKind::BAD_PARAM);
    REQUIRE(e.minor() == minor::bad_option);
    return e.what();
  }
  FAIL("no BAD_PARAM");
  return {};
}
}  // namespace

TEST_CASE("an unknown or malformed -ORB option is an error that names it", "[options][errors]") {
  CHECK_THAT(bad_option_message({"-ORBFrobnicate", "1"}), Catch::Contains("-ORBFrobnicate: unknown -ORB option"));
  CHECK_THAT(bad_option_message({"-ORBServantDemux", "quick"}),
             Catch::Contains(
                 "-ORBServantDemux: expected linear, binary, dynamic, perfect, perfect-fast or active, got 'quick'"));
  CHECK_THAT(bad_option_message({"-ORBThreads", "many"}), Catch::Contains("-ORBThreads: expected a whole number"));
  CHECK_THAT(bad_option_message({"-ORBThreads"}), Catch::Contains("-ORBThreads: needs a value"));
  CHECK_THAT(bad_option_message({"-ORBCallTimeout", "-ORBThreads"}), Catch::Contains("needs a value"));
  CHECK_THAT(bad_option_message({"-ORBInitRef", "NoEquals"}), Catch::Contains("expected Name=URL"));
  CHECK_THAT(bad_option_message({"-ORBGIOPVersion", "1.3"}), Catch::Contains("expected 1.0, 1.1 or 1.2"));
  CHECK_THAT(bad_option_message({"-ORBReactor", "select"}), Catch::Contains("-ORBReactor: unknown -ORB option"));
  CHECK_THAT(bad_option_message({"-ORBConcurrency", "fibers"}),
             Catch::Contains("expected adaptive, reactive or thread-per-connection"));
  CHECK_THAT(bad_option_message({"-ORBMaxBufferedBytes", "10"}), Catch::Contains("from 65536"));
  CHECK_THAT(bad_option_message({"-ORBSendTimeout", "0"}), Catch::Contains("from 1 to"));
  CHECK_THAT(bad_option_message({"-ORBCollocation", "thru_poa"}),
             Catch::Contains("-ORBCollocation: expected thru-adapter, direct or none, got 'thru_poa'"));
}

TEST_CASE("a failed parse leaves argv untouched", "[options][errors]") {
  std::vector<std::string> storage{"prog", "a", "-ORBThreads", "2", "-ORBNope"};
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  int argc = 5;
  CHECK_THROWS_AS(parse_orb_options(argc, argv.data()), SystemException);
  CHECK(argc == 5);
  CHECK(std::string(argv[2]) == "-ORBThreads");
}
