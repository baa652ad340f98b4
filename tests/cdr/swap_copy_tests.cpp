// swap_copy (the SSE2 block loop and its scalar tail) and the swapped read_array built on it:
// every element size, every count around the 16-octet block boundary, byte-exact.
#include "switchyard/cdr/byte_order.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "switchyard/cdr/input_stream.h"

using namespace switchyard::cdr;

TEST_CASE("swap_copy reverses each element's octets for every size and count", "[cdr]") {
  for (std::size_t element_size : {1u, 2u, 3u, 4u, 8u}) {
    for (std::size_t count = 0; count <= 37; ++count) {
      std::vector<std::byte> src(element_size * count + 1), dst(src.size(), std::byte{0xee});
      for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 7 + 1);
      // Offset by one octet: the block loop must not assume alignment.
      swap_copy(dst.data() + 1, src.data() + 1, count, element_size);
      INFO("element size " << element_size << ", count " << count);
      CHECK(dst[0] == std::byte{0xee});
      for (std::size_t e = 0; e < count; ++e)
        for (std::size_t b = 0; b < element_size; ++b)
          REQUIRE(dst[1 + e * element_size + b] == src[1 + e * element_size + element_size - 1 - b]);
    }
  }
}

TEST_CASE("read_array swaps 2, 4 and 8-octet elements written in the other byte order", "[cdr]") {
  constexpr std::size_t count = 21;  // one block short of a multiple for every size
  std::vector<std::byte> bytes(8 * count);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i + 1);
  const byte_order other = opposite(native_byte_order);

  input_stream shorts(bytes, other);
  std::vector<std::uint16_t> s(count);
  shorts.read_array(s.data(), count);
  for (std::size_t i = 0; i < count; ++i) CHECK(s[i] == load<std::uint16_t>(&bytes[2 * i], true));

  input_stream longs(bytes, other);
  std::vector<std::int32_t> l(count);
  longs.read_array(l.data(), count);
  for (std::size_t i = 0; i < count; ++i) CHECK(l[i] == load<std::int32_t>(&bytes[4 * i], true));

  input_stream doubles(bytes, other);
  std::vector<std::uint64_t> d(count);
  doubles.read_array(d.data(), count);
  for (std::size_t i = 0; i < count; ++i) CHECK(d[i] == __builtin_bswap64(load<std::uint64_t>(&bytes[8 * i], false)));
  CHECK(doubles.at_end());
}
