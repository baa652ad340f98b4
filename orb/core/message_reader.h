// Reads GIOP messages off one connection into a buffer it keeps and reuses: one receive usually
// brings a whole small request, header and body together; complete messages come out as views
// into the buffer, fragmented ones reassembled. Internal to orb/core. Not thread-safe: one reader
// per connection, used by one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "orb/giop/message_header.h"
#include "orb/giop/reassembler.h"
#include "transports/connection.h"

namespace switchyard::core {

class message_reader {
 public:
  explicit message_reader(std::uint32_t max_body_size = giop::default_max_body_size,
                          std::size_t initial_capacity = 16 * 1024);

  enum class status : std::uint8_t {
    message,     // `message` holds the next complete message (valid until the next call)
    need_more,   // the buffer ends inside a message: receive() more
    bad_header,  // `header` says what is wrong; the connection cannot be read further
  };
  struct result {
    status what = status::need_more;
    giop::message_view message;
    giop::header_result header;
  };

  // The next complete message already buffered. Fragments are fed to the reassembler and only
  // the complete message comes out. Reassembly errors raise MARSHAL (answer with MessageError).
  result next();

  // Receives what the connection has now (waits for at least one octet). False when the peer
  // closed cleanly; throws COMM_FAILURE on errors.
  bool receive(transports::connection& connection);

  bool has_buffered() const noexcept { return end_ != begin_; }
  // Whether octets beyond the message handed out last are buffered (next() may find one).
  bool has_unread() const noexcept { return end_ - begin_ > release_; }
  std::size_t capacity() const noexcept { return buffer_.size(); }

 private:
  // Makes room for `wanted` octets after the buffered ones, moving them to the front first.
  void make_room(std::size_t wanted);

  std::uint32_t max_body_size_;
  std::vector<std::byte> buffer_;
  std::size_t begin_ = 0;    // first unread octet
  std::size_t end_ = 0;      // one past the last received octet
  std::size_t release_ = 0;  // octets of the message handed out last, consumed at the next call
  std::optional<giop::reassembler> reassembler_;
};

}  // namespace switchyard::core
