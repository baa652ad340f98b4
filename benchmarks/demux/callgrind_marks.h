// Callgrind client requests for the demux benchmarks' --count mode (count_lookups.py runs them
// under valgrind --tool=callgrind --collect-atstart=no --toggle-collect=... --cache-sim=yes, so
// that only the measured functions count): zero the counts, and dump them under each case's
// name. Outside valgrind (or without valgrind's header) they do nothing.
#pragma once

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SY_CALLGRIND 1
#else
#define SY_CALLGRIND 0
#endif

namespace switchyard::bench {

inline bool counting_available() { return SY_CALLGRIND != 0; }

// Counts from here on belong to the next dump.
inline void count_zero() {
#if SY_CALLGRIND
  CALLGRIND_ZERO_STATS;
#endif
}

// Writes the counts since count_zero() as one dump named `name` (its "desc: Trigger" line).
inline void count_dump(const char* name) {
#if SY_CALLGRIND
  CALLGRIND_DUMP_STATS_AT(name);
#else
  (void)name;
#endif
}

}  // namespace switchyard::bench
