// CosNaming through our ORB against omniORB's naming service. Each test case starts its own
// omniNames ($OMNINAMES, set by meson.build) on a free loopback port with a fresh data directory,
// waits (bounded) for it to listen, and stops it at the end, also when the case fails; omniNames
// is killed with this process if the test dies (PR_SET_PDEATHSIG). Our ORB finds it through
// -ORBInitRef NameService=corbaloc::127.0.0.1:PORT/NameService and serves the objects it binds.
#include "CosNaming.h"

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "references.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "tests/naming/serving_orb.h"

using namespace switchyard;
using CosNaming::Name;
using CosNaming::NamingContext;
using CosNaming::NamingContextExt;
using naming_test::serving_orb;

namespace {

// A port nothing listens on now (the kernel's choice), never 2809.
std::uint16_t free_loopback_port() {
  for (int attempt = 0; attempt < 10; ++attempt) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) break;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    std::uint16_t port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
      port = ntohs(address.sin_port);
    ::close(fd);
    if (port != 0 && port != 2809) return port;
  }
  throw std::runtime_error("no free loopback port");
}

bool accepts_connections(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

// omniNames on 127.0.0.1:port with its own data directory, from construction to destruction.
class omni_names {
 public:
  // Empty when $OMNINAMES is unset or not executable (the caller skips).
  static std::optional<std::string> find() {
    const char* path = std::getenv("OMNINAMES");
    if (path == nullptr || *path == '\0' || ::access(path, X_OK) != 0) return std::nullopt;
    return std::string(path);
  }

  explicit omni_names(const std::string& program) {
    char pattern[] = "/tmp/sy-naming-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    data_dir_ = pattern;
    // A port can be taken between choosing and binding it: a few tries, each bounded.
    for (int attempt = 0; attempt < 3 && pid_ <= 0; ++attempt) {
      port_ = free_loopback_port();
      start(program);
      if (!wait_until_listening(std::chrono::seconds(10))) stop();
    }
    if (pid_ <= 0) {
      std::string log = output();
      std::filesystem::remove_all(data_dir_);
      throw std::runtime_error("omniNames did not start listening:\n" + log);
    }
  }
  ~omni_names() {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(data_dir_, ignored);
  }
  omni_names(const omni_names&) = delete;
  omni_names& operator=(const omni_names&) = delete;

  std::uint16_t port() const noexcept { return port_; }
  std::string init_ref() const { return "NameService=corbaloc::127.0.0.1:" + std::to_string(port_) + "/NameService"; }
  std::string output() const {
    std::ifstream in(data_dir_ + "/output.txt");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  void start(const std::string& program) {
    const std::string port = std::to_string(port_);
    std::vector<std::string> args = {program,    "-start",  port,           "-always",
                                     "-datadir", data_dir_, "-ORBendPoint", "giop:tcp:127.0.0.1:" + port};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string log = data_dir_ + "/output.txt";
    int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (out < 0) throw std::runtime_error("cannot open " + log);
    const pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid == 0) {
      // Only async-signal-safe calls until exec.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      ::dup2(out, STDOUT_FILENO);
      ::dup2(out, STDERR_FILENO);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(out);
    if (pid < 0) throw std::runtime_error("fork failed");
    pid_ = pid;
  }

  bool wait_until_listening(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {  // it exited (port taken, bad option)
        pid_ = 0;
        return false;
      }
      if (accepts_connections(port_)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  void stop() noexcept {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {  // 5 s, then SIGKILL
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = 0;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = 0;
  }

  std::string data_dir_;
  std::uint16_t port_ = 0;
  pid_t pid_ = 0;
};

struct greeter final : refs::Greeter_skeleton {
  explicit greeter(std::string n) : name(std::move(n)) {}
  std::string name;
  std::atomic<int> count{0};
  std::string greet(const std::string& who) override {
    ++count;
    return name + " greets " + who;
  }
  std::int32_t calls() override { return count; }
};

Name name_of(std::initializer_list<std::pair<const char*, const char*>> components) {
  Name n;
  for (auto [id, kind] : components) n.push_back({id, kind});
  return n;
}

// Everything a test case needs: omniNames, our ORB serving, its root context.
struct naming_fixture {
  explicit naming_fixture(const std::string& program) : names(program), ours({"-ORBInitRef", names.init_ref()}) {
    object_ref root_object = ours.orb->resolve_initial_references("NameService");
    REQUIRE_FALSE(root_object.is_nil());
    // omniNames listens a moment before its root context is active (OBJECT_NOT_EXIST until
    // then): a LocateRequest says when it is there. Bounded: 10 s.
    bool here = false;
    for (int attempt = 0; attempt < 200 && !here; ++attempt) {
      try {
        here = root_object.locate();
      } catch (const SystemException&) {
      }
      if (!here) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    REQUIRE(here);
    root = NamingContextExt::_narrow(root_object);
    REQUIRE_FALSE(root._is_nil());
  }
  refs::Greeter serve(const std::string& name) {
    auto servant = std::make_shared<greeter>(name);
    servants.push_back(servant);
    return refs::Greeter(ours.orb->root_adapter().activate(servant));
  }

  omni_names names;
  serving_orb ours;
  NamingContextExt root;
  std::vector<std::shared_ptr<greeter>> servants;
};

// The names in `list`, as "id.kind", sorted.
std::vector<std::string> names_in(const CosNaming::BindingList& list) {
  std::vector<std::string> out;
  for (const auto& b : list) {
    std::string text;
    for (const auto& c : b.binding_name) text += (text.empty() ? "" : "/") + c.id + "." + c.kind;
    out.push_back(text);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Declares `program`, the path of omniNames, or warns and leaves the test case.
#define OMNINAMES_OR_SKIP()                                                         \
  const auto found_omninames = omni_names::find();                                  \
  if (!found_omninames) {                                                           \
    WARN("omniNames not installed ($OMNINAMES unset or not executable): skipping"); \
    return;                                                                         \
  }                                                                                 \
  const std::string& program = *found_omninames

}  // namespace

TEST_CASE("the NameService initial reference reaches omniNames and narrows", "[naming]") {
  OMNINAMES_OR_SKIP();
  naming_fixture f(program);
  // A corbaloc: reference carries no type id; the object itself says what it is.
  CHECK(f.root._reference().is_a(NamingContextExt::_repository_id));
  CHECK(f.root._reference().is_a(NamingContext::_repository_id));
  CHECK_FALSE(f.root._reference().is_a(refs::Greeter::_repository_id));
  NamingContext plain = NamingContext::_narrow(f.root._reference());
  CHECK_FALSE(plain._is_nil());
  // An object that is not a naming context narrows to nil.
  auto g = f.serve("ann");
  CHECK(NamingContext::_narrow(g._reference())._is_nil());
}

TEST_CASE("bind one of our objects, resolve it and call through the resolved reference", "[naming]") {
  OMNINAMES_OR_SKIP();
  naming_fixture f(program);
  auto g = f.serve("ann");
  const Name name = name_of({{"greeter", "service"}});
  f.root.bind(name, g._reference());

  object_ref resolved = f.root.resolve(name);
  REQUIRE_FALSE(resolved.is_nil());
  CHECK(resolved.is_equivalent(g._reference()));
  CHECK(resolved.repository_id() == refs::Greeter::_repository_id);
  refs::Greeter through = refs::Greeter::_narrow(resolved);
  REQUIRE_FALSE(through._is_nil());
  CHECK(through.greet("bob") == "ann greets bob");
  CHECK(f.servants[0]->count == 1);

  // NamingContextExt: string names.
  CHECK(f.root.to_string(name) == "greeter.service");
  CHECK(f.root.to_name("a.b/c") == name_of({{"a", "b"}, {"c", ""}}));
  CHECK(refs::Greeter(f.root.resolve_str("greeter.service")).greet("str") == "ann greets str");
  CHECK(f.root.to_url(":127.0.0.1:" + std::to_string(f.names.port()), "greeter.service") ==
        "corbaname::127.0.0.1:" + std::to_string(f.names.port()) + "#greeter.service");
}

TEST_CASE("bind_new_context, nested names, new_context and bind_context", "[naming]") {
  OMNINAMES_OR_SKIP();
  naming_fixture f(program);
  NamingContext apps = f.root.bind_new_context(name_of({{"apps", ""}}));
  REQUIRE_FALSE(apps._is_nil());

  auto g = f.serve("nested");
  f.root.bind(name_of({{"apps", ""}, {"g1", "obj"}}), g._reference());  // a compound name from the root
  CHECK(refs::Greeter(apps.resolve(name_of({{"g1", "obj"}}))).greet("x") == "nested greets x");
  CHECK(refs::Greeter(f.root.resolve_str("apps/g1.obj")).greet("y") == "nested greets y");

  // The context itself resolves to a naming context.
  NamingContext again = NamingContext::_narrow(f.root.resolve(name_of({{"apps", ""}})));
  REQUIRE_FALSE(again._is_nil());
  CHECK(again._reference().is_equivalent(apps._reference()));

  // A context made apart, then bound (and rebound) under a name.
  NamingContext detached = f.root.new_context();
  REQUIRE_FALSE(detached._is_nil());
  detached.bind(name_of({{"inner", ""}}), g._reference());
  apps.bind_context(name_of({{"more", ""}}), detached);
  CHECK(refs::Greeter(f.root.resolve_str("apps/more/inner")).greet("z") == "nested greets z");
  NamingContext other = f.root.new_context();
  apps.rebind_context(name_of({{"more", ""}}), other);
  CHECK(NamingContext::_narrow(apps.resolve(name_of({{"more", ""}})))._reference().is_equivalent(other._reference()));
  other.destroy();
  detached.unbind(name_of({{"inner", ""}}));
  detached.destroy();
}

TEST_CASE("list with a small how_many, the rest through the BindingIterator", "[naming]") {
  OMNINAMES_OR_SKIP();
  naming_fixture f(program);
  NamingContext dir = f.root.bind_new_context(name_of({{"dir", ""}}));
  auto g = f.serve("listed");
  std::vector<std::string> expected;
  for (int i = 0; i < 7; ++i) {
    const std::string id = "obj" + std::to_string(i);
    dir.bind(Name{CosNaming::NameComponent{id, "k"}}, g._reference());
    expected.push_back(id + ".k");
  }
  dir.bind_new_context(name_of({{"sub", "ctx"}}));
  expected.push_back("sub.ctx");
  std::sort(expected.begin(), expected.end());

  CosNaming::BindingList first;
  CosNaming::BindingIterator rest;
  dir.list(3, first, rest);
  REQUIRE(first.size() == 3);
  REQUIRE_FALSE(rest._is_nil());

  CosNaming::BindingList all = first;
  CosNaming::Binding one;
  REQUIRE(rest.next_one(one));
  all.push_back(one);
  for (int round = 0; round < 10; ++round) {  // 4 left, 2 at a time: two rounds, then false
    CosNaming::BindingList more;
    if (!rest.next_n(2, more)) {
      CHECK(more.empty());
      break;
    }
    CHECK(more.size() <= 2);
    all.insert(all.end(), more.begin(), more.end());
  }
  CHECK_FALSE(rest.next_one(one));
  rest.destroy();

  CHECK(names_in(all) == expected);
  for (const auto& b : all)
    CHECK(b.binding_type ==
          (b.binding_name[0].id == "sub" ? CosNaming::BindingType::ncontext : CosNaming::BindingType::nobject));

  // All at once: no bindings remain, so the iterator is nil (CosNaming, list).
  CosNaming::BindingList whole;
  CosNaming::BindingIterator none;
  dir.list(100, whole, none);
  CHECK(names_in(whole) == expected);
  CHECK(none._is_nil());
}

TEST_CASE("rebind replaces a binding, unbind removes it", "[naming]") {
  OMNINAMES_OR_SKIP();
  naming_fixture f(program);
  auto first = f.serve("first");
  auto second = f.serve("second");
  const Name name = name_of({{"slot", ""}});
  f.root.bind(name, first._reference());
  CHECK(refs::Greeter(f.root.resolve(name)).greet("a") == "first greets a");
  f.root.rebind(name, second._reference());
  CHECK(refs::Greeter(f.root.resolve(name)).greet("b") == "second greets b");
  f.root.rebind(name_of({{"fresh", ""}}), first._reference());  // rebind of a new name binds it
  CHECK(refs::Greeter(f.root.resolve_str("fresh")).greet("c") == "first greets c");

  f.root.unbind(name);
  CHECK_THROWS_AS(f.root.resolve(name), NamingContext::NotFound);
  CHECK_THROWS_AS(f.root.unbind(name), NamingContext::NotFound);
}

TEST_CASE("NotFound, AlreadyBound, InvalidName and NotEmpty with their members", "[naming][errors]") {
  OMNINAMES_OR_SKIP();
  naming_fixture f(program);
  auto g = f.serve("ann");
  const Name name = name_of({{"taken", "k"}});
  f.root.bind(name, g._reference());

  SECTION("NotFound on a missing name: missing_node, the rest of the name") {
    const Name missing = name_of({{"nowhere", "x"}, {"deeper", ""}});
    try {
      f.root.resolve(missing);
      FAIL("no NotFound");
    } catch (const NamingContext::NotFound& e) {
      CHECK(e.why == NamingContext::NotFoundReason::missing_node);
      CHECK(e.rest_of_name == missing);
    }
  }
  SECTION("NotFound through an object that is not a context: not_context") {
    const Name through = name_of({{"taken", "k"}, {"child", ""}});
    try {
      f.root.resolve(through);
      FAIL("no NotFound");
    } catch (const NamingContext::NotFound& e) {
      CHECK(e.why == NamingContext::NotFoundReason::not_context);
      REQUIRE_FALSE(e.rest_of_name.empty());
      CHECK(e.rest_of_name.front() == name.front());
    }
  }
  SECTION("AlreadyBound on a second bind, of an object or a context") {
    CHECK_THROWS_AS(f.root.bind(name, g._reference()), NamingContext::AlreadyBound);
    CHECK_THROWS_AS(f.root.bind_new_context(name), NamingContext::AlreadyBound);
    // The first binding is untouched.
    CHECK(refs::Greeter(f.root.resolve(name)).greet("still") == "ann greets still");
  }
  SECTION("InvalidName for an empty name, or an empty string name") {
    CHECK_THROWS_AS(f.root.resolve(Name{}), NamingContext::InvalidName);
    CHECK_THROWS_AS(f.root.bind(Name{}, g._reference()), NamingContext::InvalidName);
    CHECK_THROWS_AS(f.root.to_name(""), NamingContext::InvalidName);
  }
  SECTION("NotEmpty when destroying a context that still has bindings") {
    NamingContext full = f.root.bind_new_context(name_of({{"full", ""}}));
    full.bind(name_of({{"x", ""}}), g._reference());
    CHECK_THROWS_AS(full.destroy(), NamingContext::NotEmpty);
    full.unbind(name_of({{"x", ""}}));
    full.destroy();
    f.root.unbind(name_of({{"full", ""}}));
  }
  SECTION("a nil object reference binds, and resolves to nil") {
    // omniNames keeps it (the specification does not forbid it): the nil IOR crosses both ways.
    f.root.bind(name_of({{"nil", ""}}), object_ref{});
    CHECK(f.root.resolve(name_of({{"nil", ""}})).is_nil());
  }
}
