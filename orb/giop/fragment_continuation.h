// Where a reassembled GIOP 1.1 message's data goes on past a Fragment boundary (CORBA 3.0,
// 15.4.9: "the data in a fragment is marshaled with alignment relative to its position in the
// fragment"). The reassembler appends each Fragment's data to the message; where the data lands
// off its own alignment (omniORB's Fragments, all multiples of 8 long, land 4 octets off), it
// records the boundary, and a stream reading the body ends there. A read that finds that end
// goes on in the next Fragment through this continuation (cdr::chunk_continuation), realigned as
// from the Fragment's offset 12, exactly as omniORB's reader does: a primitive never crosses a
// boundary (MARSHAL), octets and 4-aligned members join across it, structs are read member by
// member, and an array of 8-octet primitives continued past one is refused, since senders write
// it either way (docs/design.md, "GIOP 1.1 fragments"). Internal to orb/giop and orb/core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "switchyard/cdr/input_stream.h"

namespace switchyard::giop {

class fragment_continuation final : public cdr::chunk_continuation {
 public:
  fragment_continuation() = default;
  // A copy carries the boundaries, not the octets joined for an earlier read.
  fragment_continuation(const fragment_continuation& other) : starts_(other.starts_), body_size_(other.body_size_) {}
  fragment_continuation& operator=(const fragment_continuation&) = delete;
  ~fragment_continuation() = default;

  // Where the data of a Fragment that lands off its alignment begins, as an offset in the body
  // (after the 12-octet header); in increasing order.
  void add_boundary(std::size_t body_offset) { starts_.push_back(static_cast<std::uint32_t>(body_offset)); }
  void set_body_size(std::size_t size) noexcept { body_size_ = static_cast<std::uint32_t>(size); }
  bool empty() const noexcept { return starts_.empty(); }
  void clear() noexcept {
    starts_.clear();
    joined_.clear();
    body_size_ = 0;
  }
  // Where a stream over the whole body first ends: the first boundary.
  std::size_t first_end() const noexcept { return starts_.empty() ? body_size_ : starts_.front(); }

  // cdr::chunk_continuation
  std::string_view pieces() const noexcept override { return "GIOP 1.1 fragments"; }
  bool wide_arrays_ambiguous() const noexcept override { return true; }
  bool next_chunk(cdr::input_stream& in) override;
  std::size_t message_remaining(const cdr::input_stream& in) const noexcept override;
  std::byte* join_storage(std::size_t n) override;

 private:
  std::vector<std::uint32_t> starts_;
  std::uint32_t body_size_ = 0;
  std::vector<std::unique_ptr<std::byte[]>> joined_;  // kept while the message is read
};

// Owns the boundaries of a message kept as a copy (a queued request, a stashed reply). Deleted
// out of line: the vectors' destruction stays off the inline paths of every call, which only
// test the pointer.
struct fragment_continuation_deleter {
  [[gnu::cold, gnu::noinline]] void operator()(fragment_continuation* fragments) const noexcept;
};
using owned_fragments = std::unique_ptr<fragment_continuation, fragment_continuation_deleter>;
// A copy of `fragments` to keep with a copy of its message.
owned_fragments copy_fragments(const fragment_continuation& fragments);

}  // namespace switchyard::giop
