// Child processes for the experiments (servers, baseline and omniORB clients) and CPU pinning.
#pragma once

#include <sys/types.h>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace switchyard::bench {

// --pin: same (client and server on one CPU), split (one CPU each), none.
enum class pin_mode { same, split, none };

// On SIGINT/SIGTERM, sends SIGTERM to every child still running and exits (for the experiments).
void stop_children_on_signals();
// Also on those signals, after the children: closes `pipe_fd` and waits for `pid` (the --netns
// janitor, which then removes the namespaces). -1 forgets it.
void set_exit_janitor(int pipe_fd, pid_t pid) noexcept;

// Servers started from now on (child_process::start with is_server) run in the network namespace
// of `fd` (an open /var/run/netns/NAME; --netns); -1: this process's namespace.
void set_server_network_namespace(int fd) noexcept;

// Pins this process (and what it starts later) to the client's CPU; remembers the server's CPU.
// Returns a line for the log ("pinned: client cpu 0, server cpu 0").
std::string apply_pinning(pin_mode mode);
// Pins a started child to the server's CPU (for `split`; `same` children inherit the client's).
void pin_server(pid_t pid);

class child_process {
 public:
  child_process() = default;
  // Starts `argv[0]` (a path) with the arguments; stdout goes to `stdout_file` when given.
  // Servers are pinned (--pin split) and started in the servers' network namespace (--netns);
  // `network_namespace` (an open /var/run/netns/NAME) puts any child in that one instead;
  // `stderr_too` sends stderr to `stdout_file` as well.
  // Raises std::runtime_error when the program cannot be started.
  static child_process start(const std::vector<std::string>& argv, bool is_server,
                             const std::filesystem::path& stdout_file = {}, int network_namespace = -1,
                             bool stderr_too = false);
  child_process(child_process&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }
  child_process& operator=(child_process&& other) noexcept;
  ~child_process() { stop(); }

  bool running() const noexcept { return pid_ > 0; }
  pid_t pid() const noexcept { return pid_; }
  // Waits for the child to end by itself; its exit status (128 + signal when killed), or nothing
  // after `timeout` (the child then keeps running).
  std::optional<int> wait(std::chrono::milliseconds timeout);
  // SIGTERM, then SIGKILL if it has not ended within two seconds. Returns the exit status.
  int stop();

 private:
  pid_t pid_ = -1;
};

// Waits until `path` exists and contains `lines` complete lines (servers write their IOR files
// whole), or the child ends, or `timeout` passes: raises std::runtime_error naming which.
std::vector<std::string> wait_for_lines(const std::filesystem::path& path, std::size_t lines, child_process& child,
                                        std::chrono::milliseconds timeout);

// Runs `argv[0]` (a path) to its end; its exit status (128 + signal when killed), and its stdout
// and stderr together in `output`. Raises std::runtime_error when it cannot be started.
int run_program(const std::vector<std::string>& argv, std::string& output);

// The path of `name` in $PATH, /usr/sbin or /sbin (root's tools when PATH lacks them); empty if none.
std::string find_in_path(const std::string& name);

// This executable's path (for starting `sy-bench server`).
std::string self_path();

}  // namespace switchyard::bench
