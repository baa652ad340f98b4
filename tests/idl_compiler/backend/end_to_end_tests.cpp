// Generated stubs and skeletons end to end: a server ORB on loopback in a thread of its own
// (tests/core/orb_fixture.h) serves generated skeletons; generated stubs call them. ttcp_sequence
// under every operation-demultiplexing strategy, every Integrity::Echo operation (echo_any only
// once <switchyard/any.h> exists), user exceptions, inout and out parameters, attributes.
#include "integrity.h"
#include "ttcp_sequence.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "tests/core/orb_fixture.h"
#include "tests/idl_compiler/backend/echo_round_trips.h"

using namespace switchyard;
using test::serving_orb;

namespace {

struct recording_ttcp final : ttcp_sequence_skeleton {
  std::mutex mutex;
  std::vector<BinStruct> structs;
  std::vector<std::uint8_t> octets;
  std::atomic<int> twoway{0}, oneway{0};
  void sendStructSeq_2way(const ttcp_sequence::StructSeq& seq) override {
    std::lock_guard lock(mutex);
    structs = seq;
    ++twoway;
  }
  void sendOctetSeq_2way(std::span<const std::uint8_t> seq) override {
    std::lock_guard lock(mutex);
    octets.assign(seq.begin(), seq.end());
    ++twoway;
  }
  void sendNoParams_2way() override { ++twoway; }
  void sendNoParams_1way() override { ++oneway; }
};

struct echo_servant final : Integrity::Echo_skeleton {
  std::atomic<std::uint32_t> served{0};
  std::mutex mutex;
  std::string last_label = "initial";

  template <class T>
  T count(T v) {
    ++served;
    return v;
  }
  bool echo_boolean(bool v) override { return count(v); }
  std::uint8_t echo_octet(std::uint8_t v) override { return count(v); }
  char echo_char(char v) override { return count(v); }
  std::int16_t echo_short(std::int16_t v) override { return count(v); }
  std::uint16_t echo_ushort(std::uint16_t v) override { return count(v); }
  std::int32_t echo_long(std::int32_t v) override { return count(v); }
  std::uint32_t echo_ulong(std::uint32_t v) override { return count(v); }
  std::int64_t echo_longlong(std::int64_t v) override { return count(v); }
  std::uint64_t echo_ulonglong(std::uint64_t v) override { return count(v); }
  float echo_float(float v) override { return count(v); }
  double echo_double(double v) override { return count(v); }
  std::string echo_string(const std::string& v) override { return count(v); }
  std::u16string echo_wstring(const std::u16string& v) override { return count(v); }
  Integrity::Color echo_color(Integrity::Color v) override { return count(v); }
  Integrity::Record echo_record(const Integrity::Record& v) override { return count(v); }
  Integrity::NARecord echo_narecord(const Integrity::NARecord& v) override { return count(v); }
  Integrity::Variant echo_variant(const Integrity::Variant& v) override { return count(v); }
  Integrity::Matrix echo_matrix(const Integrity::Matrix& v) override { return count(v); }
  Integrity::Nested echo_nested(const Integrity::Nested& v) override { return count(v); }
  Integrity::Octets echo_octets(std::span<const std::uint8_t> v) override {
    return count(Integrity::Octets(v.begin(), v.end()));
  }
  Integrity::Longs echo_longs(const Integrity::Longs& v) override { return count(v); }
  Integrity::Doubles echo_doubles(const Integrity::Doubles& v) override { return count(v); }
  Integrity::Records echo_records(const Integrity::Records& v) override { return count(v); }
  Integrity::NARecords echo_narecords(const Integrity::NARecords& v) override { return count(v); }
  Integrity::Strings echo_strings(const Integrity::Strings& v) override { return count(v); }
  switchyard::any echo_any(const switchyard::any& v) override { return count(v); }
  void twist(std::int32_t& a, std::string& s) override {
    ++served;
    a *= 2;
    std::reverse(s.begin(), s.end());
  }
  std::int32_t split(const Integrity::Nested& v, std::string& name, Integrity::Longs& values) override {
    ++served;
    name = v.name;
    values = v.values;
    return static_cast<std::int32_t>(v.values.size());
  }
  std::int32_t refuse(std::int32_t code) override {
    ++served;
    if (code != 0) throw Integrity::Refused("refused", code);
    return 0;
  }
  std::string label() override {
    std::lock_guard lock(mutex);
    return last_label;
  }
  void label(const std::string& value) override {
    std::lock_guard lock(mutex);
    last_label = value;
  }
  std::uint32_t calls() override { return served; }
};

}  // namespace

TEST_CASE("generated ttcp_sequence end to end under every operation demultiplexing", "[idl_compiler][backend]") {
  const char* strategy = GENERATE("linear", "dynamic", "perfect", "active");
  auto giop = GENERATE("1.0", "1.2");
  CAPTURE(strategy, giop);
  serving_orb server({"-ORBOperationDemux", strategy, "-ORBGIOPVersion", giop});
  auto servant = std::make_shared<recording_ttcp>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({"-ORBGIOPVersion", giop});
  ttcp_sequence stub = ttcp_sequence::_narrow(client->string_to_object(ior));
  REQUIRE_FALSE(stub._is_nil());

  stub.sendNoParams_2way();
  stub.sendNoParams_1way();
  std::vector<std::uint8_t> octets(4000);
  for (std::size_t k = 0; k < octets.size(); ++k) octets[k] = static_cast<std::uint8_t>(k * 13);
  stub.sendOctetSeq_2way(octets);
  ttcp_sequence::StructSeq structs;
  for (int k = 0; k < 100; ++k)
    structs.push_back({static_cast<std::int16_t>(-k), static_cast<char>('a' + k % 26), k * 1000, 0xfe, k / 3.0});
  stub.sendStructSeq_2way(structs);
  CHECK(servant->oneway == 1);
  CHECK(servant->twoway == 3);
  std::lock_guard lock(servant->mutex);
  CHECK(servant->octets == octets);
  CHECK(servant->structs == structs);
}

TEST_CASE("generated Integrity::Echo: every value comes back unchanged", "[idl_compiler][backend]") {
  auto giop = GENERATE("1.1", "1.2");
  CAPTURE(giop);
  serving_orb server({"-ORBGIOPVersion", giop});
  auto servant = std::make_shared<echo_servant>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto echo = Integrity::Echo::_narrow(client->string_to_object(ior));
  REQUIRE_FALSE(echo._is_nil());

  CHECK(echo.label() == "initial");
  test::check_echo_round_trips(echo, true);  // our ORB speaks each version's wstring form
  CHECK(echo.calls() == servant->served.load());
  CHECK(echo.calls() >= 30);

  // Bounded sequence: the stub refuses to send 9 records in FewRecords.
  Integrity::Nested too_many = test::sample_nested();
  too_many.few.resize(9);
  CHECK_THROWS_AS(echo.echo_nested(too_many), SystemException);
}

TEST_CASE("_narrow answers nil for another interface", "[idl_compiler][backend]") {
  serving_orb server;
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(std::make_shared<recording_ttcp>()));
  server.start();
  auto client = orb_init({});
  auto ref = client->string_to_object(ior);
  CHECK(Integrity::Echo::_narrow(ref)._is_nil());
  CHECK_FALSE(ttcp_sequence::_narrow(ref)._is_nil());
  CHECK(ttcp_sequence::_narrow(object_ref())._is_nil());
}
