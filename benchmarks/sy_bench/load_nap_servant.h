// The LoadNap servant `sy-bench server --nap` serves for `sy-bench load --mix blocking`:
// nap(ms) sleeps ms milliseconds in the upcall (syidl's skeleton of benchmarks/peers/load_nap.idl),
// holding whatever thread the server's concurrency model gave the request.
#pragma once

#include <memory>

#include "switchyard/servant.h"

namespace switchyard::bench {

std::shared_ptr<servant> make_load_nap_servant();

}  // namespace switchyard::bench
