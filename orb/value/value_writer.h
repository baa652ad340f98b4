// The valuetype writer: one per value_output_scope (switchyard/value.h), for orb/value only.
//
// Positions are the stream's aligned_position() (octets from the alignment origin, external
// chunks counted): indirections are differences of two positions, so they do not depend on
// where the origin lies, only on its not moving within the scope (it moves only for an
// encapsulation, and values in encapsulations, an Any's, are not supported).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "switchyard/cdr/output_stream.h"
#include "switchyard/value.h"

namespace switchyard::value_detail {

// The value tag's bits (CORBA 3.x part 2, "Value Types" in the CDR chapter).
inline constexpr std::uint32_t value_tag_base = 0x7fffff00u;
inline constexpr std::uint32_t tag_codebase = 0x01u;
inline constexpr std::uint32_t tag_single_id = 0x02u;
inline constexpr std::uint32_t tag_id_list = 0x06u;
inline constexpr std::uint32_t tag_type_mask = 0x06u;
inline constexpr std::uint32_t tag_chunked = 0x08u;
inline constexpr std::uint32_t indirection_tag = 0xffffffffu;

// Chunks end where an array or string crosses a multiple of this many octets of the message,
// as omniORB's writer ends them at its 8 KiB buffers: omniORB's reader continues a chunk across
// two of its receive buffers (8 KiB from the message's start) only where the array it is reading
// ends the chunk, and reads anything else wrong (docs/cdr.md, "Chunks we write"). 1 KiB
// serves any buffer size that is a multiple of it, for at most 8 octets a KiB.
inline constexpr std::size_t chunk_boundary_spacing = 1024;

class writer : private cdr::block_observer {
 public:
  explicit writer(cdr::output_stream& out) noexcept : out_(out) {}
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;
  // A state that raised an exception leaves its chunk open: the stream forgets this observer.
  ~writer() {
    if (chunk_open_) out_.set_block_observer(nullptr, 0);
  }

  void write(const value_base* value);

 private:
  void write_indirection(std::size_t target);
  void write_repository_id(std::string_view id);
  // Chunks: while a chunked value is being written a chunk is always open, so that primitives,
  // nulls and indirections of its state land in one; a nested value's tag closes it.
  void open_chunk();
  void close_chunk();
  // Ends the chunked value at chunk_depth_: an end tag, or the one just written for a value
  // nested in it, made to end both (an end tag ends every value nested at its depth or deeper).
  void write_end_tag();
  // An array or string crossed a boundary: the chunk ends after it, and the state goes on in a
  // new one.
  void block_crossed_boundary(cdr::output_stream& out) override;

  cdr::output_stream& out_;
  std::unordered_map<const value_base*, std::size_t> values_;  // value -> position of its tag
  // Kept alive while the scope lasts: a value written and then freed (one an Any made only to
  // copy it) must not leave its address to a new value, which would be taken for it.
  std::vector<value_ref<const value_base>> written_;
  std::unordered_map<std::string_view, std::size_t> ids_;  // id -> position of its length
  int depth_ = 0;                                          // values being written, nested
  int chunk_depth_ = 0;                                    // chunked values being written, nested (the end tags' depth)
  bool chunk_open_ = false;
  std::size_t chunk_length_offset_ = 0;  // offset into data() of the open chunk's length
  std::size_t chunk_start_ = 0;          // position of its first octet
  static constexpr std::size_t no_end_tag = static_cast<std::size_t>(-1);
  std::size_t last_end_tag_ = no_end_tag;  // offset into data() of the last end tag written
};

}  // namespace switchyard::value_detail
