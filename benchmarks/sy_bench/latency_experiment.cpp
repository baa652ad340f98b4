// `sy-bench latency`: one-way and two-way latency of sends of sequences (octet, short, long,
// double, char, BinStruct; 1..1024 units) and of the parameterless call, two-way Integrity::Echo
// calls of the evaluation report's types (echo_calls.h: 144 B..24 KB), for our ORB, the C
// sockets and ACE baselines (sending exactly as many bytes as our ORB's request and reply, counted
// by a relay), and omniORB when its peers are built. Trend lines per series and type (least
// squares over medians: time = fixed + per byte * bytes), as the evaluation report's tables 1-6.
// Our ORB's calls go through generated or hand-written stubs (SII) and, with --interface dii,
// through the Dynamic Invocation Interface (dii_calls.h), its request reused or made per call
// (--dii-request): the latency paper's figures 11-26; with --interface ami, through the AMI callback
// model, one call outstanding, timed to its reply handler (ami_calls.h).
#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string_view>

#include "benchmarks/sy_bench/ami_calls.h"
#include "benchmarks/sy_bench/bench_interceptors.h"
#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/bench_server.h"
#include "benchmarks/sy_bench/csv_table.h"
#include "benchmarks/sy_bench/dii_calls.h"
#include "benchmarks/sy_bench/echo_calls.h"
#include "benchmarks/sy_bench/experiments.h"
#include "benchmarks/sy_bench/peer_tools.h"
#include "benchmarks/sy_bench/statistics.h"
#include "benchmarks/sy_bench/tls_material.h"
#include "switchyard/invocation.h"
#include "switchyard/orb.h"

namespace switchyard::bench {
namespace {

// A ttcp_sequence send (echo empty) or an Integrity::Echo call of `units` elements (echo set; then
// `type` is none and the case is two-way: an echo returns its argument).
struct latency_case {
  bool twoway;
  element_type type;
  std::size_t units;
  std::optional<echo_type> echo = std::nullopt;
};

std::string type_name(const latency_case& c) { return std::string(c.echo ? to_string(*c.echo) : to_string(c.type)); }
std::size_t unit_bytes(const latency_case& c) { return c.echo ? echo_element_bytes(*c.echo) : element_bytes(c.type); }
using case_key = std::tuple<bool, std::string, std::size_t>;
case_key key_of(const latency_case& c) { return {c.twoway, type_name(c), c.units}; }

// How our ORB's calls are made: generated or hand-written stubs, the DII, or the AMI callback
// model with one call outstanding (ami_calls.h).
enum class call_interface { sii, dii, ami };

std::optional<call_interface> parse_call_interface(std::string_view name) {
  if (name == "sii") return call_interface::sii;
  if (name == "dii") return call_interface::dii;
  if (name == "ami") return call_interface::ami;
  return std::nullopt;
}

// One call of a case, its data built once: a ttcp send or an echo, through the stub, the DII
// (with `dii`) or the callback model (with `ami`; two-way cases only).
class case_call {
 public:
  using clock = std::chrono::steady_clock;
  case_call(const latency_case& c, call_interface interface, dii_request_mode dii_request)
      : twoway_(c.twoway),
        ami_(interface == call_interface::ami),
        data_(c.echo ? element_type::none : c.type, c.echo ? 0 : c.units) {
    if (c.echo) echo_.emplace(*c.echo, c.units * echo_element_bytes(*c.echo));
    if (ami_ && !twoway_) throw std::logic_error("an asynchronous call is two-way");
    if (interface != call_interface::dii) return;
    if (echo_) {
      dii_.emplace(dii_operation{std::string(to_string(*c.echo)), echo_->operation_index(), echo_->argument_any(), "v",
                                 echo_->result_type(), true},
                   dii_request);
    } else {
      auto op = send_operation(data_.type(), twoway_);
      std::optional<any> argument;
      if (data_.type() != element_type::none) argument = ttcp_sequence_any(data_);
      dii_.emplace(dii_operation{std::string(op.name), op.index, std::move(argument), "ttcp_seq",
                                 type_code::basic(tc_kind::tk_void), twoway_},
                   dii_request);
    }
  }
  // Calls the `slot`th ttcp target (`ttcp`) or the echo object; returns when the call ended (an
  // asynchronous one: when its reply handler ran).
  clock::time_point operator()(std::size_t slot, const object_ref& ttcp, const object_ref& echo, bool check = false) {
    if (ami_) {
      if (echo_) echo_->call_async(echo, done_, check);
      else send_async(ttcp, data_, done_);
      return done_.wait();
    }
    if (dii_) {
      if (!echo_) {
        (*dii_)(ttcp, slot);
      } else if (check) {
        any got;
        (*dii_)(echo, 0, &got);
        echo_->check_result(got);
      } else {
        (*dii_)(echo, 0);
      }
      return clock::now();
    }
    if (echo_) echo_->call(echo, check);
    else send(ttcp, data_, twoway_);
    return clock::now();
  }

 private:
  bool twoway_;
  bool ami_;
  payload data_;
  std::optional<echo_payload> echo_;
  std::optional<dii_call> dii_;
  async_completion done_;
};

struct message_sizes {
  std::uint64_t request = 0, reply = 0;
};

struct result_row {
  std::string series;
  latency_case c;
  message_sizes sizes;
  summary stats;  // of every sample
  std::vector<double> round_median_us;
  median_interval median;    // of the round medians: the figure reported
  std::string interface;     // "sii", "dii" or "ami" for our ORB, "sii" for omniORB, "" for the baselines
  std::string dii_request;   // "reuse" or "per-call" for dii
  std::string transport;     // iiop, ssliop, uiop; "tcp" for the baselines
  std::string interceptors;  // no-op interceptors of each kind in our client and server; "" for the others
};

// One case of one series: `run(n, warmup, out)` measures n samples (us) after `warmup` untimed
// calls, in one round; `dead` once it failed (omniORB's peer).
struct latency_point {
  std::string series;
  latency_case c;
  std::function<void(std::size_t, std::size_t, std::vector<double>&)> run;
  std::vector<double> samples{}, round_median_us{};
  bool dead = false;
  std::string interface {
  }, dii_request{};  // as result_row's
  std::string transport = "tcp";
  std::string interceptors{};
};

// Our ORB over one transport: its server, the client ORB that calls it (the shared one, or one
// with the TLS client options), the references.
struct switchyard_side {
  std::string transport;
  std::size_t interceptors = 0;
  std::unique_ptr<bench_server> server;
  // ssliop, or interceptors: a client ORB of its own (destroyed at the end)
  std::shared_ptr<orb> own_client;
  std::vector<object_ref> targets;
  object_ref echo;
};

std::string mode_name(bool twoway) { return twoway ? "twoway" : "oneway"; }

// Our ORB's request and reply sizes for each case, counted on the wire through a relay: the second
// call of each case (the first on a connection may carry more service contexts).
std::map<case_key, message_sizes> measure_sizes(const common_options& common, const std::vector<latency_case>& cases,
                                                const std::shared_ptr<orb>& client) {
  common_options iiop = common;
  iiop.transport = "iiop";
  iiop.collocated = false;
  bench_server server(iiop, 1, 0, {}, common.out);
  int port = split_url(server.first_url(), 0).first;
  byte_counting_relay relay(port, server_host(common));
  auto target = client->string_to_object(split_url(server.first_url(), relay.port()).second);
  // Same host and port: the client's connection cache sends both through the one relayed connection.
  auto echo = client->string_to_object(split_url(server.echo_url(), relay.port()).second);
  payload none(element_type::none, 0);
  send(target, none, true);
  auto before = std::pair(relay.to_server(), relay.to_client());
  send(target, none, true);
  message_sizes null_call{relay.to_server() - before.first, relay.to_client() - before.second};
  std::map<case_key, message_sizes> sizes;
  for (auto& c : cases) {
    case_call call(c, call_interface::sii, dii_request_mode::reuse);  // the DII and AMI send the same messages
    call(0, target, echo, true);                                      // the data-integrity check, once per case
    if (!c.twoway) send(target, none, true);
    auto start = std::pair(relay.to_server(), relay.to_client());
    call(0, target, echo);
    if (!c.twoway) send(target, none, true);  // the one-way request is on the wire before this reply
    wait_for_bytes(relay, start.first);
    message_sizes s{relay.to_server() - start.first, relay.to_client() - start.second};
    if (!c.twoway) {
      s.request -= null_call.request;
      s.reply -= null_call.reply;
    }
    sizes[key_of(c)] = s;
  }
  return sizes;
}

// Which servant each sample calls (section 3.7), for --servants > 1.
std::vector<std::uint32_t> targets_for(const std::string& invocation, std::size_t servants, std::size_t samples,
                                       std::mt19937& random) {
  std::vector<std::uint32_t> order(samples);
  std::size_t per_servant = std::max<std::size_t>(1, samples / servants);
  std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(servants - 1));
  for (std::size_t i = 0; i < samples; ++i) {
    if (invocation == "request-train") order[i] = static_cast<std::uint32_t>(std::min(servants - 1, i / per_servant));
    else if (invocation == "round-robin") order[i] = static_cast<std::uint32_t>(i % servants);
    else if (invocation == "random") order[i] = pick(random);
    else order[i] = static_cast<std::uint32_t>(servants - 1);
  }
  return order;
}

// omni_bench_client's --type for a case ("" when it has none): the published ttcp_sequence has
// octets and BinStructs; Echo's types go to the "echo" object.
std::string omni_type(const latency_case& c) {
  if (c.echo) return *c.echo == echo_type::any ? "" : type_name(c);  // TODO: omniORB echo_any
  switch (c.type) {
    case element_type::none:
      return "none";
    case element_type::octet:
      return "octet";
    case element_type::binstruct:
      return "binstruct";
    default:
      return "";
  }
}

}  // namespace

int latency_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto common = parse_common(parser, true);
  bool quick = common.size == preset::quick;
  auto modes =
      parser.list("--mode", quick ? std::vector<std::string>{"twoway"} : std::vector<std::string>{"twoway", "oneway"});
  auto type_names =
      parser.list("--types", quick ? std::vector<std::string>{"octet", "binstruct"}
                                   : std::vector<std::string>{"octet", "short", "long", "double", "char", "binstruct"});
  auto units =
      parser.number_list("--units", quick ? std::vector<std::size_t>{1, 1024}
                                          : std::vector<std::size_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024});
  // Samples per case (docs/experiments.md): 2000 in the default (the whole run takes about a
  // minute), 10000 with --paper, 300 with --quick; after a warm-up of a tenth.
  std::size_t samples = parser.number("--samples").value_or(quick ? 300 : common.size == preset::paper ? 10000 : 2000);
  // Rounds (docs/experiments.md): each point's samples are taken in this many interleaved
  // rounds, each after a warm-up of a tenth of its share (at least 20 calls).
  std::size_t rounds = parser.number("--rounds").value_or(quick ? 6 : common.size == preset::paper ? 20 : 10);
  std::size_t servants = parser.number("--servants").value_or(1);
  auto invocation_name = parser.value("--invocation").value_or("request-train");
  // The evaluation report's message sizes: 144 B, then 2416 B to 24016 B in steps of 2400 B.
  std::vector<std::size_t> report_sizes = {144};
  for (std::size_t b = 2416; b <= 24016; b += 2400) report_sizes.push_back(b);
  auto echo_names = parser.list(
      "--echo-types",
      quick ? std::vector<std::string>{"echo_doubles", "echo_records"}
            : std::vector<std::string>{"echo_doubles", "echo_longs", "echo_records", "echo_narecords", "echo_any"});
  auto echo_sizes = parser.number_list("--echo-bytes", quick ? std::vector<std::size_t>{144, 24016} : report_sizes);
  auto series = parser.list("--series", {"switchyard", "socket", "ace", "omniorb"});
  // Our ORB's calls through the stubs (sii), the DII (dii), the AMI callback model (ami, two-way
  // cases only), or several; a DII request reused for every call or made anew for each
  // (docs/experiments.md, "Static and dynamic invocation" and "Asynchronous calls in the latency
  // experiment").
  auto interfaces = parser.list("--interface", {"sii", "dii"});
  auto dii_request_name = parser.value("--dii-request").value_or("reuse");
  // Our series again with N no-op client and server request interceptors in both ORBs, for each N
  // listed (docs/experiments.md, "What an interceptor costs").
  auto interceptor_counts = parser.number_list("--interceptors", {0});
  parser.finish();
  for (auto n : interceptor_counts)
    if (n > 100) throw usage_error("--interceptors: expected 0..100");
  if (interfaces.empty()) throw usage_error("--interface: expected one or more of sii, dii, ami");
  for (auto& i : interfaces)
    if (!parse_call_interface(i)) throw usage_error("--interface: unknown value '" + i + "' (sii, dii, ami)");
  auto dii_request = parse_dii_request_mode(dii_request_name);
  if (!dii_request) throw usage_error("--dii-request: unknown value '" + dii_request_name + "' (reuse, per-call)");
  if (servants == 0 || servants > 100000) throw usage_error("--servants: expected 1..100000");
  if (samples == 0) throw usage_error("--samples: at least 1");
  if (rounds == 0 || rounds > samples) throw usage_error("--rounds: expected 1..samples");
  static const std::vector<std::string> invocations = {"request-train", "round-robin", "random", "worst-case"};
  if (std::find(invocations.begin(), invocations.end(), invocation_name) == invocations.end())
    throw usage_error("--invocation: unknown value '" + invocation_name + "'");
  std::vector<latency_case> cases;
  for (auto& m : modes) {
    if (m != "twoway" && m != "oneway") throw usage_error("--mode: expected twoway or oneway");
    cases.push_back({m == "twoway", element_type::none, 0});
    for (auto& t : type_names) {
      auto type = parse_element_type(t);
      if (!type || *type == element_type::none) throw usage_error("--types: unknown type '" + t + "'");
      for (auto u : units) {
        if (u == 0 || u > (1u << 20)) throw usage_error("--units: expected 1..1048576");
        cases.push_back({m == "twoway", *type, u});
      }
    }
  }
  // Echo calls are two-way only.
  for (auto& name : echo_names) {
    if (name == "none") continue;
    auto type = parse_echo_type(name);
    if (!type)
      throw usage_error("--echo-types: unknown type '" + name +
                        "' (echo_doubles, echo_longs, echo_records, echo_narecords, echo_any, none)");
    for (auto b : echo_sizes) {
      if (b == 0 || b > (16u << 20)) throw usage_error("--echo-bytes: expected 1..16M");
      cases.push_back({true, element_type::none, std::max<std::size_t>(1, b / echo_element_bytes(*type)), *type});
    }
  }
  auto wants = [&](const char* s) { return std::find(series.begin(), series.end(), s) != series.end(); };
  set_up_network(common);
  const std::string host = server_host(common);

  std::filesystem::create_directories(common.out);
  std::cerr << "latency: " << apply_pinning(common.pin) << ", preset " << to_string(common.size) << ", " << cases.size()
            << " cases x " << samples << " samples in " << rounds << " rounds, out " << common.out.string() << "\n";
  note_run(common, "latency",
           std::to_string(samples) + " samples per case in " + std::to_string(rounds) + " interleaved rounds");
  auto client = orb_init(common.orb_args);
  auto sizes = measure_sizes(common, cases, client);

  // Every series' server first, then the samples in rounds: each round measures a share of every
  // point's samples (a point: a series and a case), the points in a freshly shuffled order, so a
  // busy stretch of the machine slows every series alike (docs/experiments.md).
  std::vector<latency_point> points;
  std::vector<std::unique_ptr<switchyard_side>> sides;
  std::vector<std::unique_ptr<case_call>> calls;
  std::vector<std::unique_ptr<baseline_server>> baseline_servers;
  std::vector<std::unique_ptr<omni_server>> omnis;
  // --transport ssliop: certificates for our ORB's and omniORB's servers and clients, made once.
  std::unique_ptr<tls_material> tls;
  if (std::find(common.transports.begin(), common.transports.end(), "ssliop") != common.transports.end())
    tls = std::make_unique<tls_material>(common.tls_certs);
  std::mt19937 random(7);
  std::vector<std::pair<std::string, std::size_t>> switchyard_variants;
  for (auto& transport : common.transports)
    for (auto n : interceptor_counts) switchyard_variants.emplace_back(transport, n);
  for (auto& [transport, interceptors] : switchyard_variants) {
    if (!wants("switchyard")) break;
    auto side = std::make_unique<switchyard_side>();
    side->transport = transport;
    side->interceptors = interceptors;
    common_options over = common;
    over.transport = transport;
    std::vector<std::string> server_args = {"-ORBInstrument", "0"};
    std::shared_ptr<orb> side_client = client;
    auto client_args = common.orb_args;
    if (transport == "ssliop") {
      auto more = tls->server_args(host);
      server_args.insert(server_args.end(), more.begin(), more.end());
      auto mine = tls->client_args();
      client_args.insert(client_args.end(), mine.begin(), mine.end());
    }
    // A client ORB of its own for TLS (not when collocated: the server's ORB calls itself), and
    // for interceptors, which an ORB gets only when it is made.
    if ((transport == "ssliop" && !common.collocated) || interceptors != 0) {
      no_op_interceptors_scope with(interceptors);
      side->own_client = orb_init(client_args);
      side_client = side->own_client;
    }
    side->server =
        std::make_unique<bench_server>(over, servants, 0, server_args, common.out, true, false, interceptors);
    auto& orb = side->server->local_orb() ? side->server->local_orb() : side_client;
    for (auto& ior : side->server->ttcp_iors()) side->targets.push_back(orb->string_to_object(ior));
    side->echo = orb->string_to_object(side->server->echo_ior());
    payload none(element_type::none, 0);
    for (auto& t : side->targets) send(t, none, true);
    auto& targets = side->targets;
    auto& echo = side->echo;
    for (auto& interface : interfaces) {
      auto kind = *parse_call_interface(interface);
      for (auto& c : cases) {
        if (kind == call_interface::ami && !c.twoway) continue;  // AMI calls are two-way
        calls.push_back(std::make_unique<case_call>(c, kind, *dii_request));
        auto& call = *calls.back();
        call(0, targets[0], echo, true);  // the data-integrity check
        auto order =
            std::make_shared<std::vector<std::uint32_t>>(targets_for(invocation_name, servants, samples, random));
        auto next = std::make_shared<std::size_t>(0);  // where in `order` the next round goes on
        bool oneway = !c.twoway;
        points.push_back({"switchyard", c,
                          [&call, &targets, &echo, order, next, oneway](std::size_t n, std::size_t warmup,
                                                                        std::vector<double>& out) {
                            for (std::size_t i = 0; i < warmup; ++i) {
                              auto slot = (*order)[(*next + i) % order->size()];
                              call(slot, targets[slot], echo);
                            }
                            for (std::size_t i = 0; i < n; ++i) {
                              auto slot = (*order)[(*next)++ % order->size()];
                              auto& target = targets[slot];
                              auto t0 = std::chrono::steady_clock::now();
                              auto t1 = call(slot, target, echo);
                              out.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
                            }
                            if (oneway)
                              send(targets[0], payload(element_type::none, 0), true);  // drain before the next point
                          }});
        points.back().interface = interface;
        points.back().transport = transport;
        points.back().interceptors = std::to_string(interceptors);
        if (kind == call_interface::dii) points.back().dii_request = std::string(to_string(*dii_request));
      }
    }
    sides.push_back(std::move(side));
  }
  for (const char* baseline : {"socket", "ace"}) {
    if (!wants(baseline)) continue;
    auto program = built_tool(std::string("baselines/") + baseline + "_baseline");
    if (!program) {
      std::cerr << "latency: " << baseline << "_baseline not built: no " << baseline << " series\n";
      continue;
    }
    baseline_servers.push_back(std::make_unique<baseline_server>(*program, common.out, 0, host));
    int port = baseline_servers.back()->port();
    auto samples_file = common.out / (std::string(".samples-") + baseline);
    for (auto& c : cases) {
      auto size = sizes[key_of(c)];
      std::vector<std::string> argv = {program->string(), "latency",
                                       "--host",          host,
                                       "--port",          std::to_string(port),
                                       "--request-bytes", std::to_string(size.request),
                                       "--reply-bytes",   std::to_string(c.twoway ? size.reply : 0),
                                       "--samples-out",   samples_file.string()};
      points.push_back(
          {baseline, c, [argv, samples_file, &common](std::size_t n, std::size_t warmup, std::vector<double>& out) {
             auto with_counts = argv;
             with_counts.insert(with_counts.end(),
                                {"--samples", std::to_string(n), "--warmup", std::to_string(warmup)});
             run_client(with_counts, common.out);
             auto got = read_samples_us(samples_file);
             out.insert(out.end(), got.begin(), got.end());
           }});
    }
  }
  // omniORB over each transport asked for (iiop for uiop: its peers speak TCP or SSL).
  std::vector<std::string> omni_transports;
  for (auto& t : common.transports)
    if (std::find(omni_transports.begin(), omni_transports.end(), omni_transport(t)) == omni_transports.end())
      omni_transports.push_back(omni_transport(t));
  if (wants("omniorb")) {
    auto server_program = built_tool("peers/omni_server");
    auto client_program = built_tool("peers/omni_bench_client");
    if (!server_program || !client_program) {
      std::cerr << "latency: omniORB peers not built: no omniorb series\n";
    } else {
      for (auto& transport : omni_transports) {
        try {
          std::vector<std::string> ssl;
          if (transport == "ssliop") ssl = tls->omni_args();
          omnis.push_back(std::make_unique<omni_server>(*server_program, common.out, 1, 0, ssl, host));
          auto samples_file = common.out / ".samples-omniorb";
          for (auto& c : cases) {
            auto type = omni_type(c);
            if (type.empty()) continue;
            std::vector<std::string> argv = {client_program->string(),
                                             "--ior-file",
                                             omnis.back()->ior_file().string(),
                                             "--object",
                                             c.echo ? "echo" : "ttcp/0",
                                             "latency",
                                             "--mode",
                                             mode_name(c.twoway),
                                             "--type",
                                             type,
                                             "--units",
                                             std::to_string(std::max<std::size_t>(c.units, 1)),
                                             "--samples-out",
                                             samples_file.string()};
            argv.insert(argv.end(), ssl.begin(), ssl.end());
            points.push_back(
                {"omniorb", c,
                 [argv, samples_file, &common](std::size_t n, std::size_t warmup, std::vector<double>& out) {
                   auto with_counts = argv;
                   with_counts.insert(with_counts.end(),
                                      {"--samples", std::to_string(n), "--warmup", std::to_string(warmup)});
                   run_client(with_counts, common.out);
                   auto got = read_samples_us(samples_file);
                   out.insert(out.end(), got.begin(), got.end());
                 }});
            points.back().interface = "sii";  // omni_bench_client's stubs
            points.back().transport = transport;
          }
        } catch (const std::exception& e) {
          std::cerr << "latency: omniorb " << transport << " series skipped: " << e.what() << "\n";
        }
      }
    }
  }

  std::vector<std::size_t> order(points.size());
  std::vector<double> round_samples;
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), random);
    std::size_t n = samples * (round + 1) / rounds - samples * round / rounds;
    if (n == 0) continue;
    std::size_t warmup = std::max<std::size_t>(20, n / 10);
    for (auto i : order) {
      auto& point = points[i];
      if (point.dead) continue;
      round_samples.clear();
      try {
        point.run(n, warmup, round_samples);
      } catch (const std::exception& e) {
        if (point.series != "omniorb") throw;
        std::cerr << "latency omniorb " << point.transport << " " << mode_name(point.c.twoway) << " "
                  << type_name(point.c) << ": " << e.what() << "\n";
        point.dead = true;
        continue;
      }
      if (round_samples.empty()) continue;
      point.round_median_us.push_back(summarize(round_samples).median);
      point.samples.insert(point.samples.end(), round_samples.begin(), round_samples.end());
    }
    std::cerr << "latency: round " << round + 1 << "/" << rounds << " of " << points.size() << " points\n";
  }
  for (auto& side : sides) side->server->stop();
  baseline_servers.clear();
  omnis.clear();
  for (const char* name : {".samples-socket", ".samples-ace", ".samples-omniorb"}) {
    std::error_code ignored;
    std::filesystem::remove(common.out / name, ignored);
  }
  for (auto& side : sides)
    if (side->own_client) side->own_client->destroy();
  client->destroy();

  std::vector<result_row> results;
  for (auto& point : points) {
    if (point.samples.empty()) continue;
    result_row row{point.series,           point.c,
                   sizes[key_of(point.c)], summarize(point.samples),
                   point.round_median_us,  median_with_interval(point.round_median_us),
                   point.interface,        point.dii_request,
                   point.transport,        point.interceptors};
    std::cerr << "latency " << row.series
              << (row.transport == "iiop" || row.transport == "tcp" ? "" : " " + row.transport)
              << (row.interface == "dii"   ? " dii " + row.dii_request
                  : row.interface == "ami" ? " ami"
                                           : "")
              << (row.interceptors.empty() || row.interceptors == "0" ? "" : " " + row.interceptors + " interceptors")
              << " " << mode_name(row.c.twoway) << " " << type_name(row.c) << " x" << row.c.units << ": median "
              << format_number(row.median.median, 2) << " us";
    if (row.median.has_interval())
      std::cerr << " [" << format_number(row.median.low, 2) << ", " << format_number(row.median.high, 2) << "]";
    std::cerr << "\n";
    results.push_back(std::move(row));
  }

  // Tables: ratio to the socket's mean for the same case, trend lines per series, mode and type.
  std::map<case_key, double> socket_mean;
  // Ratios and trend lines use medians: on a shared 2-vCPU machine a few scheduler stalls of
  // milliseconds move a mean by more than the differences we measure (the means are in the CSV).
  for (auto& r : results)
    if (r.series == "socket") socket_mean[key_of(r.c)] = r.median.median;
  csv_table table;
  table.columns = {"series",
                   "mode",
                   "type",
                   "units",
                   "bytes",
                   "request_bytes",
                   "reply_bytes",
                   "servants",
                   "invocation",
                   "samples",
                   "mean_us",
                   "median_us",
                   "p99_us",
                   "stddev_us",
                   "first_us",
                   "min_us",
                   "ratio_to_socket",
                   "link",
                   "rounds",
                   "ci_low_us",
                   "ci_high_us",
                   "pooled_median_us",
                   "interface",
                   "dii_request",
                   "transport",
                   "interceptors"};
  for (auto& r : results) {
    auto it = socket_mean.find(key_of(r.c));
    std::string ratio = it != socket_mean.end() && it->second > 0 ? format_number(r.median.median / it->second, 3) : "";
    std::size_t bytes = std::max<std::size_t>(1, r.c.units) * unit_bytes(r.c);
    table.add({r.series,
               mode_name(r.c.twoway),
               type_name(r.c),
               std::to_string(r.c.units),
               std::to_string(bytes),
               std::to_string(r.sizes.request),
               std::to_string(r.c.twoway ? r.sizes.reply : 0),
               std::to_string(r.series == "switchyard" ? servants : 1),
               invocation_name,
               std::to_string(r.stats.samples),
               format_number(r.stats.mean),
               format_number(r.median.median),
               format_number(r.stats.p99),
               format_number(r.stats.stddev),
               format_number(r.stats.first),
               format_number(r.stats.min),
               ratio,
               link_label(common),
               std::to_string(r.round_median_us.size()),
               r.median.has_interval() ? format_number(r.median.low) : "",
               r.median.has_interval() ? format_number(r.median.high) : "",
               format_number(r.stats.median),
               r.interface,
               r.dii_request,
               r.transport,
               r.interceptors});
  }
  table.write(common.out / "latency.csv");

  csv_table trends;
  trends.columns = {"series",
                    "mode",
                    "type",
                    "fixed_us",
                    "per_byte_ns",
                    "points",
                    "fixed_ratio_to_socket",
                    "per_byte_ratio_to_socket",
                    "interface",
                    "dii_request",
                    "transport",
                    "interceptors"};
  // (series, mode, type, interface, dii_request, transport, interceptors)
  using trend_key = std::tuple<std::string, bool, std::string, std::string, std::string, std::string, std::string>;
  std::map<trend_key, std::pair<std::vector<double>, std::vector<double>>> trend_points;
  for (auto& r : results) {
    if (!r.c.echo && r.c.type == element_type::none) continue;
    auto& p =
        trend_points[{r.series, r.c.twoway, type_name(r.c), r.interface, r.dii_request, r.transport, r.interceptors}];
    p.first.push_back(static_cast<double>(r.c.units * unit_bytes(r.c)));
    p.second.push_back(r.median.median);
  }
  std::map<std::pair<bool, std::string>, trend_line> socket_lines;
  for (auto& [key, p] : trend_points)
    if (std::get<0>(key) == "socket") socket_lines[{std::get<1>(key), std::get<2>(key)}] = fit_line(p.first, p.second);
  for (auto& [key, p] : trend_points) {
    if (p.first.size() < 2) continue;
    auto line = fit_line(p.first, p.second);
    auto socket = socket_lines.find({std::get<1>(key), std::get<2>(key)});
    std::string fixed_ratio, byte_ratio;
    if (socket != socket_lines.end()) {
      if (socket->second.fixed > 0) fixed_ratio = format_number(line.fixed / socket->second.fixed, 3);
      if (socket->second.per_unit > 0 && line.per_unit >= 0)
        byte_ratio = format_number(line.per_unit / socket->second.per_unit, 3);
    }
    trends.add({std::get<0>(key), mode_name(std::get<1>(key)), std::get<2>(key), format_number(line.fixed, 4),
                format_number(line.per_unit * 1000.0, 4), std::to_string(line.points), fixed_ratio, byte_ratio,
                std::get<3>(key), std::get<4>(key), std::get<5>(key), std::get<6>(key)});
  }
  trends.write(common.out / "latency_trends.csv");
  std::cerr << "latency: " << table.rows.size() << " rows -> " << (common.out / "latency.csv").string() << "\n";
  run_report(common.out);
  return 0;
}

}  // namespace switchyard::bench
