#include "switchyard/cdr/output_stream.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "switchyard/exception.h"

namespace switchyard::cdr {

output_stream::output_stream(std::size_t initial_capacity, std::uint8_t giop_minor) : giop_minor_(giop_minor) {
  if (initial_capacity != 0) grow(initial_capacity);
}

output_stream::output_stream(output_stream&& other) noexcept
    : storage_(std::move(other.storage_)),
      begin_(other.begin_),
      cur_(other.cur_),
      end_(other.capacity_end_),
      capacity_end_(other.capacity_end_),
      origin_offset_(other.origin_offset_),
      external_threshold_(other.external_threshold_),
      external_count_(other.external_count_),
      external_size_(other.external_size_),
      giop_minor_(other.giop_minor_) {
  std::copy_n(other.external_, external_count_, external_);
  other.begin_ = other.cur_ = other.end_ = other.capacity_end_ = nullptr;
  other.reset();
  other.external_threshold_ = external_off;
}

output_stream& output_stream::operator=(output_stream&& other) noexcept {
  if (this != &other) {
    storage_ = std::move(other.storage_);
    begin_ = other.begin_;
    cur_ = other.cur_;
    end_ = capacity_end_ = other.capacity_end_;
    observer_ = nullptr;
    origin_offset_ = other.origin_offset_;
    external_threshold_ = other.external_threshold_;
    external_count_ = other.external_count_;
    external_size_ = other.external_size_;
    std::copy_n(other.external_, external_count_, external_);
    giop_minor_ = other.giop_minor_;
    other.begin_ = other.cur_ = other.end_ = other.capacity_end_ = nullptr;
    other.reset();
    other.external_threshold_ = external_off;
  }
  return *this;
}

output_stream::~output_stream() = default;

void output_stream::grow(std::size_t needed) {
  end_ = capacity_end_;
  if (static_cast<std::size_t>(capacity_end_ - cur_) < needed) reallocate(needed);
  if (observer_ != nullptr) limit_to_boundary(needed);
}

void output_stream::reallocate(std::size_t needed) {
  std::size_t used = size();
  // Double, so that a stream grown once per size class reaches its steady state quickly.
  std::size_t capacity = std::max<std::size_t>({256, 2 * this->capacity(), used + needed});
  auto bigger = std::make_unique_for_overwrite<std::byte[]>(capacity);
  if (used != 0) std::memcpy(bigger.get(), begin_, used);
  storage_ = std::move(bigger);
  begin_ = storage_.get();
  cur_ = begin_ + used;
  end_ = capacity_end_ = begin_ + capacity;
}

// A block that reaches the write limit: room for it and for what the observer writes after it
// first, so that the block's address stays valid; then the observer, if the block crossed one of
// its boundaries (one lies strictly inside it).
std::byte* output_stream::reserve_block_slow(std::size_t alignment, std::size_t n) {
  const std::size_t pad = padding_for(aligned_position(), alignment);
  end_ = capacity_end_;
  if (static_cast<std::size_t>(capacity_end_ - cur_) < pad + n + observer_room) reallocate(pad + n + observer_room);
  for (std::size_t i = 0; i < pad; ++i) *cur_++ = std::byte{0};
  std::byte* p = cur_;
  cur_ += n;
  if (observer_ != nullptr) {
    const std::size_t start = size() - n + external_size();
    if (n != 0 && start / observer_spacing_ != (start + n - 1) / observer_spacing_) {
      block_observer* observer = observer_;
      observer->block_crossed_boundary(*this);
    }
    if (observer_ != nullptr) limit_to_boundary(1);
  }
  return p;
}

void output_stream::set_block_observer(block_observer* observer, std::size_t spacing) noexcept {
  if (observer == nullptr) {
    if (observer_ == nullptr) return;
    suspend_observer();
    external_threshold_ = observer_saved_threshold_;
    return;
  }
  if (observer_ == nullptr) {
    observer_saved_threshold_ = external_threshold_;
    external_threshold_ = external_off;  // the limit counts positions in the stream's own octets
  }
  observer_spacing_ = spacing;
  resume_observer(observer);
}

void output_stream::limit_to_boundary(std::size_t ahead) noexcept {
  const std::size_t position = size() + external_size() + ahead;
  const std::size_t boundary = (position + observer_spacing_ - 1) / observer_spacing_ * observer_spacing_;
  const std::size_t room = static_cast<std::size_t>(capacity_end_ - cur_);
  end_ = cur_ + std::min(room, boundary - (size() + external_size()));
}

void output_stream::suspend_observer() noexcept {
  observer_ = nullptr;
  end_ = capacity_end_;
}

void output_stream::resume_observer(block_observer* observer) noexcept {
  observer_ = observer;
  limit_to_boundary(1);
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

void output_stream::throw_nul_in_string(const char* kind) {
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::nul_in_string_argument, CompletionStatus::no,
                        std::string("a ") + kind + " holding a NUL cannot be marshaled (CDR strings end at their NUL)");
}

void output_stream::write_wstring(std::u16string_view s) {
  if (std::find(s.begin(), s.end(), u'\0') != s.end()) [[unlikely]]
    throw_nul_in_string("wstring");
  if (giop_minor_ >= 2) {
    // A byte-order mark, then the units in native order, as omniORB writes them: readers that
    // take a mark-less string as big-endian (UTF-16's default) read it right, and a string that
    // itself starts with U+FEFF or U+FFFE is not mistaken for its mark. "" has neither.
    auto octets = static_cast<std::uint32_t>(s.empty() ? 0 : 2 + s.size() * 2);
    std::byte* p = reserve_block(4, 4 + octets);
    store(p, octets);
    if (octets != 0) {
      store(p + 4, char16_t{0xfeff});
      std::memcpy(p + 6, s.data(), s.size() * 2);
    }
  } else {
    auto units = static_cast<std::uint32_t>(s.size() + 1);
    std::byte* p = reserve_block(4, 4 + 2 * units);
    store(p, units);
    if (!s.empty()) std::memcpy(p + 4, s.data(), 2 * s.size());
    store(p + 4 + 2 * s.size(), char16_t{0});
  }
}

}  // namespace switchyard::cdr
