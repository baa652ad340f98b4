#include "orb/core/message_reader.h"

#include <cstring>

#include "orb/giop/plain_messages.h"
#include "orb/giop/protocol.h"

namespace switchyard::core {

message_reader::message_reader(std::uint32_t max_body_size, std::size_t initial_capacity)
    : max_body_size_(max_body_size), buffer_(initial_capacity) {}

message_reader::result message_reader::next() {
  begin_ += release_;
  release_ = 0;
  for (;;) {
    result out;
    std::size_t buffered = end_ - begin_;
    if (buffered < giop::header_size) return out;
    std::span<const std::byte> bytes(buffer_.data() + begin_, buffered);
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
      reassembler_.emplace(*protocol, max_body_size_ + giop::header_size);
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
    if (buffered != 0) std::memmove(buffer_.data(), buffer_.data() + begin_, buffered);
    begin_ = 0;
    end_ = buffered;
  }
  if (buffer_.size() - end_ < wanted) buffer_.resize(std::max(buffer_.size() * 2, end_ + wanted));
}

bool message_reader::receive(transports::connection& connection) {
  begin_ += release_;
  release_ = 0;
  // Room for the whole of the message being received when its header is in already, so a large
  // message arrives in as few reads as the socket allows.
  std::size_t wanted = 4096;
  std::size_t buffered = end_ - begin_;
  if (buffered == 0) begin_ = end_ = 0;  // everything consumed: start over at the front
  if (buffered >= giop::header_size) {
    auto header = giop::decode_header({buffer_.data() + begin_, buffered}, max_body_size_);
    if (header.status == giop::header_status::ok) {
      std::size_t total = giop::header_size + header.header.body_size;
      if (total > buffered) wanted = std::max(wanted, total - buffered);
    }
  }
  if (buffer_.size() - end_ < wanted) make_room(wanted);
  std::size_t got = connection.try_recv_some(buffer_.data() + end_, buffer_.size() - end_);
  if (got == 0) return false;
  end_ += got;
  return true;
}

}  // namespace switchyard::core
