// Counts heap allocations made through operator new (any form), process-wide, so the benchmark
// can report allocations per message for each stream. Defining the replacement operators in the
// executable also catches the ones libACE makes (its allocators call new[]). Single-threaded use.
#pragma once

#include <cstdint>

namespace switchyard::bench {

// Allocations made since the program started.
std::uint64_t allocation_count() noexcept;

}  // namespace switchyard::bench
