// The GIOP message headers after the 12-octet header, decoded (views into the message) and the
// fields an encoder takes, version-neutral: each GIOP version (giop_1_0.cpp, giop_1_1.cpp,
// giop_1_2.cpp) maps its own layout onto these. Internal: the core, tests, fuzz target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "orb/giop/service_context.h"
#include "orb/giop/target_address.h"
#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/exception.h"

namespace switchyard::giop {

// GIOP 1.2 response_flags (CORBA 3.0, 15.4.2.1). GIOP 1.0/1.1's response_expected TRUE reads as
// with_target, FALSE as none; encoding for 1.0/1.1 sends TRUE when bit 0 is set.
namespace response_flags {
inline constexpr std::uint8_t none = 0x00;         // SyncScope NONE or WITH_TRANSPORT: no reply (oneway)
inline constexpr std::uint8_t with_server = 0x01;  // SyncScope WITH_SERVER: an empty reply once dispatched
inline constexpr std::uint8_t with_target = 0x03;  // SyncScope WITH_TARGET: the normal two-way reply
}  // namespace response_flags

// A decoded request header. Every view points into the message; `body` reads the arguments
// (in GIOP 1.2 it starts at the next 8-octet boundary, per 15.4.2.2).
struct request_header {
  std::uint32_t request_id = 0;
  std::uint8_t response_flags = response_flags::with_target;
  target_address target;  // 1.0/1.1: always key_addr
  std::string_view operation;
  service_context_list service_contexts;
  std::span<const std::byte> requesting_principal;  // 1.0/1.1 only (deprecated, usually empty)
  cdr::input_stream body;

  bool response_expected() const noexcept { return (response_flags & 0x01) != 0; }
};

// GIOP::ReplyStatusType; 1.0/1.1 know the first four.
enum class reply_status : std::uint32_t {
  no_exception = 0,
  user_exception = 1,
  system_exception = 2,
  location_forward = 3,
  location_forward_perm = 4,  // 1.2
  needs_addressing_mode = 5,  // 1.2
};
std::string_view to_string(reply_status status) noexcept;

struct reply_header {
  std::uint32_t request_id = 0;
  reply_status status = reply_status::no_exception;
  service_context_list service_contexts;
  cdr::input_stream body;  // results, exception, forward IOR, or addressing disposition
};

struct locate_request_header {
  std::uint32_t request_id = 0;
  target_address target;  // 1.0/1.1: always key_addr
};

// GIOP::LocateStatusType; 1.0/1.1 know the first three.
enum class locate_status : std::uint32_t {
  unknown_object = 0,
  object_here = 1,
  object_forward = 2,
  object_forward_perm = 3,        // 1.2
  loc_system_exception = 4,       // 1.2
  loc_needs_addressing_mode = 5,  // 1.2
};
std::string_view to_string(locate_status status) noexcept;

struct locate_reply_header {
  std::uint32_t request_id = 0;
  locate_status status = locate_status::unknown_object;
  // IOR (object_forward*), SystemExceptionReplyBody (loc_system_exception), or
  // AddressingDisposition (loc_needs_addressing_mode). NOT 8-aligned in 1.2: see README.md.
  cdr::input_stream body;
};

// What an encoder needs for a request.
struct request_fields {
  std::uint32_t request_id = 0;
  std::uint8_t response_flags = response_flags::with_target;
  target_address target;  // 1.0/1.1 can only send key_addr
  std::string_view operation;
  std::span<const service_context> service_contexts;
  std::span<const std::byte> requesting_principal;  // 1.0/1.1 only
};

// GIOP::SystemExceptionReplyBody: the body of a SYSTEM_EXCEPTION reply and of a
// LOC_SYSTEM_EXCEPTION locate reply.
struct system_exception_body {
  std::string_view repository_id;
  std::uint32_t minor = 0;
  CompletionStatus completed = CompletionStatus::no;

  // The exception it names (UNKNOWN for a repository id that is not a CORBA system exception).
  SystemException to_exception() const;
};

// Reads the body; a completion status beyond 2 raises MARSHAL minor::bad_enum.
system_exception_body read_system_exception(cdr::input_stream& in);
void write_system_exception(cdr::output_stream& out, std::string_view repository_id, std::uint32_t minor,
                            CompletionStatus completed);
void write_system_exception(cdr::output_stream& out, const SystemException& exception);

// The body of NEEDS_ADDRESSING_MODE / LOC_NEEDS_ADDRESSING_MODE: the disposition the server wants.
addressing_disposition read_addressing_disposition(cdr::input_stream& in);
void write_addressing_disposition(cdr::output_stream& out, addressing_disposition disposition);

}  // namespace switchyard::giop
