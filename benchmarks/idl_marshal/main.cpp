// idl_marshal_bench: marshal and demarshal throughput of the papers' types (issue 4), comparing
// (a) syidl's generated code, (b) field-by-field code written by hand over the same CDR streams,
// and (c) omniORB's generated code over its cdrMemoryStream (when omniORB was found), in one run.
//
//   idl_marshal_bench [--out DIR] [--quick] [--repetitions N] [--check] [--only SETS]
//   idl_marshal_bench --calls N [--only SETS] [--operation marshal|demarshal] [--implementation NAME]
//
// Every data set is first checked: each implementation marshals the same bytes as syidl's, and
// demarshals syidl's bytes into values that marshal back to them (--check stops there). Then each
// (data set, operation) is timed with the implementations interleaved repetition by repetition,
// on the thread's CPU time (the machine is shared); the median over repetitions is reported, in
// MB/s (10^6 octets of CDR per second). Writes DIR/idl_marshal.csv and DIR/idl_marshal.md;
// progress goes to stderr. Run it pinned (docs/marshal.md):
//   taskset -c 0 build/benchmarks/idl_marshal/idl_marshal_bench --out results/idl_marshal
// --only keeps the named data sets (comma-separated: Record,NARecord,BinStruct). --calls N runs,
// after the check, each kept implementation's operation N times untimed and prints nothing else:
// for callgrind (count_marshal.sh counts the instructions per element).
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "codec.h"

namespace {

using namespace marshal_bench;

struct options {
  std::filesystem::path out_dir;
  bool quick = false;
  bool check_only = false;
  int repetitions = 0;            // 0: the mode's default
  std::vector<std::string> only;  // data sets to keep (empty: all)
  long calls = 0;                 // > 0: untimed calls for an instruction count
  std::string operation;          // with --calls: "marshal", "demarshal" or both (empty)
  std::string implementation;     // with --calls: "syidl", "hand", "omniORB" or all (empty)
};

constexpr const char* usage =
    "usage: idl_marshal_bench [--out DIR] [--quick] [--repetitions N] [--check] [--only SETS]\n"
    "       idl_marshal_bench --calls N [--only SETS] [--operation marshal|demarshal] [--implementation NAME]\n";

std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  for (;;) {
    const auto comma = list.find(',', start);
    parts.push_back(list.substr(start, comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

[[noreturn]] void usage_error(const std::string& why) {
  std::cerr << "idl_marshal_bench: " << why << "\n" << usage;
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--out") {
      if (i + 1 >= argc) usage_error("--out needs a directory");
      o.out_dir = argv[++i];
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--check") {
      o.check_only = true;
    } else if (arg == "--repetitions") {
      if (i + 1 >= argc) usage_error("--repetitions needs a number");
      char* end = nullptr;
      long n = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || n < 1 || n > 1000) usage_error("--repetitions wants 1 to 1000");
      o.repetitions = static_cast<int>(n);
    } else if (arg == "--only") {
      if (i + 1 >= argc) usage_error("--only needs data set names");
      o.only = split_commas(argv[++i]);
    } else if (arg == "--calls") {
      if (i + 1 >= argc) usage_error("--calls needs a number");
      char* end = nullptr;
      o.calls = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || o.calls < 1 || o.calls > 1000000) usage_error("--calls wants 1 to 1000000");
    } else if (arg == "--operation") {
      if (i + 1 >= argc) usage_error("--operation needs marshal or demarshal");
      o.operation = argv[++i];
      if (o.operation != "marshal" && o.operation != "demarshal") usage_error("--operation wants marshal or demarshal");
    } else if (arg == "--implementation") {
      if (i + 1 >= argc) usage_error("--implementation needs a name");
      o.implementation = argv[++i];
    } else if (arg == "--help" || arg == "-h") {
      std::cout << usage;
      std::exit(0);
    } else {
      usage_error("unknown argument '" + arg + "'");
    }
  }
  return o;
}

// A message copied into 8-aligned storage (omniORB's streams align by address).
struct aligned_message {
  std::vector<std::uint64_t> storage;
  std::size_t size = 0;
  explicit aligned_message(std::span<const std::byte> bytes) : storage((bytes.size() + 7) / 8), size(bytes.size()) {
    if (size != 0) std::memcpy(storage.data(), bytes.data(), size);
  }
  std::span<const std::byte> bytes() const { return {reinterpret_cast<const std::byte*>(storage.data()), size}; }
};

bool same(std::span<const std::byte> a, std::span<const std::byte> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

std::size_t first_difference(std::span<const std::byte> a, std::span<const std::byte> b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

// Checks a data set; returns the message size, or prints why and returns 0. Anys may differ in
// bytes between ORBs (TypeCode encodings may be equivalent without being equal, and omniORB
// leaves the padding octets inside TypeCode encapsulations as they were in memory): for them each
// implementation must read the other's bytes and marshal what it read back to its own size.
std::size_t check(data_set& set) {
  const codec& reference = set.codecs.front();
  const aligned_message message(reference.marshal());
  const bool exact = set.name != "Any";
  bool ok = true;
  for (codec& c : set.codecs) {
    const aligned_message own(c.marshal());
    if (exact && !same(own.bytes(), message.bytes())) {
      std::cerr << "idl_marshal_bench: " << set.name << ": " << c.implementation << " marshals " << own.size
                << " octets, " << reference.implementation << " " << message.size << "; first difference at octet "
                << first_difference(own.bytes(), message.bytes()) << "\n";
      ok = false;
      continue;
    }
    try {
      c.demarshal(exact ? message.bytes() : own.bytes());
      // (Padding inside omniORB's TypeCode encapsulations is not zeroed, hence sizes only for Anys.)
      const auto again = c.remarshal();
      if (exact ? !same(again, message.bytes()) : again.size() != own.size) {
        std::cerr << "idl_marshal_bench: " << set.name << ": " << c.implementation
                  << " does not demarshal what it marshals back unchanged (" << again.size()
                  << " octets, first difference at " << first_difference(again, exact ? message.bytes() : own.bytes())
                  << ")\n";
        ok = false;
      }
      if (!exact) {
        c.demarshal(message.bytes());  // reads the reference's encoding too
        for (codec& other : set.codecs) other.demarshal(own.bytes());
      }
    } catch (const std::exception& e) {
      std::cerr << "idl_marshal_bench: " << set.name << ": " << c.implementation << " failed: " << e.what() << "\n";
      ok = false;
    } catch (...) {  // omniORB's CORBA exceptions are not std::exceptions
      std::cerr << "idl_marshal_bench: " << set.name << ": " << c.implementation << " threw a non-standard exception\n";
      ok = false;
    }
  }
  return ok ? message.size : 0;
}

double thread_cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

struct timing {
  double median_ns = 0, min_ns = 0;
  std::uint64_t iterations = 0;
};

// Times `work` for each implementation: calibrated to `target_ns` a repetition, then the
// repetitions round-robin over the implementations so that a loaded machine slows them alike.
template <class Work>
std::vector<timing> measure(std::vector<Work>& work, int repetitions, double target_ns) {
  std::vector<timing> t(work.size());
  std::vector<std::vector<double>> samples(work.size());
  for (std::size_t k = 0; k < work.size(); ++k) {
    std::uint64_t n = 1;
    for (;;) {  // doubles until a run takes a quarter of the target (warms caches and buffers too)
      const double start = thread_cpu_ns();
      for (std::uint64_t i = 0; i < n; ++i) work[k]();
      const double elapsed = thread_cpu_ns() - start;
      if (elapsed >= target_ns / 4 || n >= (std::uint64_t{1} << 32)) {
        n = std::max<std::uint64_t>(
            1, static_cast<std::uint64_t>(static_cast<double>(n) * target_ns / std::max(elapsed, 1.0)));
        break;
      }
      n *= 2;
    }
    t[k].iterations = n;
  }
  for (int r = 0; r < repetitions; ++r) {
    for (std::size_t k = 0; k < work.size(); ++k) {
      const double start = thread_cpu_ns();
      for (std::uint64_t i = 0; i < t[k].iterations; ++i) work[k]();
      samples[k].push_back((thread_cpu_ns() - start) / static_cast<double>(t[k].iterations));
    }
  }
  for (std::size_t k = 0; k < work.size(); ++k) {
    std::sort(samples[k].begin(), samples[k].end());
    t[k].median_ns = samples[k][samples[k].size() / 2];
    t[k].min_ns = samples[k].front();
  }
  return t;
}

struct row {
  std::string data_set, sequence, operation, implementation;
  std::size_t elements = 0, message_bytes = 0;
  timing t;
  double mb_per_s() const { return static_cast<double>(message_bytes) * 1e3 / t.median_ns; }
};

std::string fixed(double v, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

void write_csv(const std::filesystem::path& path, const std::vector<row>& rows) {
  std::ofstream out(path);
  out << "data_set,elements,message_bytes,operation,implementation,median_ns,min_ns,iterations,mb_per_s,"
         "time_vs_syidl\n";
  for (const row& r : rows) {
    double syidl_ns = 0;
    for (const row& o : rows)
      if (o.data_set == r.data_set && o.operation == r.operation && o.implementation == "syidl")
        syidl_ns = o.t.median_ns;
    out << r.data_set << ',' << r.elements << ',' << r.message_bytes << ',' << r.operation << ',' << r.implementation
        << ',' << fixed(r.t.median_ns, 1) << ',' << fixed(r.t.min_ns, 1) << ',' << r.t.iterations << ','
        << fixed(r.mb_per_s(), 1) << ',' << (syidl_ns > 0 ? fixed(r.t.median_ns / syidl_ns, 3) : "") << '\n';
  }
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

std::string markdown(const std::vector<row>& rows, const std::vector<std::string>& implementations,
                     const std::string& settings) {
  std::ostringstream md;
  md << "# idl_marshal_bench\n\n"
     << settings << "\n\n"
     << "MB/s: 10^6 octets of CDR per second of thread CPU time, median over repetitions. "
        "x hand, x omniORB: how many times syidl's generated code is faster (their time / syidl's time).\n";
  for (const char* operation : {"marshal", "demarshal"}) {
    md << "\n## " << operation << "\n\n| data set | elements | octets |";
    for (const auto& impl : implementations) md << ' ' << impl << " MB/s |";
    for (const auto& impl : implementations)
      if (impl != "syidl") md << " x " << impl << " |";
    md << "\n|---|---:|---:|";
    for (std::size_t i = 0; i < implementations.size() * 2 - 1; ++i) md << "---:|";
    md << '\n';
    std::vector<std::string> order;
    for (const row& r : rows)
      if (r.operation == operation && std::find(order.begin(), order.end(), r.data_set) == order.end())
        order.push_back(r.data_set);
    for (const auto& name : order) {
      std::map<std::string, const row*> by_impl;
      for (const row& r : rows)
        if (r.operation == operation && r.data_set == name) by_impl[r.implementation] = &r;
      const row& any_row = *by_impl.begin()->second;
      md << "| " << name << " | " << any_row.elements << " | " << any_row.message_bytes << " |";
      for (const auto& impl : implementations)
        md << ' ' << (by_impl.count(impl) ? fixed(by_impl[impl]->mb_per_s(), 0) : "-") << " |";
      for (const auto& impl : implementations) {
        if (impl == "syidl") continue;
        if (by_impl.count(impl) && by_impl.count("syidl"))
          md << ' ' << fixed(by_impl[impl]->t.median_ns / by_impl["syidl"]->t.median_ns, 2) << " |";
        else md << " - |";
      }
      md << '\n';
    }
  }
  md << "\nData sets:\n\n";
  std::vector<std::string> seen;
  for (const row& r : rows) {
    if (std::find(seen.begin(), seen.end(), r.data_set) != seen.end()) continue;
    seen.push_back(r.data_set);
    md << "- " << r.data_set << ": " << r.sequence << '\n';
  }
  return md.str();
}

}  // namespace

int main(int argc, char** argv) {
  const options opts = parse(argc, argv);
  element_counts counts;
  std::vector<data_set> sets;
  int status = 0;
  try {
    add_syidl_codecs(sets, counts);
    add_hand_codecs(sets, counts);
#ifdef IDL_MARSHAL_HAVE_OMNIORB
    add_omni_codecs(sets, counts);
#endif
    if (!opts.only.empty()) {
      for (const std::string& name : opts.only)
        if (std::none_of(sets.begin(), sets.end(), [&](const data_set& s) { return s.name == name; }))
          usage_error("no data set named '" + name + "'");
      std::erase_if(sets, [&](const data_set& s) {
        return std::find(opts.only.begin(), opts.only.end(), s.name) == opts.only.end();
      });
    }
    std::vector<std::string> implementations;
    for (const auto& set : sets)
      for (const auto& c : set.codecs)
        if (std::find(implementations.begin(), implementations.end(), c.implementation) == implementations.end())
          implementations.push_back(c.implementation);

    std::vector<std::size_t> sizes;
    for (auto& set : sets) {
      const std::size_t size = check(set);
      if (size == 0) status = 1;
      sizes.push_back(size);
      std::cerr << "check " << set.name << ": " << (size ? "ok, " + std::to_string(size) + " octets" : "FAILED");
      for (codec& c : set.codecs)
        if (const std::size_t own = c.marshal().size(); size != 0 && own != size)
          std::cerr << " (" << c.implementation << ": " << own << " octets)";
      std::cerr << " (" << set.codecs.size() << " implementations)\n";
    }
    if (status != 0 || opts.check_only) {
      if (opts.check_only && status == 0) std::cout << "idl_marshal_bench: every implementation agrees\n";
      sets.clear();
#ifdef IDL_MARSHAL_HAVE_OMNIORB
      finish_omni();
#endif
      return status;
    }

    if (opts.calls > 0) {  // untimed, for callgrind: the same message as the timed run
      for (data_set& set : sets) {
        const aligned_message message(set.codecs.front().marshal());
        for (codec& c : set.codecs) {
          if (!opts.implementation.empty() && c.implementation != opts.implementation) continue;
          for (long i = 0; i < opts.calls; ++i) {
            if (opts.operation != "demarshal") c.marshal();
            if (opts.operation != "marshal") c.demarshal(message.bytes());
          }
        }
      }
      sets.clear();
#ifdef IDL_MARSHAL_HAVE_OMNIORB
      finish_omni();
#endif
      return status;
    }

    const int repetitions = opts.repetitions ? opts.repetitions : (opts.quick ? 3 : 15);
    const double target_ns = opts.quick ? 2e6 : 20e6;
    std::vector<row> rows;
    for (std::size_t s = 0; s < sets.size(); ++s) {
      data_set& set = sets[s];
      const aligned_message message(set.codecs.front().marshal());
      for (const char* operation : {"marshal", "demarshal"}) {
        std::cerr << set.name << ' ' << operation << "..." << std::flush;
        std::vector<std::function<void()>> work;
        for (codec& c : set.codecs) {
          if (std::strcmp(operation, "marshal") == 0) work.push_back([&c] { c.marshal(); });
          else work.push_back([&c, &message] { c.demarshal(message.bytes()); });
        }
        const auto t = measure(work, repetitions, target_ns);
        for (std::size_t k = 0; k < set.codecs.size(); ++k) {
          rows.push_back(
              {set.name, set.sequence, operation, set.codecs[k].implementation, set.elements, sizes[s], t[k]});
          std::cerr << ' ' << set.codecs[k].implementation << ' ' << fixed(rows.back().mb_per_s(), 0) << " MB/s";
        }
        std::cerr << '\n';
      }
    }

    const std::string settings = "Settings: " + std::to_string(repetitions) + " repetitions of about " +
                                 fixed(target_ns / 1e6, 0) + " ms each per implementation" +
                                 (opts.quick ? " (--quick)" : "") +
                                 "; messages start at alignment origin 0, native byte order.";
    const std::string md = markdown(rows, implementations, settings);
    if (!opts.out_dir.empty()) {
      std::filesystem::create_directories(opts.out_dir);
      write_csv(opts.out_dir / "idl_marshal.csv", rows);
      std::ofstream(opts.out_dir / "idl_marshal.md") << md;
      std::cerr << "wrote " << (opts.out_dir / "idl_marshal.csv").string() << " and idl_marshal.md\n";
    }
    std::cout << md;
  } catch (const std::exception& e) {
    std::cerr << "idl_marshal_bench: " << e.what() << "\n";
    status = 1;
  }
  sets.clear();
#ifdef IDL_MARSHAL_HAVE_OMNIORB
  finish_omni();
#endif
  return status;
}
