#include "benchmarks/sy_bench/process.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace switchyard::bench {
namespace {
int server_cpu = -1;    // -1: no pinning of servers beyond inheritance
int server_netns = -1;  // -1: servers in our own network namespace
std::atomic<int> janitor_pipe{-1};
std::atomic<pid_t> janitor_pid{-1};

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
  int pipe_fd = janitor_pipe.exchange(-1);
  if (pipe_fd >= 0) {
    close(pipe_fd);
    pid_t janitor = janitor_pid.load();
    if (janitor > 0) waitpid(janitor, nullptr, 0);
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

void set_exit_janitor(int pipe_fd, pid_t pid) noexcept {
  janitor_pid = pid;
  janitor_pipe = pipe_fd;
}

void set_server_network_namespace(int fd) noexcept { server_netns = fd; }

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

namespace {

// fork, setns, exec: posix_spawn cannot change the child's network namespace. Only
// async-signal-safe calls between fork and exec (this process has threads).
pid_t start_in_namespace(std::vector<char*>& args, int netns, const std::filesystem::path& stdout_file,
                         bool stderr_too) {
  int out = -1;
  if (!stdout_file.empty()) {
    out = open(stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) throw std::runtime_error("cannot open " + stdout_file.string() + ": " + std::strerror(errno));
  }
  int report[2];  // the child writes errno here if setns or exec fails; closed by a good exec
  if (pipe2(report, O_CLOEXEC) != 0) {
    if (out >= 0) close(out);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(report[0]);
    int error = 0;
    if (setns(netns, CLONE_NEWNET) != 0) error = errno;
    if (error == 0 && out >= 0 && dup2(out, 1) < 0) error = errno;
    if (error == 0 && out >= 0 && stderr_too && dup2(out, 2) < 0) error = errno;
    if (error == 0) {
      execv(args[0], args.data());
      error = errno;
    }
    ssize_t ignored = write(report[1], &error, sizeof error);
    (void)ignored;
    _exit(127);
  }
  int saved = errno;
  close(report[1]);
  if (out >= 0) close(out);
  if (pid < 0) {
    close(report[0]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(saved));
  }
  int error = 0;
  ssize_t n;
  do n = read(report[0], &error, sizeof error);
  while (n < 0 && errno == EINTR);
  close(report[0]);
  if (n == sizeof error) {
    waitpid(pid, nullptr, 0);
    throw std::runtime_error(std::string("cannot start ") + args[0] +
                             " in its network namespace: " + std::strerror(error));
  }
  return pid;
}

}  // namespace

child_process child_process::start(const std::vector<std::string>& argv, bool is_server,
                                   const std::filesystem::path& stdout_file, int network_namespace, bool stderr_too) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int netns = network_namespace >= 0 ? network_namespace : is_server ? server_netns : -1;
  pid_t pid = -1;
  if (netns >= 0) {
    pid = start_in_namespace(args, netns, stdout_file, stderr_too);
  } else {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!stdout_file.empty()) {
      posix_spawn_file_actions_addopen(&actions, 1, stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (stderr_too) posix_spawn_file_actions_adddup2(&actions, 1, 2);
    }
    int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
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

std::vector<std::string> wait_for_lines(const std::filesystem::path& path, std::size_t lines, child_process& child,
                                        std::chrono::milliseconds timeout) {
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
      throw std::runtime_error("server ended (status " + std::to_string(*status) + ") before writing " + path.string());
    if (std::chrono::steady_clock::now() >= deadline)
      throw std::runtime_error("timed out waiting for " + path.string());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

int run_program(const std::vector<std::string>& argv, std::string& output) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  output.clear();
  char buffer[4096];
  for (;;) {
    ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(buffer, static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  int raw = 0;
  while (waitpid(pid, &raw, 0) < 0 && errno == EINTR) {
  }
  return status_of(raw);
}

std::string find_in_path(const std::string& name) {
  std::string path = getenv("PATH") != nullptr ? getenv("PATH") : "";
  path += ":/usr/sbin:/sbin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    auto end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    start = end + 1;
    if (dir.empty()) continue;
    auto candidate = dir + "/" + name;
    // A directory of that name (/usr/lib/x86_64-linux-gnu/tc: tc's modules) is not the program.
    struct stat status {};
    if (stat(candidate.c_str(), &status) == 0 && S_ISREG(status.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return {};
}

std::string self_path() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("sy-bench") : p.string();
}

}  // namespace switchyard::bench
