// Test helper: reads the text Debian omniORB's `catior` prints for an IOR, and renders what it
// should print for an IOR we decoded, so tests compare field by field:
//
//   Type ID: "IDL:Echo:1.0"
//   Profiles:
//   1. IIOP 1.2 127.0.0.1 2809 "echo"            (or 0x6563686f  (4 bytes) with catior -x)
//         TAG_ORB_TYPE omniORB (ATT\x00)
//         TAG_CODE_SETS char native code set:       ISO-8859-1
//                       char conversion code sets:  UTF-8
//                       ...
//   2. Unrecognised profile tag: 0x54414f00
//   3. Multiple Component Profile       TAG_ORB_TYPE ...
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "orb/ior/components.h"
#include "orb/ior/tags.h"

namespace switchyard::test {

struct catior_profile {
  enum class kind { iiop, multiple_components, unrecognised } what = kind::iiop;
  int major = 0, minor = 0;
  std::string host;
  long port = -1;
  std::string key;                      // as printed: "\"echo\"" or "0x6563686f  (4 bytes)"
  std::uint32_t tag = 0;                // for unrecognised profiles
  std::vector<std::string> components;  // each component's lines, trimmed, joined by '\n'
};

struct catior_report {
  bool nil = false;
  std::string type_id;
  std::vector<catior_profile> profiles;
};

inline std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

// Runs of spaces become one space (catior aligns its code set columns).
inline std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

inline bool begins_component(std::string_view line) {
  return line.starts_with("TAG_") || line.starts_with("Unknown component tag") || line.starts_with("Broken component");
}

inline catior_report parse_catior_text(const std::string& text) {
  catior_report report;
  std::istringstream in(text);
  std::string raw;
  catior_profile* current = nullptr;
  auto add_component_line = [&](const std::string& line) {
    if (line.empty() || current == nullptr) return;
    if (begins_component(line) || current->components.empty()) current->components.push_back(squeeze(line));
    else current->components.back() += "\n" + squeeze(line);
  };
  for (int lines = 0; lines < 100000 && std::getline(in, raw); ++lines) {
    std::string line = trim(raw);
    if (line.empty()) continue;
    if (line == "IOR is a nil object reference.") {
      report.nil = true;
    } else if (line.starts_with("Type ID: \"")) {
      report.type_id = line.substr(10, line.size() - 11);
    } else if (line == "Profiles:") {
    } else if (raw[0] >= '1' && raw[0] <= '9' && line.find(". ") != std::string::npos) {
      std::string rest = line.substr(line.find(". ") + 2);
      report.profiles.emplace_back();
      current = &report.profiles.back();
      if (rest.starts_with("IIOP ")) {
        std::istringstream fields(rest.substr(5));
        std::string version;
        fields >> version >> current->host >> current->port;
        std::sscanf(version.c_str(), "%d.%d", &current->major, &current->minor);
        std::string key;
        std::getline(fields, key);
        current->key = trim(key);
      } else if (rest.starts_with("Multiple Component Profile")) {
        current->what = catior_profile::kind::multiple_components;
        add_component_line(trim(rest.substr(26)));
      } else if (rest.starts_with("Unrecognised profile tag: ")) {
        current->what = catior_profile::kind::unrecognised;
        current->tag = static_cast<std::uint32_t>(std::stoul(rest.substr(26), nullptr, 0));
      } else {
        throw std::runtime_error("catior text: unexpected profile line: " + line);
      }
    } else {
      add_component_line(line);
    }
  }
  return report;
}

// The key as catior prints it: printable ASCII as is, other octets as \xNN; or in hex with -x.
inline std::string catior_key(std::span<const std::byte> key, bool hex) {
  std::string out;
  char buffer[8];
  if (hex) {
    out = "0x";
    for (std::byte b : key) {
      std::snprintf(buffer, sizeof buffer, "%02x", static_cast<unsigned>(b));
      out += buffer;
    }
    return out + "  (" + std::to_string(key.size()) + " bytes)";
  }
  out = "\"";
  for (std::byte b : key) {
    auto u = static_cast<unsigned>(b);
    if (u >= 0x20 && u < 0x7f) {
      out += static_cast<char>(u);
    } else {
      std::snprintf(buffer, sizeof buffer, "\\x%02x", u);
      out += buffer;
    }
  }
  return out + "\"";
}

// omniORB's names for the code sets we meet; others print as (0x%08x).
inline std::string catior_codeset(std::uint32_t id) {
  static const std::map<std::uint32_t, std::string> names = {{iop::codeset_iso_8859_1, "ISO-8859-1"},
                                                             {iop::codeset_utf_8, "UTF-8"},
                                                             {iop::codeset_utf_16, "UTF-16"},
                                                             {iop::codeset_ucs_2, "UCS-2-level-1"},
                                                             {0x00010020u, "ISO-646"}};
  if (auto it = names.find(id); it != names.end()) return it->second;
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "(0x%08x)", id);
  return buffer;
}

// What catior prints for one component, squeezed like parse_catior_text's blocks; or, for a
// component we keep raw, an empty string (the caller checks what it can).
inline std::string catior_component(const iop::tagged_component& c) {
  using namespace switchyard::iop;
  char buffer[64];
  switch (c.tag) {
    case tag_orb_type: {
      std::uint32_t type = decode_orb_type(c);
      std::string name = type == orb_type_omniorb ? "omniORB" : type == orb_type_tao ? "TAO" : "(unknown)";
      std::string chars;
      for (int shift = 24; shift >= 0; shift -= 8) {
        unsigned u = (type >> shift) & 0xff;
        if (u >= 0x20 && u < 0x7f) {
          chars += static_cast<char>(u);
        } else {
          std::snprintf(buffer, sizeof buffer, "\\x%02x", u);
          chars += buffer;
        }
      }
      return "TAG_ORB_TYPE " + name + " (" + chars + ")";
    }
    case tag_code_sets: {
      code_set_info info = decode_code_sets(c);
      auto line = [](std::string label, const std::vector<std::uint32_t>& ids) {
        for (std::size_t i = 0; i < ids.size(); ++i) label += (i ? ", " : " ") + catior_codeset(ids[i]);
        return label;
      };
      return "TAG_CODE_SETS char native code set: " + catior_codeset(info.for_char.native_code_set) + "\n" +
             line("char conversion code sets:", info.for_char.conversion_code_sets) +
             "\nwchar native code set: " + catior_codeset(info.for_wchar.native_code_set) + "\n" +
             line("wchar conversion code sets:", info.for_wchar.conversion_code_sets);
    }
    case tag_alternate_iiop_address: {
      alternate_address a = decode_alternate_address(c);
      return "TAG_ALTERNATE_IIOP_ADDRESS " + a.host + " " + std::to_string(a.port);
    }
    case tag_omniorb_unix_trans: {
      omniorb_unix_address a = decode_omniorb_unix_address(c);
      return "TAG_OMNIORB_UNIX_TRANS " + a.host + " " + a.path;
    }
    default:
      return {};
  }
}

}  // namespace switchyard::test
