#include "orb/ior/components.h"

#include "orb/ior/encapsulation.h"

namespace switchyard::iop {

namespace {

// A TaggedComponent is a ulong tag and a sequence<octet>: at least 8 octets.
constexpr std::size_t min_component_size = 8;
// Each conversion code set is a ulong.
constexpr std::size_t min_code_set_size = 4;

code_set_component read_code_set_component(cdr::input_stream& in) {
  code_set_component result;
  result.native_code_set = in.read_ulong();
  std::uint32_t count = in.read_length(min_code_set_size);
  result.conversion_code_sets.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) result.conversion_code_sets.push_back(in.read_ulong());
  return result;
}

void write_code_set_component(cdr::output_stream& out, const code_set_component& component) {
  out.write_ulong(component.native_code_set);
  out.write_ulong(static_cast<std::uint32_t>(component.conversion_code_sets.size()));
  for (std::uint32_t id : component.conversion_code_sets) out.write_ulong(id);
}

template <typename Decode>
auto decode_component(const tagged_component& component, Decode&& decode) {
  return detail::with_context(component_tag_name(component.tag), [&] {
    cdr::input_stream in = detail::open_encapsulation(component.data, "component data");
    return decode(in);
  });
}

template <typename Encode>
tagged_component encode_component(std::uint32_t tag, Encode&& encode) {
  cdr::output_stream out = detail::begin_encapsulation_body();
  encode(out);
  return {tag, detail::finish_encapsulation_body(out)};
}

}  // namespace

component_list read_components(cdr::input_stream& in) {
  std::uint32_t count = in.read_length(min_component_size);
  component_list components(count);
  for (auto& component : components) {
    component.tag = in.read_ulong();
    std::uint32_t length = in.read_length(1);
    component.data.resize(length);
    in.read_octets(component.data.data(), length);
  }
  return components;
}

void write_components(cdr::output_stream& out, const component_list& components) {
  out.write_ulong(static_cast<std::uint32_t>(components.size()));
  for (const auto& component : components) {
    out.write_ulong(component.tag);
    out.write_ulong(static_cast<std::uint32_t>(component.data.size()));
    out.write_octets(component.data.data(), component.data.size());
  }
}

const tagged_component* find_component(const component_list& components, std::uint32_t tag) noexcept {
  for (const auto& component : components)
    if (component.tag == tag) return &component;
  return nullptr;
}

code_set_info switchyard_code_sets() {
  return {{codeset_iso_8859_1, {codeset_utf_8}}, {codeset_utf_16, {codeset_utf_16}}};
}

tagged_component make_orb_type_component(std::uint32_t orb_type) {
  return encode_component(tag_orb_type, [&](cdr::output_stream& out) { out.write_ulong(orb_type); });
}

tagged_component make_code_sets_component(const code_set_info& info) {
  return encode_component(tag_code_sets, [&](cdr::output_stream& out) {
    write_code_set_component(out, info.for_char);
    write_code_set_component(out, info.for_wchar);
  });
}

tagged_component make_alternate_address_component(const alternate_address& address) {
  return encode_component(tag_alternate_iiop_address, [&](cdr::output_stream& out) {
    out.write_string(address.host);
    out.write_ushort(address.port);
  });
}

tagged_component make_ssl_transport_component(const ssl_transport& ssl) {
  return encode_component(tag_ssl_sec_trans, [&](cdr::output_stream& out) {
    out.write_ushort(ssl.target_supports);
    out.write_ushort(ssl.target_requires);
    out.write_ushort(ssl.port);
  });
}

ssl_transport decode_ssl_transport(const tagged_component& component) {
  return decode_component(component, [](cdr::input_stream& in) {
    ssl_transport ssl;
    ssl.target_supports = in.read_ushort();
    ssl.target_requires = in.read_ushort();
    ssl.port = in.read_ushort();
    return ssl;
  });
}

std::uint32_t decode_orb_type(const tagged_component& component) {
  return decode_component(component, [](cdr::input_stream& in) { return in.read_ulong(); });
}

code_set_info decode_code_sets(const tagged_component& component) {
  return decode_component(component, [](cdr::input_stream& in) {
    code_set_info info;
    info.for_char = read_code_set_component(in);
    info.for_wchar = read_code_set_component(in);
    return info;
  });
}

alternate_address decode_alternate_address(const tagged_component& component) {
  return decode_component(component, [](cdr::input_stream& in) {
    alternate_address address;
    address.host = in.read_string();
    address.port = in.read_ushort();
    return address;
  });
}

omniorb_unix_address decode_omniorb_unix_address(const tagged_component& component) {
  return decode_component(component, [](cdr::input_stream& in) {
    omniorb_unix_address address;
    address.host = in.read_string();
    address.path = in.read_string();
    return address;
  });
}

std::optional<std::uint32_t> orb_type_of(const component_list& components) {
  if (const auto* c = find_component(components, tag_orb_type)) return decode_orb_type(*c);
  return std::nullopt;
}

std::optional<code_set_info> code_sets_of(const component_list& components) {
  if (const auto* c = find_component(components, tag_code_sets)) return decode_code_sets(*c);
  return std::nullopt;
}

std::vector<alternate_address> alternate_addresses_of(const component_list& components) {
  std::vector<alternate_address> result;
  for (const auto& component : components)
    if (component.tag == tag_alternate_iiop_address) result.push_back(decode_alternate_address(component));
  return result;
}

}  // namespace switchyard::iop
