#include "benchmarks/sy_bench/bench_server.h"

#include <pthread.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

#include "benchmarks/sy_bench/bench_interceptors.h"
#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/control_orb.h"
#include "benchmarks/sy_bench/demux_interfaces.h"
#include "benchmarks/sy_bench/echo_servant.h"
#include "benchmarks/sy_bench/load_nap_servant.h"
#include "benchmarks/sy_bench/naming_directory.h"
#include "benchmarks/sy_bench/network_namespaces.h"
#include "demux/demux_strategy.h"
#include "switchyard/exception.h"
#include "switchyard/orb.h"
#include "ttcp_object_ids.h"  // syidl --object-ids ttcp_object_ids.txt

namespace switchyard::bench {
namespace {

struct served_objects {
  std::string echo;
  std::string echo_url;  // corbaloc: of the Echo servant (iiop only)
  std::vector<std::string> ttcp;
  std::string control;
  std::string nap;        // the LoadNap servant's (server --nap), or empty
  std::string first_url;  // corbaloc: of ttcp/0, for the message-size relay (iiop only)
  // What serves the ttcp servants' lookups (demux_interfaces.h: gperf, runtime-perfect, ...).
  std::string servant_lookup, operation_lookup;
  std::map<std::string, demux_adapter_objects> adapters;  // a paired demux server's
};

std::string url_or_empty(const std::shared_ptr<switchyard::orb>& orb, const object_ref& ref) {
  try {
    return orb->object_to_url(ref);
  } catch (const std::exception&) {
    return {};  // not an IIOP endpoint: no URL line
  }
}

// Activates the Echo servant and the ttcp servants (Echo in a child adapter of its own, so the
// benchmark servants' map holds exactly `servants` entries), and the control servant in
// `control_orb` (control_orb.h: its requests stay out of the benchmark ORB's profile). With
// perfect servant demultiplexing and `object_id_table`, the root adapter gets the build-time table
// over ttcp_0..ttcp_999 first: gperf at build time, as in the papers. The ttcp servants are of
// syidl's generated skeletons where there is one (demux_interfaces.h).
// With `nap`, the load experiment's LoadNap servant too, in a child adapter of its own as Echo is.
served_objects activate_all(const std::shared_ptr<switchyard::orb>& orb, control_orb& control, std::size_t servants,
                            std::size_t operations, const std::vector<demux_adapter_spec>& adapters,
                            bool object_id_table, bool nap) {
  served_objects objects;
  auto& root = orb->root_adapter();
  if (object_id_table && root.servant_demux() == demux_strategy::perfect) root.use_object_ids(ttcp_object_ids_table);
  auto echo = root.create_child("sy_bench_echo").activate_with_id("echo", make_echo_servant());
  objects.echo = orb->object_to_string(echo);
  objects.echo_url = url_or_empty(orb, echo);
  for (std::size_t i = 0; i < servants; ++i) {
    auto ref = root.activate_with_id("ttcp_" + std::to_string(i), make_ttcp_servant(operations));
    objects.ttcp.push_back(orb->object_to_string(ref));
    if (i == 0) objects.first_url = url_or_empty(orb, ref);
  }
  objects.adapters = activate_demux_adapters(orb, adapters, object_id_table);
  if (nap)
    objects.nap =
        orb->object_to_string(root.create_child("sy_bench_load").activate_with_id("nap", make_load_nap_servant()));
  objects.control = control.activate(orb);
  objects.servant_lookup = servant_lookup_label(root.servant_demux(), root.object_ids());
  objects.operation_lookup = operation_lookup_label(root.operation_demux(), ttcp_interface(operations));
  return objects;
}

void write_whole(const std::filesystem::path& path, const std::string& text) {
  auto temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, path);
}

std::string ior_lines(const served_objects& objects) {
  // The Echo line first, as omni_server writes its file (benchmarks/peers/README.md).
  std::string text = "echo " + objects.echo + "\n";
  for (std::size_t i = 0; i < objects.ttcp.size(); ++i)
    text += "ttcp/" + std::to_string(i) + " " + objects.ttcp[i] + "\n";
  for (auto& [name, adapter] : objects.adapters) {
    for (std::size_t i = 0; i < adapter.iors.size(); ++i)
      text += "adapter/" + name + "/" + std::to_string(i) + " " + adapter.iors[i] + "\n";
    text += "adapter-lookup/" + name + " " + adapter.servant_lookup + "/" + adapter.operation_lookup + "\n";
    if (!adapter.first_url.empty()) text += "url/adapter/" + name + " " + adapter.first_url + "\n";
  }
  text += "control " + objects.control + "\n";
  if (!objects.nap.empty()) text += "nap " + objects.nap + "\n";
  if (!objects.first_url.empty()) text += "url/ttcp/0 " + objects.first_url + "\n";
  if (!objects.echo_url.empty()) text += "url/echo " + objects.echo_url + "\n";
  text += "lookup/servant " + objects.servant_lookup + "\n";
  text += "lookup/operation " + objects.operation_lookup + "\n";
  return text;
}

bool has_listen_option(const std::vector<std::string>& args) {
  for (auto& a : args)
    if (a == "-ORBListenEndpoints" || a == "-ORBEndpoint") return true;
  return false;
}

std::atomic<int> uiop_counter{0};

// The lines ior_lines writes for these servants and adapters, at the least (the file appears whole).
std::size_t ior_line_count(std::size_t servants, const std::vector<demux_adapter_spec>& adapters, bool nap) {
  std::size_t lines = servants + 4 + (nap ? 1 : 0);  // echo, control, two lookup lines; nap
  for (auto& a : adapters) lines += a.servants + 1;
  return lines;
}

}  // namespace

std::string to_text(const demux_adapter_spec& spec) {
  return spec.name + "/" + spec.servant_demux + "/" + spec.operation_demux + "/" + std::to_string(spec.servants) + "/" +
         std::to_string(spec.operations);
}

demux_adapter_spec parse_demux_adapter(const std::string& text) {
  std::vector<std::string> fields;
  for (std::size_t from = 0;;) {
    auto slash = text.find('/', from);
    fields.push_back(text.substr(from, slash - from));
    if (slash == std::string::npos) break;
    from = slash + 1;
  }
  auto bad = [&](const std::string& why) {
    return usage_error("--adapters: '" + text + "': " + why + " (expected name/servant_demux/operation_demux/N/K)");
  };
  if (fields.size() != 5 || fields[0].empty()) throw bad("five fields");
  for (int i : {1, 2})
    if (!demux::try_parse_demux_strategy(fields[static_cast<std::size_t>(i)])) throw bad("unknown strategy");
  demux_adapter_spec spec{fields[0], fields[1], fields[2], 0, 0};
  try {
    spec.servants = std::stoul(fields[3]);
    spec.operations = std::stoul(fields[4]);
  } catch (const std::exception&) {
    throw bad("not a number");
  }
  if (spec.servants == 0 || spec.servants > 100000 || spec.operations == 0 || spec.operations > 100000)
    throw bad("servants and operations: 1..100000");
  return spec;
}

std::map<std::string, demux_adapter_objects> activate_demux_adapters(const std::shared_ptr<switchyard::orb>& orb,
                                                                     const std::vector<demux_adapter_spec>& adapters,
                                                                     bool object_id_table) {
  std::map<std::string, demux_adapter_objects> result;
  for (auto& spec : adapters) {
    adapter_policies policies;
    policies.servant_demux = demux::parse_demux_strategy(spec.servant_demux);
    policies.operation_demux = demux::parse_demux_strategy(spec.operation_demux);
    if (object_id_table && policies.servant_demux == demux_strategy::perfect)
      policies.object_ids = &ttcp_object_ids_table;
    auto& adapter = orb->root_adapter().create_child(spec.name, policies);
    demux_adapter_objects objects;
    for (std::size_t i = 0; i < spec.servants; ++i)
      objects.iors.push_back(orb->object_to_string(
          adapter.activate_with_id("ttcp_" + std::to_string(i), make_ttcp_servant(spec.operations))));
    objects.first_url = url_or_empty(orb, orb->string_to_object(objects.iors.front()));
    objects.servant_lookup = servant_lookup_label(adapter.servant_demux(), adapter.object_ids());
    objects.operation_lookup = operation_lookup_label(adapter.operation_demux(), ttcp_interface(spec.operations));
    result[spec.name] = std::move(objects);
  }
  return result;
}

std::vector<std::string> listen_arguments(const std::string& transport, const std::string& host) {
  if (transport == "uiop")
    return {"-ORBListenEndpoints",
            "uiop:///tmp/sy-bench-" + std::to_string(getpid()) + "-" + std::to_string(uiop_counter++) + ".sock"};
  return {"-ORBListenEndpoints", "iiop://" + host + ":0"};
}

std::string server_host(const common_options& options) {
  return options.network ? network_namespaces::server_address : "127.0.0.1";
}

std::map<std::string, std::string> read_ior_lines(const std::vector<std::string>& lines) {
  std::map<std::string, std::string> result;
  for (auto& line : lines) {
    auto space = line.find(' ');
    if (space == std::string::npos) continue;
    result[line.substr(0, space)] = line.substr(space + 1);
  }
  return result;
}

int server_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto ior_file = parser.value("--ior-file");
  std::vector<demux_adapter_spec> adapters;
  for (auto& text : parser.list("--adapters", {})) adapters.push_back(parse_demux_adapter(text));
  // A paired demux server has its servants in its adapters; the root adapter's are for the others.
  std::size_t servants = parser.number("--servants").value_or(adapters.empty() ? 1 : 0);
  std::size_t operations = parser.number("--operations").value_or(0);
  auto transport = parser.value("--transport").value_or("iiop");
  bool object_id_table = !parser.flag("--no-object-id-table");
  bool nap = parser.flag("--nap");  // the LoadNap servant, "nap <IOR>" (sy-bench load --mix blocking)
  // --interceptors N: N no-op client and server request interceptors in the serving ORB.
  std::size_t interceptors = parser.number("--interceptors").value_or(0);
  // --naming corbaloc::HOST:PORT/NameService --naming-context ID: every object is bound under ID
  // too (sy-bench's --netns resolves them from there).
  auto naming = parser.value("--naming");
  auto naming_context = parser.value("--naming-context");
  parser.finish();
  if (naming.has_value() != naming_context.has_value()) throw usage_error("--naming and --naming-context go together");
  if ((servants == 0 && adapters.empty()) || servants > 100000) throw usage_error("--servants: expected 1..100000");
  if (operations > 100000) throw usage_error("--operations: expected 0..100000");
  if (interceptors > 100) throw usage_error("--interceptors: expected 0..100");

  // Signals are taken by one thread with sigwait; every ORB thread inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto orb_args = parser.orb_args();
  if (!has_listen_option(orb_args)) {
    auto listen = listen_arguments(transport);
    orb_args.insert(orb_args.end(), listen.begin(), listen.end());
  }
  auto orb = [&] {
    no_op_interceptors_scope with(interceptors);
    return orb_init(orb_args);
  }();
  control_orb control(orb_args, transport);
  auto objects = activate_all(orb, control, servants, operations, adapters, object_id_table, nap);
  if (naming) {
    // Bound before the IOR file appears: whoever waits for the file finds the names there.
    std::vector<std::pair<std::string, object_ref>> named;
    named.emplace_back("echo", orb->string_to_object(objects.echo));
    for (std::size_t i = 0; i < objects.ttcp.size(); ++i)
      named.emplace_back("ttcp/" + std::to_string(i), orb->string_to_object(objects.ttcp[i]));
    for (auto& [name, adapter] : objects.adapters)
      for (std::size_t i = 0; i < adapter.iors.size(); ++i)
        named.emplace_back("adapter/" + name + "/" + std::to_string(i), orb->string_to_object(adapter.iors[i]));
    named.emplace_back("control", orb->string_to_object(objects.control));
    if (!objects.nap.empty()) named.emplace_back("nap", orb->string_to_object(objects.nap));
    bind_in_naming(orb, *naming, *naming_context, named);
  }
  if (ior_file) {
    write_whole(*ior_file, ior_lines(objects));
  } else {
    std::cout << ior_lines(objects) << std::flush;
  }

  std::atomic<bool> finished{false};
  std::thread signal_thread([&] {
    int taken = 0;
    sigwait(&stop_signals, &taken);
    if (finished.load()) return;
    orb->shutdown(true);  // bounded by -ORBShutdownTimeout, whatever the servants do
    // ORB::run's own thread may be the one left in a stuck servant (docs/orb.md, "Shutting down
    // with a servant that does not return"): then end the process here.
    for (int i = 0; i < 100 && !finished.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!finished.load()) {
      std::fprintf(stderr, "sy-bench server: ORB::run is held by a servant that does not return; exiting\n");
      std::_Exit(0);
    }
  });
  orb->run();
  finished = true;
  pthread_kill(signal_thread.native_handle(), SIGTERM);
  signal_thread.join();
  control.stop();
  orb->destroy();
  return 0;
}

bench_server::bench_server(const common_options& options, std::size_t servants, std::size_t operations,
                           std::vector<std::string> orb_args, const std::filesystem::path& work_dir,
                           bool object_id_table, bool nap, std::size_t interceptors) {
  start(options, servants, operations, {}, std::move(orb_args), work_dir, object_id_table, nap, interceptors);
}

bench_server::bench_server(const common_options& options, const std::vector<demux_adapter_spec>& adapters,
                           std::vector<std::string> orb_args, const std::filesystem::path& work_dir,
                           bool object_id_table) {
  start(options, 0, 0, adapters, std::move(orb_args), work_dir, object_id_table, false, 0);
}

void bench_server::start(const common_options& options, std::size_t servants, std::size_t operations,
                         const std::vector<demux_adapter_spec>& adapters, std::vector<std::string> orb_args,
                         const std::filesystem::path& work_dir, bool object_id_table, bool nap,
                         std::size_t interceptors) {
  std::vector<std::string> all = options.orb_args;
  all.insert(all.end(), orb_args.begin(), orb_args.end());
  if (!has_listen_option(all)) {
    auto listen = listen_arguments(options.transport, server_host(options));
    all.insert(all.end(), listen.begin(), listen.end());
  }
  if (options.collocated) {
    // --collocated means a server ORB in a thread of this process, reached over its socket: its
    // own objects' references must not take the ORB's collocated path (docs/orb.md).
    if (std::find(all.begin(), all.end(), "-ORBCollocation") == all.end())
      all.insert(all.end(), {"-ORBCollocation", "none"});
    {
      no_op_interceptors_scope with(interceptors);
      local_orb_ = orb_init(all);
    }
    control_ = std::make_unique<control_orb>(all, options.transport);
    auto objects = activate_all(local_orb_, *control_, servants, operations, adapters, object_id_table, nap);
    demux_adapters_ = objects.adapters;
    ttcp_iors_ = objects.ttcp;
    control_ior_ = objects.control;
    first_url_ = objects.first_url;
    echo_ior_ = objects.echo;
    echo_url_ = objects.echo_url;
    nap_ior_ = objects.nap;
    servant_lookup_ = objects.servant_lookup;
    operation_lookup_ = objects.operation_lookup;
    local_thread_ = std::thread([orb = local_orb_] { orb->run(); });
    return;
  }
  static std::atomic<int> counter{0};
  ior_file_ = work_dir / ("server-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".ior");
  std::filesystem::remove(ior_file_);
  std::vector<std::string> argv = {self_path(),    "server",
                                   "--ior-file",   ior_file_.string(),
                                   "--servants",   std::to_string(servants),
                                   "--operations", std::to_string(operations)};
  if (!object_id_table) argv.push_back("--no-object-id-table");
  if (nap) argv.push_back("--nap");
  if (interceptors != 0) argv.insert(argv.end(), {"--interceptors", std::to_string(interceptors)});
  if (!adapters.empty()) {
    std::string list;
    for (auto& a : adapters) list += (list.empty() ? "" : ",") + to_text(a);
    argv.insert(argv.end(), {"--adapters", list});
  }
  const std::string naming_context = ior_file_.stem().string();
  if (options.network)
    argv.insert(argv.end(), {"--naming", options.network->naming_url(), "--naming-context", naming_context});
  argv.insert(argv.end(), all.begin(), all.end());
  process_ = child_process::start(argv, true);
  auto lines = wait_for_lines(ior_file_, ior_line_count(servants, adapters, nap), process_, std::chrono::seconds(60));
  auto named = read_ior_lines(lines);
  if (options.network) {
    // The references as the naming service gives them, not as the file has them: what crosses
    // to the client is what omniNames returned.
    std::vector<std::string> names;
    for (auto& [name, ior] : named)
      if (!name.starts_with("url/") && !name.starts_with("lookup/") && !name.starts_with("adapter-lookup/"))
        names.push_back(name);
    auto resolved =
        resolve_in_naming(options.network->naming_orb(), options.network->naming_url(), naming_context, names);
    for (std::size_t i = 0; i < names.size(); ++i) named[names[i]] = resolved[i];
  }
  for (std::size_t i = 0; i < servants; ++i) {
    auto it = named.find("ttcp/" + std::to_string(i));
    if (it == named.end()) throw std::runtime_error("server's IOR file lacks ttcp/" + std::to_string(i));
    ttcp_iors_.push_back(it->second);
  }
  control_ior_ = named.at("control");
  echo_ior_ = named.at("echo");
  if (auto it = named.find("url/ttcp/0"); it != named.end()) first_url_ = it->second;
  if (auto it = named.find("url/echo"); it != named.end()) echo_url_ = it->second;
  if (nap) nap_ior_ = named.at("nap");
  servant_lookup_ = named.at("lookup/servant");
  operation_lookup_ = named.at("lookup/operation");
  for (auto& spec : adapters) {
    auto& objects = demux_adapters_[spec.name];
    for (std::size_t i = 0; i < spec.servants; ++i)
      objects.iors.push_back(named.at("adapter/" + spec.name + "/" + std::to_string(i)));
    auto lookups = named.at("adapter-lookup/" + spec.name);
    auto slash = lookups.find('/');
    objects.servant_lookup = lookups.substr(0, slash);
    objects.operation_lookup = slash == std::string::npos ? "" : lookups.substr(slash + 1);
    if (auto it = named.find("url/adapter/" + spec.name); it != named.end()) objects.first_url = it->second;
  }
}

pid_t bench_server::pid() const noexcept { return process_.running() ? process_.pid() : ::getpid(); }

int bench_server::stop() {
  int status = 0;
  if (control_) control_->stop();
  if (local_orb_) {
    local_orb_->shutdown(true);
    if (local_thread_.joinable()) local_thread_.join();
    local_orb_.reset();
  }
  if (process_.running()) status = process_.stop();
  if (!ior_file_.empty()) {
    std::error_code ec;
    std::filesystem::remove(ior_file_, ec);
  }
  return status;
}

bench_server::~bench_server() {
  try {
    stop();
  } catch (...) {
  }
}

}  // namespace switchyard::bench
