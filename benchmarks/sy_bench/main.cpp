// sy-bench: the papers' experiments. `sy-bench help` lists the subcommands.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/load_client.h"

namespace {

constexpr const char* usage = R"(usage: sy-bench <subcommand> [options] [-ORB... options]
  server  [--ior-file PATH] [--servants N] [--operations K] [--transport iiop|uiop]
          [--adapters name/servant_demux/operation_demux/N/K,...]
          [--no-object-id-table] [--nap] [--interceptors N]
  demux   [--servants 1,100,...] [--operations 1,10,100]
          [--strategy linear,binary,dynamic,perfect,perfect-fast,active]
          [--servant-demux ...] [--operation-demux ...] [--all-pairs] [--no-object-id-table]
          [--invocation request-train,round-robin,random,worst-case] [--series iiop,collocated]
          [--rounds R] [--blocks B] [--per-visit K] [--warmup W] [--seed S] [--no-instrument]
          (paired: every strategy, a reference and its A/A twin, and a socket sentinel in each block)
  latency [--mode twoway,oneway] [--types none,octet,short,long,double,char,binstruct] [--units 1,2,...,1024]
          [--echo-types echo_doubles,echo_longs,echo_records,echo_narecords,echo_any|none]
          [--echo-bytes 144,2416,...,24016]
          [--samples N] [--servants N] [--invocation ...] [--series switchyard,socket,ace,omniorb]
          [--interface sii,dii,ami] [--dii-request reuse|per-call] [--interceptors 0,1,4]
  ttcp    [--types octet,...] [--buffers 1K,...,128K] [--queues 8K,64K,default] [--total-bytes 64M]
          [--repeats 5] [--series switchyard,socket,ace,omniorb]
  handshake [--connections 2000] [--rounds 10] [--batch 50] [--series switchyard,socket,omniorb]
          (a new connection and its first two-way call per sample; the client ORBs are made beforehand)
  soak    [--requests 10000000] [--servants 1000] [--clients 4]
          [--models adaptive,reactive,thread-per-connection,thread-pool]
  load    [--connections 1,4,16,64,256,1024] [--calls null,octet1k] [--window-ms 5000] [--warmup-ms 1000]
          [--series switchyard-adaptive,switchyard-reactive,switchyard-thread-per-connection,
                    switchyard-thread-pool,omniorb-thread-per-connection,omniorb-thread-pool,socket]
          [--client-processes 2] [--client-threads 2] [--socket-threads CPUs] [--append]
          [--mix fast|blocking] [--blocking-fraction 0.01] [--blocking-ms 10]
          (-ORB options add the series "switchyard -ORB..." with those options; unpinned by default;
          --mix blocking: 1 % of the calls nap 10 ms, each point also fast-only, to load_blocking.csv)
  report  DIR
every experiment: [--out DIR] [--quick | --paper] [--pin same|split|none] [--transport iiop|uiop] [--collocated]
latency, ttcp, handshake: [--transport iiop,ssliop,uiop]  our ORB's and omniORB's series over each (ssliop: TLS,
  client certificates required, certificates by scripts/make-tls-certs in a temporary folder, or
  [--tls-certs DIR] with the same file names); the baselines stay TCP
demux, latency, ttcp: [--netns] [--link RATE[,DELAY]]  servers and clients in network namespaces of their own,
  joined by a veth pair (shaped by tc with --link, e.g. 155mbit; needs root), references through omniNames
--no-object-id-table (server, demux): perfect servant demux by the run-time hash alone, without the
  build-time gperf table over ttcp_0..ttcp_999 (demux.csv's object_id_table column says which served)
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << usage;
    return args.empty() ? 2 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "server") return switchyard::bench::server_main(args);
    switchyard::bench::stop_children_on_signals();
    if (command == "demux") return switchyard::bench::demux_main(args);
    if (command == "latency") return switchyard::bench::latency_main(args);
    if (command == "ttcp") return switchyard::bench::ttcp_main(args);
    if (command == "handshake") return switchyard::bench::handshake_main(args);
    if (command == "soak") return switchyard::bench::soak_main(args);
    if (command == "load") return switchyard::bench::load_main(args);
    if (command == "load-client") return switchyard::bench::load_client_main(args);  // started by `load`
    if (command == "report") return switchyard::bench::report_main(args);
    std::cerr << "sy-bench: unknown subcommand '" << command << "'\n" << usage;
    return 2;
  } catch (const switchyard::bench::usage_error& e) {
    std::cerr << "sy-bench " << command << ": " << e.what() << "\n" << usage;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sy-bench " << command << ": " << e.what() << "\n";
    return 1;
  }
}
