// The version-neutral GIOP interface: one object per GIOP version (giop_1_0.cpp, giop_1_1.cpp,
// giop_1_2.cpp), chosen once per connection with protocol_for(minor), as omniORB's giopImpl10/11/12.
// Shared code calls through it and never branches on the minor version. One virtual call per
// message, none per field. Internal: the core, tests, fuzz target.
//
// Decoding: take a message_view (make_message_view, or the reassembler's output); decoders read
// the header after the first 12 octets, return views into the message and a body stream, and
// raise MARSHAL (minor::bad_message, bad_enum, read_past_end, ...) on anything malformed.
//
// Encoding: begin_* writes the 12-octet header (precomputed prefix, size left open) and the
// message's own header into an output_stream, in native byte order, and returns a mark; the
// caller writes the body; finish() patches the size and returns the octets to send
// (finish_gather() the pieces, when the body holds external chunks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "orb/giop/message_header.h"
#include "orb/giop/messages.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::giop {

// Where a message being written starts, and where its headers end (before any padding that
// aligns the body): finish() drops that padding again when no body followed, as omniORB does.
struct message_mark {
  std::size_t header_offset = 0;
  std::size_t headers_end = 0;
  std::size_t body_start = 0;
  // Requests: where the request id was written (its place differs by version), so that a
  // header written once can be sent again under a new id (orb/core/request_header_cache.h).
  std::size_t request_id_offset = 0;
};

class protocol {
 public:
  protocol(const protocol&) = delete;
  protocol& operator=(const protocol&) = delete;

  version ver() const noexcept { return version_; }
  std::uint8_t minor() const noexcept { return version_.minor; }

  // Message-type rules of this version (data, so that shared code need not ask the version).
  bool knows_type(std::uint8_t type) const noexcept { return type <= highest_type_; }
  bool may_fragment(message_type type) const noexcept {
    return ((fragmentable_types_ >> static_cast<unsigned>(type)) & 1u) != 0;
  }
  bool supports_fragments() const noexcept { return fragmentable_types_ != 0; }
  // Octets of the Fragment message's own header (1.2's request id) before the continued data.
  std::size_t fragment_header_size() const noexcept { return fragment_header_size_; }
  // Whether fragments of different messages may interleave (1.2: the fragment names its request).
  bool fragments_interleave() const noexcept { return fragment_header_size_ != 0; }

  // --- Decoders. `message.header.ver` must be this version.
  virtual request_header decode_request(const message_view& message) const = 0;
  virtual reply_header decode_reply(const message_view& message) const = 0;
  virtual locate_request_header decode_locate_request(const message_view& message) const = 0;
  virtual locate_reply_header decode_locate_reply(const message_view& message) const = 0;
  // CancelRequest is the same in every version: a request id.
  std::uint32_t decode_cancel_request(const message_view& message) const;
  // The request id a Request/Reply/LocateRequest/LocateReply/CancelRequest (or 1.2 Fragment)
  // carries, for the reassembler. 1.2: the first body ulong (MARSHAL when the body is shorter).
  // 1.0/1.1: read after the service contexts; false when the message ends before it.
  virtual bool leading_request_id(const message_view& message, std::uint32_t& request_id) const = 0;

  // --- Encoders (native byte order).
  virtual message_mark begin_request(cdr::output_stream& out, const request_fields& fields) const = 0;
  virtual message_mark begin_reply(cdr::output_stream& out, std::uint32_t request_id, reply_status status,
                                   std::span<const service_context> contexts = {}) const = 0;
  virtual message_mark begin_locate_request(cdr::output_stream& out, std::uint32_t request_id,
                                            const target_address& target) const = 0;
  virtual message_mark begin_locate_reply(cdr::output_stream& out, std::uint32_t request_id,
                                          locate_status status) const = 0;
  // The reply nearly every request gets: NO_EXCEPTION without service contexts, 24 octets in every
  // version (only the order of id and empty context list differs), written from precomputed data
  // without the virtual call. Same octets as begin_reply(out, request_id, no_exception).
  message_mark begin_plain_reply(cdr::output_stream& out, std::uint32_t request_id) const;
  message_mark begin_cancel_request(cdr::output_stream& out, std::uint32_t request_id) const;
  message_mark begin_close_connection(cdr::output_stream& out) const;
  message_mark begin_message_error(cdr::output_stream& out) const;
  // A Fragment continuing a message (1.2 names the request; 1.1 ignores the id). 1.0 raises MARSHAL.
  virtual message_mark begin_fragment(cdr::output_stream& out, std::uint32_t request_id) const = 0;
  // Sets the more-fragments flag of the message at `mark` (raises MARSHAL for a type this
  // version does not fragment).
  void set_more_fragments(cdr::output_stream& out, const message_mark& mark, message_type type) const;

  // Patches the message size and returns the whole message's octets. Same for every version.
  // Inline: every request and reply goes through it.
  static std::span<const std::byte> finish(cdr::output_stream& out, const message_mark& mark) noexcept {
    std::size_t end = out.size();
    // Nothing after the padding that aligned the body: the message ends with its headers.
    if (end == mark.body_start) end = mark.headers_end;
    cdr::store(out.data() + mark.header_offset + 8, static_cast<std::uint32_t>(end - mark.header_offset - header_size));
    return {out.data() + mark.header_offset, end - mark.header_offset};
  }

  // The gather form of finish(), for a stream holding external chunks (the request path's large
  // arguments, cdr/output_stream.h): patches the size, counting the chunks, and fills `pieces`
  // with the message in order (the stream's own octets between chunks, and the chunks).
  // Returns how many pieces. Without chunks: one piece, the same octets as finish().
  static constexpr std::size_t max_gather_pieces = 2 * cdr::output_stream::max_external_chunks + 1;
  static std::size_t finish_gather(cdr::output_stream& out, const message_mark& mark,
                                   std::span<std::span<const std::byte>, max_gather_pieces> pieces) noexcept;

 protected:
  constexpr protocol(version ver, std::uint8_t highest_type, std::uint8_t fragmentable_types,
                     std::size_t fragment_header_size, reply_status highest_reply_status,
                     locate_status highest_locate_status, std::uint8_t plain_reply_id_offset) noexcept
      : version_(ver),
        plain_reply_id_offset_(plain_reply_id_offset),
        highest_type_(highest_type),
        fragmentable_types_(fragmentable_types),
        fragment_header_size_(fragment_header_size),
        highest_reply_status_(highest_reply_status),
        highest_locate_status_(highest_locate_status) {}
  ~protocol() = default;

  // Shared pieces the version files build on.
  message_mark begin_message(cdr::output_stream& out, message_type type) const;
  reply_status check_reply_status(cdr::input_stream& in, std::uint32_t status) const;
  locate_status check_locate_status(cdr::input_stream& in, std::uint32_t status) const;
  void check_encodable(reply_status status) const;
  void check_encodable(locate_status status) const;
  static void expect_type(const message_view& message, message_type type);

 private:
  version version_;
  std::uint8_t plain_reply_id_offset_;  // where a Reply's request id sits (12 in 1.2, 16 before)
  std::uint8_t highest_type_;
  std::uint8_t fragmentable_types_;  // bit per message_type
  std::size_t fragment_header_size_;
  reply_status highest_reply_status_;
  locate_status highest_locate_status_;
};

// The protocol object of GIOP 1.<minor>, or nullptr for a minor beyond 2 (major must be 1).
const protocol* protocol_for(std::uint8_t minor) noexcept;
// GIOP 1.2: what a MessageError for an unsupported version is sent in.
const protocol& highest_protocol() noexcept;

// Defined in giop_1_0.cpp, giop_1_1.cpp, giop_1_2.cpp.
const protocol& giop_1_0() noexcept;
const protocol& giop_1_1() noexcept;
const protocol& giop_1_2() noexcept;

}  // namespace switchyard::giop
