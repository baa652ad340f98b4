#include "orb/giop/reassembler.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "switchyard/exception.h"

namespace switchyard::giop {

namespace {

[[noreturn]] void throw_bad_message(std::string detail) {
  throw SystemException(SystemExceptionKind::MARSHAL, minor::bad_message, CompletionStatus::no, std::move(detail));
}

}  // namespace

reassembler::~reassembler() {
  clear();
  release(completed_);
}

void reassembler::clear() noexcept {
  for (partial& p : partials_) release(p.bytes);
  partials_.clear();
  buffered_ = 0;
}

void reassembler::grow(octet_buffer& bytes, std::size_t more) {
  const std::size_t needed = bytes.size() + more;
  if (needed <= bytes.capacity()) return;
  // Both buffers exist while the octets move: the new one is drawn whole, then the old one
  // given back, so the budget bounds the peak too.
  const std::size_t capacity = std::max(needed, bytes.capacity() * 2);
  const std::size_t old_capacity = bytes.capacity();
  if (budget_ != nullptr && !budget_->try_reserve(capacity))
    throw SystemException(SystemExceptionKind::IMP_LIMIT, minor::buffer_limit, CompletionStatus::no,
                          "the server's buffers for incoming messages are full (-ORBMaxBufferedBytes " +
                              std::to_string(budget_->limit()) + ")");
  try {
    bytes.reserve(capacity);
  } catch (...) {
    if (budget_ != nullptr) budget_->release(capacity);
    throw;
  }
  if (budget_ != nullptr) budget_->release(old_capacity);
  held_ += capacity - old_capacity;
}

void reassembler::release(octet_buffer& bytes) noexcept {
  const std::size_t capacity = bytes.capacity();
  octet_buffer().swap(bytes);
  if (budget_ != nullptr) budget_->release(capacity);
  held_ -= std::min(held_, capacity);
}

std::vector<reassembler::partial>::iterator reassembler::find(std::uint32_t request_id) {
  return std::find_if(partials_.begin(), partials_.end(), [&](const partial& p) { return p.request_id == request_id; });
}

void reassembler::reserve_room(std::size_t more) {
  if (more > max_total_size_ || buffered_ > max_total_size_ - more)
    throw SystemException(SystemExceptionKind::MARSHAL, minor::fragment_limit, CompletionStatus::no,
                          "fragmented messages exceed " + std::to_string(max_total_size_) + " octets");
}

reassembler::result reassembler::feed(const message_view& message) {
  if (message.header.type == message_type::cancel_request) {
    cancel(message);
    return {outcome::complete, message};
  }
  if (message.header.type != message_type::fragment && !message.header.more_fragments)
    return {outcome::complete, message};  // the common case: nothing to do
  if (message.header.ver != impl_.ver())
    throw_bad_message("fragmented GIOP 1." + std::to_string(message.header.ver.minor) + " message on a GIOP 1." +
                      std::to_string(impl_.minor()) + " connection");
  if (message.header.type == message_type::fragment) return continue_with(message);
  return start(message);
}

reassembler::result reassembler::start(const message_view& message) {
  if (!impl_.may_fragment(message.header.type))
    throw_bad_message(std::string(to_string(message.header.type)) + " cannot be fragmented");
  std::uint32_t request_id = 0;
  if (impl_.fragments_interleave()) {
    impl_.leading_request_id(message, request_id);
    if (find(request_id) != partials_.end())
      throw_bad_message("a second fragmented message with request id " + std::to_string(request_id));
    // Fragment data continues at offset 16 of each Fragment: the primary must end on 8.
    if (message.bytes.size() % 8 != 0)
      throw_bad_message("fragment of " + std::to_string(message.bytes.size()) +
                        " octets does not end on an 8-octet boundary");
  } else if (!partials_.empty()) {
    throw_bad_message("a fragmented message started before the previous one ended");
  }
  if (partials_.size() >= max_partials_)
    throw SystemException(SystemExceptionKind::MARSHAL, minor::fragment_limit, CompletionStatus::no,
                          "more than " + std::to_string(max_partials_) + " fragmented messages at once");
  reserve_room(message.bytes.size());
  partial& p = partials_.emplace_back();
  p.request_id = request_id;
  p.header = message.header;
  try {
    grow(p.bytes, message.bytes.size());
  } catch (...) {
    partials_.pop_back();
    throw;
  }
  p.bytes.assign(message.bytes.begin(), message.bytes.end());
  buffered_ += message.bytes.size();
  return {outcome::pending, {}};
}

reassembler::result reassembler::continue_with(const message_view& message) {
  std::vector<partial>::iterator it;
  if (impl_.fragments_interleave()) {
    std::uint32_t request_id = 0;
    impl_.leading_request_id(message, request_id);
    it = find(request_id);
    if (it == partials_.end())
      throw_bad_message("Fragment for request id " + std::to_string(request_id) + " without a started message");
  } else {
    if (partials_.empty()) throw_bad_message("Fragment without a started message");
    it = partials_.begin();
  }
  if (message.header.order != it->header.order) throw_bad_message("Fragment in another byte order than its message");
  if (impl_.fragments_interleave() && message.header.more_fragments && message.bytes.size() % 8 != 0)
    throw_bad_message("fragment of " + std::to_string(message.bytes.size()) +
                      " octets does not end on an 8-octet boundary");
  std::span<const std::byte> data =
      message.body().subspan(std::min(impl_.fragment_header_size(), message.body().size()));
  const bool boundary = !impl_.fragments_interleave() && !data.empty();
  try {
    reserve_room(data.size() + (boundary ? 4 : 0));
    grow(it->bytes, data.size());
    if (boundary) note_boundary(*it);
  } catch (...) {
    buffered_ -= charged(*it);
    release(it->bytes);
    partials_.erase(it);
    throw;
  }
  it->bytes.insert(it->bytes.end(), data.begin(), data.end());
  buffered_ += data.size() + (boundary ? 4 : 0);
  if (message.header.more_fragments) return {outcome::pending, {}};

  // The last fragment: hand out the message as if it had never been fragmented; a 1.1 message
  // whose Fragments land off their alignment with its boundaries.
  buffered_ -= charged(*it);
  completed_fragments_.clear();
  if (it->shifted) {
    for (std::uint32_t start : it->boundaries) completed_fragments_.add_boundary(start);
    completed_fragments_.set_body_size(it->bytes.size() - header_size);
  }
  release(completed_);
  completed_ = std::move(it->bytes);
  message_header header = it->header;
  const bool shifted = it->shifted;
  partials_.erase(it);
  header.more_fragments = false;
  header.body_size = static_cast<std::uint32_t>(completed_.size() - header_size);
  completed_[6] &= ~std::byte{flag_more_fragments};
  std::uint32_t size = header.body_size;
  if (header.order != cdr::native_byte_order) size = cdr::byte_swap(size);
  std::memcpy(completed_.data() + 8, &size, 4);
  return {outcome::complete, message_view{header, completed_, shifted ? &completed_fragments_ : nullptr}};
}

void reassembler::note_boundary(partial& p) {
  // The Fragment's data is aligned as if its first octet stood at offset 12 (after its own
  // header); here it lands at offset p.bytes.size() of the message. A difference that is not a
  // multiple of 8 moves every value of a larger alignment than the difference allows. Every
  // boundary is kept: after one that shifts, the reader realigns at each.
  const std::size_t body_offset = p.bytes.size() - header_size;
  if (body_offset % 8 != 0) p.shifted = true;
  p.boundaries.push_back(static_cast<std::uint32_t>(body_offset));
}

void reassembler::cancel(const message_view& message) {
  if (partials_.empty()) return;
  std::uint32_t request_id = impl_.decode_cancel_request(message);
  if (impl_.fragments_interleave()) {
    auto it = find(request_id);
    if (it == partials_.end()) return;
    buffered_ -= charged(*it);
    release(it->bytes);
    partials_.erase(it);
    return;
  }
  // 1.1: the message in progress carries its id after its service contexts, perhaps not yet
  // received. Drop it when it is that request, or when its id cannot be read yet.
  partial& p = partials_.front();
  if (p.header.type != message_type::request) return;  // a CancelRequest cancels requests only
  message_view view{p.header, p.bytes};
  view.header.body_size = static_cast<std::uint32_t>(p.bytes.size() - header_size);
  std::uint32_t partial_id = 0;
  if (impl_.leading_request_id(view, partial_id) && partial_id != request_id) return;
  clear();
}

}  // namespace switchyard::giop
