// The evaluation report's types (orb-evaluation-basic-idl-scenario-1a: primitives, aligned records,
// non-aligned records, any; 144 B to 24 KB) sent through Integrity::Echo with syidl's generated
// stub, for `sy-bench latency`. The report's "float" series is an array of floats; the IDL has no
// sequence<float>, so echo_doubles (8-byte elements) and echo_longs (4-byte) stand for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "benchmarks/sy_bench/ami_calls.h"
#include "switchyard/any.h"
#include "switchyard/object.h"
#include "switchyard/type_code.h"

namespace switchyard::bench {

enum class echo_type { doubles, longs, records, narecords, any };

std::string_view to_string(echo_type type) noexcept;  // "echo_doubles", ... (the operation's name)
std::optional<echo_type> parse_echo_type(std::string_view name) noexcept;
// CDR bytes per element in a sequence: double 8, long 4, Record 24 (l d s o f c b: 26 bytes, the
// next one's long starts 2 bytes on), NARecord 32 (o, pad 7, d, c, pad 7, ll, s: 34 bytes, the
// next starts 2 on), any: an Any holding a sequence of Records (24 each; the TypeCode adds a
// fixed part to every call).
std::size_t echo_element_bytes(echo_type type) noexcept;

// One echo call with `bytes / echo_element_bytes` elements (at least 1), built once and reused.
class echo_payload {
 public:
  echo_payload(echo_type type, std::size_t bytes);
  ~echo_payload();
  echo_payload(echo_payload&&) noexcept;
  echo_type type() const noexcept { return type_; }
  std::size_t units() const noexcept { return units_; }
  std::size_t bytes() const noexcept { return units_ * echo_element_bytes(type_); }
  // Calls the operation on an Integrity::Echo reference; with `check`, raises std::runtime_error
  // unless the result equals what was sent (the report's data-integrity check, untimed calls only).
  void call(const object_ref& echo, bool check) const;
  // The same call through syidl --ami's sendc_ stub (ami_calls.h): returns once it is sent;
  // `done` is finished when the reply reaches the handler, with a failure if `check` finds the
  // result differs from what was sent. One such call outstanding per payload at a time.
  void call_async(const object_ref& echo, async_completion& done, bool check) const;
  // The same call through the DII (dii_calls.h): the argument as an Any (generated insertion, so
  // it holds the C++ value and marshals through the generated code), the result's TypeCode
  // (syidl's _tc_), and the data-integrity check of a result the DII returned.
  switchyard::any argument_any() const;
  // The operation's position in Integrity::Echo (idl/integrity.idl's declaration order), which
  // the generated stub sends for active demultiplexing; request::set_operation_index sends it too.
  std::uint32_t operation_index() const noexcept;
  switchyard::type_code result_type() const;
  void check_result(const switchyard::any& result) const;

 private:
  struct values;
  class reply_handler;
  echo_type type_;
  std::size_t units_;
  std::unique_ptr<values> values_;
};

}  // namespace switchyard::bench
