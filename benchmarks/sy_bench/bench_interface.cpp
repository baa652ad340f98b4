#include "benchmarks/sy_bench/bench_interface.h"

#include <array>
#include <cstddef>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <span>
#include <sstream>

#include "switchyard/cdr/byte_order.h"
#include "switchyard/invocation.h"
#include "switchyard/orb.h"
#include "switchyard/server_request.h"

namespace switchyard::bench {
namespace {

constexpr std::array<std::string_view, 7> type_names = {"none",   "octet", "short",    "long",
                                                        "double", "char",  "binstruct"};

// Demarshals a sequence of primitives into a buffer kept per thread: after the first request of
// the largest size, no allocation.
template <class T>
std::size_t read_scalars(server_request& request) {
  thread_local std::vector<T> buffer;
  request.arguments().read_sequence(buffer);
  return buffer.size();
}

// sequence<octet>: a view into the request buffer, no copy, as syidl's skeletons pass an
// `in sequence<octet>` (std::span over the received bytes; docs/idl.md).
std::size_t read_octet_view(server_request& request) {
  auto& in = request.arguments();
  const std::uint32_t n = in.read_length(1);
  std::span<const std::uint8_t> view(reinterpret_cast<const std::uint8_t*>(in.take(n)), n);
  return view.size();
}

// BinStruct's CDR layout from an 8-aligned position is its native layout (s@0 c@2 l@4 o@8 d@16,
// 24 octets): what an optimizing IDL compiler exploits (benchmarks/cdr: "one block"). A struct
// aligns to its first member, so the first element after the count (at 4 mod 8) goes field by
// field; every element ends 8-aligned, so the rest is one block.
constexpr std::size_t binstruct_cdr_size = 24;
static_assert(sizeof(BinStruct) == binstruct_cdr_size && offsetof(BinStruct, d) == 16);

void read_binstruct(cdr::input_stream& in, BinStruct& b) {
  b.s = in.read_short();
  b.c = in.read_char();
  b.l = in.read_long();
  b.o = in.read_octet();
  b.d = in.read_double();
}

void write_binstruct(cdr::output_stream& out, const BinStruct& b) {
  out.write_short(b.s);
  out.write_char(b.c);
  out.write_long(b.l);
  out.write_octet(b.o);
  out.write_double(b.d);
}

std::size_t read_structs(server_request& request) {
  thread_local std::vector<BinStruct> buffer;
  auto& in = request.arguments();
  std::uint32_t n = in.read_length(16);  // 16 octets of members at least; padding varies
  buffer.resize(n);
  BinStruct* out = buffer.data();
  std::uint32_t rest = n;
  if (rest != 0 && cdr::padding_for(in.aligned_position(), 8) != 0) {
    read_binstruct(in, *out++);
    --rest;
  }
  const std::byte* p = in.take(std::size_t{rest} * binstruct_cdr_size);  // rest <= 64 Mi: no overflow
  if (!in.swapping()) {
    if (rest != 0) std::memcpy(static_cast<void*>(out), p, std::size_t{rest} * binstruct_cdr_size);
  } else {
    for (std::uint32_t i = 0; i < rest; ++i, p += binstruct_cdr_size) {
      out[i].s = cdr::load<std::int16_t>(p + 0, true);
      out[i].c = static_cast<char>(p[2]);
      out[i].l = cdr::load<std::int32_t>(p + 4, true);
      out[i].o = static_cast<std::uint8_t>(p[8]);
      out[i].d = cdr::load<double>(p + 16, true);
    }
  }
  return n;
}

// The writing side. The structs' padding octets (3 and 9..15) are zero (payload zeroes them), so
// the block is the wire's octets as they are: one write_octets, which the request stream sends
// without a copy (an external chunk) when it is large.
void write_structs(cdr::output_stream& out, std::span<const BinStruct> structs) {
  out.write_ulong(static_cast<std::uint32_t>(structs.size()));
  if (!structs.empty() && cdr::padding_for(out.aligned_position(), 8) != 0) {
    write_binstruct(out, structs.front());
    structs = structs.subspan(1);
  }
  if (structs.empty()) return;
  out.write_octets(structs.data(), structs.size() * binstruct_cdr_size);
}

template <std::size_t (*Read)(server_request&)>
void skeleton_sequence(servant& self, server_request& request) {
  auto& target = static_cast<bench_servant&>(self);
  target.elements += Read(request);
  ++target.requests;
}

void skeleton_none(servant& self, server_request&) { ++static_cast<bench_servant&>(self).requests; }

// The fixed part of the interface, in index order (see operation_indices).
constexpr operation_info fixed_operations[] = {
    {"sendStructSeq_2way", &skeleton_sequence<&read_structs>},
    {"sendOctetSeq_2way", &skeleton_sequence<&read_octet_view>},
    {"sendNoParams_2way", &skeleton_none},
    {"sendNoParams_1way", &skeleton_none},
    {"sendShortSeq_2way", &skeleton_sequence<&read_scalars<std::int16_t>>},
    {"sendLongSeq_2way", &skeleton_sequence<&read_scalars<std::int32_t>>},
    {"sendDoubleSeq_2way", &skeleton_sequence<&read_scalars<double>>},
    {"sendCharSeq_2way", &skeleton_sequence<&read_scalars<char>>},
    // The ttcp paper's one-way sends.
    {"sendShortSeq", &skeleton_sequence<&read_scalars<std::int16_t>>},
    {"sendLongSeq", &skeleton_sequence<&read_scalars<std::int32_t>>},
    {"sendDoubleSeq", &skeleton_sequence<&read_scalars<double>>},
    {"sendCharSeq", &skeleton_sequence<&read_scalars<char>>},
    {"sendOctetSeq", &skeleton_sequence<&read_octet_view>},
    {"sendStructSeq", &skeleton_sequence<&read_structs>},
    {"start_timer", &skeleton_none},
    {"stop_timer", &skeleton_none},
};
static_assert(std::size(fixed_operations) == operation_indices::first_demux_operation);

constexpr std::string_view bench_ids[] = {"IDL:ttcp_sequence:1.0"};

struct built_interface {
  std::deque<std::string> names;  // stable addresses for the string_views
  std::vector<operation_info> operations;
  interface_info info;
};

std::uint32_t index_of(std::string_view name) noexcept {
  for (std::uint32_t i = 0; i < std::size(fixed_operations); ++i)
    if (fixed_operations[i].name == name) return i;
  return no_operation_index;
}

}  // namespace

std::string_view to_string(element_type type) noexcept { return type_names[static_cast<std::size_t>(type)]; }

std::optional<element_type> parse_element_type(std::string_view name) noexcept {
  if (name == "struct" || name == "BinStruct") return element_type::binstruct;
  for (std::size_t i = 0; i < type_names.size(); ++i)
    if (type_names[i] == name) return static_cast<element_type>(i);
  return std::nullopt;
}

std::size_t element_bytes(element_type type) noexcept {
  switch (type) {
    case element_type::none:
      return 0;
    case element_type::octet:
      return 1;
    case element_type::char_:
      return 1;
    case element_type::short_:
      return 2;
    case element_type::long_:
      return 4;
    case element_type::double_:
      return 8;
    case element_type::binstruct:
      return 24;
  }
  return 0;
}

operation_ref send_operation(element_type type, bool twoway) noexcept {
  std::string_view name;
  switch (type) {
    case element_type::none:
      name = twoway ? "sendNoParams_2way" : "sendNoParams_1way";
      break;
    case element_type::octet:
      name = twoway ? "sendOctetSeq_2way" : "sendOctetSeq";
      break;
    case element_type::short_:
      name = twoway ? "sendShortSeq_2way" : "sendShortSeq";
      break;
    case element_type::long_:
      name = twoway ? "sendLongSeq_2way" : "sendLongSeq";
      break;
    case element_type::double_:
      name = twoway ? "sendDoubleSeq_2way" : "sendDoubleSeq";
      break;
    case element_type::char_:
      name = twoway ? "sendCharSeq_2way" : "sendCharSeq";
      break;
    case element_type::binstruct:
      name = twoway ? "sendStructSeq_2way" : "sendStructSeq";
      break;
  }
  return {name, index_of(name)};
}

std::string demux_operation_name(std::size_t i) { return "op_" + std::to_string(i); }

const interface_info& bench_interface(std::size_t demux_operations) {
  static std::mutex mutex;
  static std::map<std::size_t, std::unique_ptr<built_interface>> built;
  std::lock_guard lock(mutex);
  auto& slot = built[demux_operations];
  if (!slot) {
    slot = std::make_unique<built_interface>();
    slot->operations.assign(std::begin(fixed_operations), std::end(fixed_operations));
    for (std::size_t i = 0; i < demux_operations; ++i) {
      slot->names.push_back(demux_operation_name(i));
      slot->operations.push_back({slot->names.back(), &skeleton_none});
    }
    slot->info = interface_info{bench_ids[0], bench_ids, slot->operations, nullptr};
  }
  return slot->info;
}

payload::payload(element_type type, std::size_t units) : type_(type), units_(type == element_type::none ? 0 : units) {
  if (type_ == element_type::binstruct) {
    structs_.resize(units_);
    for (std::size_t i = 0; i < units_; ++i) {
      structs_[i] = {static_cast<std::int16_t>(i), 'x', static_cast<std::int32_t>(i * 7), 0x5a, i * 0.5};
      // Padding zeroed after the assignment (which may copy a temporary's): write_structs sends
      // the structs' octets as they are.
      auto* octets = reinterpret_cast<std::byte*>(&structs_[i]);
      octets[3] = std::byte{0};
      std::memset(octets + 9, 0, 7);
    }
  } else {
    scalars_.resize(units_ * element_bytes(type_));
    for (std::size_t i = 0; i < scalars_.size(); ++i) scalars_[i] = static_cast<std::byte>(i * 31 + 7);
  }
}

void payload::marshal(cdr::output_stream& out) const {
  switch (type_) {
    case element_type::none:
      return;
    case element_type::octet:
      out.write_sequence(reinterpret_cast<const std::uint8_t*>(scalars_.data()), units_);
      return;
    case element_type::char_:
      out.write_sequence(reinterpret_cast<const char*>(scalars_.data()), units_);
      return;
    case element_type::short_:
      out.write_sequence(reinterpret_cast<const std::int16_t*>(scalars_.data()), units_);
      return;
    case element_type::long_:
      out.write_sequence(reinterpret_cast<const std::int32_t*>(scalars_.data()), units_);
      return;
    case element_type::double_:
      out.write_sequence(reinterpret_cast<const double*>(scalars_.data()), units_);
      return;
    case element_type::binstruct:
      write_structs(out, structs_);
      return;
  }
}

void send(const object_ref& target, const payload& data, bool twoway) {
  auto op = send_operation(data.type(), twoway);
  invocation call(target, op.name, op.index);
  if (twoway) {
    call.invoke([&](cdr::output_stream& args) { data.marshal(args); });
  } else {
    call.invoke_oneway([&](cdr::output_stream& args) { data.marshal(args); });
  }
}

// ---- control ---------------------------------------------------------------------------------

namespace {

class control_servant final : public servant {
 public:
  explicit control_servant(std::weak_ptr<switchyard::orb> server_orb) : orb_(std::move(server_orb)) {}
  const interface_info& _interface() const noexcept override { return info; }

 private:
  static void skeleton_instrumentation(servant& self, server_request& request) {
    std::ostringstream text;
    if (auto o = static_cast<control_servant&>(self).orb_.lock()) o->dump_instrumentation(text);
    if (request.response_expected()) request.reply().write_string(text.str());
  }
  static void skeleton_shutdown(servant& self, server_request&) {
    // From inside an upcall the ORB may not wait for requests in progress (this one).
    if (auto o = static_cast<control_servant&>(self).orb_.lock()) o->shutdown(false);
  }
  static constexpr std::string_view ids[] = {"IDL:sy_bench/control:1.0"};
  static constexpr operation_info operations[] = {
      {"instrumentation", &skeleton_instrumentation},
      {"shutdown", &skeleton_shutdown},
  };
  static constexpr interface_info info{ids[0], ids, operations, nullptr};

  std::weak_ptr<switchyard::orb> orb_;
};

}  // namespace

std::shared_ptr<servant> make_control_servant(std::weak_ptr<switchyard::orb> server_orb) {
  return std::make_shared<control_servant>(std::move(server_orb));
}

std::string fetch_instrumentation(const object_ref& control) {
  invocation call(control, "instrumentation", 0);
  return call.invoke().read_string();
}

void request_shutdown(const object_ref& control) {
  invocation call(control, "shutdown", 1);
  call.invoke_oneway();
}

}  // namespace switchyard::bench
