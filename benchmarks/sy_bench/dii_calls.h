// The latency experiment's calls through the Dynamic Invocation Interface (switchyard/request.h),
// exactly as a client without stubs makes them: the latency paper's DII series (section 3.5,
// figures 11-26). A call's argument is an Any built once (the ttcp sequences as canonical CDR under
// TypeCodes built at run time with the public TypeCode API, the Echo types by syidl's generated
// insertion) and given to the request again for every call, which copies a pointer.
//
// Two ways to make the request, as the paper's two ORBs did: `reuse` builds one request per
// target once and invokes it again with the argument set anew (VisiBroker); `per_call` builds a
// new request (operation name, argument list, result type) for every call (Orbix).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/sy_bench/bench_interface.h"
#include "switchyard/any.h"
#include "switchyard/object.h"
#include "switchyard/request.h"
#include "switchyard/type_code.h"

namespace switchyard::bench {

enum class dii_request_mode { reuse, per_call };

std::string_view to_string(dii_request_mode mode) noexcept;  // "reuse", "per-call"
std::optional<dii_request_mode> parse_dii_request_mode(std::string_view name) noexcept;

// The TypeCode of the sequence a ttcp send carries (IDL:ttcp_sequence/OctetSeq:1.0 and
// IDL:ttcp_sequence/StructSeq:1.0 of idl/ttcp_sequence.idl, plain sequences for the other
// scalars), built once at run time with type_code::make_*. tk_null for `none`.
const type_code& ttcp_sequence_type(element_type type);
// `data` as an Any of that TypeCode, in canonical CDR (an empty Any for `none`).
any ttcp_sequence_any(const payload& data);

// One operation called through the DII: its name and index (the index sent for active
// demultiplexing, as a stub sends it: request::set_operation_index), its in argument (none for
// a parameterless call) and its result's TypeCode (tk_void for the ttcp sends).
struct dii_operation {
  std::string name;
  std::uint32_t index;
  std::optional<any> argument;
  std::string argument_name;  // for people: the IDL parameter's name
  type_code result;
  bool twoway;
};

class dii_call {
 public:
  dii_call(dii_operation operation, dii_request_mode mode);
  // Calls `target`, the `slot`th of the experiment's targets (a reused request is kept per slot).
  // With `result`, copies the call's result into it (the data-integrity check).
  void operator()(const object_ref& target, std::size_t slot, any* result = nullptr);

 private:
  // Sets up a fresh request as a client does: argument list and result type.
  void prepare(request& call) const;
  void send(request& call, any* result);

  dii_operation operation_;
  dii_request_mode mode_;
  std::vector<std::optional<request>> reused_;  // by slot, made on first use
};

}  // namespace switchyard::bench
