#include "transports/transport_errors.h"

#include <cerrno>
#include <cstring>
#include <string>

namespace switchyard::transports {

void throw_errno(SystemExceptionKind kind, std::uint32_t minor, CompletionStatus completed, std::string_view what,
                 int error_number) {
  std::string detail(what);
  detail += ": ";
  char buffer[256];
  // GNU strerror_r returns the message pointer (possibly not `buffer`).
  detail += ::strerror_r(error_number, buffer, sizeof buffer);
  throw SystemException(kind, minor, completed, std::move(detail));
}

void throw_accept_failure(std::string_view endpoint, int error_number) {
  const bool exhausted =
      error_number == EMFILE || error_number == ENFILE || error_number == ENOBUFS || error_number == ENOMEM;
  throw_errno(SystemExceptionKind::COMM_FAILURE, exhausted ? minor::out_of_descriptors : minor::recv_failed,
              CompletionStatus::no, "accept on " + std::string(endpoint), error_number);
}

void throw_bad_endpoint(std::string_view text, std::string_view why) {
  std::string detail = "bad endpoint '";
  // Control bytes are shown escaped so the message stays one readable line.
  static constexpr char hex[] = "0123456789abcdef";
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      detail += "\\x";
      detail += hex[c >> 4];
      detail += hex[c & 0xf];
    } else {
      detail += static_cast<char>(c);
    }
  }
  detail += "': ";
  detail += why;
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_endpoint, CompletionStatus::no, std::move(detail));
}

}  // namespace switchyard::transports
