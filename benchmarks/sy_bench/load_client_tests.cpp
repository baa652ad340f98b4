// The load experiment's parts that decide its figures: the latency histogram, the raw GIOP
// request and the reply check of the load client, and the epoll socket server's replies (the same
// octets as our server's, for both calls). Suite 'bench'; EPOLL_SERVER names the built program.
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
#include <thread>

#include "benchmarks/sy_bench/bench_interface.h"
#include "benchmarks/sy_bench/latency_histogram.h"
#include "benchmarks/sy_bench/load_client.h"
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
