// omniORB's peer server as a child process of a test: started on loopback with a fresh IOR
// file, stopped at the end. Shared by the tests in which our client calls omniORB's server.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "orb/ior/iiop_profile.h"
#include "orb/ior/ior.h"

extern char** environ;

namespace test {

// omni_server as a child process: started with a fresh IOR file in a temporary directory,
// stopped with SIGTERM (SIGKILL when it does not go within 10 s). Every wait is bounded.
class omni_server {
 public:
  explicit omni_server(const std::string& program, unsigned servants = 2, std::vector<std::string> extra = {}) {
    directory_ = std::filesystem::temp_directory_path() /
                 ("sy_omni_" + std::to_string(::getpid()) + "_" + std::to_string(next_id_++));
    std::filesystem::create_directories(directory_);
    auto ior_file = (directory_ / "iors.txt").string();
    std::vector<std::string> args = {program,     "--ior-file", ior_file, "--servants", std::to_string(servants),
                                     "--seconds", "120"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, program.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
      pid_ = -1;
      throw std::runtime_error("cannot start " + program);
    }
    // The server writes the file whole, through a rename: once it exists it is complete.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!std::filesystem::exists(ior_file)) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        throw std::runtime_error("omni_server exited before writing its IOR file");
      }
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("omni_server wrote no IOR file in 20 s");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::ifstream in(ior_file);
    std::string name, ior;
    while (in >> name >> ior) iors_[name] = ior;
    auto parsed = switchyard::iop::parse_ior_string(iors_.at("echo"));
    port_ = switchyard::iop::decode_iiop_profile(parsed.profiles.at(0).data).port;
  }
  ~omni_server() { stop(); }
  omni_server(const omni_server&) = delete;
  omni_server& operator=(const omni_server&) = delete;

  // SIGTERM and a bounded wait; the exit status (-1 when it had to be killed).
  int stop() {
    if (pid_ <= 0) return exit_status_;
    ::kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 500; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        std::filesystem::remove_all(directory_);
        return exit_status_;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    std::filesystem::remove_all(directory_);
    return exit_status_ = -1;
  }

  const std::string& ior(const std::string& name) const { return iors_.at(name); }
  std::uint16_t port() const noexcept { return port_; }
  std::string corbaloc(const std::string& key, const std::string& version = "") const {
    return "corbaloc::" + (version.empty() ? "" : version + "@") + "127.0.0.1:" + std::to_string(port_) + "/" + key;
  }

 private:
  static inline int next_id_ = 0;
  std::filesystem::path directory_;
  pid_t pid_ = -1;
  int exit_status_ = -1;
  std::map<std::string, std::string> iors_;
  std::uint16_t port_ = 0;
};

}  // namespace test
