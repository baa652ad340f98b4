// Zero-copy sends of large arguments: the gather form of GIOP's finish, byte for byte against the
// contiguous message, and requests whose large sequences go out as external chunks arriving
// intact over loopback in every GIOP version, two-way and one-way, mixed with small calls,
// forwarded, and with more large arguments than the stream records as chunks.
#include <atomic>
#include "orb/giop/protocol.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <vector>

#include "orb/giop/messages.h"
#include "switchyard/invocation.h"
#include "switchyard/servant.h"
#include "switchyard/server_request.h"
#include "tests/core/orb_fixture.h"

using namespace switchyard;
using test::serving_orb;

namespace {

std::vector<std::uint8_t> octets(std::size_t n, std::uint8_t seed = 1) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i * 31 + seed);
  return v;
}

std::vector<double> doubles(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i) * 0.5 - 1000;
  return v;
}

// BinStruct's memory layout is its CDR layout (s at 0, c at 2, l at 4, o at 8, d at 16, size 24):
// a block of them is one write_octets. The padding is zeroed so that no memory contents travel.
static_assert(sizeof(hand::BinStruct) == 24 && offsetof(hand::BinStruct, d) == 16);
std::vector<hand::BinStruct> structs(std::size_t n) {
  std::vector<hand::BinStruct> v(n);
  std::memset(static_cast<void*>(v.data()), 0, n * sizeof(hand::BinStruct));
  for (std::size_t i = 0; i < n; ++i) {
    v[i].s = static_cast<std::int16_t>(i);
    v[i].c = 'x';
    v[i].l = static_cast<std::int32_t>(i * 7);
    v[i].o = 0x5a;
    v[i].d = static_cast<double>(i) * 0.25;
  }
  return v;
}

void write_members(cdr::output_stream& out, const hand::BinStruct& b) {
  out.write_short(b.s);
  out.write_char(b.c);
  out.write_long(b.l);
  out.write_octet(b.o);
  out.write_double(b.d);
}

// A struct is aligned as its first member (2 here): the block starts where a struct falls on 8,
// the first one written member by member when the length left the stream at 4 mod 8 (as
// sy-bench's write_structs does).
void write_struct_block(cdr::output_stream& out, const std::vector<hand::BinStruct>& seq) {
  out.write_ulong(static_cast<std::uint32_t>(seq.size()));
  std::span<const hand::BinStruct> rest(seq);
  if (!rest.empty() && cdr::padding_for(out.aligned_position(), 8) != 0) {
    write_members(out, rest.front());
    rest = rest.subspan(1);
  }
  if (!rest.empty()) out.write_octets(rest.data(), rest.size() * sizeof(hand::BinStruct));
}

std::vector<std::byte> joined(std::span<const std::span<const std::byte>> pieces) {
  std::vector<std::byte> all;
  for (auto piece : pieces) all.insert(all.end(), piece.begin(), piece.end());
  return all;
}

// --- a bulk interface, written by hand ----------------------------------------------------------

std::uint64_t checksum(std::span<const std::uint8_t> v) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < v.size(); ++i) sum = sum * 131 + v[i] + i;
  return sum;
}

struct bulk_servant final : servant {
  int oneway_count = 0;
  std::uint64_t oneway_sum = 0;

  const interface_info& _interface() const noexcept override { return info; }

  static void echo_octets(servant&, server_request& request) {
    std::vector<std::uint8_t> v;
    request.arguments().read_sequence(v);
    request.reply().write_sequence(v.data(), v.size());
  }
  static void echo_doubles(servant&, server_request& request) {
    std::vector<double> v;
    request.arguments().read_sequence(v);
    request.reply().write_sequence(v.data(), v.size());
  }
  static void echo_structs(servant&, server_request& request) {
    auto v = hand::read_structs(request.arguments());
    hand::write(request.reply(), v);
  }
  static void take_octets(servant& self, server_request& request) {  // one-way
    std::vector<std::uint8_t> v;
    request.arguments().read_sequence(v);
    auto& me = static_cast<bulk_servant&>(self);
    ++me.oneway_count;
    me.oneway_sum += checksum(v);
  }
  static void echo_long(servant&, server_request& request) {
    request.reply().write_long(request.arguments().read_long());
  }
  static void oneway_totals(servant& self, server_request& request) {
    auto& me = static_cast<bulk_servant&>(self);
    request.reply().write_long(me.oneway_count);
    request.reply().write_ulonglong(me.oneway_sum);
  }
  // ulong n, then n sequences of octets, each followed by a short; returns the checksums' sum.
  static void many_blocks(servant&, server_request& request) {
    auto& in = request.arguments();
    std::uint32_t n = in.read_ulong();
    std::uint64_t sum = 0;
    for (std::uint32_t i = 0; i < n && i < 64; ++i) {
      std::vector<std::uint8_t> v;
      in.read_sequence(v);
      sum += checksum(v) + static_cast<std::uint64_t>(in.read_short());
    }
    request.reply().write_ulonglong(sum);
  }

  static constexpr std::string_view ids[] = {"IDL:test/bulk:1.0"};
  static constexpr operation_info operations[] = {
      {"echo_octets", &echo_octets}, {"echo_doubles", &echo_doubles}, {"echo_structs", &echo_structs},
      {"take_octets", &take_octets}, {"echo_long", &echo_long},       {"oneway_totals", &oneway_totals},
      {"many_blocks", &many_blocks},
  };
  static constexpr interface_info info{ids[0], ids, operations, nullptr};
};

struct bulk_stub {
  object_ref ref;

  std::vector<std::uint8_t> echo_octets(const std::vector<std::uint8_t>& v) {
    invocation call(ref, "echo_octets", 0);
    auto& r = call.invoke([&](cdr::output_stream& args) { args.write_sequence(v.data(), v.size()); });
    std::vector<std::uint8_t> back;
    r.read_sequence(back);
    return back;
  }
  std::vector<double> echo_doubles(const std::vector<double>& v) {
    invocation call(ref, "echo_doubles", 1);
    auto& r = call.invoke([&](cdr::output_stream& args) { args.write_sequence(v.data(), v.size()); });
    std::vector<double> back;
    r.read_sequence(back);
    return back;
  }
  std::vector<hand::BinStruct> echo_structs(const std::vector<hand::BinStruct>& v) {
    invocation call(ref, "echo_structs", 2);
    return hand::read_structs(call.invoke([&](cdr::output_stream& args) { write_struct_block(args, v); }));
  }
  void take_octets(const std::vector<std::uint8_t>& v) {
    invocation call(ref, "take_octets", 3);
    call.invoke_oneway([&](cdr::output_stream& args) { args.write_sequence(v.data(), v.size()); });
  }
  std::int32_t echo_long(std::int32_t v) {
    invocation call(ref, "echo_long", 4);
    return call.invoke([&](cdr::output_stream& args) { args.write_long(v); }).read_long();
  }
  std::pair<std::int32_t, std::uint64_t> oneway_totals() {
    invocation call(ref, "oneway_totals", 5);
    auto& r = call.invoke();
    std::int32_t count = r.read_long();
    return {count, r.read_ulonglong()};
  }
  std::uint64_t many_blocks(const std::vector<std::vector<std::uint8_t>>& blocks) {
    invocation call(ref, "many_blocks", 6);
    return call
        .invoke([&](cdr::output_stream& args) {
          args.write_ulong(static_cast<std::uint32_t>(blocks.size()));
          for (const auto& b : blocks) {
            args.write_sequence(b.data(), b.size());
            args.write_short(static_cast<std::int16_t>(b.size() % 1000));
          }
        })
        .read_ulonglong();
  }
};

// Answers echo_octets with LOCATION_FORWARD to `to`.
struct forwarding_servant final : servant {
  object_ref to;
  std::atomic<int> calls = 0;  // counted in the server's thread, read by the test's
  static void forward(servant& self, server_request&) {
    auto& me = static_cast<forwarding_servant&>(self);
    ++me.calls;
    throw forward_request(me.to);
  }
  static constexpr operation_info operations[] = {{"echo_octets", &forward}};
  static constexpr interface_info info{bulk_servant::ids[0], bulk_servant::ids, operations, nullptr};
  const interface_info& _interface() const noexcept override { return info; }
};

}  // namespace

TEST_CASE("finish_gather: the pieces make the message finish() makes from a contiguous stream", "[core][zero_copy]") {
  const std::uint8_t minor = GENERATE(0, 1, 2);
  const giop::protocol& protocol = *giop::protocol_for(minor);
  const std::byte key[] = {std::byte{'k'}, std::byte{'e'}, std::byte{'y'}};
  giop::request_fields fields;
  fields.request_id = 77;
  fields.target = giop::target_address::by_key(key);
  fields.operation = "echo_doubles";
  auto big = doubles(3001);
  auto tail = octets(20000, 9);

  auto write = [&](cdr::output_stream& out, bool external) {
    auto mark = protocol.begin_request(out, fields);
    if (external) out.set_external_threshold(8192);
    out.write_octet(1);
    out.write_sequence(big.data(), big.size());
    out.write_short(5);
    out.write_sequence(tail.data(), tail.size());  // ends the message: no piece after it
    return mark;
  };
  cdr::output_stream contiguous(0, minor);
  auto contiguous_mark = write(contiguous, false);
  auto expected = giop::protocol::finish(contiguous, contiguous_mark);

  cdr::output_stream chunked(0, minor);
  auto mark = write(chunked, true);
  REQUIRE(chunked.external_chunks().size() == 2);
  std::span<const std::byte> pieces[giop::protocol::max_gather_pieces];
  const std::size_t count = giop::protocol::finish_gather(chunked, mark, pieces);
  CHECK(count == 4);  // headers and the octet; the doubles; the short; the octets
  auto message = joined({pieces, count});
  CHECK(message == std::vector<std::byte>(expected.begin(), expected.end()));

  // And it decodes as the request it is.
  auto view = giop::make_message_view(message);
  auto header = protocol.decode_request(view);
  CHECK(header.request_id == 77);
  CHECK(header.operation == "echo_doubles");
  CHECK(header.body.read_octet() == 1);
  std::vector<double> back;
  header.body.read_sequence(back);
  CHECK(back == big);
  CHECK(header.body.read_short() == 5);
}

TEST_CASE("finish_gather without chunks is finish()", "[core][zero_copy]") {
  const giop::protocol& protocol = giop::giop_1_2();
  cdr::output_stream out;
  auto mark = protocol.begin_reply(out, 5, giop::reply_status::no_exception);
  out.set_external_threshold(8192);
  out.write_long(9);  // small: copied
  std::span<const std::byte> pieces[giop::protocol::max_gather_pieces];
  REQUIRE(giop::protocol::finish_gather(out, mark, pieces) == 1);
  auto whole = giop::protocol::finish(out, mark);
  CHECK(pieces[0].data() == whole.data());
  CHECK(pieces[0].size() == whole.size());
}

TEST_CASE("large arguments sent without a copy arrive intact in every GIOP version", "[core][zero_copy]") {
  const char* version = GENERATE("1.0", "1.1", "1.2");
  serving_orb server({"-ORBGIOPVersion", version});
  auto servant = std::make_shared<bulk_servant>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({"-ORBGIOPVersion", version});
  bulk_stub stub{client->string_to_object(ior)};

  for (std::size_t n : {std::size_t{0}, std::size_t{100}, std::size_t{8191}, std::size_t{8192}, std::size_t{24 * 1024},
                        std::size_t{64 * 1024}, std::size_t{1 << 20}}) {
    auto v = octets(n, static_cast<std::uint8_t>(n));
    CHECK(stub.echo_octets(v) == v);
    CHECK(stub.echo_long(static_cast<std::int32_t>(n)) == static_cast<std::int32_t>(n));
  }
  for (std::size_t n : {std::size_t{1}, std::size_t{1023}, std::size_t{1024}, std::size_t{8192}}) {
    auto d = doubles(n);
    CHECK(stub.echo_doubles(d) == d);
    auto s = structs(n);
    CHECK(stub.echo_structs(s) == s);
  }

  // One-way: the server serves a connection's requests in order, so the two-way after them
  // sees them all.
  std::uint64_t sum = 0;
  for (int i = 0; i < 20; ++i) {
    auto v = octets(static_cast<std::size_t>(32 * 1024 + i * 1000), static_cast<std::uint8_t>(i));
    sum += checksum(v);
    stub.take_octets(v);
    if (i % 5 == 0) CHECK(stub.echo_long(i) == i);
  }
  auto totals = stub.oneway_totals();
  CHECK(totals.first == 20);
  CHECK(totals.second == sum);

  // More large arguments than the stream records as chunks: the rest are copied.
  std::vector<std::vector<std::uint8_t>> blocks;
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < cdr::output_stream::max_external_chunks + 4; ++i) {
    blocks.push_back(octets(9000 + i * 3, static_cast<std::uint8_t>(i)));
    expected += checksum(blocks.back()) + blocks.back().size() % 1000;
  }
  CHECK(stub.many_blocks(blocks) == expected);
}

TEST_CASE("a forwarded call marshals its large arguments again", "[core][zero_copy]") {
  serving_orb server;
  auto& root = server.orb->root_adapter();
  auto target = std::make_shared<bulk_servant>();
  auto target_ref = root.activate_with_id("bulk", target);
  auto forwarder = std::make_shared<forwarding_servant>();
  forwarder->to = target_ref;
  auto ior = server.orb->object_to_string(root.activate_with_id("forwarder", forwarder));
  server.start();
  auto client = orb_init({});
  bulk_stub stub{client->string_to_object(ior)};
  auto v = octets(100000, 3);
  CHECK(stub.echo_octets(v) == v);
  CHECK(stub.echo_octets(v) == v);  // straight to the target now
  CHECK(forwarder->calls == 1);
}
