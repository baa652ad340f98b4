#include "benchmarks/sy_bench/network_namespaces.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/naming_directory.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

constexpr const char* netns_dir = "/var/run/netns/";  // where ip(8) mounts named namespaces

bool is_root() { return geteuid() == 0; }

std::string join(const std::vector<std::string>& argv) {
  std::string text;
  for (auto& a : argv) text += (text.empty() ? "" : " ") + a;
  return text;
}

bool accepts_connections(const char* address, int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in peer{};
  peer.sin_family = AF_INET;
  peer.sin_port = htons(static_cast<std::uint16_t>(port));
  inet_pton(AF_INET, address, &peer.sin_addr);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&peer), sizeof peer) == 0;
  close(fd);
  return ok;
}

// The janitor's work, in a process of its own: every process left in the namespaces (but sy-bench
// itself, which may still be running its report) is ended, then the namespaces are deleted (the
// veth pairs go with them) and the naming service's data directory removed.
void clean_up(const std::string& ip, const std::vector<std::string>& namespaces, const std::string& data_dir,
              pid_t spare) {
  auto pids_in = [&](const std::string& name) {
    std::string output;
    std::vector<pid_t> pids;
    try {
      if (run_program({ip, "netns", "pids", name}, output) != 0) return pids;
    } catch (const std::exception&) {
      return pids;
    }
    std::istringstream lines(output);
    long pid = 0;
    while (lines >> pid)
      if (pid > 0 && pid != spare) pids.push_back(static_cast<pid_t>(pid));
    return pids;
  };
  for (int signal_number : {SIGTERM, SIGKILL}) {
    bool any = false;
    for (auto& name : namespaces)
      for (pid_t pid : pids_in(name)) any = kill(pid, signal_number) == 0 || any;
    if (!any) break;
    for (int i = 0; i < 40; ++i) {  // up to 2 s for them to go
      bool left = false;
      for (auto& name : namespaces) left = left || !pids_in(name).empty();
      if (!left) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  for (auto& name : namespaces) {
    std::string output;
    try {
      if (std::filesystem::exists(netns_dir + name) && run_program({ip, "netns", "delete", name}, output) != 0)
        std::cerr << "sy-bench: could not delete network namespace " << name << ": " << output;
    } catch (const std::exception& e) {
      std::cerr << "sy-bench: could not delete network namespace " << name << ": " << e.what() << "\n";
    }
  }
  std::error_code ignored;
  if (!data_dir.empty()) std::filesystem::remove_all(data_dir, ignored);
}

}  // namespace

std::vector<std::string> shaping_arguments(const link_shape& shape, const std::string& device) {
  if (shape.delay_us != 0) {
    // netem holds every packet for the delay: its queue must hold a bandwidth-delay product and
    // more (the default, 1000 packets, drops at high rates).
    double packets =
        static_cast<double>(shape.bits_per_second) / 8 / 1500 * (static_cast<double>(shape.delay_us) / 1e6);
    auto limit = static_cast<std::uint64_t>(std::max(1000.0, 4 * packets));
    return {"qdisc", "add",       "dev",  device,     "root",  "netem",
            "delay", shape.delay, "rate", shape.rate, "limit", std::to_string(limit)};
  }
  auto burst = std::max<std::uint64_t>(16 * 1024, shape.bits_per_second / 8 / 500);
  return {"qdisc",   "add", "dev", device, "root", "tbf", "rate", shape.rate, "burst", std::to_string(burst),
          "latency", "50ms"};
}

network_namespaces::network_namespaces(const std::string& link) {
  std::optional<link_shape> shape;
  if (!link.empty()) shape = check_link_shape(link);
  if (!is_root())
    throw std::runtime_error(
        "--netns and --link need root: sy-bench makes network namespaces and veth pairs with ip(8) and "
        "shapes them with tc(8). Run it as root (sudo build-release/benchmarks/sy_bench/sy-bench ...)");
  std::string ip = find_in_path("ip");
  if (ip.empty()) throw std::runtime_error("--netns needs ip(8) (Debian: iproute2; scripts/install-deps installs it)");
  std::string tc = find_in_path("tc");
  if (shape && tc.empty())
    throw std::runtime_error("--link needs tc(8) (Debian: iproute2; scripts/install-deps installs it)");
  std::string omni_names = find_in_path("omniNames");
  if (omni_names.empty())
    throw std::runtime_error("--netns needs omniNames (Debian: omniorb-nameserver; scripts/install-deps installs it)");
  if (!naming_available())
    throw std::runtime_error(
        "--netns needs CosNaming stubs: this sy-bench was built without omniORB's CosNaming.idl "
        "(Debian: omniorb-idl; scripts/install-deps installs it): rebuild after installing it");

  std::string prefix = "sy-bench-" + std::to_string(getpid()) + "-";
  client_ = prefix + "client";
  server_ = prefix + "server";
  naming_ = prefix + "naming";
  char pattern[] = "/tmp/sy-bench-naming-XXXXXX";
  if (mkdtemp(pattern) == nullptr) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
  data_dir_ = pattern;

  // The janitor first, so that whatever happens from here on is undone.
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  pid_t parent = getpid();
  std::vector<std::string> namespaces = {client_, server_, naming_};
  pid_t janitor = fork();
  if (janitor == 0) {
    // Ctrl-C reaches the whole process group: the janitor stays to clean up after sy-bench.
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) std::signal(signal_number, SIG_IGN);
    close(fds[1]);
    char byte;
    for (;;) {
      ssize_t n = read(fds[0], &byte, 1);
      if (n == 0 || (n < 0 && errno != EINTR)) break;
    }
    clean_up(ip, namespaces, data_dir_, parent);
    _exit(0);
  }
  if (janitor < 0) {
    int saved = errno;
    close(fds[0]);
    close(fds[1]);
    std::filesystem::remove_all(data_dir_);
    throw std::runtime_error(std::string("fork: ") + std::strerror(saved));
  }
  close(fds[0]);
  janitor_pipe_ = fds[1];
  janitor_ = janitor;
  set_exit_janitor(janitor_pipe_, janitor_);

  try {
    auto ip_run = [&](std::vector<std::string> argv) {
      argv.insert(argv.begin(), ip);
      run(argv);
    };
    for (auto& name : namespaces) ip_run({"netns", "add", name});
    ip_run(
        {"link", "add", "to-server", "netns", client_, "type", "veth", "peer", "name", "to-client", "netns", server_});
    ip_run(
        {"link", "add", "to-naming", "netns", client_, "type", "veth", "peer", "name", "to-client", "netns", naming_});
    ip_run(
        {"link", "add", "to-naming", "netns", server_, "type", "veth", "peer", "name", "to-server", "netns", naming_});
    struct address {
      const std::string& ns;
      const char* device;
      const char* cidr;
    };
    for (auto& a : {address{client_, "to-server", "198.18.0.1/30"}, address{server_, "to-client", "198.18.0.2/30"},
                    address{client_, "to-naming", "198.18.0.5/30"}, address{naming_, "to-client", "198.18.0.6/30"},
                    address{server_, "to-naming", "198.18.0.9/30"}, address{naming_, "to-server", "198.18.0.10/30"},
                    address{naming_, "lo", "198.18.1.1/32"}}) {
      ip_run({"-n", a.ns, "address", "add", a.cidr, "dev", a.device});
    }
    for (auto& [ns, devices] :
         std::vector<std::pair<std::string, std::vector<const char*>>>{{client_, {"lo", "to-server", "to-naming"}},
                                                                       {server_, {"lo", "to-client", "to-naming"}},
                                                                       {naming_, {"lo", "to-client", "to-server"}}})
      for (auto device : devices) ip_run({"-n", ns, "link", "set", device, "up"});
    ip_run({"-n", client_, "route", "add", "198.18.1.1/32", "via", "198.18.0.6"});
    ip_run({"-n", server_, "route", "add", "198.18.1.1/32", "via", "198.18.0.10"});
    if (shape) {
      for (auto& [ns, device] : {std::pair{client_, "to-server"}, std::pair{server_, "to-client"}}) {
        std::vector<std::string> argv = {tc, "-n", ns};
        for (auto& a : shaping_arguments(*shape, device)) argv.push_back(a);
        std::string output;
        if (run_program(argv, output) != 0) {
          if (shape->delay_us != 0 && output.find("unknown") != std::string::npos)
            throw std::runtime_error("--link " + link +
                                     ": this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM), "
                                     "which a delay needs; --link " +
                                     shape->rate + " alone shapes with tbf");
          throw std::runtime_error(join(argv) + " failed: " + output);
        }
      }
    }

    auto open_namespace = [](const std::string& name) {
      int fd = open((netns_dir + name).c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) throw std::runtime_error("cannot open " + (netns_dir + name) + ": " + std::strerror(errno));
      return fd;
    };
    int client_fd = open_namespace(client_);
    server_fd_ = open_namespace(server_);
    naming_fd_ = open_namespace(naming_);
    int entered = setns(client_fd, CLONE_NEWNET);
    int saved = errno;
    close(client_fd);
    if (entered != 0) throw std::runtime_error(std::string("setns into ") + client_ + ": " + std::strerror(saved));

    const std::string port = std::to_string(naming_port);
    omni_names_ = child_process::start({omni_names, "-start", port, "-always", "-datadir", data_dir_, "-ORBendPoint",
                                        std::string("giop:tcp:") + naming_address + ":" + port},
                                       false, std::filesystem::path(data_dir_) / "output.txt", naming_fd_, true);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (!accepts_connections(naming_address, naming_port)) {
      if (auto status = omni_names_.wait(std::chrono::milliseconds(0)))
        throw std::runtime_error("omniNames ended (status " + std::to_string(*status) + ") in " + naming_ +
                                 "; its output is in " + data_dir_ + "/output.txt");
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("omniNames did not listen on " + std::string(naming_address) + ":" + port);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    naming_orb_ = orb_init(std::vector<std::string>{});
    if (!wait_for_naming(naming_orb_, naming_url(), std::chrono::seconds(15)))
      throw std::runtime_error("omniNames's root context did not answer at " + naming_url());
    set_server_network_namespace(server_fd_);
  } catch (...) {
    tear_down();
    throw;
  }
  std::cerr << "netns: servers in " << server_ << " (" << server_address << "), clients in " << client_ << " ("
            << client_address << "), omniNames in " << naming_ << " (" << naming_url() << ")"
            << (shape ? ", link shaped to " + link + (shape->delay_us != 0 ? " (netem)" : " (tbf)") : std::string())
            << "\n";
}

network_namespaces::~network_namespaces() { tear_down(); }

std::string network_namespaces::naming_url() const {
  return std::string("corbaloc::") + naming_address + ":" + std::to_string(naming_port) + "/NameService";
}

void network_namespaces::run(const std::vector<std::string>& argv) {
  std::string output;
  int status = run_program(argv, output);
  if (status != 0) throw std::runtime_error(join(argv) + " failed (status " + std::to_string(status) + "): " + output);
}

void network_namespaces::tear_down() noexcept {
  set_server_network_namespace(-1);
  if (naming_orb_) {
    try {
      naming_orb_->destroy();
    } catch (...) {
    }
    naming_orb_.reset();
  }
  omni_names_.stop();
  for (int* fd : {&server_fd_, &naming_fd_}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
  if (janitor_pipe_ >= 0) {
    set_exit_janitor(-1, -1);
    close(janitor_pipe_);  // the janitor cleans up now
    janitor_pipe_ = -1;
    int status = 0;
    while (waitpid(janitor_, &status, 0) < 0 && errno == EINTR) {
    }
    janitor_ = -1;
  }
}

void set_up_network(common_options& options) {
  if (!options.netns || options.network) return;
  options.network = std::make_shared<network_namespaces>(options.link);
}

}  // namespace switchyard::bench
