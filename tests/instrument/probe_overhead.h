// Shared by the two translation units of the probe overhead benchmark.
#pragma once

#include <cstdint>

namespace switchyard::instrument::bench {

// Makes the compiler assume `value` is read here, so the loop around it is not removed.
template <typename T>
inline void keep(T const& value) noexcept {
  asm volatile("" : : "r,m"(value) : "memory");
}

// In probe_overhead_compiled_out.cpp: `iterations` scoped probes and `iterations` request-shaped
// phase timers (8 marks), with the probes compiled out.
void compiled_out_scoped_loop(std::uint64_t iterations);
void compiled_out_phase_loop(std::uint64_t iterations);

}  // namespace switchyard::instrument::bench
