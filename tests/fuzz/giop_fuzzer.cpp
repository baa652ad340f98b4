// Fuzzes GIOP decoding: the input is a stream of messages as a connection would read them. Each
// header goes through decode_header (bounded body size), each accepted message through the
// reassembler (bounded total) and then the decoder for its type, whose views and body stream are
// touched. Whatever the bytes, decoding either succeeds inside the buffer or raises MARSHAL.
// A reassembled message is whole (its header's size is its length, no more-fragments bit), and a
// 1.1 message only loses octets when a Fragment's data landed off its own alignment.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "orb/giop/plain_messages.h"
#include "orb/giop/protocol.h"
#include "orb/giop/reassembler.h"
#include "switchyard/exception.h"

using namespace switchyard;
using namespace switchyard::giop;

namespace {

std::uint32_t touch(std::span<const std::byte> bytes) {
  std::uint32_t sum = 0;
  for (std::byte b : bytes) sum += static_cast<std::uint32_t>(b);
  return sum;
}

std::uint32_t decode(const protocol& impl, const message_view& m) {
  std::uint32_t sum = 0;
  switch (m.header.type) {
    case message_type::request: {
      // The plain decoder, when it accepts, must give what the general one gives, and the
      // general one must accept too.
      request_header plain;
      const bool plain_taken = decode_plain_request(m, plain);
      request_header h;
      try {
        h = impl.decode_request(m);
      } catch (const SystemException&) {
        if (plain_taken) __builtin_trap();
        throw;
      }
      if (plain_taken &&
          (plain.request_id != h.request_id || plain.operation != h.operation ||
           plain.target.object_key.size() != h.target.object_key.size() ||
           plain.service_contexts.size() != h.service_contexts.size() || plain.body.remaining() != h.body.remaining()))
        __builtin_trap();
      sum += touch(h.target.object_key) + touch(h.target.profile.bytes) + touch(h.target.ior.bytes);
      sum += static_cast<std::uint32_t>(h.operation.size());
      for (const service_context& c : h.service_contexts) sum += c.id + touch(c.data);
      if (h.service_contexts.find(0x53590001)) ++sum;
      if (h.target.disposition == addressing_disposition::reference_addr) {
        cdr::input_stream ior = h.target.ior.stream();
        skip_ior(ior);
      }
      sum += static_cast<std::uint32_t>(h.body.remaining());
      break;
    }
    case message_type::reply: {
      reply_header plain;
      const bool plain_taken = decode_plain_reply(m, plain);
      reply_header h;
      try {
        h = impl.decode_reply(m);
      } catch (const SystemException&) {
        if (plain_taken) __builtin_trap();
        throw;
      }
      if (plain_taken && (plain.request_id != h.request_id || plain.status != h.status ||
                          plain.body.remaining() != h.body.remaining()))
        __builtin_trap();
      for (const service_context& c : h.service_contexts) sum += c.id;
      if (h.status == reply_status::system_exception) sum += read_system_exception(h.body).minor;
      if (h.status == reply_status::needs_addressing_mode)
        sum += static_cast<std::uint32_t>(read_addressing_disposition(h.body));
      break;
    }
    case message_type::locate_request:
      sum += impl.decode_locate_request(m).request_id;
      break;
    case message_type::locate_reply: {
      locate_reply_header h = impl.decode_locate_reply(m);
      if (h.status == locate_status::loc_system_exception) sum += read_system_exception(h.body).minor;
      break;
    }
    case message_type::cancel_request:
      sum += impl.decode_cancel_request(m);
      break;
    default:
      break;
  }
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::byte> input(reinterpret_cast<const std::byte*>(data), size);
  constexpr std::uint32_t max_body = 1 << 16;
  std::optional<reassembler> r;  // one per connection, made for the first message's version
  volatile std::uint32_t sink = 0;
  for (int messages = 0; messages < 64 && input.size() >= header_size; ++messages) {
    header_result header = decode_header(input, max_body);
    if (header.status != header_status::ok) break;  // the core answers MessageError and closes
    std::size_t total = header_size + header.header.body_size;
    if (total > input.size()) break;  // the connection would wait for the rest
    message_view m{header.header, input.first(total)};
    input = input.subspan(total);
    if (!r) r.emplace(*protocol_for(m.header.ver.minor), 1 << 18, 8);
    try {
      const bool fragmented = m.header.type == message_type::fragment;
      reassembler::result result = r->feed(m);
      if (result.what == reassembler::outcome::complete) {
        const message_view& done = result.message;
        if (done.bytes.size() != header_size + done.header.body_size) __builtin_trap();
        if (fragmented &&
            (done.header.more_fragments || decode_header(done.bytes).header.body_size != done.header.body_size))
          __builtin_trap();
        if (done.fragments != nullptr && (done.header.ver.minor != 1 || !fragmented)) __builtin_trap();
        sink = sink + decode(*protocol_for(done.header.ver.minor), done);
      }
    } catch (const SystemException& e) {
      if (e.kind() != SystemExceptionKind::MARSHAL) __builtin_trap();
    }
  }
  return 0;
}
