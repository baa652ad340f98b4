#include "switchyard/cdr/output_stream.h"

#include <algorithm>
#include <cstring>

namespace switchyard::cdr {

output_stream::output_stream(std::size_t initial_capacity, std::uint8_t giop_minor) : giop_minor_(giop_minor) {
  if (initial_capacity != 0) grow(initial_capacity);
}

output_stream::output_stream(output_stream&& other) noexcept
    : storage_(std::move(other.storage_)),
      begin_(other.begin_),
      cur_(other.cur_),
      end_(other.end_),
      origin_offset_(other.origin_offset_),
      external_threshold_(other.external_threshold_),
      external_count_(other.external_count_),
      external_size_(other.external_size_),
      giop_minor_(other.giop_minor_) {
  std::copy_n(other.external_, external_count_, external_);
  other.begin_ = other.cur_ = other.end_ = nullptr;
  other.reset();
  other.external_threshold_ = external_off;
}

output_stream& output_stream::operator=(output_stream&& other) noexcept {
  if (this != &other) {
    storage_ = std::move(other.storage_);
    begin_ = other.begin_;
    cur_ = other.cur_;
    end_ = other.end_;
    origin_offset_ = other.origin_offset_;
    external_threshold_ = other.external_threshold_;
    external_count_ = other.external_count_;
    external_size_ = other.external_size_;
    std::copy_n(other.external_, external_count_, external_);
    giop_minor_ = other.giop_minor_;
    other.begin_ = other.cur_ = other.end_ = nullptr;
    other.reset();
    other.external_threshold_ = external_off;
  }
  return *this;
}

output_stream::~output_stream() = default;

void output_stream::grow(std::size_t needed) {
  std::size_t used = size();
  // Double, so that a stream grown once per size class reaches its steady state quickly.
  std::size_t capacity = std::max<std::size_t>({256, 2 * this->capacity(), used + needed});
  auto bigger = std::make_unique_for_overwrite<std::byte[]>(capacity);
  if (used != 0) std::memcpy(bigger.get(), begin_, used);
  storage_ = std::move(bigger);
  begin_ = storage_.get();
  cur_ = begin_ + used;
  end_ = begin_ + capacity;
}

bool output_stream::add_external(const void* src, std::size_t n) noexcept {
  if (external_count_ == max_external_chunks) return false;
  if (external_count_ == 0) external_size_ = 0;  // reset() leaves it to this cold path
  external_[external_count_++] = {size(), static_cast<const std::byte*>(src), n};
  external_size_ += n;
  origin_offset_ -= n;  // the octets after the chunk are n further from the origin
  return true;
}

void output_stream::write_longdouble(long double v) {
  // x86's 80-bit extended converted exactly to IEEE binary128 (the compiler's soft-float helpers).
  __float128 quad = static_cast<__float128>(v);
  std::memcpy(reserve_aligned(8, 16), &quad, 16);
}

void output_stream::write_wchar(char16_t v) {
  if (giop_minor_ >= 2) {
    // UTF-16 without a byte-order mark is big-endian (as Unicode and omniORB read it).
    std::byte* p = reserve_aligned(1, 3);
    p[0] = std::byte{2};
    p[1] = static_cast<std::byte>(v >> 8);
    p[2] = static_cast<std::byte>(v & 0xff);
  } else {
    write_scalar(v);
  }
}

void output_stream::write_wstring(std::u16string_view s) {
  if (giop_minor_ >= 2) {
    // A byte-order mark, then the units in native order, as omniORB writes them: readers that
    // take a mark-less string as big-endian (UTF-16's default) read it right, and a string that
    // itself starts with U+FEFF or U+FFFE is not mistaken for its mark. "" has neither.
    auto octets = static_cast<std::uint32_t>(s.empty() ? 0 : 2 + s.size() * 2);
    std::byte* p = reserve_aligned(4, 4 + octets);
    store(p, octets);
    if (octets != 0) {
      store(p + 4, char16_t{0xfeff});
      std::memcpy(p + 6, s.data(), s.size() * 2);
    }
  } else {
    auto units = static_cast<std::uint32_t>(s.size() + 1);
    std::byte* p = reserve_aligned(4, 4 + 2 * units);
    store(p, units);
    if (!s.empty()) std::memcpy(p + 4, s.data(), 2 * s.size());
    store(p + 4 + 2 * s.size(), char16_t{0});
  }
}

}  // namespace switchyard::cdr
