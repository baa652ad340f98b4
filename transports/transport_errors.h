// How transports/ raises its failures: one place that turns errno into a SystemException with a
// readable detail. Internal to transports/ (the core sees only the SystemExceptions).
#pragma once

#include <cstdint>
#include <string_view>

#include "switchyard/exception.h"

namespace switchyard::transports {

// Throws kind/minor with detail "<what>: <strerror(error_number)>".
[[noreturn]] void throw_errno(SystemExceptionKind kind, std::uint32_t minor, CompletionStatus completed,
                              std::string_view what, int error_number);

// Throws COMM_FAILURE for a failed accept(2) on `endpoint`: minor::out_of_descriptors when the
// process or system ran out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM: the caller
// should back off, not retry at once), minor::recv_failed otherwise.
[[noreturn]] void throw_accept_failure(std::string_view endpoint, int error_number);

// Throws BAD_PARAM minor::bad_endpoint: "bad endpoint '<text>': <why>".
[[noreturn]] void throw_bad_endpoint(std::string_view text, std::string_view why);

}  // namespace switchyard::transports
