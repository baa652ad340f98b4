// The output stream's block observer: told of each array or string written across a multiple of
// its spacing, and of nothing else; what it writes lands after the block, which stays intact
// however the buffer grows. The valuetype writer (orb/value) ends its chunks this way.
#include "switchyard/cdr/output_stream.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "switchyard/cdr/input_stream.h"

using namespace switchyard::cdr;

namespace {

// Records where each block it hears of ended, and optionally marks the spot with a ulong.
class recorder : public block_observer {
 public:
  explicit recorder(bool mark = false) : mark_(mark) {}
  void block_crossed_boundary(output_stream& out) override {
    ends.push_back(out.size());
    if (mark_) out.write_ulong(0xfeedfaceu);
  }
  std::vector<std::size_t> ends;

 private:
  bool mark_;
};

std::vector<double> doubles(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i) * 0.5;
  return v;
}

}  // namespace

TEST_CASE("the observer hears of blocks across its boundaries and of nothing else", "[cdr][observer]") {
  output_stream out;  // no initial capacity: the limit and the buffer's growth interleave
  recorder heard;
  out.set_block_observer(&heard, 64);
  out.write_octets("0123456789", 10);              // 0..10: inside the first 64
  for (int i = 0; i < 20; ++i) out.write_long(i);  // 12..92: primitives across 64, not blocks
  CHECK(heard.ends.empty());
  const auto ds = doubles(8);
  out.write_array(ds.data(), ds.size());  // 96..160: across 128
  REQUIRE(heard.ends == std::vector<std::size_t>{160});
  out.write_string(std::string(30, 'x'));  // 160..195: up to 192 and past it
  CHECK(heard.ends == std::vector<std::size_t>{160, 195});
  out.write_octets("ab", 2);               // 195..197: not across
  std::vector<std::uint8_t> exact(59, 7);  // 197..256: ends on a boundary without crossing it
  out.write_octets(exact.data(), exact.size());
  CHECK(heard.ends.size() == 2);
  out.set_block_observer(nullptr, 0);
  out.write_array(ds.data(), ds.size());  // across 320, no observer
  CHECK(heard.ends.size() == 2);
}

TEST_CASE("what the observer writes goes after the block, which stays whole", "[cdr][observer]") {
  for (std::size_t initial : {0u, 100u, 4096u}) {
    INFO("initial capacity " << initial);
    output_stream out(initial);
    recorder heard(/*mark=*/true);
    out.set_block_observer(&heard, 128);
    const auto ds = doubles(100);  // 800 octets: across several boundaries, one block
    out.write_ulong(1);
    out.write_sequence(ds.data(), ds.size());
    out.write_string("after");
    out.set_block_observer(nullptr, 0);

    REQUIRE(heard.ends.size() == 1);
    input_stream in(out.bytes(), native_byte_order);
    CHECK(in.read_ulong() == 1);
    std::vector<double> back;
    in.read_sequence(back);
    CHECK(back == ds);
    CHECK(in.read_ulong() == 0xfeedfaceu);  // the observer's mark, right after the block
    CHECK(in.read_string() == "after");
    CHECK(in.at_end());
  }
}

TEST_CASE("the observer counts positions from the stream's start and is quiet in encapsulations", "[cdr][observer]") {
  output_stream out;
  out.write_octets(std::vector<std::uint8_t>(100, 1).data(), 100);  // before the observer: 0..100
  recorder heard;
  out.set_block_observer(&heard, 128);
  out.write_octets(std::vector<std::uint8_t>(20, 2).data(), 20);  // 100..120
  CHECK(heard.ends.empty());
  auto token = out.begin_encapsulation();
  out.write_octets(std::vector<std::uint8_t>(300, 3).data(), 300);  // across 128 and 256, inside
  out.end_encapsulation(token);
  CHECK(heard.ends.empty());
  out.write_octets(std::vector<std::uint8_t>(200, 4).data(), 200);  // across 512 after it
  CHECK(heard.ends.size() == 1);
  out.set_block_observer(nullptr, 0);
}

TEST_CASE("external chunks wait while an observer is set", "[cdr][observer]") {
  output_stream out;
  out.set_external_threshold(16);
  recorder heard;
  out.set_block_observer(&heard, 1024);
  const std::vector<std::uint8_t> big(64, 9);
  out.write_octets(big.data(), big.size());
  CHECK_FALSE(out.has_external_chunks());
  out.set_block_observer(nullptr, 0);
  CHECK(out.external_threshold() == 16);
  out.write_octets(big.data(), big.size());
  CHECK(out.has_external_chunks());
}
