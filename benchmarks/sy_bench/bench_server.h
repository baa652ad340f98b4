// `sy-bench server` and how the experiments start one: a separate process on loopback by default,
// or (--collocated) an ORB serving in a thread of this process, or (--netns) a process in the
// servers' network namespace whose references the experiment resolves through omniNames.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "benchmarks/sy_bench/control_orb.h"
#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/process.h"
#include "switchyard/object.h"

namespace switchyard {
class orb;
}

namespace switchyard::bench {

// The `server` subcommand: serves until SIGTERM/SIGINT or the control servant's shutdown.
int server_main(std::vector<std::string> args);

// One adapter of a paired demux server (sy-bench demux, docs/experiments.md "Paired
// measurement"): a child of the root adapter with its own strategy pair, serving `servants` ttcp
// servants of ttcp_demux_<operations>. Every adapter of a server shares its one connection.
struct demux_adapter_spec {
  std::string name, servant_demux, operation_demux;
  std::size_t servants = 0, operations = 0;
};
// "name/servant_demux/operation_demux/servants/operations" and back (usage_error when malformed).
std::string to_text(const demux_adapter_spec& spec);
demux_adapter_spec parse_demux_adapter(const std::string& text);

// What one activated demux adapter gives its clients.
struct demux_adapter_objects {
  std::vector<std::string> iors;                 // servant 0 first
  std::string servant_lookup, operation_lookup;  // as demux_interfaces.h labels them
  std::string first_url;                         // corbaloc: of servant 0 (iiop only)
};

// Activates each spec as a child adapter of `orb`'s root (with perfect servant demultiplexing and
// `object_id_table`, over the build-time ids ttcp_0..ttcp_999). By name.
std::map<std::string, demux_adapter_objects> activate_demux_adapters(const std::shared_ptr<switchyard::orb>& orb,
                                                                     const std::vector<demux_adapter_spec>& adapters,
                                                                     bool object_id_table);

// Reads "name IOR:..." lines.
std::map<std::string, std::string> read_ior_lines(const std::vector<std::string>& lines);

class bench_server {
 public:
  // Starts a server with `servants` ttcp servants of an interface with `operations` demux
  // operations; `orb_args` go to the server ORB (after the common ones). `object_id_table`: with
  // perfect servant demultiplexing, the ids ttcp_0..ttcp_999 are in a build-time gperf table
  // (false: the run-time perfect hash alone, `sy-bench server --no-object-id-table`). `nap`: the
  // load experiment's LoadNap servant too (`sy-bench server --nap`, nap_ior()). `interceptors`:
  // that many no-op client and server request interceptors in the serving ORB (bench_interceptors.h).
  bench_server(const common_options& options, std::size_t servants, std::size_t operations,
               std::vector<std::string> orb_args, const std::filesystem::path& work_dir, bool object_id_table = true,
               bool nap = false, std::size_t interceptors = 0);
  // A paired demux server: the `adapters` (and no ttcp servant in the root adapter).
  bench_server(const common_options& options, const std::vector<demux_adapter_spec>& adapters,
               std::vector<std::string> orb_args, const std::filesystem::path& work_dir, bool object_id_table = true);
  ~bench_server();
  bench_server(const bench_server&) = delete;
  bench_server& operator=(const bench_server&) = delete;

  // The references' strings, ttcp/0 first; the control servant's.
  const std::vector<std::string>& ttcp_iors() const noexcept { return ttcp_iors_; }
  const std::string& control_ior() const noexcept { return control_ior_; }
  // The Integrity::Echo servant's reference (generated skeleton, echo_servant.h), and its corbaloc:.
  const std::string& echo_ior() const noexcept { return echo_ior_; }
  const std::string& echo_url() const noexcept { return echo_url_; }
  // The LoadNap servant's reference (benchmarks/peers/load_nap.idl), when started with `nap`.
  const std::string& nap_ior() const noexcept { return nap_ior_; }
  // "corbaloc:iiop:1.2@127.0.0.1:port/key" of ttcp/0 (empty for other transports).
  const std::string& first_url() const noexcept { return first_url_; }
  // What served the ttcp servants' lookups, as the server saw it (operation_lookup_label and
  // servant_lookup_label in demux_interfaces.h): "gperf", "runtime-perfect", "linear", ...
  const std::string& servant_lookup() const noexcept { return servant_lookup_; }
  const std::string& operation_lookup() const noexcept { return operation_lookup_; }
  // A paired server's adapters, by name.
  const std::map<std::string, demux_adapter_objects>& demux_adapters() const noexcept { return demux_adapters_; }
  // The server's process id (this process's when collocated), for watching its resources.
  pid_t pid() const noexcept;
  // In collocated mode, the server's ORB (the client uses it too); otherwise null.
  const std::shared_ptr<switchyard::orb>& local_orb() const noexcept { return local_orb_; }

  // Stops the server (process: SIGTERM; collocated: shutdown). Returns its exit status.
  int stop();

 private:
  void start(const common_options& options, std::size_t servants, std::size_t operations,
             const std::vector<demux_adapter_spec>& adapters, std::vector<std::string> orb_args,
             const std::filesystem::path& work_dir, bool object_id_table, bool nap, std::size_t interceptors);
  std::map<std::string, demux_adapter_objects> demux_adapters_;
  std::vector<std::string> ttcp_iors_;
  std::string control_ior_;
  std::string first_url_;
  std::string echo_ior_, echo_url_;
  std::string nap_ior_;
  std::string servant_lookup_, operation_lookup_;
  child_process process_;
  std::shared_ptr<switchyard::orb> local_orb_;
  std::thread local_thread_;
  std::unique_ptr<control_orb> control_;  // collocated: the control servant's ORB
  std::filesystem::path ior_file_;
};

// The ORB arguments for a listener of `transport` ("iiop" or "uiop") on `host` (iiop).
std::vector<std::string> listen_arguments(const std::string& transport, const std::string& host = "127.0.0.1");

// Where servers listen and clients connect: 127.0.0.1, or with --netns the servers' veth address.
std::string server_host(const common_options& options);

}  // namespace switchyard::bench
