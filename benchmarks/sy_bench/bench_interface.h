// The benchmark interface, described at run time (no IDL compiler needed): the papers'
// ttcp_sequence (repository id IDL:ttcp_sequence:1.0, the published operation names first, so any
// ORB's client drives it), the ttcp paper's one-way sends of every scalar, two-way sends of every
// scalar for the latency experiment, then K parameterless operations "op_0".."op_{K-1}" for the
// demultiplexing experiment (section 5.3.1). Skeletons are hand-written, as syidl would write them:
// arguments are demarshaled into a per-thread buffer that is reused (octets are viewed in place, as
// syidl passes them), so a request allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/object.h"
#include "switchyard/servant.h"

namespace switchyard::bench {

struct BinStruct {
  std::int16_t s;
  char c;
  std::int32_t l;
  std::uint8_t o;
  double d;
};

// The element types of the sequences the experiments send. `none` is the parameterless call.
enum class element_type { none, octet, short_, long_, double_, char_, binstruct };

std::string_view to_string(element_type type) noexcept;  // "none", "octet", ..., "binstruct"
std::optional<element_type> parse_element_type(std::string_view name) noexcept;
// Bytes of application data per element (BinStruct: 24, its size with CDR padding, as the papers).
std::size_t element_bytes(element_type type) noexcept;

// Operation indices in the interface (the index active demultiplexing carries).
struct operation_indices {
  static constexpr std::uint32_t struct_2way = 0, octet_2way = 1, none_2way = 2, none_1way = 3;
  static constexpr std::uint32_t first_demux_operation = 16;
};
// The operation for a two-way or one-way send of `type`: its name and index.
struct operation_ref {
  std::string_view name;
  std::uint32_t index;
};
operation_ref send_operation(element_type type, bool twoway) noexcept;

// The interface with `demux_operations` operations op_0..; built once per K and kept for the life
// of the program (the adapter holds views into it).
const interface_info& bench_interface(std::size_t demux_operations);
// "op_<i>" and its index.
std::string demux_operation_name(std::size_t i);

// A servant of that interface: counts what it receives, nothing else.
class bench_servant final : public servant {
 public:
  explicit bench_servant(std::size_t demux_operations) : info_(&bench_interface(demux_operations)) {}
  const interface_info& _interface() const noexcept override { return *info_; }
  std::uint64_t requests = 0;
  std::uint64_t elements = 0;

 private:
  const interface_info* info_;
};

// A reusable request payload: `units` elements of `type`, marshaled by marshal().
class payload {
 public:
  payload(element_type type, std::size_t units);
  void marshal(cdr::output_stream& out) const;
  element_type type() const noexcept { return type_; }
  std::size_t units() const noexcept { return units_; }
  std::size_t bytes() const noexcept { return units_ * element_bytes(type_); }

 private:
  element_type type_;
  std::size_t units_;
  std::vector<std::byte> scalars_;
  std::vector<BinStruct> structs_;
};

// One call: two-way waits for the reply, one-way returns when sent.
void send(const object_ref& target, const payload& data, bool twoway);

}  // namespace switchyard::bench

namespace switchyard {
class orb;
namespace bench {
// The control interface (IDL:sy_bench/control:1.0), served by an ORB of its own (control_orb.h)
// so it never lengthens the benchmark servants' map nor shows in the profile: `string
// instrumentation()` returns `server_orb`'s probe table as dump_instrumentation writes it;
// `oneway void shutdown()` stops `server_orb`.
std::shared_ptr<servant> make_control_servant(std::weak_ptr<switchyard::orb> server_orb);
std::string fetch_instrumentation(const object_ref& control);
void request_shutdown(const object_ref& control);
}  // namespace bench
}  // namespace switchyard
