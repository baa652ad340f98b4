#include "orb/value/value_reader.h"

#include <string>

#include "orb/value/value_writer.h"  // the tag constants
#include "switchyard/exception.h"

namespace switchyard::value_detail {

namespace {

constexpr std::int32_t first_value_tag = static_cast<std::int32_t>(value_tag_base);

std::string hex(std::uint32_t v) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) out += digits[(v >> shift) & 0xf];
  return out;
}

}  // namespace

void reader::fail(std::uint32_t minor, const std::string& what) const {
  in_.throw_marshal(minor, what + " (offset " + std::to_string(in_.position()) + ")");
}

std::int32_t reader::peek_long() {
  cdr::input_stream probe = in_;
  probe.set_end_position(real_end_);
  return probe.read_long();
}

value_ref<value_base> reader::read(std::string_view expected_id, const value_factory* fallback) {
  if (chunk_depth_ > 0) {
    in_.align(4);
    if (in_.position() < in_.end_position()) {
      // Inside a chunk only a null or an indirection may stand where a value is expected.
      std::uint32_t tag = in_.read_ulong();
      if (tag == 0) return nullptr;
      if (tag == indirection_tag) return read_indirection();
      fail(minor::bad_value, "value tag " + hex(tag) + " inside a chunk");
    }
    // Between chunks: a nested value, or the next chunk.
    if (ended_to_ != 0 && ended_to_ <= chunk_depth_) fail(minor::bad_value, "a member value after its value's end tag");
    restore_end();
    std::int32_t next = peek_long();
    if (next > 0 && next < first_value_tag) {
      in_.read_long();
      open_chunk(static_cast<std::uint32_t>(next));
      return read(expected_id, fallback);  // the chunk is not empty: this returns from the branch above
    }
    if (next < first_value_tag)
      fail(minor::bad_value, "the state of a chunked value ends (" + hex(static_cast<std::uint32_t>(next)) +
                                 ") where a member value is expected");
    in_.align(4);
    std::size_t tag_position = in_.position();
    std::uint32_t tag = in_.read_ulong();
    value_ref<value_base> value = read_body(tag, tag_position, expected_id, fallback, false);
    resume_chunks();
    return value;
  }
  in_.align(4);
  std::size_t tag_position = in_.position();
  std::uint32_t tag = in_.read_ulong();
  if (tag == 0) return nullptr;
  if (tag == indirection_tag) return read_indirection();
  if (tag < value_tag_base || tag > 0x7fffffffu) fail(minor::bad_value, "bad value tag " + hex(tag));
  return read_body(tag, tag_position, expected_id, fallback, false);
}

value_ref<value_base> reader::read_indirection() {
  std::size_t here = in_.position();
  std::int32_t offset = in_.read_long();
  if (offset >= 0)
    fail(minor::bad_value, "value indirection offset " + std::to_string(offset) + " does not point back");
  std::int64_t target = static_cast<std::int64_t>(here) + offset;
  auto found = target >= 0 ? values_.find(static_cast<std::size_t>(target)) : values_.end();
  if (found == values_.end())
    fail(minor::bad_value, "value indirection offset " + std::to_string(offset) + " points where no value begins");
  if (!found->second) fail(minor::bad_value, "value indirection to a value of unknown type (it was skipped)");
  if (!copied_.empty() && copied_.count(found->second.get()) != 0) copied_shared_ = true;
  return found->second;
}

std::string_view reader::read_repository_id() {
  in_.align(4);
  std::size_t position = in_.position();
  cdr::input_stream probe = in_;
  if (probe.read_ulong() == indirection_tag) {
    in_.read_ulong();
    std::size_t here = in_.position();
    std::int32_t offset = in_.read_long();
    std::int64_t target = static_cast<std::int64_t>(here) + offset;
    auto found = offset < 0 && target >= 0 ? ids_.find(static_cast<std::size_t>(target)) : ids_.end();
    if (found == ids_.end())
      fail(minor::bad_value,
           "repository id indirection offset " + std::to_string(offset) + " points where no repository id begins");
    return found->second;
  }
  std::string_view id = in_.read_string_view();
  ids_.emplace(position, id);
  return id;
}

value_ref<value_base> reader::read_body(std::uint32_t tag, std::size_t tag_position, std::string_view expected_id,
                                        const value_factory* fallback, bool discard) {
  if (depth_ >= max_value_nesting)
    fail(minor::value_nesting, "values nested deeper than " + std::to_string(max_value_nesting));
  if (values_.size() >= max_values_per_message)
    fail(minor::too_many_values, "more than " + std::to_string(max_values_per_message) + " values in one message");
  if (tag & tag_codebase) read_repository_id();  // a codebase URL (same encoding): not used

  std::vector<std::string_view> listed;
  std::string_view single;
  std::span<const std::string_view> ids;
  switch (tag & tag_type_mask) {
    case 0:
      break;
    case tag_single_id:
      single = read_repository_id();
      ids = {&single, 1};
      break;
    case tag_id_list: {
      in_.align(4);
      std::size_t position = in_.position();
      cdr::input_stream probe = in_;
      if (probe.read_ulong() == indirection_tag) {
        in_.read_ulong();
        std::size_t here = in_.position();
        std::int32_t offset = in_.read_long();
        std::int64_t target = static_cast<std::int64_t>(here) + offset;
        auto found = offset < 0 && target >= 0 ? id_lists_.find(static_cast<std::size_t>(target)) : id_lists_.end();
        if (found == id_lists_.end())
          fail(minor::bad_value,
               "repository id list indirection offset " + std::to_string(offset) + " points where no list begins");
        ids = found->second;
        break;
      }
      std::uint32_t count = in_.read_length(4);
      if (count == 0) fail(minor::bad_value, "empty repository id list");
      listed.reserve(count);
      for (std::uint32_t i = 0; i < count; ++i) listed.push_back(read_repository_id());
      ids = id_lists_.emplace(position, listed).first->second;
      break;
    }
    default:
      fail(minor::bad_value, "value tag " + hex(tag) + " has no meaning for its type information bits");
  }
  bool chunked = (tag & tag_chunked) != 0;
  if (!chunked && chunk_depth_ > 0) fail(minor::bad_value, "an unchunked value inside a chunked one");

  // The factory of the first id that has one: the value's own, or a truncatable base's.
  // The fallback stands in for a missing factory of the expected type (not owned: an alias).
  auto factory_for = [&](std::string_view id) {
    value_factory_ref found = lookup_value_factory(id);
    if (!found && fallback != nullptr && id == expected_id) found = value_factory_ref(value_factory_ref(), fallback);
    return found;
  };
  value_factory_ref factory;
  std::size_t chosen = 0;
  if (ids.empty()) {
    factory = factory_for(expected_id);
  } else {
    for (; chosen < ids.size() && !factory; ++chosen) factory = factory_for(ids[chosen]);
    --chosen;
  }
  if (!factory) {
    if (discard && chunked) {  // in a truncated value's rest: skip it whole
      values_.emplace(tag_position, nullptr);
      ++depth_;
      int level = ++chunk_depth_;
      resume_chunks();
      finish_chunked(level);
      --chunk_depth_;
      --depth_;
      return nullptr;
    }
    std::string named = ids.empty() ? std::string(expected_id) : std::string(ids[0]);
    if (ids.size() > 1) named += " or any of its " + std::to_string(ids.size() - 1) + " truncatable bases";
    fail(minor::no_value_factory, "no value factory for " + named);
  }
  if (chosen > 0 && !chunked)
    fail(minor::bad_value, "a value truncated to " + std::string(ids[chosen]) + " is not chunked");
  value_ref<value_base> value = factory->create_for_unmarshal();
  if (!value)
    fail(minor::no_value_factory,
         "the value factory for " + std::string(ids.empty() ? expected_id : ids[chosen]) + " made no value");
  values_.emplace(tag_position, value);  // before its state: a cycle back to it resolves
  made_.push_back(value);
  ++depth_;
  int level = 0;
  if (chunked) {
    level = ++chunk_depth_;
    resume_chunks();
  }
  value->_read_state(in_);
  if (chunked) {
    finish_chunked(level);
    --chunk_depth_;
  }
  --depth_;
  return value;
}

void reader::open_chunk(std::uint32_t length) {
  if (length > real_end_ - in_.position())
    fail(minor::bad_value, "value chunk of " + std::to_string(length) + " octets, " +
                               std::to_string(real_end_ - in_.position()) + " left in the message");
  in_.set_end_position(in_.position() + length);
}

void reader::resume_chunks() {
  restore_end();
  if (ended_to_ != 0 && ended_to_ <= chunk_depth_) {
    close_window();  // this value was ended by a nested value's end tag
    return;
  }
  std::int32_t next = peek_long();
  if (next == 0) fail(minor::bad_value, "value chunk of length 0");
  if (next > 0 && next < first_value_tag) {
    in_.read_long();
    open_chunk(static_cast<std::uint32_t>(next));
    return;
  }
  close_window();  // a nested value or an end tag comes next, outside any chunk
}

bool reader::next_chunk(cdr::input_stream& in) {
  // Only a state read on this reader's stream (not a copy) goes on, and only to a chunk of the
  // value it reads: not past that value's end tag, nor into a nested value.
  if (&in != &in_ || chunk_depth_ == 0 || in_.position() != in_.end_position()) return false;
  if (ended_to_ != 0 && ended_to_ <= chunk_depth_) return false;
  restore_end();
  std::int32_t next = peek_long();
  if (next > 0 && next < first_value_tag) {
    in_.align(4);
    in_.read_long();
    open_chunk(static_cast<std::uint32_t>(next));
    return true;
  }
  close_window();
  return false;
}

std::size_t reader::message_remaining(const cdr::input_stream& in) const noexcept {
  return in.position() < real_end_ ? real_end_ - in.position() : 0;
}

std::byte* reader::join_storage(std::size_t n) {
  joined_.push_back(std::make_unique_for_overwrite<std::byte[]>(n));
  return joined_.back().get();
}

void reader::finish_chunked(int level) {
  // What the state did not read of its chunk (a truncated value's rest, or more than its type
  // knows): skipped, then every further chunk and nested value up to the end tag.
  in_.skip(in_.remaining());
  restore_end();
  for (;;) {
    if (ended_to_ != 0 && ended_to_ <= level) {
      if (ended_to_ == level) ended_to_ = 0;
      return;
    }
    std::int32_t next = peek_long();
    in_.align(4);
    std::size_t position = in_.position();
    in_.read_long();
    if (next < 0) {
      std::int64_t closes = -static_cast<std::int64_t>(next);
      if (closes > level)
        fail(minor::bad_value,
             "end tag " + std::to_string(next) + " inside a value at chunk depth " + std::to_string(level));
      if (closes < level) ended_to_ = static_cast<int>(closes);  // ends the enclosing values too
      return;
    }
    if (next == 0) fail(minor::bad_value, "value chunk of length 0");
    if (next < first_value_tag) {
      open_chunk(static_cast<std::uint32_t>(next));
      in_.skip(in_.remaining());
      restore_end();
      continue;
    }
    read_body(static_cast<std::uint32_t>(next), position, {}, nullptr, true);
    restore_end();
  }
}

void reader::mark_copied_since(std::size_t count) {
  for (std::size_t i = count; i < made_.size(); ++i) copied_.insert(made_[i].get());
}

void reader::release_copied() noexcept {
  if (copied_.empty()) return;  // the scope of a message without an Any of values: nothing to do
  // Shared with a value read after them (an indirection across an Any's boundary): they are part
  // of that graph now, and kept whole.
  if (!copied_shared_)
    for (const auto& value : made_)
      if (copied_.count(value.get()) != 0) value->_release_values();
  copied_.clear();
  copied_shared_ = false;
}

void reader::release_all() noexcept {
  for (auto& value : made_) value->_release_values();
  made_.clear();
  values_.clear();
}

}  // namespace switchyard::value_detail
