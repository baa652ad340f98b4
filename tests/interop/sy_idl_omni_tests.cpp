// IDL constructs against omniORB, both ways, at GIOP 1.0, 1.1 and 1.2: fixed-point types
// (tests/idl_compiler/backend/fixed_point.idl) and contexts (contexts.idl). Our generated stubs
// call omniORB's Ledger and Probe (omni_idl_peer server) with the checks of ledger_calls.h and
// probe_calls.h, and omniORB's client (omni_idl_peer client) calls ours and checks every answer
// itself; so does omniORBpy 4.3's (omnipy_idl_client.py, when OMNIPY_PYTHON names a Python that
// has it). The peers are started and stopped by the test; every wait is bounded.
#include "contexts.h"
#include "fixed_point.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "switchyard/orb.h"
#include "tests/core/orb_fixture.h"
#include "tests/idl_compiler/backend/ledger_calls.h"
#include "tests/idl_compiler/backend/probe_calls.h"
#include "tests/interop/omni_server_process.h"

extern char** environ;

using namespace switchyard;

namespace {

std::string peer_program() {
  const char* p = std::getenv("OMNI_IDL_PEER");
  return p ? p : "";
}

// Runs `args` with its output in `log`; its exit status, or -1 when it ran past 60 s (killed).
int run_bounded(std::vector<std::string> args, const std::filesystem::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  for (int i = 0; i < 3000; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

struct client_run {
  int status;
  std::string output;
};

// Our Ledger and Probe served at GIOP `giop`; `client` (a command) run against them with
// "--ledger IOR --probe IOR -ORBmaxGIOPVersion giop" appended.
client_run run_client_against_ours(std::vector<std::string> client, const std::string& giop) {
  ::test::serving_orb server;
  auto& adapter = server.orb->root_adapter();
  const std::string ledger = server.orb->object_to_string(adapter.activate(std::make_shared<::test::ledger_servant>()));
  const std::string probe = server.orb->object_to_string(adapter.activate(std::make_shared<::test::probe_servant>()));
  server.start();
  client.insert(client.end(), {"--ledger", ledger, "--probe", probe, "-ORBmaxGIOPVersion", giop});
  const auto log = std::filesystem::temp_directory_path() / ("sy_idl_omni_" + std::to_string(::getpid()) + ".log");
  const int status = run_bounded(std::move(client), log);
  std::stringstream output;
  output << std::ifstream(log).rdbuf();
  std::filesystem::remove(log);
  return {status, output.str()};
}

}  // namespace

TEST_CASE("fixed-point values and contexts to omniORB's servants", "[interop][fixed][contexts]") {
  if (peer_program().empty()) {
    WARN("OMNI_IDL_PEER is not set: omniORB's IDL peer was not built");
    return;
  }
  const std::string giop = GENERATE(as<std::string>{}, "1.0", "1.1", "1.2");
  CAPTURE(giop);
  ::test::omni_server peer(peer_program(), 1, {"server"});
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto ledger = FixedPoint::Ledger::_narrow(client->string_to_object(peer.ior("echo")));
  REQUIRE_FALSE(ledger._is_nil());
  ::test::check_ledger_calls(ledger, false);  // omniORB 4.2 cannot send a union holding a fixed
  auto probe = Contexts::Probe::_narrow(client->string_to_object(peer.ior("probe")));
  REQUIRE_FALSE(probe._is_nil());
  ::test::check_probe_calls(probe);
  CHECK(peer.stop() == 0);
}

TEST_CASE("omniORB's client sends our servants fixed-point values and contexts", "[interop][fixed][contexts]") {
  if (peer_program().empty()) {
    WARN("OMNI_IDL_PEER is not set: omniORB's IDL peer was not built");
    return;
  }
  const std::string giop = GENERATE(as<std::string>{}, "1.0", "1.1", "1.2");
  CAPTURE(giop);
  const client_run run = run_client_against_ours({peer_program(), "client"}, giop);
  INFO(run.output);
  CHECK(run.status == 0);
  CHECK(run.output.find("FAIL") == std::string::npos);
  CHECK(run.output.find("ok attribute limit") != std::string::npos);           // the Ledger's last check ran
  CHECK(run.output.find("ok a one-way call's context") != std::string::npos);  // and the Probe's
}

TEST_CASE("omniORBpy's client sends our servants fixed-point values and contexts", "[interop][fixed][contexts]") {
  const char* python = std::getenv("OMNIPY_PYTHON");
  const char* client = std::getenv("OMNIPY_IDL_CLIENT");
  const char* idl_dir = std::getenv("OMNIPY_IDL_DIR");
  if (python == nullptr || client == nullptr || idl_dir == nullptr || !std::filesystem::exists(python)) {
    WARN("no omniORBpy: OMNIPY_PYTHON is unset or missing (scripts/install-deps makes build/omnipy-venv)");
    return;
  }
  const std::string giop = GENERATE(as<std::string>{}, "1.0", "1.1", "1.2");
  CAPTURE(giop);
  const client_run run = run_client_against_ours({python, client, "--idl-dir", idl_dir}, giop);
  INFO(run.output);
  CHECK(run.status == 0);
  CHECK(run.output.find("omnipy_idl_client: all passed") != std::string::npos);
}
