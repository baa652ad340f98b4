#include "orb/core/message_reader.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "orb/giop/plain_messages.h"
#include "orb/giop/protocol.h"
#include "switchyard/exception.h"

namespace switchyard::core {

namespace {

[[noreturn]] void throw_over_budget(const buffer_budget& budget) {
  throw SystemException(SystemExceptionKind::IMP_LIMIT, minor::buffer_limit, CompletionStatus::no,
                        "the server's buffers for incoming messages are full (-ORBMaxBufferedBytes " +
                            std::to_string(budget.limit()) + ")");
}

}  // namespace

message_reader::message_reader(std::uint32_t max_body_size, std::size_t initial_capacity, buffer_budget* budget)
    : max_body_size_(max_body_size), initial_capacity_(std::max<std::size_t>(initial_capacity, 64)), budget_(budget) {
  resize(initial_capacity_);
}

message_reader::~message_reader() {
  if (budget_ != nullptr) budget_->release(drawn(capacity_));
}

std::size_t message_reader::drawn(std::size_t capacity) const noexcept {
  return capacity > initial_capacity_ ? capacity - initial_capacity_ : 0;
}

void message_reader::resize(std::size_t capacity) {
  // The initial capacity is every connection's floor, never refused: a peer sending small
  // messages is served however full the budget is. Growth beyond it is drawn from the budget.
  // While the octets are copied both buffers exist: the new one is drawn whole, then the old
  // one given back, so the budget bounds the peak too.
  if (budget_ != nullptr && !budget_->try_reserve(drawn(capacity))) throw_over_budget(*budget_);
  page_block bigger;
  try {
    bigger = page_block(capacity);
  } catch (...) {
    if (budget_ != nullptr) budget_->release(drawn(capacity));
    throw;
  }
  const std::size_t buffered = end_ - begin_;
  if (buffered != 0) std::memcpy(bigger.get(), buffer_.get() + begin_, buffered);
  if (budget_ != nullptr) budget_->release(drawn(capacity_));
  buffer_ = std::move(bigger);
  capacity_ = capacity;
  begin_ = 0;
  end_ = buffered;
}

message_reader::result message_reader::next() {
  begin_ += release_;
  release_ = 0;
  for (;;) {
    result out;
    std::size_t buffered = end_ - begin_;
    if (buffered < giop::header_size) return out;
    std::span<const std::byte> bytes(buffer_.get() + begin_, buffered);
    if (!giop::decode_plain_header(bytes.data(), max_body_size_, out.header.header))
      out.header = giop::decode_header(bytes, max_body_size_);
    if (out.header.status != giop::header_status::ok) {
      out.what = status::bad_header;
      return out;
    }
    std::size_t total = giop::header_size + out.header.header.body_size;
    if (buffered < total) return out;

    giop::message_view message{out.header.header, bytes.first(total)};
    release_ = total;
    bool fragmented = message.header.more_fragments || message.header.type == giop::message_type::fragment;
    if (!fragmented && !reassembler_) {
      out.what = status::message;
      out.message = message;
      return out;
    }
    if (!reassembler_) {
      const giop::protocol* protocol = giop::protocol_for(message.header.ver.minor);
      reassembler_.emplace(*protocol, max_body_size_ + giop::header_size, giop::reassembler::default_max_partials,
                           budget_);
    }
    auto fed = reassembler_->feed(message);
    if (fed.what == giop::reassembler::outcome::complete) {
      out.what = status::message;
      out.message = fed.message;
      return out;
    }
    // Swallowed by the reassembler: go on with the next buffered message.
    begin_ += release_;
    release_ = 0;
  }
}

void message_reader::make_room(std::size_t wanted) {
  std::size_t buffered = end_ - begin_;
  if (begin_ != 0) {
    if (buffered != 0) std::memmove(buffer_.get(), buffer_.get() + begin_, buffered);
    begin_ = 0;
    end_ = buffered;
    if (capacity_ - end_ >= wanted) return;
  }
  // Full of octets that arrived: grow, at most doubling, so capacity follows what came.
  resize(std::max(capacity_ * 2, end_ + std::min(wanted, capacity_)));
}

std::size_t message_reader::rest_of_message(std::size_t buffered) const noexcept {
  auto header = giop::decode_header({buffer_.get() + begin_, buffered}, max_body_size_);
  if (header.status != giop::header_status::ok) return giop::header_size;
  const std::size_t total = giop::header_size + header.header.body_size;
  return total > buffered ? total - buffered : giop::header_size;
}

bool message_reader::receive(transports::connection& connection) {
  const received got = receive_now(connection);
  if (got != received::nothing) return got == received::octets;
  // Nothing yet on a non-blocking socket (or a receive timeout passed): wait for it.
  const std::size_t more = connection.try_recv_some(buffer_.get() + end_, capacity_ - end_);
  end_ += more;
  return more != 0;
}

message_reader::received message_reader::receive_now(transports::connection& connection) {
  begin_ += release_;
  release_ = 0;
  const std::size_t buffered = end_ - begin_;
  // Room for the rest of the message whose header is in (as far as doubling allows), or for a
  // header.
  std::size_t wanted = giop::header_size;
  if (buffered == 0) begin_ = end_ = 0;  // everything consumed: start over at the front
  else if (buffered >= giop::header_size) wanted = rest_of_message(buffered);
  if (capacity_ - end_ < wanted) make_room(wanted);
  const std::ptrdiff_t got = connection.recv_now(buffer_.get() + end_, capacity_ - end_);
  if (got > 0) {
    end_ += static_cast<std::size_t>(got);
    return received::octets;
  }
  return got == 0 ? received::closed : received::nothing;
}

bool message_reader::retire_buffer(page_block& retired) noexcept {
  if (reassembler_) return false;
  const std::size_t unread = end_ - begin_ - release_;
  const std::size_t capacity = std::max(initial_capacity_, unread);
  page_block fresh;
  try {
    if (budget_ != nullptr && !budget_->try_reserve(drawn(capacity))) return false;
    fresh = page_block(capacity);
  } catch (...) {
    if (budget_ != nullptr) budget_->release(drawn(capacity));
    return false;
  }
  if (unread != 0) std::memcpy(fresh.get(), buffer_.get() + begin_ + release_, unread);
  // The retired buffer lives a little longer, outside the budget: at most one per nested wait.
  if (budget_ != nullptr) budget_->release(drawn(capacity_));
  retired = std::exchange(buffer_, std::move(fresh));
  capacity_ = capacity;
  begin_ = release_ = 0;
  end_ = unread;
  return true;
}

void message_reader::trim() noexcept {
  if (has_unread()) return;
  begin_ = end_ = release_ = 0;
  if (capacity_ > initial_capacity_) {
    try {
      resize(initial_capacity_);
    } catch (...) {
      // Out of memory for the smaller buffer: keep the larger one.
    }
  }
  if (reassembler_ && reassembler_->partial_count() == 0) reassembler_.reset();
}

}  // namespace switchyard::core
