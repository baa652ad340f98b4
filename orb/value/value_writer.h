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

class writer {
 public:
  explicit writer(cdr::output_stream& out) noexcept : out_(out) {}

  void write(const value_base* value);

 private:
  void write_indirection(std::size_t target);
  void write_repository_id(std::string_view id);
  // Chunks: while a chunked value is being written a chunk is always open, so that primitives,
  // nulls and indirections of its state land in one; a nested value's tag closes it.
  void open_chunk();
  void close_chunk();

  cdr::output_stream& out_;
  std::unordered_map<const value_base*, std::size_t> values_;  // value -> position of its tag
  std::unordered_map<std::string_view, std::size_t> ids_;      // id -> position of its length
  int depth_ = 0;                                              // values being written, nested
  int chunk_depth_ = 0;  // chunked values being written, nested (the end tags' depth)
  bool chunk_open_ = false;
  std::size_t chunk_length_offset_ = 0;  // offset into data() of the open chunk's length
  std::size_t chunk_start_ = 0;          // position of its first octet
};

}  // namespace switchyard::value_detail
