// (b) Straightforward code written by hand over the same CDR streams: a count, then every element
// field by field with the streams' write_X / read_X (each aligns and checks bounds for itself),
// as a simple IDL compiler would emit it. No bulk copy, no precomputed layout. (Any has no
// hand-written version: marshaling one is write_any either way.)
#include "sy_data.h"

#include <memory>

namespace marshal_bench {

namespace {

using switchyard::cdr::input_stream;
using switchyard::cdr::output_stream;

// Declared first: the sequence templates below call them.
void put(output_stream& out, const Integrity::Nested& v);
void get(input_stream& in, Integrity::Nested& v);

// ---- writing

void put(output_stream& out, std::uint8_t v) { out.write_octet(v); }
void put(output_stream& out, std::int32_t v) { out.write_long(v); }
void put(output_stream& out, double v) { out.write_double(v); }

void put(output_stream& out, const BinStruct& v) {
  out.write_short(v.s);
  out.write_char(v.c);
  out.write_long(v.l);
  out.write_octet(v.o);
  out.write_double(v.d);
}

void put(output_stream& out, const Integrity::Record& v) {
  out.write_long(v.l);
  out.write_double(v.d);
  out.write_short(v.s);
  out.write_octet(v.o);
  out.write_float(v.f);
  out.write_char(v.c);
  out.write_boolean(v.b);
}

void put(output_stream& out, const Integrity::NARecord& v) {
  out.write_octet(v.o);
  out.write_double(v.d);
  out.write_char(v.c);
  out.write_longlong(v.ll);
  out.write_short(v.s);
}

template <class T>
void put_sequence(output_stream& out, const std::vector<T>& v) {
  out.write_ulong(static_cast<std::uint32_t>(v.size()));
  for (const T& e : v) put(out, e);
}

void put(output_stream& out, const Integrity::Nested& v) {
  out.write_string(v.name);
  put_sequence(out, v.values);
  out.write_ulong(static_cast<std::uint32_t>(v.tint));
  out.write_long(v.choice._d());
  switch (v.choice._d()) {
    case 1:
      out.write_long(v.choice.l());
      break;
    case 2:
      out.write_string(v.choice.s());
      break;
    case 3:
      out.write_double(v.choice.d());
      break;
    default:
      out.write_octet(v.choice.o());
      break;
  }
  for (const auto& row : v.grid)
    for (std::int32_t e : row) out.write_long(e);
  put_sequence(out, v.few);
}

// ---- reading (lengths checked against what is left, as every reader must)

void get(input_stream& in, std::uint8_t& v) { v = in.read_octet(); }
void get(input_stream& in, std::int32_t& v) { v = in.read_long(); }
void get(input_stream& in, double& v) { v = in.read_double(); }

void get(input_stream& in, BinStruct& v) {
  v.s = in.read_short();
  v.c = in.read_char();
  v.l = in.read_long();
  v.o = in.read_octet();
  v.d = in.read_double();
}

void get(input_stream& in, Integrity::Record& v) {
  v.l = in.read_long();
  v.d = in.read_double();
  v.s = in.read_short();
  v.o = in.read_octet();
  v.f = in.read_float();
  v.c = in.read_char();
  v.b = in.read_boolean();
}

void get(input_stream& in, Integrity::NARecord& v) {
  v.o = in.read_octet();
  v.d = in.read_double();
  v.c = in.read_char();
  v.ll = in.read_longlong();
  v.s = in.read_short();
}

template <class T>
void get_sequence(input_stream& in, std::vector<T>& v, std::size_t min_element_size, std::size_t bound = 0) {
  const std::uint32_t n = in.read_length(min_element_size);
  if (bound != 0 && n > bound) in.throw_marshal(switchyard::minor::length_over_limit, "sequence longer than its bound");
  v.resize(n);
  for (T& e : v) get(in, e);
}

void get(input_stream& in, Integrity::Nested& v) {
  in.read_string(v.name);
  get_sequence(in, v.values, 4);
  const std::uint32_t tint = in.read_ulong();
  if (tint > 2) in.throw_marshal(switchyard::minor::bad_enum, "enumerator out of range");
  v.tint = static_cast<Integrity::Color>(tint);
  const std::int32_t d = in.read_long();
  switch (d) {
    case 1:
      v.choice.l(in.read_long());
      break;
    case 2:
      v.choice.s(in.read_string());
      break;
    case 3:
      v.choice.d(in.read_double());
      break;
    default:
      v.choice.o(in.read_octet());
      v.choice._d(d);
      break;
  }
  for (auto& row : v.grid)
    for (std::int32_t& e : row) e = in.read_long();
  get_sequence(in, v.few, 21, 8);
}

// The sequence's minimal CDR element size, for read_length.
template <class T>
constexpr std::size_t min_size = sizeof(T);
template <>
constexpr std::size_t min_size<BinStruct> = 16;
template <>
constexpr std::size_t min_size<Integrity::Record> = 21;
template <>
constexpr std::size_t min_size<Integrity::NARecord> = 20;
template <>
constexpr std::size_t min_size<Integrity::Nested> = 4 + 4 + 4 + 8 + 48 + 4;

template <class Holder>
codec by_hand(const Holder& original) {
  using element = typename decltype(original.v)::value_type;
  struct state {
    output_stream out{1 << 18};
    Holder target;
  };
  auto s = std::make_shared<state>();
  auto write = [s](const Holder& h) {
    s->out.reset();
    if constexpr (requires { h.pad; }) s->out.write_long(h.pad);
    put_sequence(s->out, h.v);
    return s->out.bytes();
  };
  codec c;
  c.implementation = "hand";
  c.marshal = [write, &original] { return write(original); };
  c.demarshal = [s](std::span<const std::byte> bytes) {
    input_stream in(bytes, switchyard::cdr::native_byte_order);
    if constexpr (requires { s->target.pad; }) s->target.pad = in.read_long();
    get_sequence(in, s->target.v, min_size<element>);
  };
  c.remarshal = [write, s] { return write(s->target); };
  return c;
}

}  // namespace

void add_hand_codecs(std::vector<data_set>& sets, const element_counts& n) {
  const sy_data& d = shared_sy_data(n);
  data_set_named(sets, "octets", "", n.octets).codecs.push_back(by_hand(d.octets));
  data_set_named(sets, "longs", "", n.longs).codecs.push_back(by_hand(d.longs));
  data_set_named(sets, "doubles", "", n.doubles).codecs.push_back(by_hand(d.doubles));
  data_set_named(sets, "BinStruct", "", n.structs).codecs.push_back(by_hand(d.structs));
  data_set_named(sets, "BinStruct@8", "", n.structs).codecs.push_back(by_hand(d.structs8));
  data_set_named(sets, "Record", "", n.structs).codecs.push_back(by_hand(d.records));
  data_set_named(sets, "NARecord", "", n.structs).codecs.push_back(by_hand(d.narecords));
  data_set_named(sets, "Nested", "", n.nested).codecs.push_back(by_hand(d.nesteds));
}

}  // namespace marshal_bench
