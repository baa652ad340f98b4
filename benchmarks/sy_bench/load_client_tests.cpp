// The load experiment's parts that decide its figures: the latency histogram, the raw GIOP
// request and the reply check of the load client, the epoll socket server's replies (the same
// octets as our server's, for both calls), and the blocking mix: which requests are naps, how the
// fast and slow calls are counted, and a whole load client run against our server with the mix.
// Suite 'bench'; EPOLL_SERVER names the built program.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/latency_histogram.h"
#include "benchmarks/sy_bench/load_client.h"
#include "benchmarks/sy_bench/load_nap_servant.h"
#include "benchmarks/sy_bench/process.h"
#include "orb/giop/message_header.h"
#include "orb/giop/messages.h"
#include "orb/giop/protocol.h"
#include "orb/ior/object_reference.h"
#include "switchyard/orb.h"

using namespace switchyard;
using namespace switchyard::bench;

namespace {

std::vector<std::byte> plain_reply(std::uint32_t request_id) {
  cdr::output_stream out(64, 2);
  auto mark = giop::giop_1_2().begin_plain_reply(out, request_id);
  auto bytes = giop::protocol::finish(out, mark);
  return {bytes.begin(), bytes.end()};
}

std::vector<std::byte> system_exception_reply(std::uint32_t request_id) {
  cdr::output_stream out(128, 2);
  auto mark = giop::giop_1_2().begin_reply(out, request_id, giop::reply_status::system_exception);
  giop::write_system_exception(out, "IDL:omg.org/CORBA/NO_IMPLEMENT:1.0", 1, CompletionStatus::no);
  auto bytes = giop::protocol::finish(out, mark);
  return {bytes.begin(), bytes.end()};
}

giop::request_header decode(const raw_request& request) {
  auto view = giop::make_message_view(request.bytes);
  REQUIRE(view.header.type == giop::message_type::request);
  REQUIRE(view.header.ver == giop::version{1, 2});
  return giop::giop_1_2().decode_request(view);
}

// A blocking loopback connection with a 10 s bound on every wait.
struct raw_connection {
  int fd = -1;
  explicit raw_connection(std::uint16_t port) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  }
  ~raw_connection() { ::close(fd); }
  // Sends the request and returns the one message that answers it.
  std::vector<std::byte> call(const raw_request& request) {
    REQUIRE(::send(fd, request.bytes.data(), request.bytes.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(request.bytes.size()));
    std::vector<std::byte> message;
    std::size_t want = giop::header_size;
    while (message.size() < want) {
      pollfd p{fd, POLLIN, 0};
      REQUIRE(::poll(&p, 1, 10000) == 1);
      std::byte chunk[4096];
      ssize_t n = ::recv(fd, chunk, std::min(sizeof chunk, want - message.size()), 0);
      REQUIRE(n > 0);
      message.insert(message.end(), chunk, chunk + n);
      if (message.size() == giop::header_size) {
        auto header = giop::decode_header(message);
        REQUIRE(header.status == giop::header_status::ok);
        want += header.header.body_size;
      }
    }
    return message;
  }
};

}  // namespace

TEST_CASE("latency histogram: buckets tile the values, exact below 128 ns, 1.6 % above", "[bench][load]") {
  for (std::uint64_t v = 0; v < 128; ++v) CHECK(latency_histogram::index_of(v) == v);
  for (std::size_t i = 0; i + 1 < latency_histogram::bucket_count; ++i) {
    REQUIRE(latency_histogram::lowest_in(i + 1) == latency_histogram::highest_in(i) + 1);
    REQUIRE(latency_histogram::index_of(latency_histogram::lowest_in(i)) == i);
    REQUIRE(latency_histogram::index_of(latency_histogram::highest_in(i)) == i);
    double width = static_cast<double>(latency_histogram::highest_in(i) - latency_histogram::lowest_in(i) + 1);
    if (i < latency_histogram::exact_below) REQUIRE(width == 1);
    else REQUIRE(width / static_cast<double>(latency_histogram::lowest_in(i)) <= 1.0 / 64);
  }
  CHECK(latency_histogram::index_of(std::uint64_t{1} << 40) == latency_histogram::bucket_count - 1);
  CHECK(latency_histogram::index_of(~std::uint64_t{0}) == latency_histogram::bucket_count - 1);
}

TEST_CASE("latency histogram: quantiles, merge and the text form", "[bench][load]") {
  latency_histogram low, high;
  for (std::uint64_t v = 1; v <= 1000; ++v) low.record(v * 1000);  // 1..1000 us
  high.record(50'000'000);                                         // one 50 ms stall
  CHECK(low.count() == 1000);
  CHECK(low.quantile_ns(0.5) == Approx(500'000).epsilon(0.016));
  CHECK(low.quantile_ns(0.99) == Approx(990'000).epsilon(0.016));
  CHECK(low.quantile_ns(1.0) == Approx(1'000'000).epsilon(0.016));
  CHECK(latency_histogram().quantile_ns(0.5) == 0);

  latency_histogram all = low;
  all.merge(high);
  CHECK(all.count() == 1001);
  CHECK(all.quantile_ns(1.0) == Approx(50'000'000).epsilon(0.016));

  auto again = latency_histogram::parse(all.to_text());
  CHECK(again.count() == all.count());
  CHECK(again.to_text() == all.to_text());
  CHECK(latency_histogram::parse("").count() == 0);
  CHECK_THROWS_AS(latency_histogram::parse("12"), std::invalid_argument);
  CHECK_THROWS_AS(latency_histogram::parse("x:1"), std::invalid_argument);
  CHECK_THROWS_AS(latency_histogram::parse("999999:1"), std::invalid_argument);
}

TEST_CASE("load client: the requests are GIOP 1.2 calls on the key, ids patched in place", "[bench][load]") {
  auto key = iop::to_octets("SY\x01\x00key-of-ttcp_0");
  auto null_call = build_raw_request(key, load_call::null_call);
  auto header = decode(null_call);
  CHECK(header.operation == "sendNoParams_2way");
  CHECK(header.response_flags == giop::response_flags::with_target);
  CHECK(header.service_contexts.empty());
  REQUIRE(header.target.disposition == giop::addressing_disposition::key_addr);
  CHECK(std::vector<std::byte>(header.target.object_key.begin(), header.target.object_key.end()) == key);
  CHECK(header.body.remaining() == 0);
  null_call.set_request_id(77);
  CHECK(decode(null_call).request_id == 77);

  auto octets = build_raw_request(key, load_call::octets_1k);
  auto octet_header = decode(octets);
  CHECK(octet_header.operation == "sendOctetSeq_2way");
  CHECK(octet_header.body.read_ulong() == 1024);
  CHECK(octet_header.body.remaining() == 1024);
  octets.set_request_id(0xfedcba98);
  CHECK(decode(octets).request_id == 0xfedcba98);

  CHECK(parse_load_call("null") == load_call::null_call);
  CHECK(parse_load_call("octet1k") == load_call::octets_1k);
  CHECK_FALSE(parse_load_call("octet"));
}

TEST_CASE("load client: only a NO_EXCEPTION Reply with the request's id counts", "[bench][load]") {
  CHECK(check_reply(plain_reply(5), 5) == reply_check::ok);
  CHECK(check_reply(plain_reply(5), 6) == reply_check::wrong_request_id);
  CHECK(check_reply(system_exception_reply(5), 5) == reply_check::not_no_exception);
  auto request = build_raw_request(iop::to_octets("k"), load_call::null_call);
  CHECK(check_reply(request.bytes, 1) == reply_check::not_a_reply);
  auto truncated = plain_reply(5);
  truncated.resize(20);
  CHECK(check_reply(truncated, 5) == reply_check::malformed);
  auto not_giop = plain_reply(5);
  not_giop[0] = std::byte{'X'};
  CHECK(check_reply(not_giop, 5) == reply_check::malformed);
}

TEST_CASE("load client: object keys as hex", "[bench][load]") {
  auto key = iop::to_octets(std::string("\x00\x01\xab\xff", 4));
  CHECK(hex_of(key) == "0001abff");
  CHECK(octets_from_hex("0001ABff") == key);
  CHECK_THROWS_AS(octets_from_hex("abc"), std::invalid_argument);
  CHECK_THROWS_AS(octets_from_hex("zz"), std::invalid_argument);
}

TEST_CASE("epoll server: answers both calls with the octets our server sends", "[bench][load]") {
  const char* program = std::getenv("EPOLL_SERVER");
  REQUIRE(program != nullptr);
  // Our server: sy-bench's ttcp_sequence servant in an ORB of this process.
  auto orb = orb_init({"-ORBListenEndpoints", "iiop://127.0.0.1:0"});
  auto ref = orb->root_adapter().activate_with_id("ttcp_0", std::make_shared<bench_servant>(0));
  std::thread serving([&] { orb->run(); });
  auto targets = iop::targets_of(iop::parse_ior_string(orb->object_to_string(ref)));
  REQUIRE(!targets.empty());
  const auto& key = targets.front().object_key;

  auto port_file = std::filesystem::temp_directory_path() / ("epoll-server-test-" + std::to_string(getpid()));
  std::filesystem::remove(port_file);
  auto server = child_process::start({program, "--port-file", port_file.string(), "--threads", "2"}, true);
  auto lines = wait_for_lines(port_file, 1, server, std::chrono::seconds(10));
  std::filesystem::remove(port_file);
  {
    raw_connection ours(targets.front().where.port);
    raw_connection epoll(static_cast<std::uint16_t>(std::stoul(lines.front())));
    std::uint32_t id = 41;
    for (auto call : {load_call::null_call, load_call::octets_1k, load_call::null_call}) {
      auto request = build_raw_request(key, call);
      request.set_request_id(++id);
      auto expected = ours.call(request);
      CHECK(check_reply(expected, id) == reply_check::ok);
      CHECK(expected == plain_reply(id));
      CHECK(epoll.call(request) == expected);
    }
  }
  server.stop();
  orb->shutdown(true);
  serving.join();
  orb->destroy();
}

TEST_CASE("blocking mix: the nap request is LoadNap::nap(ms) on its own key", "[bench][load]") {
  auto key = iop::to_octets("SY\x01\x00key-of-nap");
  auto nap = build_nap_request(key, 10);
  auto header = decode(nap);
  CHECK(header.operation == "nap");
  CHECK(header.response_flags == giop::response_flags::with_target);
  REQUIRE(header.target.disposition == giop::addressing_disposition::key_addr);
  CHECK(std::vector<std::byte>(header.target.object_key.begin(), header.target.object_key.end()) == key);
  CHECK(header.body.read_long() == 10);
  CHECK(header.body.remaining() == 0);
  nap.set_request_id(9);
  CHECK(decode(nap).request_id == 9);
}

TEST_CASE("blocking mix: the seeded draw picks the fraction asked, the same for the same seed", "[bench][load]") {
  auto slow_of = [](double fraction, std::uint64_t seed, int draws) {
    blocking_mix mix(fraction, seed);
    std::vector<bool> picks;
    for (int i = 0; i < draws; ++i) picks.push_back(mix.next_is_slow());
    return picks;
  };
  auto count = [](const std::vector<bool>& picks) { return std::count(picks.begin(), picks.end(), true); };
  CHECK(count(slow_of(0, 1, 10000)) == 0);
  CHECK(count(slow_of(1, 1, 10000)) == 10000);
  // 1 % of 100000: 1000, sd ~31; the bounds are over 6 sd wide, and the sequence is fixed anyway.
  auto one_percent = slow_of(0.01, 1, 100000);
  CHECK(count(one_percent) > 800);
  CHECK(count(one_percent) < 1200);
  CHECK(count(slow_of(0.5, 7, 10000)) > 4600);
  CHECK(count(slow_of(0.5, 7, 10000)) < 5400);
  CHECK(slow_of(0.01, 1, 100000) == one_percent);  // deterministic
  CHECK(slow_of(0.01, 2, 100000) != one_percent);  // another process's or thread's seed, other picks
  // The slow picks are spread: not bunched at the start or the end of the run.
  auto first_half = std::count(one_percent.begin(), one_percent.begin() + 50000, true);
  CHECK(first_half > 400);
  CHECK(first_half < 600);

  CHECK(parse_blocking_fraction("0.01") == 0.01);
  CHECK(parse_blocking_fraction("1") == 1.0);
  CHECK(parse_blocking_fraction("0") == 0.0);
  CHECK_FALSE(parse_blocking_fraction("1.5"));
  CHECK_FALSE(parse_blocking_fraction("-0.1"));
  CHECK_FALSE(parse_blocking_fraction("1%"));
  CHECK_FALSE(parse_blocking_fraction(""));
  CHECK_FALSE(parse_blocking_fraction("nan"));
}

TEST_CASE("blocking mix: fast and slow calls are counted apart, only within the window", "[bench][load]") {
  load_tally tally;
  tally.reply(false, true, true, 50'000);      // a fast call in the window
  tally.reply(false, true, true, 70'000);      // another
  tally.reply(true, true, true, 10'100'000);   // a nap in the window
  tally.reply(false, true, false, 1'000'000);  // a fast call after the window: not counted
  tally.reply(true, true, false, 10'000'000);  // a nap after the window: not counted
  tally.reply(true, false, true, 10'000'000);  // a nap answered with an exception: an error
  tally.reply(false, false, false, 1'000);     // a bad reply counts whenever it comes
  CHECK(tally.fast_requests == 2);
  CHECK(tally.fast.count() == 2);
  CHECK(tally.slow_requests == 1);
  CHECK(tally.slow.count() == 1);
  CHECK(tally.errors == 2);
  CHECK(tally.fast.quantile_ns(1.0) == Approx(70'000).epsilon(0.016));  // no nap among the fast calls
  CHECK(tally.slow.quantile_ns(1.0) == Approx(10'100'000).epsilon(0.016));
}

TEST_CASE("blocking mix: a load client run against our server counts naps apart", "[bench][load]") {
  // Our server: the ttcp servant and the LoadNap servant in an ORB of this process.
  auto orb = orb_init({"-ORBListenEndpoints", "iiop://127.0.0.1:0"});
  auto ttcp = orb->root_adapter().activate_with_id("ttcp_0", std::make_shared<bench_servant>(0));
  auto nap = orb->root_adapter().activate_with_id("nap", make_load_nap_servant());
  std::thread serving([&] { orb->run(); });
  auto ttcp_target = iop::targets_of(iop::parse_ior_string(orb->object_to_string(ttcp))).front();
  auto nap_key = iop::targets_of(iop::parse_ior_string(orb->object_to_string(nap))).front().object_key;
  {
    // The nap request as the client sends it is served: a NO_EXCEPTION Reply.
    raw_connection connection(ttcp_target.where.port);
    auto request = build_nap_request(nap_key, 1);
    request.set_request_id(3);
    CHECK(check_reply(connection.call(request), 3) == reply_check::ok);
  }
  // A go file whose window opens now and lasts 400 ms (the client's setup runs inside it; what
  // arrives before "ready" is only the setup calls, which are never counted).
  auto go_file = std::filesystem::temp_directory_path() / ("load-mix-test-" + std::to_string(getpid()));
  auto now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  std::ofstream(go_file) << now << " " << now + 400'000'000 << "\n";
  std::ostringstream captured;
  auto* saved = std::cout.rdbuf(captured.rdbuf());
  int status = load_client_main({"--port",
                                 std::to_string(ttcp_target.where.port),
                                 "--key",
                                 hex_of(ttcp_target.object_key),
                                 "--call",
                                 "null",
                                 "--connections",
                                 "4",
                                 "--threads",
                                 "2",
                                 "--go-file",
                                 go_file.string(),
                                 "--nap-key",
                                 hex_of(nap_key),
                                 "--blocking-fraction",
                                 "0.2",
                                 "--blocking-ms",
                                 "1",
                                 "--seed",
                                 "5"});
  std::cout.rdbuf(saved);
  std::filesystem::remove(go_file);
  CHECK(status == 0);
  std::map<std::string, std::string> report;
  std::istringstream lines(captured.str());
  for (std::string line; std::getline(lines, line);) {
    auto space = line.find(' ');
    report[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  INFO(captured.str());
  REQUIRE(report.count("requests"));
  REQUIRE(report.count("slow_requests"));
  CHECK(report["errors"] == "0");
  auto fast = std::stoull(report["requests"]), slow = std::stoull(report["slow_requests"]);
  CHECK(fast > 0);
  CHECK(slow > 0);
  auto fast_histogram = latency_histogram::parse(report["histogram"]);
  auto slow_histogram = latency_histogram::parse(report["slow_histogram"]);
  CHECK(fast_histogram.count() == fast);
  CHECK(slow_histogram.count() == slow);
  // Every nap sleeps at least 1 ms, so no slow round trip is shorter: they are the naps.
  CHECK(slow_histogram.quantile_ns(1e-9) >= 0.98e6);  // the smallest one's bucket (1.6 % wide)
  orb->shutdown(true);
  serving.join();
  orb->destroy();
}

TEST_CASE("blocking mix: no mix without a nap key, nor with a fraction above 1", "[bench][load]") {
  CHECK_THROWS_AS(load_client_main({"--port", "1", "--key", "00", "--call", "null", "--go-file", "/nonexistent",
                                    "--blocking-fraction", "0.01"}),
                  usage_error);
  CHECK_THROWS_AS(load_client_main({"--port", "1", "--key", "00", "--call", "null", "--go-file", "/nonexistent",
                                    "--nap-key", "00", "--blocking-fraction", "2"}),
                  usage_error);
}
