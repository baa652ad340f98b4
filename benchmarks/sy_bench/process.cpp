#include "benchmarks/sy_bench/process.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace switchyard::bench {
namespace {
int server_cpu = -1;  // -1: no pinning of servers beyond inheritance

// Children alive, so that an interrupted run (Ctrl-C, SIGTERM) takes them down too. The demux
// experiment keeps a server per cell of its grid alive (up to 288 with --paper).
constexpr int max_children = 1024;
std::atomic<pid_t> live_children[max_children];

void track(pid_t pid) {
  for (auto& slot : live_children) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pid)) return;
  }
}
void untrack(pid_t pid) {
  for (auto& slot : live_children) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}
extern "C" void stop_children_and_exit(int signal_number) {
  for (auto& slot : live_children) {
    pid_t pid = slot.load();
    if (pid > 0) kill(pid, SIGTERM);
  }
  _exit(128 + signal_number);
}

int status_of(int raw) {
  if (WIFEXITED(raw)) return WEXITSTATUS(raw);
  if (WIFSIGNALED(raw)) return 128 + WTERMSIG(raw);
  return -1;
}
}  // namespace

void stop_children_on_signals() {
  struct sigaction action {};
  action.sa_handler = stop_children_and_exit;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::string apply_pinning(pin_mode mode) {
  if (mode == pin_mode::none) return "pinned: no";
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return "pinned: no (sched_getaffinity failed)";
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  if (cpus.empty()) return "pinned: no";
  int client = cpus.front();
  int server = mode == pin_mode::split && cpus.size() > 1 ? cpus[1] : client;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(client, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) return std::string("pinned: no (") + std::strerror(errno) + ")";
  server_cpu = mode == pin_mode::split ? server : -1;
  return "pinned: client cpu " + std::to_string(client) + ", server cpu " + std::to_string(server);
}

void pin_server(pid_t pid) {
  if (server_cpu < 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(server_cpu, &one);
  sched_setaffinity(pid, sizeof one, &one);
}

child_process child_process::start(const std::vector<std::string>& argv, bool is_server,
                                   const std::filesystem::path& stdout_file) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stdout_file.empty())
    posix_spawn_file_actions_addopen(&actions, 1, stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  track(pid);
  if (is_server) pin_server(pid);
  child_process child;
  child.pid_ = pid;
  return child;
}

child_process& child_process::operator=(child_process&& other) noexcept {
  if (this != &other) {
    stop();
    pid_ = other.pid_;
    other.pid_ = -1;
  }
  return *this;
}

std::optional<int> child_process::wait(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return std::nullopt;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int raw = 0;
    pid_t r = waitpid(pid_, &raw, WNOHANG);
    if (r == pid_) {
      untrack(pid_);
      pid_ = -1;
      return status_of(raw);
    }
    if (r < 0) {
      untrack(pid_);
      pid_ = -1;
      return -1;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

int child_process::stop() {
  if (pid_ <= 0) return 0;
  kill(pid_, SIGTERM);
  if (auto status = wait(std::chrono::seconds(2))) return *status;
  kill(pid_, SIGKILL);
  return wait(std::chrono::seconds(5)).value_or(-1);
}

std::vector<std::string> wait_for_lines(const std::filesystem::path& path, std::size_t lines,
                                        child_process& child, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    std::ifstream in(path);
    if (in) {
      std::vector<std::string> got;
      std::string line;
      while (std::getline(in, line))
        if (!line.empty()) got.push_back(line);
      if (got.size() >= lines) return got;
    }
    if (auto status = child.wait(std::chrono::milliseconds(0)))
      throw std::runtime_error("server ended (status " + std::to_string(*status) + ") before writing " +
                               path.string());
    if (std::chrono::steady_clock::now() >= deadline)
      throw std::runtime_error("timed out waiting for " + path.string());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string self_path() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("sy-bench") : p.string();
}

}  // namespace switchyard::bench
