// The demux experiment's interfaces as users' code has them: ttcp_demux_<K> for K in 1, 10, 100
// (write_demux_idl.py writes the IDL at build time, syidl compiles it), the ttcp operations plus
// op_0..op_{K-1}. The server activates servants of the generated skeletons (gperf operation table,
// _dispatch_<op> functions that mark the demarshal and upcall probes) and the client calls through
// the generated stubs (active indices). Other K fall back to the interface described at run time
// (bench_interface.h), and the lookup labels say so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/demux_strategy.h"
#include "switchyard/object.h"
#include "switchyard/object_id_table.h"
#include "switchyard/servant.h"

namespace switchyard::bench {

// Whether ttcp_demux_<operations> was generated at build time.
bool has_generated_demux_interface(std::size_t operations) noexcept;

// A ttcp servant with `operations` demux operations: the generated skeleton's when there is one,
// otherwise bench_servant (also for 0: the other experiments' servers).
std::shared_ptr<servant> make_ttcp_servant(std::size_t operations);
// The interface that servant serves.
const interface_info& ttcp_interface(std::size_t operations);

// Calls op_<operation> on the `servant`-th target and waits for the reply: through the generated
// stub when there is one, otherwise an invocation with the name and the active index.
class demux_caller {
 public:
  virtual ~demux_caller() = default;
  virtual void call(std::uint32_t servant, std::uint32_t operation) = 0;
};
std::unique_ptr<demux_caller> make_demux_caller(const std::vector<object_ref>& targets, std::size_t operations);

// What served a lookup, for demux.csv: linear, binary, hash, gperf, runtime-perfect, perfect-fast,
// active. Operations: `perfect` is gperf when the interface carries syidl's generated lookup.
// Servants: `perfect` is gperf when the adapter has a build-time object-id table (the ids past
// the table's end would take the run-time hash; the experiment's ttcp_0..ttcp_499 never do).
std::string operation_lookup_label(demux_strategy strategy, const interface_info& interface);
std::string servant_lookup_label(demux_strategy strategy, const object_id_table* object_ids);

}  // namespace switchyard::bench
