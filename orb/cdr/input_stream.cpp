#include "switchyard/cdr/input_stream.h"

#include <algorithm>
#include <cstring>

#include "switchyard/exception.h"

namespace switchyard::cdr {

namespace {

constexpr char16_t byte_order_mark = 0xFEFF;
constexpr char16_t swapped_byte_order_mark = 0xFFFE;

}  // namespace

long double input_stream::read_longdouble() {
  const std::byte* p = take_aligned(8, 16);
  std::byte bytes[16];
  if (swap_)
    for (int i = 0; i < 16; ++i) bytes[i] = p[15 - i];
  else std::memcpy(bytes, p, 16);
  __float128 quad;
  std::memcpy(&quad, bytes, 16);
  return static_cast<long double>(quad);
}

char16_t input_stream::read_wchar() {
  if (giop_minor_ < 2) return read_scalar<char16_t>();
  // UTF-16: two octets, big-endian; or four, a byte-order mark and the unit in its order.
  std::uint8_t octets = read_octet();
  if (octets != 2 && octets != 4)
    throw_marshal(minor::bad_wstring,
                  "wchar of " + std::to_string(octets) + " octets; UTF-16 takes 2 (or 4 with a byte-order mark)");
  const std::byte* p = take(octets);
  bool swap = native_byte_order != byte_order::big_endian;
  if (octets == 4) {
    char16_t mark = load<char16_t>(p, swap);
    if (mark == swapped_byte_order_mark) swap = !swap;
    else if (mark != byte_order_mark) throw_marshal(minor::bad_wstring, "4-octet wchar without a byte-order mark");
    p += 2;
  }
  return load<char16_t>(p, swap);
}

std::string_view input_stream::read_string_view() {
  std::uint32_t length = read_length(1);
  // Length 0 is not valid CDR (it counts the NUL) but some ORBs send it for "": read it as "".
  if (length == 0) return {};
  const auto* p = reinterpret_cast<const char*>(take(length));
  if (p[length - 1] != '\0')
    throw_marshal(minor::string_not_terminated, "string of length " + std::to_string(length) + " does not end in NUL");
  if (std::memchr(p, 0, length - 1) != nullptr)
    throw_marshal(minor::nul_inside_string,
                  "string of length " + std::to_string(length) + " holds a NUL before its end");
  return {p, length - 1};
}

std::u16string input_stream::read_wstring() {
  std::u16string out;
  if (giop_minor_ >= 2) {
    // Length in octets; UTF-16 code units, big-endian unless a byte-order mark says otherwise
    // (UTF-16's rule, which CORBA 3.0, 13.10.2.6 refers to, and what omniORB reads and writes).
    std::uint32_t octets = read_length(1);
    if (octets % 2 != 0) throw_marshal(minor::bad_wstring, "wstring of odd length " + std::to_string(octets));
    const std::byte* p = take(octets);
    std::size_t units = octets / 2;
    bool swap = native_byte_order != byte_order::big_endian;
    if (units != 0) {
      char16_t first = load<char16_t>(p, swap);
      if (first == byte_order_mark || first == swapped_byte_order_mark) {
        if (first == swapped_byte_order_mark) swap = !swap;
        p += 2;
        --units;
      }
    }
    out.resize(units);
    for (std::size_t i = 0; i < units; ++i) out[i] = load<char16_t>(p + 2 * i, swap);
  } else {
    // Length in units counting the terminating NUL.
    std::uint32_t units = read_length(2);
    if (units == 0) return out;
    const std::byte* p = take_aligned(2, 2 * std::size_t{units});
    if (load<char16_t>(p + 2 * (units - 1), swap_) != 0)
      throw_marshal(minor::string_not_terminated, "wstring does not end in NUL");
    out.resize(units - 1);
    for (std::size_t i = 0; i + 1 < units; ++i) out[i] = load<char16_t>(p + 2 * i, swap_);
  }
  if (std::find(out.begin(), out.end(), u'\0') != out.end())
    throw_marshal(minor::nul_inside_string, "wstring of " + std::to_string(out.size()) + " units holds a NUL");
  return out;
}

input_stream input_stream::read_encapsulation() {
  std::uint32_t length = read_length(1);
  if (length == 0) throw_marshal(minor::bad_byte_order, "empty encapsulation has no byte order");
  const std::byte* p = take(length);
  auto flag = static_cast<std::uint8_t>(p[0]);
  if (flag > 1) throw_marshal(minor::bad_byte_order, "encapsulation byte-order octet is " + std::to_string(flag));
  // The byte-order octet stands at alignment origin 0 of the encapsulation.
  input_stream inner({p, length}, static_cast<byte_order>(flag), 0, giop_minor_);
  inner.max_length_ = max_length_;
  inner.cur_ += 1;
  return inner;
}

// The slow paths. Past the stream's end, data goes on only inside a chunked value's state, in
// its next chunk, or in a GIOP 1.1 message's next Fragment: a sender ends a chunk (a Fragment)
// between two primitives (omniORB where its 8 KiB buffer fills) and puts the next primitive's
// padding in the new one, whose data starts 4-aligned (a Fragment's at its offset 12).

const std::byte* input_stream::take_aligned_slow(std::size_t alignment, std::size_t n) {
  for (;;) {
    const std::size_t pad = padding_to(alignment);
    if (remaining() >= pad + n) {
      const std::byte* p = cur_ + pad;
      cur_ = p + n;
      return p;
    }
    // Begun here, its padding is here too; begun in the next piece, its padding may differ there
    // (a GIOP 1.1 Fragment realigns).
    if (continuation_ == nullptr || (remaining() > pad ? pad + n : n) > continuation_->message_remaining(*this))
      throw_read_past_end(pad + n);
    if (remaining() <= pad) {  // the chunk ends here: all of it is in the next one
      cur_ = end_;
      if (!continuation_->next_chunk(*this)) throw_read_past_end(pad + n);
      continue;
    }
    break;
  }
  // Begun in this chunk, ended in the next: octets, or a struct split between two members. The
  // next chunk's data starts 4-aligned, so a member aligned to at most 4 starts right there, and
  // where it stood unsplit is known if the split falls where a member of the struct's largest
  // alignment could start. Otherwise only the members' types could tell (after an 8-aligned
  // split, are the next chunk's first 4 octets padding or a long?).
  if (n <= alignment) throw_split_primitive();
  if (alignment > 4) throw_struct_past_end(n);
  cur_ += padding_to(alignment);
  std::byte* joined = continuation_->join_storage(n);
  std::size_t have = 0;
  for (;;) {
    const std::size_t part = std::min(remaining(), n - have);
    std::memcpy(joined + have, cur_, part);
    cur_ += part;
    have += part;
    if (have == n) return joined;
    if ((aligned_position() & (alignment - 1)) != 0) throw_struct_past_end(n);
    if (!continuation_->next_chunk(*this)) throw_read_past_end(n - have);
  }
}

// Octets: a chunk may end between any two, and they join exactly (alignment 1: every split
// falls where one could begin).
const std::byte* input_stream::take_slow(std::size_t n) { return take_aligned_slow(1, n); }

// A struct (or a run) past the chunk's end: its leaves are read one by one, each aligned where it
// actually lies, and put where the caller's layout expects them. The image's padding is at most
// its primitives' size, so an image more than twice what the message holds cannot be there.
const std::byte* input_stream::take_layout_slow(std::size_t n, const struct_layout& layout) {
  if (continuation_ == nullptr || n / 2 > continuation_->message_remaining(*this)) throw_read_past_end(n);
  std::byte* image = continuation_->join_storage(n);
  std::memset(image, 0, n);
  const bool wide_arrays_ambiguous = continuation_->wide_arrays_ambiguous();
  for (std::size_t base = 0; base < n; base += layout.stride)
    for (const struct_leaf& leaf : layout.leaves) {
      if (leaf.offset + leaf.size > n - base) break;  // never for a layout that matches n: the image's bound
      const std::size_t end = end_position();
      std::memcpy(image + base + leaf.offset, take_aligned(leaf.size, leaf.size), leaf.size);
      // An array's 8-octet element read in the next piece: its sender may have written the array
      // as one block, or element by element (read_array_slow).
      if (wide_arrays_ambiguous && leaf.in_array && leaf.size == 8 && end_position() != end) throw_wide_array_split();
    }
  return image;
}

void input_stream::read_array_slow(void* dst, std::size_t count, std::size_t size) {
  if (continuation_ == nullptr || count > continuation_->message_remaining(*this) / size)
    throw_read_past_end(count * size);
  auto* out = static_cast<std::byte*>(dst);
  while (count != 0) {
    align(size);
    const std::size_t fit = std::min(count, remaining() / size);
    if (fit == 0) {
      if (remaining() != 0) throw_split_primitive();
      // Begun or continued in the next GIOP 1.1 Fragment, 8-octet elements stand at its offset 12
      // (omniORB C++ copies an array as one block, aligned before the boundary) or 16 (omniORBpy
      // writes element by element): refused, not guessed.
      if (size == 8 && continuation_->wide_arrays_ambiguous()) throw_wide_array_split();
      if (!continuation_->next_chunk(*this)) throw_read_past_end(count * size);
      continue;
    }
    if (size == 1 || !swap_) std::memcpy(out, cur_, fit * size);
    else swap_copy(out, cur_, fit, size);
    cur_ += fit * size;
    out += fit * size;
    count -= fit;
  }
}

void input_stream::check_length_slow(std::uint32_t count, std::size_t element_size) const {
  const std::size_t left = continuation_ != nullptr ? continuation_->message_remaining(*this) : remaining();
  if (static_cast<std::uint64_t>(count) * element_size > left) throw_length_too_large(count, element_size);
}

void input_stream::throw_struct_past_end(std::size_t wanted) const {
  if (continuation_ == nullptr || wanted > continuation_->message_remaining(*this)) throw_read_past_end(wanted);
  throw_marshal(minor::split_between_chunks, "a struct of " + std::to_string(wanted) + " octets at offset " +
                                                 std::to_string(position()) + " split between " +
                                                 std::string(continuation_->pieces()) +
                                                 " where its padding depends on its members' types");
}

void input_stream::throw_wide_array_split() const {
  throw_marshal(minor::split_between_chunks, "an array of 8-octet primitives at offset " + std::to_string(position()) +
                                                 " goes on in the next of the " + std::string(continuation_->pieces()) +
                                                 ", where its sender may have realigned it or not");
}

void input_stream::throw_split_primitive() const {
  throw_marshal(minor::split_between_chunks, "a primitive split between " + std::string(continuation_->pieces()) +
                                                 " at offset " + std::to_string(position()));
}

void input_stream::throw_marshal(std::uint32_t minor_code, std::string detail) const {
  throw SystemException(SystemExceptionKind::MARSHAL, minor_code, CompletionStatus::no, std::move(detail));
}

void input_stream::throw_read_past_end(std::size_t wanted) const {
  throw_marshal(minor::read_past_end, "read of " + std::to_string(wanted) + " octets at offset " +
                                          std::to_string(position()) + " with " + std::to_string(remaining()) +
                                          " left");
}

void input_stream::throw_bad_boolean(std::uint8_t value) const {
  throw_marshal(minor::bad_boolean, "boolean octet is " + std::to_string(value));
}

void input_stream::throw_length_over_limit(std::uint32_t count) const {
  throw_marshal(minor::length_over_limit,
                "length " + std::to_string(count) + " exceeds the limit of " + std::to_string(max_length_));
}

void input_stream::throw_length_too_large(std::uint32_t count, std::size_t element_size) const {
  throw_marshal(minor::length_too_large, "length " + std::to_string(count) + " of " + std::to_string(element_size) +
                                             "-octet elements exceeds the " + std::to_string(remaining()) +
                                             " octets left");
}

}  // namespace switchyard::cdr
