#include "orb/value/value_writer.h"

#include <string>

#include "switchyard/exception.h"

namespace switchyard::value_detail {

void writer::write(const value_base* value) {
  if (value == nullptr) {
    out_.write_ulong(0);  // null: inside a chunked value it lies in the open chunk
    return;
  }
  if (auto found = values_.find(value); found != values_.end()) {
    write_indirection(found->second);
    return;
  }
  if (depth_ >= max_value_nesting)
    throw SystemException(SystemExceptionKind::MARSHAL, minor::value_nesting, CompletionStatus::no,
                          "values nested deeper than " + std::to_string(max_value_nesting));
  std::span<const std::string_view> ids = value->_truncatable_ids();
  // A truncatable value needs chunks (a receiver may skip what it does not know), and so does
  // every value nested in a chunked one.
  bool chunked = ids.size() > 1 || chunk_depth_ > 0;
  if (chunk_open_) close_chunk();
  out_.align(4);
  values_.emplace(value, out_.aligned_position());
  written_.emplace_back(value);
  std::uint32_t tag = value_tag_base | (ids.size() > 1 ? tag_id_list : tag_single_id) | (chunked ? tag_chunked : 0u);
  out_.write_ulong(tag);
  if (ids.size() > 1) {
    out_.write_ulong(static_cast<std::uint32_t>(ids.size()));
    for (std::string_view id : ids) write_repository_id(id);
  } else {
    write_repository_id(ids.empty() ? value->_repository_id() : ids[0]);
  }
  ++depth_;
  if (chunked) {
    ++chunk_depth_;
    open_chunk();
  }
  value->_write_state(out_);
  if (chunked) {
    close_chunk();
    write_end_tag();
    --chunk_depth_;
    if (chunk_depth_ > 0) open_chunk();  // the enclosing value's state goes on in a new chunk
  }
  --depth_;
}

void writer::write_end_tag() {
  const auto tag = static_cast<std::uint32_t>(-chunk_depth_);
  if (last_end_tag_ != no_end_tag && last_end_tag_ + 4 == out_.size()) {
    // Right after a nested value's end tag: that one tag ends this value too (as omniORB writes
    // it, and as its reader of an Any's values needs).
    out_.patch_ulong(last_end_tag_, tag);
    return;
  }
  std::byte* at = out_.reserve_aligned(4, 4);
  cdr::store(at, tag);
  last_end_tag_ = static_cast<std::size_t>(at - out_.data());
}

void writer::write_indirection(std::size_t target) {
  out_.write_ulong(indirection_tag);
  std::size_t here = out_.aligned_position();  // the offset is relative to its own position
  out_.write_long(static_cast<std::int32_t>(static_cast<std::int64_t>(target) - static_cast<std::int64_t>(here)));
}

void writer::write_repository_id(std::string_view id) {
  if (auto found = ids_.find(id); found != ids_.end()) {
    write_indirection(found->second);
    return;
  }
  out_.align(4);
  ids_.emplace(id, out_.aligned_position());
  out_.write_string(id);
}

void writer::open_chunk() {
  std::byte* length = out_.reserve_aligned(4, 4);
  chunk_length_offset_ = static_cast<std::size_t>(length - out_.data());
  chunk_start_ = out_.aligned_position();
  chunk_open_ = true;
  out_.set_block_observer(this, chunk_boundary_spacing);
}

void writer::close_chunk() {
  out_.set_block_observer(nullptr, 0);
  chunk_open_ = false;
  std::size_t length = out_.aligned_position() - chunk_start_;
  if (length == 0) {
    // A chunk may not be empty (a length of 0 is no chunk): take its header back.
    out_.truncate(chunk_length_offset_);
    return;
  }
  out_.patch_ulong(chunk_length_offset_, static_cast<std::uint32_t>(length));
}

void writer::block_crossed_boundary(cdr::output_stream&) {
  close_chunk();
  open_chunk();
}

}  // namespace switchyard::value_detail
