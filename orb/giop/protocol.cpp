// Version-neutral GIOP pieces: the 12-octet header, message views, the bodies every version shares
// (system exceptions, addressing dispositions, CancelRequest, CloseConnection, MessageError), and
// finishing a written message.
#include "orb/giop/protocol.h"

#include <array>
#include <cstring>
#include <string>

#include "switchyard/exception.h"

namespace switchyard::giop {

namespace {

[[noreturn]] void throw_bad_message(std::string detail) {
  throw SystemException(SystemExceptionKind::MARSHAL, minor::bad_message, CompletionStatus::no, std::move(detail));
}

}  // namespace

std::string_view to_string(message_type type) noexcept {
  static constexpr std::string_view names[] = {"Request",     "Reply",           "CancelRequest", "LocateRequest",
                                               "LocateReply", "CloseConnection", "MessageError",  "Fragment"};
  auto index = static_cast<std::size_t>(type);
  return index < std::size(names) ? names[index] : "unknown";
}

std::string_view to_string(header_status status) noexcept {
  switch (status) {
    case header_status::ok:
      return "ok";
    case header_status::truncated:
      return "header shorter than 12 octets";
    case header_status::bad_magic:
      return "magic is not GIOP";
    case header_status::unsupported_version:
      return "unsupported GIOP version";
    case header_status::bad_flags:
      return "GIOP 1.0 byte-order octet is neither 0 nor 1";
    case header_status::unknown_type:
      return "unknown message type for this GIOP version";
    case header_status::fragment_not_allowed:
      return "more-fragments bit on a type that cannot be fragmented";
    case header_status::too_large:
      return "message size over the configured maximum";
  }
  return "unknown";
}

std::string_view to_string(reply_status status) noexcept {
  static constexpr std::string_view names[] = {"NO_EXCEPTION",     "USER_EXCEPTION",        "SYSTEM_EXCEPTION",
                                               "LOCATION_FORWARD", "LOCATION_FORWARD_PERM", "NEEDS_ADDRESSING_MODE"};
  auto index = static_cast<std::size_t>(status);
  return index < std::size(names) ? names[index] : "unknown";
}

std::string_view to_string(locate_status status) noexcept {
  static constexpr std::string_view names[] = {"UNKNOWN_OBJECT",       "OBJECT_HERE",
                                               "OBJECT_FORWARD",       "OBJECT_FORWARD_PERM",
                                               "LOC_SYSTEM_EXCEPTION", "LOC_NEEDS_ADDRESSING_MODE"};
  auto index = static_cast<std::size_t>(status);
  return index < std::size(names) ? names[index] : "unknown";
}

header_result decode_header(std::span<const std::byte> bytes, std::uint32_t max_body_size) noexcept {
  header_result result;
  if (bytes.size() < header_size) {
    result.status = header_status::truncated;
    return result;
  }
  if (std::memcmp(bytes.data(), "GIOP", 4) != 0) {
    result.status = header_status::bad_magic;
    return result;
  }
  message_header& header = result.header;
  header.ver = {static_cast<std::uint8_t>(bytes[4]), static_cast<std::uint8_t>(bytes[5])};
  const protocol* impl = header.ver.major == 1 ? protocol_for(header.ver.minor) : nullptr;
  if (impl == nullptr) {
    result.status = header_status::unsupported_version;
    return result;
  }
  auto flags = static_cast<std::uint8_t>(bytes[6]);
  // 1.0's octet is a boolean; 1.1+ use bit 0 and bit 1 and reserve the rest. A 1.0 "flags"
  // octet of 2 or 3 is therefore bad rather than a fragment.
  if (!impl->supports_fragments() && flags > 1) {
    result.status = header_status::bad_flags;
    return result;
  }
  header.order = (flags & flag_little_endian) ? cdr::byte_order::little_endian : cdr::byte_order::big_endian;
  header.more_fragments = (flags & flag_more_fragments) != 0;
  auto type = static_cast<std::uint8_t>(bytes[7]);
  if (!impl->knows_type(type)) {
    result.status = header_status::unknown_type;
    return result;
  }
  header.type = static_cast<message_type>(type);
  header.body_size = cdr::load<std::uint32_t>(bytes.data() + 8, header.order != cdr::native_byte_order);
  if (header.more_fragments && !impl->may_fragment(header.type)) {
    result.status = header_status::fragment_not_allowed;
    return result;
  }
  if (header.body_size > max_body_size) {
    result.status = header_status::too_large;
    return result;
  }
  return result;
}

message_view make_message_view(std::span<const std::byte> bytes, std::uint32_t max_body_size) {
  header_result result = decode_header(bytes, max_body_size);
  if (result.status != header_status::ok) throw_bad_message(std::string(to_string(result.status)));
  std::size_t total = header_size + std::size_t{result.header.body_size};
  if (bytes.size() < total)
    throw SystemException(SystemExceptionKind::MARSHAL, minor::read_past_end, CompletionStatus::no,
                          "message of " + std::to_string(total) + " octets given " + std::to_string(bytes.size()));
  return message_view{result.header, bytes.first(total)};
}

// --- Bodies shared by every version.

SystemException system_exception_body::to_exception() const {
  return SystemException(SystemException::kind_from_repository_id(repository_id), minor, completed);
}

system_exception_body read_system_exception(cdr::input_stream& in) {
  system_exception_body body;
  body.repository_id = in.read_string_view();
  body.minor = in.read_ulong();
  std::uint32_t completed = in.read_ulong();
  if (completed > 2) in.throw_marshal(minor::bad_enum, "completion status " + std::to_string(completed));
  body.completed = static_cast<CompletionStatus>(completed);
  return body;
}

void write_system_exception(cdr::output_stream& out, std::string_view repository_id, std::uint32_t minor,
                            CompletionStatus completed) {
  out.write_string(repository_id);
  std::byte* p = out.reserve_aligned(4, 8);
  cdr::store(p, minor);
  cdr::store(p + 4, static_cast<std::uint32_t>(completed));
}

void write_system_exception(cdr::output_stream& out, const SystemException& exception) {
  write_system_exception(out, exception.repository_id(), exception.minor(), exception.completed());
}

addressing_disposition read_addressing_disposition(cdr::input_stream& in) {
  std::int16_t value = in.read_short();
  if (value < 0 || value > 2) in.throw_marshal(minor::bad_enum, "addressing disposition " + std::to_string(value));
  return static_cast<addressing_disposition>(value);
}

void write_addressing_disposition(cdr::output_stream& out, addressing_disposition disposition) {
  out.write_short(static_cast<std::int16_t>(disposition));
}

// --- protocol: shared members.

void protocol::expect_type(const message_view& message, message_type type) {
  if (message.header.type != type)
    throw_bad_message("expected " + std::string(to_string(type)) + ", got " +
                      std::string(to_string(message.header.type)));
}

std::uint32_t protocol::decode_cancel_request(const message_view& message) const {
  expect_type(message, message_type::cancel_request);
  cdr::input_stream in = message.body_stream();
  return in.read_ulong();
}

reply_status protocol::check_reply_status(cdr::input_stream& in, std::uint32_t status) const {
  if (status > static_cast<std::uint32_t>(highest_reply_status_))
    in.throw_marshal(minor::bad_enum,
                     "reply status " + std::to_string(status) + " in GIOP 1." + std::to_string(version_.minor));
  return static_cast<reply_status>(status);
}

locate_status protocol::check_locate_status(cdr::input_stream& in, std::uint32_t status) const {
  if (status > static_cast<std::uint32_t>(highest_locate_status_))
    in.throw_marshal(minor::bad_enum,
                     "locate status " + std::to_string(status) + " in GIOP 1." + std::to_string(version_.minor));
  return static_cast<locate_status>(status);
}

void protocol::check_encodable(reply_status status) const {
  if (status > highest_reply_status_)
    throw_bad_message(std::string(to_string(status)) + " cannot be sent in GIOP 1." + std::to_string(version_.minor));
}

void protocol::check_encodable(locate_status status) const {
  if (status > highest_locate_status_)
    throw_bad_message(std::string(to_string(status)) + " cannot be sent in GIOP 1." + std::to_string(version_.minor));
}

message_mark protocol::begin_message(cdr::output_stream& out, message_type type) const {
  // The message is its own alignment origin, wherever it starts in the stream, and its body
  // follows this version's rules for wchar and wstring.
  out.set_origin_here();
  out.set_giop_minor(version_.minor);
  message_mark mark;
  mark.header_offset = out.size();
  static_assert(header_size == 12);
  std::byte* p = out.reserve_aligned(1, header_size);
  const auto prefix = header_prefix(version_, type);
  std::memcpy(p, prefix.data(), prefix.size());
  cdr::store<std::uint32_t>(p + 8, 0);
  mark.headers_end = mark.body_start = out.size();
  return mark;
}

message_mark protocol::begin_plain_reply(cdr::output_stream& out, std::uint32_t request_id) const {
  constexpr std::size_t plain_reply_size = header_size + 12;
  out.set_origin_here();
  out.set_giop_minor(version_.minor);
  message_mark mark;
  mark.header_offset = out.size();
  std::byte* p = out.reserve_aligned(1, plain_reply_size);
  static constexpr auto prefixes = [] {
    std::array<std::array<std::byte, header_size>, 3> all{};
    for (std::uint8_t minor = 0; minor < 3; ++minor) {
      auto prefix = header_prefix(version{1, minor}, message_type::reply);
      for (std::size_t i = 0; i < prefix.size(); ++i) all[minor][i] = prefix[i];
    }
    return all;
  }();
  std::memcpy(p, prefixes[version_.minor].data(), header_size);  // size 0, patched by finish()
  std::memset(p + header_size, 0, 12);                           // NO_EXCEPTION and the empty list are zeros
  cdr::store(p + plain_reply_id_offset_, request_id);
  mark.headers_end = mark.body_start = out.size();  // 24: already 8-aligned for 1.2
  return mark;
}

message_mark protocol::begin_cancel_request(cdr::output_stream& out, std::uint32_t request_id) const {
  message_mark mark = begin_message(out, message_type::cancel_request);
  out.write_ulong(request_id);
  mark.headers_end = mark.body_start = out.size();
  return mark;
}

message_mark protocol::begin_close_connection(cdr::output_stream& out) const {
  return begin_message(out, message_type::close_connection);
}

message_mark protocol::begin_message_error(cdr::output_stream& out) const {
  return begin_message(out, message_type::message_error);
}

void protocol::set_more_fragments(cdr::output_stream& out, const message_mark& mark, message_type type) const {
  if (!may_fragment(type))
    throw_bad_message(std::string(to_string(type)) + " cannot be fragmented in GIOP 1." +
                      std::to_string(version_.minor));
  out.data()[mark.header_offset + 6] |= std::byte{flag_more_fragments};
}

std::size_t protocol::finish_gather(cdr::output_stream& out, const message_mark& mark,
                                    std::span<std::span<const std::byte>, max_gather_pieces> pieces) noexcept {
  const std::byte* own = out.data();
  std::size_t count = 0;
  std::size_t from = mark.header_offset;  // the stream's octets not yet in a piece start here
  std::size_t external = 0;
  for (const auto& chunk : out.external_chunks()) {
    if (chunk.position < mark.body_start) continue;  // not in this message's body (never so on the request path)
    if (chunk.position > from) pieces[count++] = {own + from, chunk.position - from};
    pieces[count++] = {chunk.data, chunk.size};
    external += chunk.size;
    from = chunk.position;
  }
  if (external == 0) {
    pieces[0] = finish(out, mark);
    return 1;
  }
  if (out.size() > from) pieces[count++] = {own + from, out.size() - from};
  cdr::store(out.data() + mark.header_offset + 8,
             static_cast<std::uint32_t>(out.size() - mark.header_offset + external - header_size));
  return count;
}

const protocol* protocol_for(std::uint8_t minor) noexcept {
  switch (minor) {
    case 0:
      return &giop_1_0();
    case 1:
      return &giop_1_1();
    case 2:
      return &giop_1_2();
    default:
      return nullptr;
  }
}

const protocol& highest_protocol() noexcept { return giop_1_2(); }

}  // namespace switchyard::giop
