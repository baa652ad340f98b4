// The valuetype reader: one per value_input_scope (switchyard/value.h), for orb/value only.
//
// Positions are the stream's position() (octets from the start of its buffer). The reader
// trusts nothing it reads: every tag, offset, length and end tag is checked, and a malformed one
// raises MARSHAL (minor::bad_value) naming what is wrong.
//
// Chunks: while a chunked value's state is read, the stream's end is moved to the end of the
// current chunk, so a state read can never run into the next chunk's header (the inline reads
// check what remains, as always: nothing is added to them). A chunk ends where a nested value
// begins or the value ends, or anywhere between two primitives (omniORB ends one where its
// 8 KiB buffer fills): the reader is the stream's chunk_continuation, and a read that finds the
// chunk's end goes on in the next chunk (switchyard/cdr/input_stream.h says which reads can).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/value.h"

namespace switchyard::value_detail {

class reader final : public cdr::chunk_continuation {
 public:
  // A value inside a GIOP 1.1 message is read within the Fragment it begins in (a read past
  // the Fragment's end raises MARSHAL); the Fragments' continuation is back when the reader ends.
  explicit reader(cdr::input_stream& in) noexcept : in_(in), real_end_(in.end_position()), outer_(in.continuation()) {
    in.set_continuation(this);
  }
  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;
  ~reader() { detach(); }

  // `fallback` (may be null) makes a value of `expected_id` when no factory is registered for it.
  value_ref<value_base> read(std::string_view expected_id, const value_factory* fallback = nullptr);
  // After an exception: every value made in this scope drops the values it refers to.
  void release_all() noexcept;
  // The values made so far; those made after the first `count` were read only to be copied:
  // release_copied() drops their links, unless a value read later was an indirection to one.
  std::size_t made_count() const noexcept { return made_.size(); }
  void mark_copied_since(std::size_t count);
  void release_copied() noexcept;
  // Gives the stream its own end back (after an exception inside a chunk).
  void restore_end() noexcept { in_.set_end_position(real_end_); }
  // Leaves the stream as it found it: its own end and continuation.
  void detach() noexcept {
    restore_end();
    in_.set_continuation(outer_);
  }

  // cdr::chunk_continuation
  std::string_view pieces() const noexcept override { return "value chunks"; }
  bool next_chunk(cdr::input_stream& in) override;
  std::size_t message_remaining(const cdr::input_stream& in) const noexcept override;
  std::byte* join_storage(std::size_t n) override;

 private:
  // A value after its tag (read at `tag_position`); discard: a nested value in the part of a
  // truncated value being skipped (one without factory is skipped too, if it is chunked).
  value_ref<value_base> read_body(std::uint32_t tag, std::size_t tag_position, std::string_view expected_id,
                                  const value_factory* fallback, bool discard);
  value_ref<value_base> read_indirection();
  std::string_view read_repository_id();
  // Ends the chunked value at chunk depth `level`: skips what its state did not read (chunks,
  // nested values) up to its end tag.
  void finish_chunked(int level);
  // After a nested value inside a chunked one: the next chunk of the enclosing value, if any.
  void resume_chunks();
  // Looks at the next long without reading it (from the stream's own end).
  std::int32_t peek_long();
  void open_chunk(std::uint32_t length);
  void close_window() noexcept { in_.set_end_position(in_.position()); }
  [[noreturn]] void fail(std::uint32_t minor, const std::string& what) const;

  cdr::input_stream& in_;
  std::size_t real_end_;
  cdr::chunk_continuation* outer_;
  std::unordered_map<std::size_t, value_ref<value_base>> values_;  // tag position -> value (null: skipped)
  std::unordered_map<std::size_t, std::string_view> ids_;          // length position -> id (views into the buffer)
  std::unordered_map<std::size_t, std::vector<std::string_view>> id_lists_;  // count position -> ids
  std::vector<value_ref<value_base>> made_;
  std::unordered_set<const value_base*> copied_;      // mark_copied_since
  bool copied_shared_ = false;                        // an indirection reached one of copied_ afterwards
  std::vector<std::unique_ptr<std::byte[]>> joined_;  // reads joined from two chunks or more
  int depth_ = 0;
  int chunk_depth_ = 0;
  // Set when an end tag closed more than one value at once: the chunk depth it closed down to
  // (the values at that depth and deeper are ended). 0: none pending.
  int ended_to_ = 0;
};

}  // namespace switchyard::value_detail
