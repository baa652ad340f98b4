// The client's request header cache: a replayed header is the octets begin_request would write
// for the new request id, in every GIOP version; anything that changes the header misses; two
// headers of one set both stay, a third replaces the less recently used.
#include "orb/core/request_header_cache.h"

#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <vector>

#include "orb/giop/protocol.h"

using namespace switchyard;
using switchyard::core::request_header_cache;
using switchyard::core::request_header_key;

namespace {

const std::array<std::byte, 8> index_context{std::byte{1}, std::byte{0}, std::byte{0}, std::byte{0},
                                             std::byte{7}, std::byte{0}, std::byte{0}, std::byte{0}};

// The header the long way, for `request_id`.
std::vector<std::byte> written(const giop::protocol& protocol, std::uint32_t request_id, std::string_view key,
                               std::string_view operation, giop::message_mark* mark_out = nullptr,
                               cdr::output_stream* out_used = nullptr) {
  cdr::output_stream local(4096);
  cdr::output_stream& out = out_used != nullptr ? *out_used : local;
  out.reset();
  giop::request_fields fields;
  fields.request_id = request_id;
  fields.response_flags = giop::response_flags::with_target;
  fields.target = giop::target_address::by_key({reinterpret_cast<const std::byte*>(key.data()), key.size()});
  fields.operation = operation;
  const giop::service_context contexts[] = {{0x53590001, index_context}};
  fields.service_contexts = contexts;
  giop::message_mark mark = protocol.begin_request(out, fields);
  if (mark_out != nullptr) *mark_out = mark;
  out.write_ulong(0xabcdef01);  // an argument, so that the body's alignment shows too
  auto message = giop::protocol::finish(out, mark);
  return {message.begin(), message.end()};
}

}  // namespace

TEST_CASE("a replayed header is what begin_request writes, in GIOP 1.0, 1.1 and 1.2", "[core][header_cache]") {
  for (std::uint8_t minor = 0; minor <= 2; ++minor) {
    CAPTURE(minor);
    const giop::protocol& protocol = *giop::protocol_for(minor);
    request_header_cache cache;
    const request_header_key key{42, "sendNoParams", 7, giop::response_flags::with_target};

    cdr::output_stream first(4096);
    giop::message_mark mark;
    written(protocol, 1, "an object key", "sendNoParams", &mark, &first);
    cache.store(key, first, mark);

    cdr::output_stream replayed(4096);
    replayed.reset();
    giop::message_mark replayed_mark;
    REQUIRE(cache.replay(key, 0x01020304, replayed, replayed_mark));
    replayed.write_ulong(0xabcdef01);
    auto message = giop::protocol::finish(replayed, replayed_mark);
    CHECK(std::vector<std::byte>(message.begin(), message.end()) ==
          written(protocol, 0x01020304, "an object key", "sendNoParams"));
  }
}

TEST_CASE("the header cache misses whatever changes the header", "[core][header_cache]") {
  const giop::protocol& protocol = giop::giop_1_2();
  request_header_cache cache;
  const request_header_key key{42, "op", 3, giop::response_flags::with_target};
  cdr::output_stream out(4096);
  giop::message_mark mark;
  written(protocol, 1, "key", "op", &mark, &out);
  cache.store(key, out, mark);

  cdr::output_stream target(4096);
  giop::message_mark ignored;
  CHECK(cache.replay(key, 2, target, ignored));
  target.reset();
  CHECK_FALSE(cache.replay({43, "op", 3, giop::response_flags::with_target}, 2, target, ignored));  // rebound
  CHECK_FALSE(cache.replay({42, "oq", 3, giop::response_flags::with_target}, 2, target, ignored));  // operation
  CHECK_FALSE(cache.replay({42, "op", 4, giop::response_flags::with_target}, 2, target, ignored));  // index
  CHECK_FALSE(cache.replay({42, "op", 3, giop::response_flags::none}, 2, target, ignored));         // oneway
  CHECK(target.size() == 0);  // a miss writes nothing
}

TEST_CASE("headers too long for the cache are not kept", "[core][header_cache]") {
  const giop::protocol& protocol = giop::giop_1_2();
  request_header_cache cache;
  const std::string long_key(request_header_cache::max_header_size, 'k');
  const request_header_key key{42, "op", 3, giop::response_flags::with_target};
  cdr::output_stream out(4096);
  giop::message_mark mark;
  written(protocol, 1, long_key, "op", &mark, &out);
  cache.store(key, out, mark);
  cdr::output_stream target(4096);
  giop::message_mark ignored;
  CHECK_FALSE(cache.replay(key, 2, target, ignored));

  const std::string long_operation(request_header_cache::max_operation_size + 1, 'o');
  const request_header_key long_operation_key{42, long_operation, 3, giop::response_flags::with_target};
  written(protocol, 1, "key", long_operation, &mark, &out);
  cache.store(long_operation_key, out, mark);
  CHECK_FALSE(cache.replay(long_operation_key, 2, target, ignored));
}

TEST_CASE("two headers of one set both stay; a third replaces the less recently used", "[core][header_cache]") {
  const giop::protocol& protocol = giop::giop_1_2();
  static const char operation[] = "op";  // one address, as a stub's literal
  auto key_of = [&](std::uint64_t binding) {
    return request_header_key{binding, std::string_view(operation, 2), 3, giop::response_flags::with_target};
  };
  // Three bindings whose keys fall in one set (bounded search: 16 sets).
  std::vector<std::uint64_t> same_set{1};
  for (std::uint64_t binding = 2; same_set.size() < 3 && binding < 10000; ++binding)
    if (request_header_cache::set_of(key_of(binding)) == request_header_cache::set_of(key_of(1)))
      same_set.push_back(binding);
  REQUIRE(same_set.size() == 3);

  request_header_cache cache;
  cdr::output_stream out(4096), target(4096);
  giop::message_mark mark, ignored;
  auto store = [&](std::uint64_t binding) {
    written(protocol, 1, "key", "op", &mark, &out);
    cache.store(key_of(binding), out, mark);
  };
  auto hits = [&](std::uint64_t binding) {
    target.reset();
    return cache.replay(key_of(binding), 2, target, ignored);
  };
  store(same_set[0]);
  store(same_set[1]);
  CHECK(hits(same_set[0]));  // a direct-mapped cache would have lost it
  CHECK(hits(same_set[1]));
  CHECK(hits(same_set[0]));  // now the most recent: the second is the one to go
  store(same_set[2]);
  CHECK(hits(same_set[0]));
  CHECK(hits(same_set[2]));
  CHECK_FALSE(hits(same_set[1]));
}
