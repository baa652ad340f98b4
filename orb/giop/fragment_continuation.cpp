#include "orb/giop/fragment_continuation.h"

#include <algorithm>

#include "orb/giop/message_header.h"

namespace switchyard::giop {

namespace {

// A GIOP 1.1 Fragment's data begins after its 12-octet header, aligned as from the Fragment's start.
constexpr std::size_t fragment_data_offset = 12;

}  // namespace

bool fragment_continuation::next_chunk(cdr::input_stream& in) {
  // Streams over the body only (their position is a body offset), and only at a boundary.
  const std::size_t at = in.position();
  if (at != in.end_position()) return false;
  const auto it = std::lower_bound(starts_.begin(), starts_.end(), at);
  if (it == starts_.end() || *it != at) return false;
  in.set_end_position(it + 1 == starts_.end() ? body_size_ : *(it + 1));
  in.restart_alignment(fragment_data_offset);
  return true;
}

std::size_t fragment_continuation::message_remaining(const cdr::input_stream& in) const noexcept {
  return body_size_ > in.position() ? body_size_ - in.position() : 0;
}

cdr::input_stream message_view::fragmented_body_stream() const noexcept {
  cdr::input_stream in(body().first(std::min(fragments->first_end(), body().size())), header.order, header_size,
                       header.ver.minor);
  in.set_continuation(fragments);
  return in;
}

std::byte* fragment_continuation::join_storage(std::size_t n) {
  joined_.push_back(std::make_unique<std::byte[]>(n));
  return joined_.back().get();
}

void fragment_continuation_deleter::operator()(fragment_continuation* fragments) const noexcept { delete fragments; }

owned_fragments copy_fragments(const fragment_continuation& fragments) {
  return owned_fragments(new fragment_continuation(fragments));
}

}  // namespace switchyard::giop
