// The CDR input stream: demarshals IDL values from a buffer it does not own, in the sender's byte
// order. For generated code and the ORB.
//
// Nothing is ever read past the end of the buffer: every read checks what remains, and every
// length (string, sequence, encapsulation) is checked against what remains and against a
// configurable maximum before anything is sized by it, so a sequence length of 4 billion in a
// 100-byte message fails at once. Violations raise MARSHAL with a minor code from
// switchyard::minor. The checks are inline; the throws are out of line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "switchyard/cdr/byte_order.h"
#include "switchyard/fixed.h"

namespace switchyard::cdr {

class input_stream;

// Where a stream's data goes on past its end: the next chunk of a chunked valuetype's state
// (orb/value), which a sender may split between any two primitives, or the next GIOP 1.1
// Fragment of a message (orb/giop/fragment_continuation.h), whose data is aligned as from the
// Fragment's own start. Only the reads' slow paths consult it; see input_stream::set_continuation.
class chunk_continuation {
 public:
  // What the pieces are called, for error messages ("value chunks").
  virtual std::string_view pieces() const noexcept = 0;
  // Whether an array of 8-octet primitives continued in the next piece is ambiguous, so
  // refused: a GIOP 1.1 sender may write it as one block (omniORB's C++ copyOutputData, no
  // padding after the boundary) or element by element (omniORBpy: realigned per Fragment).
  virtual bool wide_arrays_ambiguous() const noexcept { return false; }
  // Opens the next chunk of the state being read: `in`'s end moves to that chunk's end and its
  // position past the chunk's header. False when none follows (a nested value, an end tag, or
  // the end of the message): `in` is left as it was.
  virtual bool next_chunk(input_stream& in) = 0;
  // The octets from `in`'s position to the end of the message, every chunk included.
  virtual std::size_t message_remaining(const input_stream& in) const noexcept = 0;
  // Storage for `n` octets joined from more than one chunk, kept while the values are read.
  virtual std::byte* join_storage(std::size_t n) = 0;

 protected:
  ~chunk_continuation() = default;
};

// Where the primitives of a fixed-size struct lie in its CDR image at one start position, for
// rejoining one that a chunked value's sender split between chunks: generated code passes one to
// take_struct and take_aligned, and reads the image as if it had arrived whole. In a run of such
// structs the leaves repeat every `stride` octets.
struct struct_leaf {
  std::uint32_t offset;  // from the image's first octet
  std::uint32_t size;    // 1, 2, 4 or 8, which is also its alignment
  // An element of an array of primitives, which a GIOP 1.1 sender may write as one block
  // (chunk_continuation::wide_arrays_ambiguous).
  bool in_array = false;
};
struct struct_layout {
  std::span<const struct_leaf> leaves;
  std::size_t stride;
};

class input_stream {
 public:
  // The largest string, sequence or encapsulation length accepted by default (elements, or octets
  // for encapsulations): larger ones raise MARSHAL minor::length_over_limit.
  static constexpr std::uint32_t default_max_length = 64u << 20;

  input_stream() noexcept = default;
  // Reads `bytes`, which the sender wrote in `order`. `origin_offset` is how far the first byte
  // lies from the alignment origin (12 for a GIOP body read apart from its header).
  input_stream(std::span<const std::byte> bytes, byte_order order, std::size_t origin_offset = 0,
               std::uint8_t giop_minor = 2) noexcept
      : begin_(bytes.data()),
        cur_(bytes.data()),
        end_(bytes.data() + bytes.size()),
        alignment_base_(reinterpret_cast<std::uintptr_t>(bytes.data()) - origin_offset),
        swap_(order != native_byte_order),
        giop_minor_(giop_minor) {}

  byte_order order() const noexcept { return swap_ ? opposite(native_byte_order) : native_byte_order; }
  bool swapping() const noexcept { return swap_; }
  std::uint8_t giop_minor() const noexcept { return giop_minor_; }
  void set_giop_minor(std::uint8_t minor) noexcept { giop_minor_ = minor; }
  std::uint32_t max_length() const noexcept { return max_length_; }
  void set_max_length(std::uint32_t max) noexcept { max_length_ = max; }

  std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - cur_); }
  std::size_t position() const noexcept { return static_cast<std::size_t>(cur_ - begin_); }
  const std::byte* current() const noexcept { return cur_; }
  bool at_end() const noexcept { return cur_ == end_; }
  std::size_t aligned_position() const noexcept { return reinterpret_cast<std::uintptr_t>(cur_) - alignment_base_; }

  // Skips padding to `alignment`. When the data ends inside the padding the stream stops at its
  // end, and the next read raises MARSHAL.
  void align(std::size_t alignment) noexcept {
    std::size_t pad = padding_to(alignment);
    cur_ = pad <= remaining() ? cur_ + pad : end_;
  }

  // Aligns and returns n bytes to read in place, or raises MARSHAL if they are not all there
  // (a fixed-size struct: one check, then loads at precomputed offsets). The n bytes are
  // primitives aligned to at most `alignment`, laid out as from an `alignment`-aligned start.
  const std::byte* take_aligned(std::size_t alignment, std::size_t n) {
    std::size_t pad = padding_to(alignment);
    if (remaining() < pad + n) [[unlikely]]
      return take_aligned_slow(alignment, n);
    const std::byte* p = cur_ + pad;
    cur_ = p + n;
    return p;
  }

  // n octets in place, unaligned: octet data (string characters, an octet sequence).
  const std::byte* take(std::size_t n) {
    if (remaining() < n) [[unlikely]]
      return take_slow(n);
    const std::byte* p = cur_;
    cur_ += n;
    return p;
  }

  // n bytes of structs that the caller aligned and laid out for this very position (a struct
  // whose padding depends on where it starts, a run of them): as take(), except that they are
  // never joined across value chunks, where the padding would move.
  const std::byte* take_struct(std::size_t n) {
    if (remaining() < n) [[unlikely]]
      throw_struct_past_end(n);
    const std::byte* p = cur_;
    cur_ += n;
    return p;
  }

  // The same for a fixed-size struct or a run of them whose leaves `layout` gives: split between
  // value chunks anywhere, they are rejoined leaf by leaf into an image laid out as the caller
  // expects, padding zeroed. Nothing more on the inline path.
  const std::byte* take_struct(std::size_t n, const struct_layout& layout) {
    if (remaining() < n) [[unlikely]]
      return take_layout_slow(n, layout);
    const std::byte* p = cur_;
    cur_ += n;
    return p;
  }
  const std::byte* take_aligned(std::size_t alignment, std::size_t n, const struct_layout& layout) {
    std::size_t pad = padding_to(alignment);
    if (remaining() < pad + n) [[unlikely]]
      return take_layout_slow(n, layout);
    const std::byte* p = cur_ + pad;
    cur_ = p + n;
    return p;
  }

  void skip(std::size_t n) { take(n); }

  // Where reading stops, as an offset like position(); and moving it (never past the data's
  // end: the caller keeps the first value and restores it). The valuetype reader (orb/value)
  // reads a chunk of a chunked value this way, so that a state read can never run into the next
  // chunk's header. Nothing on the hot path uses them.
  std::size_t end_position() const noexcept { return static_cast<std::size_t>(end_ - begin_); }
  void set_end_position(std::size_t position) noexcept { end_ = begin_ + position; }

  // While a chunked value's state is read: where a read that finds the end of the chunk goes on
  // (a primitive, an array of primitives, octets, a struct read with its layout, or one of
  // 4-aligned members split where a member of the largest alignment begins). Null: the stream's
  // end is the data's end.
  void set_continuation(chunk_continuation* continuation) noexcept { continuation_ = continuation; }
  chunk_continuation* continuation() const noexcept { return continuation_; }
  // For a continuation opening a piece whose data is aligned as from its own start: the current
  // position becomes `offset` octets from the alignment origin (a GIOP 1.1 Fragment's data, 12).
  void restart_alignment(std::size_t offset) noexcept {
    alignment_base_ = reinterpret_cast<std::uintptr_t>(cur_) - offset;
  }

  // Primitives.
  std::uint8_t read_octet() { return read_scalar<std::uint8_t>(); }
  bool read_boolean() {
    std::uint8_t v = read_scalar<std::uint8_t>();
    if (v > 1) [[unlikely]]
      throw_bad_boolean(v);
    return v == 1;
  }
  char read_char() { return read_scalar<char>(); }
  std::int16_t read_short() { return read_scalar<std::int16_t>(); }
  std::uint16_t read_ushort() { return read_scalar<std::uint16_t>(); }
  std::int32_t read_long() { return read_scalar<std::int32_t>(); }
  std::uint32_t read_ulong() { return read_scalar<std::uint32_t>(); }
  std::int64_t read_longlong() { return read_scalar<std::int64_t>(); }
  std::uint64_t read_ulonglong() { return read_scalar<std::uint64_t>(); }
  float read_float() { return read_scalar<float>(); }
  double read_double() { return read_scalar<double>(); }
  long double read_longdouble();
  char16_t read_wchar();

  template <typename T>
  T read_scalar() {
    static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8);
    return load<T>(take_aligned(sizeof(T), sizeof(T)), swap_);
  }

  // A length that announces `count` elements of at least `min_element_size` octets each
  // (a string's characters, a sequence's elements): checked against the maximum and against what
  // remains, so nothing is ever sized by an unchecked length.
  std::uint32_t read_length(std::size_t min_element_size) {
    std::uint32_t count = read_ulong();
    check_length(count, min_element_size);
    return count;
  }
  void check_length(std::uint32_t count, std::size_t min_element_size) const {
    if (count > max_length_) [[unlikely]]
      throw_length_over_limit(count);
    if (static_cast<std::uint64_t>(count) * min_element_size > remaining()) [[unlikely]]
      check_length_slow(count, min_element_size);
  }

  // string: a view into the buffer (no copy), without its NUL. Valid while the buffer is.
  std::string_view read_string_view();
  std::string read_string() { return std::string(read_string_view()); }
  void read_string(std::string& out) { out.assign(read_string_view()); }
  std::u16string read_wstring();

  // IDL fixed<digits, scale>: packed decimal, unaligned; MARSHAL for a nibble out of range.
  fixed read_fixed(unsigned digits, unsigned scale) {
    return fixed::from_packed(reinterpret_cast<const std::uint8_t*>(take(fixed::packed_size(digits))), digits, scale);
  }

  // n octets copied out (sequence<octet> contents): one memcpy.
  void read_octets(void* dst, std::size_t n) {
    const std::byte* p = take(n);
    if (n != 0) std::memcpy(dst, p, n);
  }

  // An array of primitives: one memcpy when the byte orders match, one swap loop when not.
  template <typename T>
  void read_array(T* dst, std::size_t count) {
    static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8);
    // No elements, no padding (CDR aligns primitives, and there are none): as omniORB sends it.
    if (count == 0) return;
    // Checked apart, so that count * sizeof(T) cannot overflow.
    const std::size_t pad = padding_to(sizeof(T));
    if (remaining() < pad || count > (remaining() - pad) / sizeof(T)) [[unlikely]]
      return read_array_slow(dst, count, sizeof(T));
    const std::byte* p = cur_ + pad;
    cur_ = p + count * sizeof(T);
    if (sizeof(T) == 1 || !swap_) std::memcpy(dst, p, count * sizeof(T));
    else swap_copy(reinterpret_cast<std::byte*>(dst), p, count, sizeof(T));
  }

  // A sequence of primitives into a vector-like container (resize + data): the length is checked
  // before the container is sized.
  template <typename Container>
  void read_sequence(Container& out) {
    using T = typename Container::value_type;
    std::uint32_t count = read_length(sizeof(T));
    out.resize(count);
    read_array(out.data(), count);
  }

  // An encapsulation: a stream over its contents, with its own byte order and alignment origin.
  // This stream moves past it.
  input_stream read_encapsulation();

  // Raises MARSHAL for a malformed value the caller found (a bad enum, a bad discriminator).
  [[noreturn]] void throw_marshal(std::uint32_t minor, std::string detail) const;

 private:
  // The padding before the next `alignment`-aligned position (a power of two). Computed from the
  // address of the origin, so that the chain from one read's position to the next is short:
  // a subtract, an and, and the add that moves cur_ (docs/cdr.md, "longs per element").
  std::size_t padding_to(std::size_t alignment) const noexcept {
    return (alignment_base_ - reinterpret_cast<std::uintptr_t>(cur_)) & (alignment - 1);
  }

  // The slow paths: the data goes on in the next value chunk, or MARSHAL.
  [[gnu::cold]] const std::byte* take_aligned_slow(std::size_t alignment, std::size_t n);
  [[gnu::cold]] const std::byte* take_slow(std::size_t n);
  [[gnu::cold]] const std::byte* take_layout_slow(std::size_t n, const struct_layout& layout);
  [[gnu::cold]] void read_array_slow(void* dst, std::size_t count, std::size_t size);
  [[gnu::cold]] void check_length_slow(std::uint32_t count, std::size_t element_size) const;

  [[noreturn]] void throw_read_past_end(std::size_t wanted) const;
  [[noreturn]] void throw_struct_past_end(std::size_t wanted) const;
  [[noreturn]] void throw_split_primitive() const;
  [[noreturn]] void throw_wide_array_split() const;
  [[noreturn]] void throw_bad_boolean(std::uint8_t value) const;
  [[noreturn]] void throw_length_over_limit(std::uint32_t count) const;
  [[noreturn]] void throw_length_too_large(std::uint32_t count, std::size_t element_size) const;

  const std::byte* begin_ = nullptr;
  const std::byte* cur_ = nullptr;
  const std::byte* end_ = nullptr;
  // The address of the alignment origin: begin_ less the origin offset. An integer, since it may
  // lie before the buffer.
  std::uintptr_t alignment_base_ = 0;
  chunk_continuation* continuation_ = nullptr;
  std::uint32_t max_length_ = default_max_length;
  bool swap_ = false;
  std::uint8_t giop_minor_ = 2;
};

}  // namespace switchyard::cdr
