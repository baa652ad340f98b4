// IORs against omniORB: every vector in tests/ior/vectors/ (written by omniORB) decodes to what
// omniORB's catior says of it, and catior reads the IORs we write as we meant them.
// The vectors directory comes from meson (IOR_VECTORS_DIR), catior's path too (CATIOR).
#include "orb/ior/object_reference.h"

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "orb/ior/iiop_profile.h"
#include "orb/ior/uiop_profile.h"
#include "tests/cdr/hex.h"
#include "tests/ior/catior_text.h"

using namespace switchyard;
using namespace switchyard::iop;
using switchyard::test::catior_profile;
using switchyard::test::catior_report;

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path vectors_dir() {
  const char* dir = std::getenv("IOR_VECTORS_DIR");
  return dir && *dir ? fs::path(dir) : fs::path(IOR_VECTORS_DIR_DEFAULT);
}

// catior's path, or "" when it is not installed.
std::string catior_path() {
  const char* env = std::getenv("CATIOR");
  std::string path = env && *env ? env : "/usr/bin/catior";
  return fs::exists(path) ? path : "";
}

// Runs catior on `ior_text` (hex digits only, so safe on a command line); returns its output.
std::string run_catior(const std::string& catior, const std::string& flags, const std::string& ior_text) {
  std::string command = catior + " " + flags + " " + ior_text + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buffer;
  for (int reads = 0; reads < 10000; ++reads) {
    std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe);
    if (n == 0) break;
    out.append(buffer.data(), n);
  }
  int status = pclose(pipe);
  INFO("catior said:\n" << out);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return out;
}

// The key as catior printed it, without omniORB's guess of its kind ("POA(root) ", "Unknown ").
std::string printed_key(const std::string& field) {
  if (field.starts_with("\"")) return field;
  auto hex = field.find("0x");
  return hex == std::string::npos ? field : field.substr(hex);
}

void check_components(const component_list& ours, const std::vector<std::string>& theirs) {
  REQUIRE(ours.size() == theirs.size());
  for (std::size_t j = 0; j < ours.size(); ++j) {
    INFO("component " << j + 1 << ": " << component_tag_name(ours[j].tag));
    std::string expected = test::catior_component(ours[j]);
    if (!expected.empty()) {
      CHECK(theirs[j] == expected);
    } else if (theirs[j].starts_with("Unknown component tag ")) {
      CHECK(std::stoul(theirs[j].substr(22)) == ours[j].tag);
    } else {
      // A component catior knows and we keep raw: it prints its name and, for most, the data.
      CHECK(theirs[j].starts_with("TAG_"));
    }
  }
}

// Every field catior prints equals what we decoded.
void check_matches_catior(const ior& reference, const catior_report& report) {
  if (reference.is_nil()) {
    CHECK(report.nil);
    return;
  }
  CHECK(report.type_id == reference.type_id);
  REQUIRE(report.profiles.size() == reference.profiles.size());
  for (std::size_t i = 0; i < reference.profiles.size(); ++i) {
    INFO("profile " << i + 1 << ": " << profile_tag_name(reference.profiles[i].tag));
    const tagged_profile& ours = reference.profiles[i];
    const catior_profile& theirs = report.profiles[i];
    if (ours.tag == tag_internet_iop) {
      REQUIRE(theirs.what == catior_profile::kind::iiop);
      iiop_profile profile = decode_iiop_profile(ours.data);
      CHECK(theirs.major == profile.version.major);
      CHECK(theirs.minor == profile.version.minor);
      CHECK(theirs.host == profile.host);
      CHECK(theirs.port == profile.port);
      // catior -x prints keys in hex; without it, as quoted text.
      const std::string key = printed_key(theirs.key);
      CHECK(key == test::catior_key(profile.object_key, !key.starts_with("\"")));
      check_components(profile.components, theirs.components);
    } else if (ours.tag == tag_multiple_components) {
      REQUIRE(theirs.what == catior_profile::kind::multiple_components);
      check_components(decode_multiple_components_profile(ours.data), theirs.components);
    } else {
      REQUIRE(theirs.what == catior_profile::kind::unrecognised);
      CHECK(theirs.tag == ours.tag);
    }
  }
}

std::vector<fs::path> vector_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(vectors_dir()))
    if (entry.path().extension() == ".ior") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("omniORB's IORs decode to what omniORB's catior says", "[ior][vectors]") {
  INFO("vectors in " << vectors_dir());
  REQUIRE(fs::is_directory(vectors_dir()));
  auto files = vector_files();
  REQUIRE_FALSE(files.empty());
  for (const auto& file : files) {
    INFO("vector " << file.filename());
    const std::string text = read_file(file);
    fs::path catior_file = file;
    catior_file.replace_extension(".catior.txt");
    REQUIRE(fs::exists(catior_file));
    const std::string catior_text = read_file(catior_file);
    ior reference = parse_ior_string(text);
    check_matches_catior(reference, test::parse_catior_text(catior_text));
    // Round trip: written back identically.
    std::string trimmed = text.substr(0, text.find_last_not_of(" \r\n\t") + 1);
    CHECK(to_ior_string(reference) == trimmed);
    // Every IIOP address (the profile's and its alternates) is a target.
    std::size_t addresses = 0;
    for (const auto& profile : reference.profiles)
      if (profile.tag == tag_internet_iop)
        addresses += 1 + decode_iiop_profile(profile.data).alternate_addresses().size();
    CHECK(targets_of(reference).size() == addresses);
  }
}

TEST_CASE("the multi-address vector: alternates and omniORB's unix component", "[ior][vectors]") {
  const fs::path file = vectors_dir() / "multi_address_echo.ior";
  if (!fs::exists(file)) {
    WARN("no " << file << " yet");
    SUCCEED();
    return;
  }
  ior reference = parse_ior_string(read_file(file));
  auto targets = targets_of(reference);
  REQUIRE(targets.size() == 3);
  CHECK(targets[0].where == iiop_endpoint("127.0.0.1", 21003));
  CHECK(targets[1].where == iiop_endpoint("127.0.0.2", 21004));
  CHECK(targets[2].where == iiop_endpoint("::1", 21005));
  CHECK(targets[2].alternate);
  for (const auto& t : targets) CHECK(t.object_key == to_octets("echo"));
  iiop_profile profile = decode_iiop_profile(reference.profiles[0].data);
  const tagged_component* unix_socket = find_component(profile.components, tag_omniorb_unix_trans);
  REQUIRE(unix_socket != nullptr);
  CHECK(decode_omniorb_unix_address(*unix_socket).path == "/tmp/switchyard-ior-vectors.sock");
}

TEST_CASE("omniORB's catior reads the IORs we write", "[ior][catior]") {
  const std::string catior = catior_path();
  if (catior.empty()) {
    WARN("catior (Debian package omniorb) is not installed: skipping the check of our IORs by omniORB");
    SUCCEED();
    return;
  }
  // Ours: IIOP 1.2 with alternates (one IPv6), a binary key, a UIOP profile; then an IIOP 1.0
  // profile, an extra component catior does not know, and a multiple-components profile.
  const endpoint where[] = {iiop_endpoint("127.0.0.1", 2809), iiop_endpoint("::1", 2810),
                            iiop_endpoint("host.example", 65535), uiop_endpoint("/tmp/sy.sock")};
  const octets key = test::from_hex("00 ff 10 fe 7f 41 22 5c");
  ior reference = make_local_ior("IDL:Switchyard/Test:1.0", where, key);
  iiop_profile extra = make_iiop_profile("192.0.2.1", 1, to_octets("plain key"));
  extra.components.push_back({0x00012345, test::from_hex("01 02 03")});
  reference.profiles.push_back(to_tagged_profile(extra));
  reference.profiles.push_back(to_tagged_profile(make_iiop_profile("old.example", 683, to_octets("k10"), {1, 0})));
  reference.profiles.push_back(
      {tag_multiple_components, encode_multiple_components_profile({make_orb_type_component(orb_type_switchyard)})});
  const std::string text = to_ior_string(reference);
  INFO(text);

  for (bool hex_keys : {false, true}) {
    const std::string output = run_catior(catior, hex_keys ? "-x" : "", text);
    INFO("catior " << (hex_keys ? "-x" : "") << " said:\n" << output);
    catior_report report = test::parse_catior_text(output);
    check_matches_catior(reference, report);
    // Spelled out, the things a peer must see.
    REQUIRE(report.profiles.size() == 5);
    CHECK(report.profiles[0].host == "127.0.0.1");
    CHECK(report.profiles[0].port == 2809);
    CHECK(report.profiles[0].components.at(0) == "TAG_ORB_TYPE (unknown) (SY\\x00\\x00)");
    CHECK(
        report.profiles[0].components.at(1).starts_with("TAG_CODE_SETS char native code set: ISO-8859-1\n"
                                                        "char conversion code sets: UTF-8\n"
                                                        "wchar native code set: UTF-16\n"
                                                        "wchar conversion code sets: UTF-16"));
    CHECK(report.profiles[0].components.at(2) == "TAG_ALTERNATE_IIOP_ADDRESS ::1 2810");
    CHECK(report.profiles[0].components.at(3) == "TAG_ALTERNATE_IIOP_ADDRESS host.example 65535");
    CHECK(report.profiles[1].tag == tag_uiop);
    CHECK(report.profiles[2].components.at(2) == "Unknown component tag 74565");
    CHECK(report.profiles[3].major == 1);
    CHECK(report.profiles[3].minor == 0);
    CHECK(report.profiles[3].components.empty());
    CHECK(printed_key(report.profiles[0].key) ==
          (hex_keys ? "0x00ff10fe7f41225c  (8 bytes)" : "\"\\x00\\xff\\x10\\xfe\\x7fA\"\\\""));
  }
}

TEST_CASE("catior reads a big-endian IOR we write back", "[ior][catior]") {
  const std::string catior = catior_path();
  if (catior.empty()) {
    WARN("catior (Debian package omniorb) is not installed: skipping");
    SUCCEED();
    return;
  }
  ior reference =
      decode_ior_encapsulation(test::from_hex("00 000000 0000000a 49444c3a413a312e3000 0000 00000001 00000000 00000017"
                                              "00 0100 00 00000005 686f737400 00 1234 00000003 6b6579"));
  CHECK(reference.order == cdr::byte_order::big_endian);
  const std::string text = to_ior_string(reference);
  CHECK(text.starts_with("IOR:00"));
  check_matches_catior(reference, test::parse_catior_text(run_catior(catior, "", text)));
}
