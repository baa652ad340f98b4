#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/experiments.h"

namespace switchyard::bench {
int ttcp_main(std::vector<std::string>) { throw usage_error("ttcp: not yet"); }
}  // namespace switchyard::bench
