#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/experiments.h"

namespace switchyard::bench {
int latency_main(std::vector<std::string>) { throw usage_error("latency: not yet"); }
}  // namespace switchyard::bench
