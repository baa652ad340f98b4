// Reads GIOP messages off one connection into a buffer it keeps and reuses: one receive usually
// brings a whole small request, header and body together; complete messages come out as views
// into the buffer, fragmented ones reassembled. Internal to orb/core. Not thread-safe: one reader
// per connection, used by one thread at a time.
//
// Memory: the buffer grows with the octets that arrive (doubling when full), never ahead of them
// to the size a header declares, so 13 octets declaring 64 MiB cost nothing. With a budget (the
// server's), every octet of capacity beyond the initial one, the reader's and its reassembler's,
// is drawn from it first; when the budget is spent the read fails with IMP_LIMIT
// minor::buffer_limit. The initial capacity is a floor never refused, so small messages are
// always read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "orb/base/buffer_budget.h"
#include "orb/base/page_allocator.h"
#include "orb/giop/message_header.h"
#include "orb/giop/reassembler.h"
#include "transports/connection.h"

namespace switchyard::core {

class message_reader {
 public:
  explicit message_reader(std::uint32_t max_body_size = giop::default_max_body_size,
                          std::size_t initial_capacity = 16 * 1024, buffer_budget* budget = nullptr);
  ~message_reader();
  message_reader(const message_reader&) = delete;
  message_reader& operator=(const message_reader&) = delete;

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

  // Receives what is there now: without waiting on a non-blocking socket, or until the
  // socket's receive timeout on a blocking one.
  enum class received : std::uint8_t { octets, closed, nothing };
  received receive_now(transports::connection& connection);

  bool has_buffered() const noexcept { return end_ != begin_; }
  // Whether octets beyond the message handed out last are buffered (next() may find one).
  bool has_unread() const noexcept { return end_ - begin_ > release_; }
  // Whether a message has begun and not yet ended: some of it buffered, or fragments pending.
  bool inside_message() const noexcept { return has_unread() || (reassembler_ && reassembler_->partial_count() != 0); }
  std::size_t capacity() const noexcept { return capacity_; }

  // For a message whose views must outlive further reads (a request whose upcall waits while
  // its connection is read again in a nested round): moves the buffer that holds the message
  // handed out last into `retired`, to be kept as long as the views are used, and goes on with
  // a new buffer holding the octets not yet handed out. False, and nothing changed, when the
  // message came from the reassembler (its storage cannot be set aside) or there is no memory.
  bool retire_buffer(page_block& retired) noexcept;

  // Gives back what the buffer grew beyond its initial size, and the reassembler's last message,
  // when nothing is buffered (an idle connection after a large message).
  void trim() noexcept;

 private:
  // Makes room for at least `wanted` more octets after the buffered ones: moves them to the
  // front, then grows (at most doubling) if that is not enough.
  void make_room(std::size_t wanted);
  // Octets still to come of the message whose header is buffered (a header's worth if unknown).
  std::size_t rest_of_message(std::size_t buffered) const noexcept;
  void resize(std::size_t capacity);
  // What a buffer of `capacity` draws from the budget: what it has beyond the initial capacity.
  std::size_t drawn(std::size_t capacity) const noexcept;

  std::uint32_t max_body_size_;
  std::size_t initial_capacity_;
  buffer_budget* budget_;
  page_block buffer_;
  std::size_t capacity_ = 0;
  std::size_t begin_ = 0;    // first unread octet
  std::size_t end_ = 0;      // one past the last received octet
  std::size_t release_ = 0;  // octets of the message handed out last, consumed at the next call
  std::optional<giop::reassembler> reassembler_;
};

}  // namespace switchyard::core
