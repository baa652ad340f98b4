// The marshal benchmark's parts: a codec is one implementation (syidl's generated code, code
// written by hand, omniORB's generated code) of one data set; each file of codecs builds the
// same data from the value functions below, so every implementation marshals the same values.
// No generated header is included here: omniORB's and syidl's types share their IDL names and
// live in translation units of their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace marshal_bench {

struct codec {
  std::string implementation;  // "syidl", "hand", "omniORB"
  // Marshals the data set into a stream reused across calls; the bytes stay valid until the
  // next call of marshal or remarshal.
  std::function<std::span<const std::byte>()> marshal;
  // Demarshals a message (8-aligned, native byte order) into storage reused across calls.
  std::function<void(std::span<const std::byte>)> demarshal;
  // Marshals what the last demarshal produced (checks that nothing was lost).
  std::function<std::span<const std::byte>()> remarshal;
};

struct data_set {
  std::string name;      // "BinStruct", ...
  std::string sequence;  // the IDL type: "sequence<BinStruct> (ttcp_sequence::StructSeq)"
  std::size_t elements = 0;
  std::vector<codec> codecs;
};

// Finds the data set of that name, or appends it.
data_set& data_set_named(std::vector<data_set>& sets, const std::string& name, const std::string& sequence,
                         std::size_t elements);

// Element counts: about 64 KiB of CDR for sequences of primitives and fixed structs.
struct element_counts {
  std::size_t octets = 65536, longs = 16384, doubles = 8192, structs = 2048, nested = 256, anys = 256;
};

// The values, element i of each data set.
inline std::uint8_t octet_value(std::size_t i) { return static_cast<std::uint8_t>(i * 131 + 7); }
inline std::int16_t short_value(std::size_t i) { return static_cast<std::int16_t>(i * 40503u); }
inline std::int32_t long_value(std::size_t i) { return static_cast<std::int32_t>(i * 2654435761u); }
inline std::int64_t longlong_value(std::size_t i) { return static_cast<std::int64_t>(i) * 1000000007LL - 42; }
inline float float_value(std::size_t i) { return static_cast<float>(i) * 0.5f; }
inline double double_value(std::size_t i) { return static_cast<double>(i) * 0.375 - 1000.0; }
inline char char_value(std::size_t i) { return static_cast<char>('a' + i % 26); }
inline bool boolean_value(std::size_t i) { return i % 3 == 0; }
// Nested: name, values (4..12 longs), tint (0..2), choice (long, string, double or the default
// octet branch with discriminator 7), grid, few (0..3 Records).
inline std::string name_value(std::size_t i) {
  return "nested element " + std::to_string(i) + std::string(i % 23, '.');
}
inline std::size_t values_count(std::size_t i) { return 4 + i % 9; }
inline std::uint32_t color_value(std::size_t i) { return static_cast<std::uint32_t>(i % 3); }
inline int choice_kind(std::size_t i) { return static_cast<int>(i % 4); }  // 0 l, 1 s, 2 d, 3 o
inline constexpr std::int32_t default_discriminator = 7;
inline std::size_t few_count(std::size_t i) { return i % 4; }
// Anys: i % 3 == 0 a Record, 1 a string (name_value), 2 a double.

// Each file of codecs adds its own (omni_codecs.cpp only when omniORB was found).
void add_syidl_codecs(std::vector<data_set>& sets, const element_counts& counts);
void add_hand_codecs(std::vector<data_set>& sets, const element_counts& counts);
void add_omni_codecs(std::vector<data_set>& sets, const element_counts& counts);
void finish_omni();  // releases what add_omni_codecs set up (the ORB)

}  // namespace marshal_bench
