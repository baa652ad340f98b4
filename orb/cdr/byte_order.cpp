#include "switchyard/cdr/byte_order.h"

namespace switchyard::cdr {

void swap_copy(std::byte* dst, const std::byte* src, std::size_t n,
               std::size_t element_size) noexcept {
  // One loop per size so the compiler can vectorize each with bswap/pshufb.
  switch (element_size) {
    case 2:
      for (std::size_t i = 0; i < n; ++i) store(dst + 2 * i, load<std::uint16_t>(src + 2 * i, true));
      break;
    case 4:
      for (std::size_t i = 0; i < n; ++i) store(dst + 4 * i, load<std::uint32_t>(src + 4 * i, true));
      break;
    case 8:
      for (std::size_t i = 0; i < n; ++i) store(dst + 8 * i, load<std::uint64_t>(src + 8 * i, true));
      break;
    default:
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t b = 0; b < element_size; ++b)
          dst[i * element_size + b] = src[i * element_size + element_size - 1 - b];
  }
}

}  // namespace switchyard::cdr
