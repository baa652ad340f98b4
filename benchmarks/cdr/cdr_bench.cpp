// CDR micro-benchmark: our streams (switchyard::cdr) against ACE's ACE_OutputCDR / ACE_InputCDR on
// the same data, marshaling and demarshaling one message at a time with streams reused the way an
// ORB reuses them. Data sets: sequence<octet> of 1024, sequence<long> of 1024, and
// sequence<BinStruct> of 1024 (the papers' struct, idl/ttcp_sequence.idl, a copy of ../shared/idl/).
// Demarshaling is measured in both byte orders: "native" data, and "swapped" data written in the
// opposite order (the reader swaps). Marshaling is native only: both streams write native order
// (ours by design, receiver makes right; ACE unless built with ACE_ENABLE_SWAP_ON_WRITE).
//
//   cdr_bench [--out DIR] [--quick] [--repetitions N]
//
// Writes DIR/cdr_micro.csv and DIR/cdr_micro.md; progress goes to stderr. Run it pinned:
//   taskset -c 0 build/benchmarks/cdr/cdr_bench --out results/cdr

#include <ace/CDR_Stream.h>
#include <ace/Message_Block.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "measure.h"
#include "switchyard/cdr/byte_order.h"
#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"

namespace {

using namespace switchyard;
using bench::keep;

// The IDL struct BinStruct { short s; char c; long l; octet o; double d; }. Its CDR layout, when
// it starts 8-aligned, is s@0 c@2 l@4 o@8 d@16, size 24: the native x86-64 layout, checked here.
// That is what lets a run of them be one memcpy (see ours_structs_block for where the run starts).
struct BinStruct {
  std::int16_t s;
  char c;
  std::int32_t l;
  std::uint8_t o;
  double d;
};
static_assert(offsetof(BinStruct, s) == 0 && offsetof(BinStruct, c) == 2 && offsetof(BinStruct, l) == 4 &&
              offsetof(BinStruct, o) == 8 && offsetof(BinStruct, d) == 16 && sizeof(BinStruct) == 24 &&
              alignof(BinStruct) == 8);
static_assert(std::is_trivially_copyable_v<BinStruct>);
// The fewest octets a BinStruct takes in CDR (starting at 4 mod 8: s@4 c@6 l@8 o@12 d@16..24):
// the bound a sequence length is checked against before anything is sized by it.
constexpr std::size_t binstruct_min_cdr_size = 20;
constexpr std::size_t binstruct_cdr_size = 24;

bool operator==(const BinStruct& a, const BinStruct& b) {
  return a.s == b.s && a.c == b.c && a.l == b.l && a.o == b.o && a.d == b.d;
}

constexpr std::size_t element_count = 1024;

// ACE_InputCDR's flag for a data block it must not free (a named value: the enum alone makes the
// constructor call ambiguous).
constexpr ACE_Message_Block::Message_Flags ace_no_delete = ACE_Message_Block::DONT_DELETE;

struct data_sets {
  std::vector<std::uint8_t> octets;
  std::vector<std::int32_t> longs;
  std::vector<BinStruct> structs;
};

data_sets make_data() {
  data_sets d;
  d.octets.resize(element_count);
  d.longs.resize(element_count);
  d.structs.resize(element_count);
  // resize() need not zero the padding (libstdc++ copies a value-initialized element member by
  // member, and ASan's malloc fills fresh memory with garbage): zero it, so that the plain memcpy
  // path below sends the same bytes as the others. Real application data gives no such promise:
  // see ours_structs_masked.
  std::memset(static_cast<void*>(d.structs.data()), 0, d.structs.size() * sizeof(BinStruct));
  std::uint32_t x = 12345;
  auto next = [&x] { return x = x * 1664525u + 1013904223u; };  // any fixed sequence will do
  for (std::size_t i = 0; i < element_count; ++i) {
    d.octets[i] = static_cast<std::uint8_t>(next() >> 24);
    d.longs[i] = static_cast<std::int32_t>(next());
    BinStruct& b = d.structs[i];
    b.s = static_cast<std::int16_t>(next() >> 16);
    b.c = static_cast<char>('a' + i % 26);
    b.l = static_cast<std::int32_t>(next());
    b.o = static_cast<std::uint8_t>(i);
    b.d = static_cast<double>(next()) / 7.0;
  }
  return d;
}

// A message's bytes in an 8-aligned buffer (ACE_InputCDR aligns by absolute address).
struct message_bytes {
  std::vector<std::uint64_t> storage;
  std::size_t size = 0;
  void assign(std::span<const std::byte> bytes) {
    storage.assign((bytes.size() + 7) / 8, 0);
    std::memcpy(storage.data(), bytes.data(), bytes.size());
    size = bytes.size();
  }
  const std::byte* data() const { return reinterpret_cast<const std::byte*>(storage.data()); }
  std::span<const std::byte> bytes() const { return {data(), size}; }
};

// ---------------------------------------------------------------------------------------------
// Marshaling with our stream.

void ours_octets(cdr::output_stream& out, const data_sets& d) {
  out.write_ulong(static_cast<std::uint32_t>(d.octets.size()));
  out.write_octets(d.octets.data(), d.octets.size());
}

void ours_longs_array(cdr::output_stream& out, const data_sets& d) {
  out.write_sequence(d.longs.data(), d.longs.size());
}

void ours_longs_elements(cdr::output_stream& out, const data_sets& d) {
  out.write_ulong(static_cast<std::uint32_t>(d.longs.size()));
  for (std::int32_t v : d.longs) out.write_long(v);
}

inline void ours_write_binstruct(cdr::output_stream& out, const BinStruct& b) {
  out.write_short(b.s);
  out.write_char(b.c);
  out.write_long(b.l);
  out.write_octet(b.o);
  out.write_double(b.d);
}

void ours_structs_fields(cdr::output_stream& out, const data_sets& d) {
  out.write_ulong(static_cast<std::uint32_t>(d.structs.size()));
  for (const BinStruct& b : d.structs) ours_write_binstruct(out, b);
}

// What generated code can do for a sequence of a struct whose CDR layout is its native layout.
// A struct aligns to its first member (2 here), not to 8, so after the ulong count the first
// element usually starts at 4 mod 8 and is laid out differently (s@4 c@6 l@8 o@12 d@16). But every
// BinStruct ends 8-aligned (it ends with a double), so from the second element on the layout is the
// native one: the first element field by field when the position is not 8-aligned, then one block.
void ours_structs_block(cdr::output_stream& out, const data_sets& d) {
  out.write_ulong(static_cast<std::uint32_t>(d.structs.size()));
  std::span<const BinStruct> rest(d.structs);
  if (!rest.empty() && cdr::padding_for(out.aligned_position(), alignof(BinStruct)) != 0) {
    ours_write_binstruct(out, rest.front());
    rest = rest.subspan(1);
  }
  std::size_t n = rest.size() * binstruct_cdr_size;
  if (n != 0) std::memcpy(out.reserve_aligned(1, n), rest.data(), n);
}

// The same, but safe for any application data: instead of memcpy, each element is copied as
// three 8-octet words with its padding octets (3 and 9..15) masked to zero, so no uninitialized
// memory from the application's structs reaches the wire. What generated code should emit.
void ours_structs_masked(cdr::output_stream& out, const data_sets& d) {
  out.write_ulong(static_cast<std::uint32_t>(d.structs.size()));
  std::span<const BinStruct> rest(d.structs);
  if (!rest.empty() && cdr::padding_for(out.aligned_position(), alignof(BinStruct)) != 0) {
    ours_write_binstruct(out, rest.front());
    rest = rest.subspan(1);
  }
  if (rest.empty()) return;
  static_assert(cdr::native_byte_order == cdr::byte_order::little_endian,
                "the masks below name octets of a little-endian word");
  constexpr std::uint64_t word0_mask = 0xffffffff00ffffffull;  // s s c [pad] l l l l
  constexpr std::uint64_t word1_mask = 0x00000000000000ffull;  // o [pad x7]
  std::byte* p = out.reserve_aligned(1, rest.size() * binstruct_cdr_size);
  const auto* src = reinterpret_cast<const std::byte*>(rest.data());
  for (std::size_t i = 0; i < rest.size(); ++i, p += binstruct_cdr_size, src += binstruct_cdr_size) {
    cdr::store(p + 0, cdr::load<std::uint64_t>(src + 0, false) & word0_mask);
    cdr::store(p + 8, cdr::load<std::uint64_t>(src + 8, false) & word1_mask);
    cdr::store(p + 16, cdr::load<std::uint64_t>(src + 16, false));
  }
}

// Writes a message in the opposite byte order, to give the readers swapped data.
template <typename T>
void put_swapped(cdr::output_stream& out, T v) {
  cdr::store(out.reserve_aligned(sizeof(T), sizeof(T)), cdr::byte_swap(v));
}

void swapped_octets(cdr::output_stream& out, const data_sets& d) {
  put_swapped(out, static_cast<std::uint32_t>(d.octets.size()));
  out.write_octets(d.octets.data(), d.octets.size());
}

void swapped_longs(cdr::output_stream& out, const data_sets& d) {
  put_swapped(out, static_cast<std::uint32_t>(d.longs.size()));
  for (std::int32_t v : d.longs) put_swapped(out, v);
}

void swapped_structs(cdr::output_stream& out, const data_sets& d) {
  put_swapped(out, static_cast<std::uint32_t>(d.structs.size()));
  for (const BinStruct& b : d.structs) {
    put_swapped(out, b.s);
    put_swapped(out, b.c);
    put_swapped(out, b.l);
    put_swapped(out, b.o);
    put_swapped(out, b.d);
  }
}

// ---------------------------------------------------------------------------------------------
// Demarshaling with our stream. Targets are reused containers (resize to the same size does not
// allocate), as a skeleton reusing its argument storage would.

struct targets {
  std::vector<std::uint8_t> octets;
  std::vector<std::int32_t> longs;
  std::vector<BinStruct> structs;
};

void ours_read_octets(cdr::input_stream& in, targets& t) {
  std::uint32_t n = in.read_length(1);
  t.octets.resize(n);
  in.read_octets(t.octets.data(), n);
}

void ours_read_longs_array(cdr::input_stream& in, targets& t) { in.read_sequence(t.longs); }

void ours_read_longs_elements(cdr::input_stream& in, targets& t) {
  std::uint32_t n = in.read_length(4);
  t.longs.resize(n);
  for (std::int32_t& v : t.longs) v = in.read_long();
}

inline void ours_read_binstruct(cdr::input_stream& in, BinStruct& b) {
  b.s = in.read_short();
  b.c = in.read_char();
  b.l = in.read_long();
  b.o = in.read_octet();
  b.d = in.read_double();
}

void ours_read_structs_fields(cdr::input_stream& in, targets& t) {
  std::uint32_t n = in.read_length(binstruct_min_cdr_size);
  t.structs.resize(n);
  for (BinStruct& b : t.structs) ours_read_binstruct(in, b);
}

// The reading side of ours_structs_block: the first element field by field when it does not start
// 8-aligned, then one bounds check for the rest and one memcpy (native) or one loop swapping each
// field at its fixed offset (swapped).
void ours_read_structs_block(cdr::input_stream& in, targets& t) {
  std::uint32_t n = in.read_length(binstruct_min_cdr_size);
  t.structs.resize(n);
  BinStruct* out = t.structs.data();
  if (n != 0 && cdr::padding_for(in.aligned_position(), alignof(BinStruct)) != 0) {
    ours_read_binstruct(in, *out++);
    --n;
  }
  // n is at most max_length (64 Mi), so n * 24 cannot overflow.
  const std::byte* p = in.take(std::size_t{n} * binstruct_cdr_size);
  if (!in.swapping()) {
    if (n != 0) std::memcpy(out, p, std::size_t{n} * binstruct_cdr_size);
    return;
  }
  for (std::uint32_t i = 0; i < n; ++i, p += binstruct_cdr_size) {
    out[i].s = cdr::load<std::int16_t>(p + 0, true);
    out[i].c = static_cast<char>(p[2]);
    out[i].l = cdr::load<std::int32_t>(p + 4, true);
    out[i].o = static_cast<std::uint8_t>(p[8]);
    out[i].d = cdr::load<double>(p + 16, true);
  }
}

// ---------------------------------------------------------------------------------------------
// ACE, written the way TAO's generated code and sequence helpers use it.

bool ace_octets(ACE_OutputCDR& out, const data_sets& d) {
  return (out << static_cast<ACE_CDR::ULong>(d.octets.size())) &&
         out.write_octet_array(d.octets.data(), static_cast<ACE_CDR::ULong>(d.octets.size()));
}

bool ace_longs_array(ACE_OutputCDR& out, const data_sets& d) {
  return (out << static_cast<ACE_CDR::ULong>(d.longs.size())) &&
         out.write_long_array(d.longs.data(), static_cast<ACE_CDR::ULong>(d.longs.size()));
}

bool ace_longs_elements(ACE_OutputCDR& out, const data_sets& d) {
  if (!(out << static_cast<ACE_CDR::ULong>(d.longs.size()))) return false;
  for (ACE_CDR::Long v : d.longs)
    if (!(out << v)) return false;
  return true;
}

bool ace_structs_fields(ACE_OutputCDR& out, const data_sets& d) {
  if (!(out << static_cast<ACE_CDR::ULong>(d.structs.size()))) return false;
  for (const BinStruct& b : d.structs) {
    if (!((out << b.s) && (out << ACE_OutputCDR::from_char(b.c)) && (out << b.l) &&
          (out << ACE_OutputCDR::from_octet(b.o)) && (out << b.d)))
      return false;
  }
  return true;
}

bool ace_read_length(ACE_InputCDR& in, ACE_CDR::ULong& n, std::size_t min_element_size) {
  return (in >> n) && n <= in.length() / min_element_size;
}

bool ace_read_octets(ACE_InputCDR& in, targets& t) {
  ACE_CDR::ULong n;
  if (!ace_read_length(in, n, 1)) return false;
  t.octets.resize(n);
  return in.read_octet_array(t.octets.data(), n);
}

bool ace_read_longs_array(ACE_InputCDR& in, targets& t) {
  ACE_CDR::ULong n;
  if (!ace_read_length(in, n, 4)) return false;
  t.longs.resize(n);
  return in.read_long_array(t.longs.data(), n);
}

bool ace_read_longs_elements(ACE_InputCDR& in, targets& t) {
  ACE_CDR::ULong n;
  if (!ace_read_length(in, n, 4)) return false;
  t.longs.resize(n);
  for (ACE_CDR::Long& v : t.longs)
    if (!(in >> v)) return false;
  return true;
}

bool ace_read_structs_fields(ACE_InputCDR& in, targets& t) {
  ACE_CDR::ULong n;
  if (!ace_read_length(in, n, binstruct_min_cdr_size)) return false;
  t.structs.resize(n);
  for (BinStruct& b : t.structs) {
    if (!((in >> b.s) && (in >> ACE_InputCDR::to_char(b.c)) && (in >> b.l) && (in >> ACE_InputCDR::to_octet(b.o)) &&
          (in >> b.d)))
      return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The cases and their report.

struct row {
  std::string data_set;        // "octets", "longs", "BinStruct"
  std::string method;          // compared within: "sequence", "array", "per element"
  std::string operation;       // "marshal" or "demarshal"
  std::string order;           // "native" or "swapped"
  std::string implementation;  // "ours ...", "ACE ..."
  bool reference = false;      // the ACE row the others in its group are divided by
  std::size_t message_size = 0;
  bench::measurement m;
  double ratio = 0;  // ns / reference ns; 0 when there is no reference
};

[[noreturn]] void fail(const std::string& why) {
  std::cerr << "cdr_bench: " << why << '\n';
  std::exit(1);
}

struct options {
  std::filesystem::path out_dir;
  bool quick = false;
  int repetitions = 0;  // 0: the default for the mode
};

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      o.out_dir = argv[++i];
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--repetitions" && i + 1 < argc) {
      o.repetitions = std::atoi(argv[++i]);
      if (o.repetitions < 1) fail("--repetitions wants a positive number");
    } else if (arg == "--help" || arg == "-h") {
      std::cout << "usage: cdr_bench [--out DIR] [--quick] [--repetitions N]\n";
      std::exit(0);
    } else {
      fail("unknown argument '" + arg + "' (try --help)");
    }
  }
  return o;
}

std::string format(const char* fmt, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, fmt, v);
  return buffer;
}

// A CSV field, quoted when it holds a comma or a quote (RFC 4180).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void write_reports(const std::vector<row>& rows, const std::vector<std::string>& notes,
                   const std::filesystem::path& dir, const bench::measure_settings& settings) {
  std::filesystem::create_directories(dir);
  std::ofstream csv(dir / "cdr_micro.csv");
  csv << "data_set,method,operation,byte_order,implementation,message_bytes,ns_per_message,"
         "min_ns_per_message,mb_per_s,allocations_per_message,ratio_to_ace,iterations,repetitions\n";
  for (const row& r : rows) {
    csv << r.data_set << ',' << r.method << ',' << r.operation << ',' << r.order << ',' << csv_field(r.implementation)
        << ',' << r.message_size << ',' << format("%.1f", r.m.ns_per_message) << ','
        << format("%.1f", r.m.min_ns_per_message) << ',' << format("%.0f", r.message_size * 1e3 / r.m.ns_per_message)
        << ',' << format("%.3f", r.m.allocations_per_message) << ','
        << (r.ratio > 0 ? format("%.3f", r.ratio) : std::string()) << ',' << r.m.iterations << ','
        << settings.repetitions << '\n';
  }
  std::ofstream md(dir / "cdr_micro.md");
  md << "# CDR micro-benchmark: switchyard::cdr against ACE_OutputCDR / ACE_InputCDR\n\n"
     << "Median of " << settings.repetitions << " repetitions of about " << settings.target_ns_per_repetition / 1e6
     << " ms of thread CPU time each, ours and ACE interleaved; 1024 elements per message. `÷ ACE` is the time divided "
        "by the ACE row of the "
        "same group (below 1: faster than ACE).\n\n"
     << "| data set | method | operation | order | implementation | bytes | ns/msg | MB/s | allocs/msg | ÷ ACE |\n"
     << "|---|---|---|---|---|---:|---:|---:|---:|---:|\n";
  for (const row& r : rows) {
    md << "| " << r.data_set << " | " << r.method << " | " << r.operation << " | " << r.order << " | "
       << r.implementation << " | " << r.message_size << " | " << format("%.0f", r.m.ns_per_message) << " | "
       << format("%.0f", r.message_size * 1e3 / r.m.ns_per_message) << " | "
       << format("%.2f", r.m.allocations_per_message) << " | "
       << (r.reference   ? std::string("1")
           : r.ratio > 0 ? format("%.2f", r.ratio)
                         : std::string("-"))
       << " |\n";
  }
  md << '\n';
  for (const std::string& note : notes) md << "- " << note << '\n';
  for (const std::string& note : notes) std::cerr << note << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  options opts = parse(argc, argv);
  bench::measure_settings settings;
  if (opts.quick) {
    settings.repetitions = 5;
    settings.target_ns_per_repetition = 8e6;
  }
  if (opts.repetitions != 0) settings.repetitions = opts.repetitions;

  const data_sets data = make_data();
  targets t;
  t.octets.resize(element_count);
  t.longs.resize(element_count);
  t.structs.resize(element_count);

  // Streams reused across messages, as a connection reuses them. Ours grows once and keeps its
  // buffer; ACE's is given a buffer large enough for every message here ("presized"), and a second
  // ACE stream keeps ACE's default 512-octet initial buffer, which reset() does not keep grown.
  cdr::output_stream ours_out;
  ACE_OutputCDR ace_out(64 * 1024);
  ACE_OutputCDR ace_out_default;

  // Every case is registered first and measured afterwards, interleaved with the other cases of
  // its group (same data set, method, operation and byte order), so ours and ACE share the
  // machine's conditions. What the runners refer to lives until then.
  std::vector<row> rows;
  std::vector<bench::runner> runners;
  auto run = [&](const char* data_set, const char* method, const char* operation, const char* order,
                 const char* implementation, bool reference, std::size_t message_size, auto one_message) {
    row r;
    r.data_set = data_set;
    r.method = method;
    r.operation = operation;
    r.order = order;
    r.implementation = implementation;
    r.reference = reference;
    r.message_size = message_size;
    rows.push_back(std::move(r));
    runners.push_back(bench::looping(std::move(one_message)));
  };
  std::deque<message_bytes> messages;
  std::deque<std::unique_ptr<ACE_Data_Block>> ace_blocks;

  // --- Marshal: the message bytes from ours and from ACE must be identical.
  struct marshal_case {
    const char* data_set;
    const char* method;
    void (*ours)(cdr::output_stream&, const data_sets&);
    const char* ours_name;
    bool (*ace)(ACE_OutputCDR&, const data_sets&);
    bool ace_default_too;
  };
  const marshal_case marshal_cases[] = {
      {"octets", "sequence", ours_octets, "ours", ace_octets, true},
      {"longs", "array", ours_longs_array, "ours", ace_longs_array, true},
      {"longs", "per element", ours_longs_elements, "ours", ace_longs_elements, false},
      {"BinStruct", "sequence", ours_structs_fields, "ours, field by field", ace_structs_fields, true},
      {"BinStruct", "sequence", ours_structs_block, "ours, one block", nullptr, false},
      {"BinStruct", "sequence", ours_structs_masked, "ours, one block, padding masked", nullptr, false},
  };
  std::map<std::string, std::vector<std::byte>> expected;  // the first bytes seen per data set
  auto check_bytes = [&](const char* data_set, std::span<const std::byte> bytes, const char* who) {
    auto [it, first] = expected.try_emplace(data_set, bytes.begin(), bytes.end());
    if (!first && !std::equal(bytes.begin(), bytes.end(), it->second.begin(), it->second.end()))
      fail(std::string(who) + " marshals " + data_set + " differently");
  };
  for (const marshal_case& c : marshal_cases) {
    ours_out.reset();
    c.ours(ours_out, data);
    check_bytes(c.data_set, ours_out.bytes(), c.ours_name);
    if (c.ace) {
      // ACE leaves padding octets as it finds them (ours writes zeros): clear the buffer so the
      // bytes compare equal.
      ace_out.reset();
      std::memset(ace_out.begin()->base(), 0, ace_out.begin()->size());
      if (!c.ace(ace_out, data)) fail(std::string("ACE failed to marshal ") + c.data_set);
      if (ace_out.begin()->cont() != nullptr) fail("the presized ACE stream grew");
      check_bytes(c.data_set, {reinterpret_cast<const std::byte*>(ace_out.begin()->rd_ptr()), ace_out.total_length()},
                  "ACE");
      run(c.data_set, c.method, "marshal", "native", "ACE", true, ours_out.size(), [&ace_out, &c, &data] {
        ace_out.reset();
        bool ok = c.ace(ace_out, data);
        keep(ok);
        keep(ace_out.begin());
      });
      if (c.ace_default_too) {
        run(c.data_set, c.method, "marshal", "native", "ACE, default 512 B buffer", false, ours_out.size(),
            [&ace_out_default, &c, &data] {
              ace_out_default.reset();
              bool ok = c.ace(ace_out_default, data);
              keep(ok);
              keep(ace_out_default.begin());
            });
      }
    }
    run(c.data_set, c.method, "marshal", "native", c.ours_name, false, ours_out.size(), [&ours_out, &c, &data] {
      ours_out.reset();
      c.ours(ours_out, data);
      keep(ours_out.data());
    });
  }

  {
    // The masked path must send zeros whatever the application left in the padding.
    data_sets dirty = data;
    for (BinStruct& b : dirty.structs) {
      auto* bytes = reinterpret_cast<unsigned char*>(&b);
      bytes[3] = 0xaa;
      std::memset(bytes + 9, 0xaa, 7);
    }
    cdr::output_stream out;
    ours_structs_masked(out, dirty);
    check_bytes("BinStruct", out.bytes(), "ours, one block, padding masked (dirty padding)");
  }

  // --- Demarshal: every reader must give back the original data, in both byte orders.
  struct demarshal_case {
    const char* data_set;
    const char* method;
    void (*ours)(cdr::input_stream&, targets&);
    const char* ours_name;
    bool (*ace)(ACE_InputCDR&, targets&);
    void (*write_native)(cdr::output_stream&, const data_sets&);
    void (*write_swapped)(cdr::output_stream&, const data_sets&);
  };
  const demarshal_case demarshal_cases[] = {
      {"octets", "sequence", ours_read_octets, "ours", ace_read_octets, ours_octets, swapped_octets},
      {"longs", "array", ours_read_longs_array, "ours", ace_read_longs_array, ours_longs_array, swapped_longs},
      {"longs", "per element", ours_read_longs_elements, "ours", ace_read_longs_elements, ours_longs_array,
       swapped_longs},
      {"BinStruct", "sequence", ours_read_structs_fields, "ours, field by field", ace_read_structs_fields,
       ours_structs_fields, swapped_structs},
      {"BinStruct", "sequence", ours_read_structs_block, "ours, one block", nullptr, ours_structs_fields,
       swapped_structs},
  };
  auto check_targets = [&](const char* data_set, const char* who) {
    bool same = std::string(data_set) == "octets"  ? t.octets == data.octets
                : std::string(data_set) == "longs" ? t.longs == data.longs
                                                   : t.structs == data.structs;
    if (!same) fail(std::string(who) + " demarshaled " + data_set + " wrongly");
    t.octets.assign(element_count, 0);
    t.longs.assign(element_count, 0);
    t.structs.assign(element_count, BinStruct{});
  };
  for (const demarshal_case& c : demarshal_cases) {
    for (bool swapped : {false, true}) {
      cdr::output_stream writer;
      (swapped ? c.write_swapped : c.write_native)(writer, data);
      const message_bytes& message = messages.emplace_back();
      messages.back().assign(writer.bytes());
      const cdr::byte_order order = swapped ? cdr::opposite(cdr::native_byte_order) : cdr::native_byte_order;
      const char* order_name = swapped ? "swapped" : "native";

      if (c.ace) {
        // One data block over the message for the whole run, as a transport's receive buffer;
        // an ACE_InputCDR is made over it per message (no allocation: the message block is a
        // member of the stream and the data block is not reference-counted with DONT_DELETE).
        ACE_Data_Block* block =
            ace_blocks
                .emplace_back(std::make_unique<ACE_Data_Block>(message.size, ACE_Message_Block::MB_DATA,
                                                               reinterpret_cast<const char*>(message.data()), nullptr,
                                                               nullptr, ACE_Message_Block::DONT_DELETE, nullptr))
                .get();
        const int ace_order = static_cast<int>(order);
        {
          ACE_InputCDR in(block, ace_no_delete, std::size_t{0}, message.size, ace_order);
          if (!c.ace(in, t) || in.length() != 0) fail(std::string("ACE failed to demarshal ") + c.data_set);
          check_targets(c.data_set, "ACE");
        }
        run(c.data_set, c.method, "demarshal", order_name, "ACE", true, message.size,
            [&t, &c, &message, block, ace_order] {
              ACE_InputCDR in(block, ace_no_delete, std::size_t{0}, message.size, ace_order);
              bool ok = c.ace(in, t);
              keep(ok);
              keep(t);
            });
      }
      {
        cdr::input_stream in(message.bytes(), order);
        c.ours(in, t);
        if (!in.at_end()) fail(std::string("ours left octets after ") + c.data_set);
        check_targets(c.data_set, c.ours_name);
      }
      run(c.data_set, c.method, "demarshal", order_name, c.ours_name, false, message.size, [&t, &c, &message, order] {
        cdr::input_stream in(message.bytes(), order);
        c.ours(in, t);
        keep(t);
      });
    }
  }

  // Measure, group by group.
  for (std::size_t first = 0; first < rows.size(); ++first) {
    if (rows[first].m.iterations != 0) continue;  // measured with an earlier group
    std::vector<std::size_t> members;
    std::vector<bench::runner> group;
    for (std::size_t k = first; k < rows.size(); ++k) {
      const row& a = rows[first];
      const row& b = rows[k];
      if (a.data_set == b.data_set && a.method == b.method && a.operation == b.operation && a.order == b.order) {
        members.push_back(k);
        group.push_back(runners[k]);
      }
    }
    const row& g = rows[first];
    std::cerr << g.operation << ' ' << g.data_set << " (" << g.method << ", " << g.order << "):";
    std::vector<bench::measurement> results = bench::measure_interleaved(settings, group);
    for (std::size_t i = 0; i < members.size(); ++i) {
      row& r = rows[members[i]];
      r.m = results[i];
      std::cerr << "  " << r.implementation << ' ' << format("%.0f", r.m.ns_per_message) << " ns, "
                << format("%.2f", r.m.allocations_per_message) << " allocs;";
    }
    std::cerr << '\n';
  }

  // Report order: marshal then demarshal; within each, by data set, method, byte order.
  auto rank = [](const row& r) {
    int op = r.operation == "marshal" ? 0 : 1;
    int set = r.data_set == "octets" ? 0 : r.data_set == "longs" ? 1 : 2;
    int method = r.method == "per element" ? 1 : 0;
    int order = r.order == "native" ? 0 : 1;
    return ((op * 3 + set) * 2 + method) * 2 + order;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const row& a, const row& b) { return rank(a) < rank(b); });

  // Each row divided by the ACE row of its group.
  for (row& r : rows) {
    for (const row& ref : rows)
      if (ref.reference && ref.data_set == r.data_set && ref.method == r.method && ref.operation == r.operation &&
          ref.order == r.order)
        r.ratio = r.m.ns_per_message / ref.m.ns_per_message;
  }

  // The other ways to make ACE streams, for the notes: what each construction allocates.
  std::vector<std::string> notes;
  auto count_allocations = [](auto&& make) {
    std::uint64_t before = bench::allocation_count();
    make();
    return bench::allocation_count() - before;
  };
  const message_bytes& first_message = messages.front();
  notes.push_back("ACE_InputCDR(const char*, size) over a received buffer: " + std::to_string(count_allocations([&] {
                    ACE_InputCDR in(reinterpret_cast<const char*>(first_message.data()), first_message.size);
                    keep(in.length());
                  })) +
                  " heap allocation(s) per message (its message block allocates a data block); the "
                  "benchmark instead builds ACE_InputCDR over one long-lived ACE_Data_Block, which allocates "
                  "nothing.");
  notes.push_back(
      "ACE_OutputCDR() (default 512-octet buffer), constructed per message: " + std::to_string(count_allocations([&] {
        ACE_OutputCDR out;
        keep(out.begin());
      })) +
      " heap allocation(s); cdr::output_stream(4096): " + std::to_string(count_allocations([&] {
        cdr::output_stream out(4096);
        keep(out.data());
      })) +
      ". Both are meant to be kept per connection and reset().");

  if (!opts.out_dir.empty()) {
    write_reports(rows, notes, opts.out_dir, settings);
    std::cerr << "wrote " << (opts.out_dir / "cdr_micro.csv").string() << " and "
              << (opts.out_dir / "cdr_micro.md").string() << '\n';
  } else {
    write_reports(rows, notes, std::filesystem::temp_directory_path() / "cdr_bench", settings);
    std::cerr << "no --out given: wrote " << (std::filesystem::temp_directory_path() / "cdr_bench").string()
              << "/cdr_micro.md\n";
  }
  return 0;
}
