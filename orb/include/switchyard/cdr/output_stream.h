// The CDR output stream: marshals IDL values into one contiguous, growable buffer, in native byte
// order (the reader swaps when it must). For generated code and the ORB; applications rarely need
// it directly.
//
// Alignment is measured from the stream's origin, as CDR defines it: the start of the GIOP
// message, or of the innermost encapsulation being written. The common case is inline pointer
// arithmetic; only growing the buffer leaves the header.
//
// External chunks (opt-in, off by default): with set_external_threshold(n), a block of at least
// n octets written by write_octets, write_array or write_sequence is not copied; the stream
// records {position, pointer, length} and goes on as if the octets had been written (positions,
// alignment and encapsulation lengths count them). The caller keeps the memory alive and
// unchanged until the message is sent, and sends it as a gather list (external_chunks());
// data()/bytes()/size() then cover only the stream's own octets. Encapsulations suspend the
// mode (their contents stay contiguous); reset() forgets the chunks and keeps the threshold (the
// request stream sets it once). Beyond max_external_chunks, blocks are copied as usual. For the
// request path (orb/core/invocation.cpp) and its tests.
//
// A block observer (off by default) hears of each block of octets (an array of primitives, a
// string) written across a multiple of a spacing of the message; the valuetype writer (orb/value)
// ends its chunk there. It costs nothing inline: the stream's write limit is lowered to the next
// multiple, so only a write that reaches it takes the slow path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "switchyard/cdr/byte_order.h"
#include "switchyard/fixed.h"

namespace switchyard::cdr {

class output_stream;

// See output_stream::set_block_observer.
class block_observer {
 public:
  // A block has just been written across a boundary; `out`'s position is its end. What the
  // observer writes there (at most output_stream::observer_room octets) does not move the block.
  virtual void block_crossed_boundary(output_stream& out) = 0;

 protected:
  ~block_observer() = default;
};

class output_stream {
 public:
  // An empty stream; the buffer is allocated on first write. `giop_minor` selects the wchar and
  // wstring rules (GIOP 1.2's UTF-16 with octet lengths, or 1.0/1.1's fixed two-byte units).
  explicit output_stream(std::size_t initial_capacity = 0, std::uint8_t giop_minor = 2);
  output_stream(output_stream&&) noexcept;
  output_stream& operator=(output_stream&&) noexcept;
  output_stream(const output_stream&) = delete;
  output_stream& operator=(const output_stream&) = delete;
  ~output_stream();

  // Empties the stream and keeps its buffer: a stream reused per request allocates nothing in
  // the steady state. Forgets any external chunks (external_size_ is cleared by the next
  // add_external: one store here); the external threshold stays.
  void reset() noexcept {
    cur_ = begin_;
    origin_offset_ = 0;
    external_count_ = 0;
  }

  // A block of the caller's memory that belongs in the message before the stream's own octet at
  // `position` (an offset into data()).
  struct external_chunk {
    std::size_t position;
    const std::byte* data;
    std::size_t size;
  };
  // Chunks a stream records at most (a fixed array: no allocation); further blocks are copied.
  static constexpr std::size_t max_external_chunks = 8;

  // Blocks of at least `threshold` octets become external chunks from here on (0: never, the
  // default). Outside encapsulations only.
  void set_external_threshold(std::size_t threshold) noexcept {
    external_threshold_ = threshold == 0 ? external_off : threshold;
  }
  bool has_external_chunks() const noexcept { return external_count_ != 0; }
  std::span<const external_chunk> external_chunks() const noexcept { return {external_, external_count_}; }
  // Octets in external chunks; the message is size() + external_size() octets long.
  std::size_t external_size() const noexcept { return external_count_ == 0 ? 0 : external_size_; }
  std::size_t external_threshold() const noexcept {
    return external_threshold_ == external_off ? 0 : external_threshold_;
  }

  static constexpr byte_order order() noexcept { return native_byte_order; }
  std::uint8_t giop_minor() const noexcept { return giop_minor_; }
  void set_giop_minor(std::uint8_t minor) noexcept { giop_minor_ = minor; }

  const std::byte* data() const noexcept { return begin_; }
  std::byte* data() noexcept { return begin_; }
  std::size_t size() const noexcept { return static_cast<std::size_t>(cur_ - begin_); }
  std::size_t capacity() const noexcept { return static_cast<std::size_t>(capacity_end_ - begin_); }
  std::span<const std::byte> bytes() const noexcept { return {begin_, size()}; }

  // The observer told of every block (write_octets, write_array, write_sequence, write_string,
  // write_wstring) written across a multiple of `spacing` octets of the message (positions from
  // the stream's first octet, external chunks counted); null: none, the default. External chunks
  // are suspended while one is set, and it is not told of blocks inside encapsulations.
  void set_block_observer(block_observer* observer, std::size_t spacing) noexcept;
  static constexpr std::size_t observer_room = 8;  // octets an observer may write after a block

  // Position relative to the alignment origin. External chunks count: origin_offset_ is moved
  // back by each chunk's size (modulo 2^64), so the hot path stays one subtraction.
  std::size_t aligned_position() const noexcept { return size() - origin_offset_; }

  // Makes room for n more bytes (one bounds check for a block of writes).
  void ensure(std::size_t n) {
    if (static_cast<std::size_t>(end_ - cur_) < n) [[unlikely]]
      grow(n);
  }

  // Pads with zero octets to `alignment` (1, 2, 4 or 8).
  void align(std::size_t alignment) {
    std::size_t pad = padding_for(aligned_position(), alignment);
    ensure(pad);
    for (std::size_t i = 0; i < pad; ++i) *cur_++ = std::byte{0};
  }

  // Aligns, makes room for n bytes, and returns where they go; the caller stores exactly n bytes
  // there (a fixed-size struct: one check, then stores at precomputed offsets).
  std::byte* reserve_aligned(std::size_t alignment, std::size_t n) {
    std::size_t pad = padding_for(aligned_position(), alignment);
    ensure(pad + n);
    for (std::size_t i = 0; i < pad; ++i) *cur_++ = std::byte{0};
    std::byte* p = cur_;
    cur_ += n;
    return p;
  }

  // Leaves n bytes to fill in later (a GIOP header, a length); returns their offset.
  std::size_t skip(std::size_t n) {
    ensure(n);
    std::size_t offset = size();
    cur_ += n;
    return offset;
  }

  // Forgets what was written after `offset` (an offset into data(), with no external chunk
  // recorded after it): the valuetype writer (orb/value) drops a chunk header when nothing was
  // written into the chunk.
  void truncate(std::size_t offset) noexcept { cur_ = begin_ + offset; }

  // Overwrites a ulong written or skipped earlier at `offset` (a size or length field).
  void patch_ulong(std::size_t offset, std::uint32_t value) noexcept { store(begin_ + offset, value); }

  // Primitives. Each aligns to its size and writes native order.
  void write_octet(std::uint8_t v) { write_scalar(v); }
  void write_boolean(bool v) { write_scalar(static_cast<std::uint8_t>(v ? 1 : 0)); }
  void write_char(char v) { write_scalar(v); }
  void write_short(std::int16_t v) { write_scalar(v); }
  void write_ushort(std::uint16_t v) { write_scalar(v); }
  void write_long(std::int32_t v) { write_scalar(v); }
  void write_ulong(std::uint32_t v) { write_scalar(v); }
  void write_longlong(std::int64_t v) { write_scalar(v); }
  void write_ulonglong(std::uint64_t v) { write_scalar(v); }
  void write_float(float v) { write_scalar(v); }
  void write_double(double v) { write_scalar(v); }
  // CDR's long double is IEEE 754 binary128, aligned to 8.
  void write_longdouble(long double v);
  // wchar: GIOP 1.2 writes an octet length then UTF-16 (two octets); 1.0/1.1 a bare ushort.
  void write_wchar(char16_t v);

  // Any arithmetic or enum type of 1, 2, 4 or 8 bytes, aligned to its size.
  template <typename T>
  void write_scalar(T v) {
    static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8);
    store(reserve_aligned(sizeof(T), sizeof(T)), v);
  }

  // string: ulong length counting the NUL, the characters, the NUL. A string holding a NUL
  // cannot be sent (its reader would see it end there): BAD_PARAM, nothing written.
  void write_string(std::string_view s) {
    if (!s.empty() && std::memchr(s.data(), 0, s.size()) != nullptr) [[unlikely]]
      throw_nul_in_string("string");
    auto n = static_cast<std::uint32_t>(s.size() + 1);
    std::byte* p = reserve_block(4, 4 + n);
    store(p, n);
    if (!s.empty()) std::memcpy(p + 4, s.data(), s.size());
    p[4 + s.size()] = std::byte{0};
  }

  // wstring: GIOP 1.2: ulong length in octets, UTF-16 code units in stream order, no NUL;
  // GIOP 1.0/1.1: ulong length in units counting the NUL, two-octet units, the NUL. BAD_PARAM for
  // a wstring holding a NUL, as for a string.
  void write_wstring(std::u16string_view s);

  // IDL fixed<digits, scale>: packed decimal, unaligned (switchyard/fixed.h). Extra fraction
  // digits are truncated; DATA_CONVERSION when the integer part does not fit, nothing written.
  void write_fixed(const fixed& value, unsigned digits, unsigned scale) {
    std::uint8_t packed[fixed::packed_size(fixed::max_digits)];
    value.to_packed(digits, scale, packed);
    write_octets(packed, fixed::packed_size(digits));
  }

  // A block of octets (sequence<octet> contents, an object key): one memcpy.
  void write_octets(const void* src, std::size_t n) {
    if (n == 0) return;
    if (n >= external_threshold_ && add_external(src, n)) [[unlikely]]
      return;
    std::memcpy(reserve_block(1, n), src, n);
  }

  // An array of primitives written as one aligned block: one memcpy (the stream is native order).
  template <typename T>
  void write_array(const T* src, std::size_t count) {
    static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8);
    if (count == 0) return;  // no elements, no padding (as omniORB reads it)
    if (count * sizeof(T) >= external_threshold_) [[unlikely]] {
      align(sizeof(T));
      if (add_external(src, count * sizeof(T))) return;
    }
    std::byte* p = reserve_block(sizeof(T), count * sizeof(T));
    std::memcpy(p, src, count * sizeof(T));
  }

  // A sequence of primitives: ulong count, then the elements as one block.
  template <typename T>
  void write_sequence(const T* src, std::size_t count) {
    write_ulong(static_cast<std::uint32_t>(count));
    write_array(src, count);
  }

  // Encapsulations (CDR 15.3.3): a ulong length, then a byte-order octet at alignment origin 0,
  // then the contents. Written in place: begin returns a token, end patches the length. External
  // chunks are suspended in between: an encapsulation's octets stay contiguous.
  struct encapsulation_token {
    std::size_t length_offset;
    std::size_t saved_origin_offset;
    std::size_t saved_external_threshold;
    block_observer* saved_observer;
  };
  encapsulation_token begin_encapsulation() {
    std::size_t length_offset = reserve_aligned(4, 4) - begin_;
    encapsulation_token token{length_offset, origin_offset_, external_threshold_, observer_};
    external_threshold_ = external_off;
    if (observer_ != nullptr) [[unlikely]]
      suspend_observer();
    origin_offset_ = size();
    write_octet(static_cast<std::uint8_t>(native_byte_order));
    return token;
  }
  void end_encapsulation(const encapsulation_token& token) noexcept {
    patch_ulong(token.length_offset, static_cast<std::uint32_t>(size() - origin_offset_));
    origin_offset_ = token.saved_origin_offset;
    external_threshold_ = token.saved_external_threshold;
    if (token.saved_observer != nullptr) [[unlikely]]
      resume_observer(token.saved_observer);
  }

  // Moves the alignment origin to the current position (a GIOP body measured apart, or the
  // contents of an encapsulation written by other means). Returns the old origin for restoring
  // (as a position counting external chunks, so that chunks recorded in between do not matter).
  std::size_t set_origin_here() noexcept {
    std::size_t old = origin_offset_ + external_size();
    origin_offset_ = size();
    return old;
  }
  void restore_origin(std::size_t origin) noexcept { origin_offset_ = origin - external_size(); }

 private:
  static constexpr std::size_t external_off = std::numeric_limits<std::size_t>::max();

  // BAD_PARAM (completed NO) for a `kind` ("string", "wstring") holding a NUL.
  [[noreturn]] static void throw_nul_in_string(const char* kind);

  // Makes room for `needed` octets (the buffer, or the observer's limit moved on).
  void grow(std::size_t needed);
  void reallocate(std::size_t needed);
  // As reserve_aligned, for a block the observer is to hear of.
  std::byte* reserve_block(std::size_t alignment, std::size_t n) {
    std::size_t pad = padding_for(aligned_position(), alignment);
    if (static_cast<std::size_t>(end_ - cur_) < pad + n) [[unlikely]]
      return reserve_block_slow(alignment, n);
    for (std::size_t i = 0; i < pad; ++i) *cur_++ = std::byte{0};
    std::byte* p = cur_;
    cur_ += n;
    return p;
  }
  std::byte* reserve_block_slow(std::size_t alignment, std::size_t n);
  // The observer's limit: the first multiple of its spacing at or after `ahead` octets from here.
  void limit_to_boundary(std::size_t ahead) noexcept;
  void suspend_observer() noexcept;
  void resume_observer(block_observer* observer) noexcept;
  // Records an external chunk at the current position; false when the array is full.
  bool add_external(const void* src, std::size_t n) noexcept;

  std::unique_ptr<std::byte[]> storage_;
  std::byte* begin_ = nullptr;
  std::byte* cur_ = nullptr;
  std::byte* end_ = nullptr;           // where writing leaves the inline path: capacity_end_, or the observer's limit
  std::byte* capacity_end_ = nullptr;  // the buffer's end
  std::size_t origin_offset_ = 0;      // offset of the alignment origin from begin_, less chunks after it
  std::size_t external_threshold_ = external_off;
  std::size_t external_count_ = 0;
  std::size_t external_size_ = 0;  // meaningful while external_count_ != 0
  block_observer* observer_ = nullptr;
  std::size_t observer_spacing_ = 0;
  std::size_t observer_saved_threshold_ = external_off;  // the external threshold while an observer is set
  std::uint8_t giop_minor_;
  external_chunk external_[max_external_chunks];
};

}  // namespace switchyard::cdr
