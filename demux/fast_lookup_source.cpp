#include "demux/fast_lookup_source.h"

#include <cstdio>
#include <sstream>
#include <vector>

#include "demux/fast_perfect_hash.h"

namespace switchyard::demux {

namespace {

std::string hex64(std::uint64_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016llxull", static_cast<unsigned long long>(v));
  return text;
}

// The hash as fast_key_hash computes it, with its constants; the helpers as key_hash.h has them.
// A change there must be made here too: tests/demux builds lookups with this text and checks
// every key is found at its position.
void write_hash(std::ostringstream& out, const fast_key_hash& hash) {
  out << "  static std::uint64_t load64(const char* p) noexcept {\n"
         "    std::uint64_t v;\n"
         "    std::memcpy(&v, p, 8);\n"
         "    return v;\n"
         "  }\n"
         "  static std::uint64_t load32(const char* p) noexcept {\n"
         "    std::uint32_t v;\n"
         "    std::memcpy(&v, p, 4);\n"
         "    return v;\n"
         "  }\n"
         "  // key_hash.h's same_key: overlapping 8-byte loads up to 32 bytes, no call.\n"
         "  static bool same(const char* a, const char* b, std::size_t n) noexcept {\n"
         "    if (n >= 8) {\n"
         "      if (n > 16) {\n"
         "        if (n > 32) return std::memcmp(a, b, n) == 0;\n"
         "        return load64(a) == load64(b) && load64(a + 8) == load64(b + 8) &&\n"
         "               load64(a + n - 16) == load64(b + n - 16) && load64(a + n - 8) == load64(b + n - 8);\n"
         "      }\n"
         "      return load64(a) == load64(b) && load64(a + n - 8) == load64(b + n - 8);\n"
         "    }\n"
         "    if (n >= 4) return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);\n"
         "    for (std::size_t i = 0; i < n; ++i)\n"
         "      if (a[i] != b[i]) return false;\n"
         "    return true;\n"
         "  }\n"
         "  __extension__ typedef unsigned __int128 wide;  // gcc and clang: no -Wpedantic warning\n"
         "  static std::uint64_t mum(std::uint64_t a, std::uint64_t b) noexcept {\n"
         "    const wide r = static_cast<wide>(a) * b;\n"
         "    return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);\n"
         "  }\n";
  out << "  // The key zero-padded to 8 bytes, for keys under 8 (key_hash.h's load_short).\n"
         "  static std::uint64_t load_short(const char* p, std::size_t n) noexcept {\n"
         "    if (n >= 4) return load32(p) | (load32(p + n - 4) << (8 * (n - 4)));\n"
         "    if (n == 0) return 0;\n"
         "    const auto* u = reinterpret_cast<const unsigned char*>(p);\n"
         "    return std::uint64_t{u[0]} | (std::uint64_t{u[n >> 1]} << (8 * (n >> 1))) |\n"
         "           (std::uint64_t{u[n - 1]} << (8 * (n - 1)));\n"
         "  }\n";
  if (hash.whole_key) {
    // key_hash.h's hash_bytes: the windows could not tell these keys apart.
    out << "  static std::uint64_t hash(const char* p, std::size_t n) noexcept {\n"
           "    constexpr std::uint64_t k1 = 0xe7037ed1a0b428dbull;\n"
           "    std::uint64_t seed = "
        << hex64(hash.seed)
        << ";\n"
           "    std::uint64_t a, b;\n"
           "    if (n <= 16) {\n"
           "      if (n >= 4) {\n"
           "        const std::size_t step = (n >> 3) << 2;\n"
           "        a = (load32(p) << 32) | load32(p + step);\n"
           "        b = (load32(p + n - 4) << 32) | load32(p + n - 4 - step);\n"
           "      } else if (n > 0) {\n"
           "        const auto* u = reinterpret_cast<const unsigned char*>(p);\n"
           "        a = (std::uint64_t{u[0]} << 16) | (std::uint64_t{u[n >> 1]} << 8) | u[n - 1];\n"
           "        b = 0;\n"
           "      } else {\n"
           "        a = b = 0;\n"
           "      }\n"
           "    } else {\n"
           "      std::size_t i = n;\n"
           "      while (i > 16) {\n"
           "        seed = mum(load64(p) ^ k1, load64(p + 8) ^ seed);\n"
           "        p += 16;\n"
           "        i -= 16;\n"
           "      }\n"
           "      a = load64(p + i - 16);\n"
           "      b = load64(p + i - 8);\n"
           "    }\n"
           "    return mum(k1 ^ n, mum(a ^ k1, b ^ seed));\n"
           "  }\n";
    return;
  }
  out << "  static std::uint64_t hash(const char* p, std::size_t n) noexcept {\n"
         "    std::uint64_t a, b;\n"
         "    if (n >= 8) {\n";
  if (hash.front == 0) out << "      a = load64(p);\n";
  else out << "      a = load64(p + (n - 8 < " << hash.front << "u ? n - 8 : " << hash.front << "u));\n";
  if (hash.back == 0) out << "      b = load64(p + n - 8);\n";
  else out << "      b = load64(p + (n - 8 - (n - 8 < " << hash.back << "u ? n - 8 : " << hash.back << "u)));\n";
  out << "    } else {\n"
         "      a = load_short(p, n);\n"
         "      b = 0;\n"
         "    }\n"
         "    return mum(a ^ "
      << hex64(hash.seed) << ", b ^ (n * " << hex64(hash.length_multiplier)
      << "));\n"
         "  }\n";
}

}  // namespace

std::string cxx_bytes_literal(const std::string& bytes) {
  std::string out = "\"";
  for (unsigned char b : bytes) {
    if (b >= 0x20 && b < 0x7f && b != '"' && b != '\\' && b != '?') {
      out += static_cast<char>(b);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\%03o", b);
      out += escaped;
    }
  }
  return out + "\"";
}

std::string fast_lookup_struct(const std::string& name, std::span<const std::string> keys) {
  std::vector<key_view> views(keys.begin(), keys.end());
  const fast_perfect_layout layout = build_fast_perfect_hash(views);
  const fast_perfect_hash& f = layout.function;
  std::vector<long> slot_key(f.slot_count(), -1);
  for (std::size_t i = 0; i < keys.size(); ++i) slot_key[layout.slot_of_key[i]] = static_cast<long>(i);

  std::ostringstream out;
  out << "struct " << name << " {\n"
      << "  static constexpr std::size_t key_count = " << keys.size() << ";\n\n"
      << "  // The key's position in the list, or -1: the perfect-fast hash (Switchyard's\n"
      << "  // demux/fast_perfect_hash.h) with these constants, one slot, one compare.\n"
      << "  static int index_of(const char* key, std::size_t length) noexcept {\n"
      << "    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,\n"
      << "                  \"generated on a little-endian host, for little-endian targets\");\n"
      << "    const std::uint64_t h = hash(key, length);\n"
      << "    const slot_entry& e = slots[(h + displacements[h >> " << unsigned{f.bucket_shift} << " & "
      << f.bucket_mask << "u]) & " << f.slot_mask << "u];\n"
      << "    if (e.index < 0 || e.length != length) return -1;\n"
      << "    if (length <= 16) {\n"
      << "      // The slot holds the key, zero-padded.\n"
      << "      if (length >= 8) return load64(e.head) == load64(key) && load64(e.head + length - 8) == load64(key + "
         "length - 8) ? e.index : -1;\n"
      << "      return load64(e.head) == load_short(key, length) ? e.index : -1;\n"
      << "    }\n"
      << "    return load64(e.head) == load64(key) && same(e.whole, key, length) ? e.index : -1;\n"
      << "  }\n\n"
      << "  static std::string_view key_at(std::size_t index) noexcept {\n"
      << "    static constexpr std::string_view keys[] = {\n";
  if (keys.empty()) out << "      std::string_view(),\n";
  for (auto& k : keys) out << "      std::string_view(" << cxx_bytes_literal(k) << ", " << k.size() << "),\n";
  out << "    };\n"
      << "    return index < key_count ? keys[index] : std::string_view();\n"
      << "  }\n\n"
      << " private:\n"
      << "  // 32 bytes on 32: a slot never straddles two cache lines, and holds the key up to 16\n"
      << "  // bytes (a longer key's first 8, and the whole key's address).\n"
      << "  struct alignas(32) slot_entry {\n"
      << "    char head[16];\n"
      << "    std::uint32_t length;\n"
      << "    int index;  // -1: a free slot\n"
      << "    const char* whole;\n"
      << "  };\n";
  write_hash(out, f.hash);
  out << "  static constexpr std::uint32_t displacements[] = {";
  for (std::size_t i = 0; i < f.displacements.size(); ++i)
    out << (i % 8 == 0 ? "\n      " : " ") << f.displacements[i] << "u,";
  out << "\n  };\n"
      << "  static constexpr slot_entry slots[] = {\n";
  for (long k : slot_key) {
    if (k < 0) {
      out << "      {{}, 0, -1, nullptr},\n";
      continue;
    }
    const std::string& key = keys[static_cast<std::size_t>(k)];
    const std::size_t inline_bytes = key.size() <= 16 ? key.size() : 8;
    out << "      {{";
    for (std::size_t i = 0; i < inline_bytes; ++i)
      out << (i ? ", " : "") << static_cast<int>(static_cast<signed char>(key[i]));
    out << "}, " << key.size() << ", " << k << ", "
        << (key.size() > 16 ? cxx_bytes_literal(key) : std::string("nullptr")) << "},\n";
  }
  out << "  };\n};\n";
  return out.str();
}

}  // namespace switchyard::demux
