#include "orb/ior/ior.h"

#include <cstdio>

#include "orb/ior/encapsulation.h"
#include "orb/ior/tags.h"

namespace switchyard::iop {

namespace {

constexpr std::string_view ior_prefix = "IOR:";
// A TaggedProfile is a ulong tag and a sequence<octet>: at least 8 octets.
constexpr std::size_t min_profile_size = 8;

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string printable(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "0x%02x", u);
  return buffer;
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) noexcept {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != prefix[i]) return false;
  }
  return true;
}

// Writes the IOR encapsulation in either byte order (cdr::output_stream writes native order only;
// the IOR's outer layer is simple enough to write here).
class ordered_writer {
 public:
  explicit ordered_writer(cdr::byte_order order) : swap_(order != cdr::native_byte_order) {
    put_octet(static_cast<std::byte>(order));
  }
  void put_octet(std::byte b) { bytes_.push_back(b); }
  void put_ulong(std::uint32_t value) {
    while (bytes_.size() % 4 != 0) bytes_.push_back(std::byte{0});
    if (swap_) value = cdr::byte_swap(value);
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), p, p + 4);
  }
  void put_octets(std::span<const std::byte> data) { bytes_.insert(bytes_.end(), data.begin(), data.end()); }
  void put_string(std::string_view s) {
    put_ulong(static_cast<std::uint32_t>(s.size() + 1));
    put_octets({reinterpret_cast<const std::byte*>(s.data()), s.size()});
    put_octet(std::byte{0});
  }
  octets take() { return std::move(bytes_); }

 private:
  bool swap_;
  octets bytes_;
};

}  // namespace

ior read_ior(cdr::input_stream& in) {
  ior reference;
  reference.order = in.order();
  reference.type_id = detail::with_context("IOR type id", [&] { return in.read_string(); });
  std::uint32_t count = detail::with_context("IOR profile count", [&] { return in.read_length(min_profile_size); });
  reference.profiles.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    auto& profile = reference.profiles[i];
    detail::with_context("IOR profile " + std::to_string(i + 1) + " of " + std::to_string(count), [&] {
      profile.tag = in.read_ulong();
      profile.data = detail::read_octet_sequence(in);
    });
  }
  return reference;
}

void write_ior(cdr::output_stream& out, const ior& reference) {
  out.write_string(reference.type_id);
  out.write_ulong(static_cast<std::uint32_t>(reference.profiles.size()));
  for (const auto& profile : reference.profiles) {
    out.write_ulong(profile.tag);
    detail::write_octet_sequence(out, profile.data);
  }
}

ior decode_ior_encapsulation(std::span<const std::byte> bytes) {
  cdr::input_stream in = detail::open_encapsulation(bytes, "IOR");
  return read_ior(in);
}

octets encode_ior_encapsulation(const ior& reference) {
  ordered_writer out(reference.order);
  out.put_string(reference.type_id);
  out.put_ulong(static_cast<std::uint32_t>(reference.profiles.size()));
  for (const auto& profile : reference.profiles) {
    out.put_ulong(profile.tag);
    out.put_ulong(static_cast<std::uint32_t>(profile.data.size()));
    out.put_octets(profile.data);
  }
  return out.take();
}

ior parse_ior_string(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (!starts_with_ignoring_case(text, ior_prefix)) {
    std::string shown(text.substr(0, 16));
    detail::throw_bad_ior("stringified IOR must start with 'IOR:'" +
                          (text.empty() ? std::string(" (the string is empty)")
                                        : ", not \"" + shown + (text.size() > 16 ? "...\"" : "\"")));
  }
  octets bytes;
  bytes.reserve((text.size() - ior_prefix.size()) / 2);
  int high = -1;
  std::size_t digits = 0;
  for (std::size_t i = ior_prefix.size(); i < text.size(); ++i) {
    char c = text[i];
    if (is_space(c)) continue;
    int v = hex_value(c);
    if (v < 0)
      detail::throw_bad_ior("stringified IOR: " + printable(c) + " at position " + std::to_string(i) +
                            " is not a hex digit");
    ++digits;
    if (high < 0) {
      high = v;
    } else {
      bytes.push_back(static_cast<std::byte>(high * 16 + v));
      high = -1;
    }
  }
  if (digits == 0) detail::throw_bad_ior("stringified IOR has no hex digits after 'IOR:'");
  if (high >= 0)
    detail::throw_bad_ior("stringified IOR has an odd number of hex digits (" + std::to_string(digits) + ")");
  return decode_ior_encapsulation(bytes);
}

std::string to_ior_string(const ior& reference) {
  static constexpr char hex_digits[] = "0123456789abcdef";
  octets bytes = encode_ior_encapsulation(reference);
  std::string out(ior_prefix);
  out.reserve(ior_prefix.size() + 2 * bytes.size());
  for (std::byte b : bytes) {
    auto u = static_cast<unsigned>(b);
    out += hex_digits[u >> 4];
    out += hex_digits[u & 15];
  }
  return out;
}

}  // namespace switchyard::iop
