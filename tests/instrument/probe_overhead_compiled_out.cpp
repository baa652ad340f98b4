// The compiled-out probes, in a translation unit of their own (see probe_overhead.cpp).
#define SWITCHYARD_INSTRUMENT_PROBES 0
#include <switchyard/instrument.h>

#include "probe_overhead.h"

namespace switchyard::instrument::bench {
namespace {
probe_table table;
}

void compiled_out_scoped_loop(std::uint64_t iterations) {
  table.enable();
  for (std::uint64_t i = 0; i < iterations; ++i) {
    scoped_probe probe(table, layer::parse);
    keep(i);
  }
}

void compiled_out_phase_loop(std::uint64_t iterations) {
  table.enable();
  for (std::uint64_t i = 0; i < iterations; ++i) {
    phase_timer timer(table);
    timer.mark(layer::read);
    timer.mark(layer::parse);
    timer.mark(layer::servant_demux, strategy::perfect);
    timer.mark(layer::operation_demux, strategy::perfect);
    timer.mark(layer::demarshal);
    timer.mark(layer::upcall);
    timer.mark(layer::marshal);
    timer.mark(layer::write);
    keep(i);
  }
}

}  // namespace switchyard::instrument::bench
