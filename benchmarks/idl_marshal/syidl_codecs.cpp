// (a) syidl's generated code: cdr_write / cdr_read of the holder structs of marshal_bench.idl,
// which is the code syidl's stubs and skeletons run for arguments of those sequence types.
// Also builds the data sets in syidl's C++ types (sy_data.h).
#include "sy_data.h"

#include <memory>

namespace marshal_bench {

namespace {

Integrity::Record make_record(std::size_t i) {
  return {long_value(i),  double_value(i), short_value(i),  octet_value(i),
          float_value(i), char_value(i),   boolean_value(i)};
}

sy_data build(const element_counts& n) {
  sy_data d;
  for (std::size_t i = 0; i < n.octets; ++i) d.octets.v.push_back(octet_value(i));
  for (std::size_t i = 0; i < n.longs; ++i) d.longs.v.push_back(long_value(i));
  for (std::size_t i = 0; i < n.doubles; ++i) d.doubles.v.push_back(double_value(i));
  d.structs.v.resize(n.structs);
  for (std::size_t i = 0; i < n.structs; ++i)
    d.structs.v[i] = BinStruct{short_value(i), char_value(i), long_value(i), octet_value(i), double_value(i)};
  d.structs8.pad = 8;
  d.structs8.v = d.structs.v;
  for (std::size_t i = 0; i < n.structs; ++i) d.records.v.push_back(make_record(i));
  for (std::size_t i = 0; i < n.structs; ++i)
    d.narecords.v.push_back({octet_value(i), double_value(i), char_value(i), longlong_value(i), short_value(i)});
  for (std::size_t i = 0; i < n.nested; ++i) {
    Integrity::Nested e;
    e.name = name_value(i);
    for (std::size_t k = 0; k < values_count(i); ++k) e.values.push_back(long_value(i + k));
    e.tint = static_cast<Integrity::Color>(color_value(i));
    switch (choice_kind(i)) {
      case 0:
        e.choice.l(long_value(i));
        break;
      case 1:
        e.choice.s(name_value(i));
        break;
      case 2:
        e.choice.d(double_value(i));
        break;
      default:
        e.choice.o(octet_value(i));
        e.choice._d(default_discriminator);
        break;
    }
    for (std::size_t r = 0; r < 3; ++r)
      for (std::size_t c = 0; c < 4; ++c) e.grid[r][c] = long_value(i * 12 + r * 4 + c);
    for (std::size_t k = 0; k < few_count(i); ++k) e.few.push_back(make_record(i + k));
    d.nesteds.v.push_back(std::move(e));
  }
  for (std::size_t i = 0; i < n.anys; ++i) {
    switchyard::any a;
    switch (i % 3) {
      case 0:
        a <<= make_record(i);
        break;
      case 1:
        a <<= name_value(i);
        break;
      default:
        a <<= double_value(i);
        break;
    }
    d.anys.v.push_back(std::move(a));
  }
  return d;
}

// One generated pair, the stream and the target reused across calls as a stub or skeleton
// reuses its buffers.
template <class Holder>
codec generated(const Holder& original) {
  struct state {
    switchyard::cdr::output_stream out{1 << 18};
    Holder target;
  };
  auto s = std::make_shared<state>();
  codec c;
  c.implementation = "syidl";
  c.marshal = [s, &original] {
    s->out.reset();
    cdr_write(s->out, original);
    return s->out.bytes();
  };
  c.demarshal = [s](std::span<const std::byte> bytes) {
    switchyard::cdr::input_stream in(bytes, switchyard::cdr::native_byte_order);
    cdr_read(in, s->target);
  };
  c.remarshal = [s] {
    s->out.reset();
    cdr_write(s->out, s->target);
    return s->out.bytes();
  };
  return c;
}

}  // namespace

const sy_data& shared_sy_data(const element_counts& counts) {
  static const sy_data data = build(counts);
  return data;
}

data_set& data_set_named(std::vector<data_set>& sets, const std::string& name, const std::string& sequence,
                         std::size_t elements) {
  for (auto& set : sets)
    if (set.name == name) return set;
  sets.push_back({name, sequence, elements, {}});
  return sets.back();
}

void add_syidl_codecs(std::vector<data_set>& sets, const element_counts& n) {
  const sy_data& d = shared_sy_data(n);
  data_set_named(sets, "octets", "sequence<octet>", n.octets).codecs.push_back(generated(d.octets));
  data_set_named(sets, "longs", "sequence<long>", n.longs).codecs.push_back(generated(d.longs));
  data_set_named(sets, "doubles", "sequence<double>", n.doubles).codecs.push_back(generated(d.doubles));
  data_set_named(sets, "BinStruct", "sequence<BinStruct>, elements at 4 mod 8", n.structs)
      .codecs.push_back(generated(d.structs));
  data_set_named(sets, "BinStruct@8", "sequence<BinStruct>, elements 8-aligned", n.structs)
      .codecs.push_back(generated(d.structs8));
  data_set_named(sets, "Record", "sequence<Integrity::Record> (aligned)", n.structs)
      .codecs.push_back(generated(d.records));
  data_set_named(sets, "NARecord", "sequence<Integrity::NARecord> (non-aligned)", n.structs)
      .codecs.push_back(generated(d.narecords));
  data_set_named(sets, "Nested", "sequence<Integrity::Nested> (strings, union, array)", n.nested)
      .codecs.push_back(generated(d.nesteds));
  data_set_named(sets, "Any", "sequence<any> (Record, string, double)", n.anys).codecs.push_back(generated(d.anys));
}

}  // namespace marshal_bench
