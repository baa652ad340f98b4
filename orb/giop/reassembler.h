// Reassembly of fragmented GIOP messages (CORBA 3.0, 15.4.9), one per connection.
//
// GIOP 1.1: a Request or Reply with the more-fragments bit is continued by Fragment messages that
// carry no id: they continue the one message in progress. GIOP 1.2: Request, Reply,
// LocateRequest and LocateReply may be fragmented; each Fragment names its request id, so
// fragments of different requests interleave. GIOP 1.0 has no fragments.
//
// Unfragmented messages pass through untouched (no copy). A fragmented one is copied into a
// buffer here until its last fragment; the complete message then reads like one that was never
// fragmented (header size patched, more-fragments bit cleared). The total of all partial messages
// is bounded: beyond it, MARSHAL minor::fragment_limit. Protocol errors (a Fragment with nothing
// to continue, a second 1.1 fragmented message, a repeated 1.2 id, a 1.2 fragment boundary off 8)
// raise MARSHAL minor::bad_message; the core answers both with MessageError and closes.
// A CancelRequest ends the reassembly of the request it names (the spec's "no more fragments will
// follow") and is passed on. Not thread-safe: one per connection, used by its reader.
//
// Alignment across 1.1 fragments (docs/design.md, "GIOP 1.1 fragments"): the data of a 1.1
// Fragment is aligned relative to the Fragment itself and starts at its offset 12, so appending
// it keeps every value where a reader of the whole message looks for it only when it lands at a
// message offset that is 12 modulo 8 (the message before it has a length of 4 modulo 8). When
// some Fragment's data lands elsewhere (omniORB's fragments are all multiples of 8), the message
// comes with its boundaries (message_view::fragments), and its body stream reads each Fragment
// realigned as omniORB's reader does (orb/giop/fragment_continuation.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "orb/base/buffer_budget.h"
#include "orb/base/page_allocator.h"
#include "orb/giop/fragment_continuation.h"
#include "orb/giop/message_header.h"
#include "orb/giop/protocol.h"

namespace switchyard::giop {

class reassembler {
 public:
  // Partial messages can be large: their pages go back to the system when freed.
  using octet_buffer = std::vector<std::byte, page_allocator<std::byte>>;

  static constexpr std::size_t default_max_total_size = 64u << 20;
  static constexpr std::size_t default_max_partials = 64;

  // With a budget (the server's), every octet of buffer is drawn from it before the buffer grows;
  // when it is spent, feed() raises IMP_LIMIT minor::buffer_limit.
  explicit reassembler(const protocol& impl, std::size_t max_total_size = default_max_total_size,
                       std::size_t max_partials = default_max_partials, buffer_budget* budget = nullptr)
      : impl_(impl), max_total_size_(max_total_size), max_partials_(max_partials), budget_(budget) {}
  ~reassembler();
  reassembler(const reassembler&) = delete;
  reassembler& operator=(const reassembler&) = delete;

  enum class outcome : std::uint8_t { complete, pending };
  struct result {
    outcome what = outcome::pending;
    message_view message;  // complete: the message to decode (valid until the next feed)
  };

  // Takes one message whose header decode_header accepted.
  result feed(const message_view& message);

  std::size_t partial_count() const noexcept { return partials_.size(); }
  std::size_t buffered_size() const noexcept { return buffered_; }
  // Octets of buffer held: the partial messages' and the last completed message's.
  std::size_t memory_in_use() const noexcept { return held_; }
  // Forgets the partial messages (the last completed one stays readable).
  void clear() noexcept;

 private:
  struct partial {
    std::uint32_t request_id = 0;  // 1.2; 1.1 finds it by decoding when it must
    message_header header;
    octet_buffer bytes;
    // 1.1: where each Fragment's data begins (body offsets), and whether some lands off its own
    // alignment. Each boundary counts as 4 octets against the limits.
    std::vector<std::uint32_t> boundaries;
    bool shifted = false;
  };

  result start(const message_view& message);
  result continue_with(const message_view& message);
  void cancel(const message_view& message);
  void reserve_room(std::size_t more);
  // Makes room for `more` octets in `bytes`, drawing the growth from the budget first.
  void grow(octet_buffer& bytes, std::size_t more);
  // Frees `bytes` and gives its octets back.
  void release(octet_buffer& bytes) noexcept;
  static void note_boundary(partial& p);
  // What a partial message holds against the limits.
  static std::size_t charged(const partial& p) noexcept { return p.bytes.size() + 4 * p.boundaries.size(); }
  std::vector<partial>::iterator find(std::uint32_t request_id);

  const protocol& impl_;
  std::size_t max_total_size_;
  std::size_t max_partials_;
  std::size_t buffered_ = 0;
  std::vector<partial> partials_;
  octet_buffer completed_;
  fragment_continuation completed_fragments_;  // the last completed 1.1 message's, if shifted
  buffer_budget* budget_;
  std::size_t held_ = 0;  // capacity of every buffer here, drawn from the budget
};

}  // namespace switchyard::giop
