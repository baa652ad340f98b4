// CDR byte orders, byte swapping, and unaligned loads and stores: the pieces both CDR streams and
// generated marshaling code build on. All inline; none of it allocates or throws.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace switchyard::cdr {

// The byte-order flag as GIOP and encapsulations carry it: 0 big-endian, 1 little-endian.
enum class byte_order : std::uint8_t { big_endian = 0, little_endian = 1 };

inline constexpr byte_order native_byte_order =
    std::endian::native == std::endian::little ? byte_order::little_endian : byte_order::big_endian;

inline constexpr byte_order opposite(byte_order order) noexcept {
  return order == byte_order::big_endian ? byte_order::little_endian : byte_order::big_endian;
}

// The integer of the same size as T, for swapping floats bit for bit.
template <std::size_t Size>
struct unsigned_of_size;
template <>
struct unsigned_of_size<1> {
  using type = std::uint8_t;
};
template <>
struct unsigned_of_size<2> {
  using type = std::uint16_t;
};
template <>
struct unsigned_of_size<4> {
  using type = std::uint32_t;
};
template <>
struct unsigned_of_size<8> {
  using type = std::uint64_t;
};

// Reverses the bytes of an arithmetic value of 1, 2, 4 or 8 bytes.
template <typename T>
inline T byte_swap(T value) noexcept {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8);
  if constexpr (sizeof(T) == 1) {
    return value;
  } else {
    using U = typename unsigned_of_size<sizeof(T)>::type;
    U bits;
    std::memcpy(&bits, &value, sizeof bits);
    if constexpr (sizeof(T) == 2) bits = __builtin_bswap16(bits);
    if constexpr (sizeof(T) == 4) bits = __builtin_bswap32(bits);
    if constexpr (sizeof(T) == 8) bits = __builtin_bswap64(bits);
    std::memcpy(&value, &bits, sizeof bits);
    return value;
  }
}

// Reads a T stored at p (any alignment), swapping its bytes when `swap`.
template <typename T>
inline T load(const std::byte* p, bool swap) noexcept {
  T value;
  std::memcpy(&value, p, sizeof value);
  return swap ? byte_swap(value) : value;
}

// Writes a T at p (any alignment) in native byte order.
template <typename T>
inline void store(std::byte* p, T value) noexcept {
  std::memcpy(p, &value, sizeof value);
}

// Copies n elements of size S from src to dst, reversing each element's bytes.
void swap_copy(std::byte* dst, const std::byte* src, std::size_t n, std::size_t element_size) noexcept;

// The padding that brings `position` to a multiple of `alignment` (a power of two).
inline constexpr std::size_t padding_for(std::size_t position, std::size_t alignment) noexcept {
  return (alignment - (position & (alignment - 1))) & (alignment - 1);
}

}  // namespace switchyard::cdr
