// The output stream's external chunks: large blocks recorded, not copied. Every case compares the
// stream's octets with its chunks spliced in against the same values written the ordinary way:
// the wire must not tell the two apart.
#include "switchyard/cdr/output_stream.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "switchyard/cdr/input_stream.h"

using namespace switchyard::cdr;

namespace {

// The message a gather-write of `out` sends: its own octets with each chunk spliced in.
std::vector<std::byte> spliced(const output_stream& out) {
  std::vector<std::byte> all;
  std::size_t from = 0;
  for (const auto& chunk : out.external_chunks()) {
    all.insert(all.end(), out.data() + from, out.data() + chunk.position);
    all.insert(all.end(), chunk.data, chunk.data + chunk.size);
    from = chunk.position;
  }
  all.insert(all.end(), out.data() + from, out.data() + out.size());
  return all;
}

std::vector<std::byte> plain(const output_stream& out) { return {out.data(), out.data() + out.size()}; }

std::vector<std::uint8_t> octets(std::size_t n, std::uint8_t seed = 1) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i * 31 + seed);
  return v;
}

}  // namespace

TEST_CASE("external chunks are off by default: large blocks are copied", "[cdr][external]") {
  output_stream out;
  auto big = octets(100000);
  out.write_sequence(big.data(), big.size());
  CHECK_FALSE(out.has_external_chunks());
  CHECK(out.external_size() == 0);
  CHECK(out.size() == 4 + big.size());
}

TEST_CASE("a block at the threshold becomes a chunk; positions and alignment count it", "[cdr][external]") {
  auto big = octets(1001);  // odd: the double after it needs padding counted from the chunk's end
  auto write = [&](output_stream& out) {
    out.write_octet(7);
    out.write_sequence(big.data(), big.size());
    out.write_double(2.5);
    out.write_short(-3);
  };
  output_stream reference;
  write(reference);
  output_stream out;
  out.set_external_threshold(1001);
  write(out);

  REQUIRE(out.external_chunks().size() == 1);
  const auto& chunk = out.external_chunks()[0];
  CHECK(chunk.position == 8);  // octet, 3 padding, ulong length
  CHECK(chunk.data == reinterpret_cast<const std::byte*>(big.data()));
  CHECK(chunk.size == 1001);
  CHECK(out.external_size() == 1001);
  CHECK(out.size() + out.external_size() == reference.size());
  CHECK(out.aligned_position() == reference.aligned_position());
  CHECK(spliced(out) == plain(reference));

  // And what a reader makes of it.
  auto wire = spliced(out);
  input_stream in(wire, native_byte_order);
  CHECK(in.read_octet() == 7);
  std::vector<std::uint8_t> back;
  in.read_sequence(back);
  CHECK(back == big);
  CHECK(in.read_double() == 2.5);
  CHECK(in.read_short() == -3);
}

TEST_CASE("below the threshold a block is copied", "[cdr][external]") {
  auto small = octets(1000);
  output_stream out;
  out.set_external_threshold(1001);
  out.write_octets(small.data(), small.size());
  CHECK_FALSE(out.has_external_chunks());
  CHECK(out.size() == 1000);
}

TEST_CASE("an array of doubles after an odd position: padding in the stream, then the chunk", "[cdr][external]") {
  std::vector<double> values(500);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) * 0.25 - 7;
  std::vector<std::int32_t> longs(300, -5);
  auto write = [&](output_stream& out) {
    out.write_char('x');
    out.write_sequence(values.data(), values.size());  // ulong at 4, doubles from 8
    out.write_octet(1);
    out.write_array(longs.data(), longs.size());  // aligned to 4 after the chunk
    out.write_ulonglong(42);
  };
  output_stream reference;
  write(reference);
  output_stream out;
  out.set_external_threshold(1024);
  write(out);
  REQUIRE(out.external_chunks().size() == 2);
  CHECK(out.external_chunks()[0].position == 8);
  CHECK(out.external_chunks()[0].size == values.size() * sizeof(double));
  CHECK(out.external_chunks()[1].position == 8 + 4);  // the octet and its padding
  CHECK(out.external_chunks()[1].size == longs.size() * 4);
  CHECK(spliced(out) == plain(reference));
}

TEST_CASE("more blocks than the chunk array holds: the rest are copied", "[cdr][external]") {
  std::vector<std::vector<std::uint8_t>> blocks;
  for (std::size_t i = 0; i < output_stream::max_external_chunks + 3; ++i)
    blocks.push_back(octets(2000 + i, static_cast<std::uint8_t>(i)));
  auto write = [&](output_stream& out) {
    for (const auto& b : blocks) {
      out.write_sequence(b.data(), b.size());
      out.write_short(static_cast<std::int16_t>(b.size()));
    }
  };
  output_stream reference;
  write(reference);
  output_stream out;
  out.set_external_threshold(2000);
  write(out);
  CHECK(out.external_chunks().size() == output_stream::max_external_chunks);
  CHECK(spliced(out) == plain(reference));
}

TEST_CASE("encapsulations suspend external chunks and keep their octets contiguous", "[cdr][external]") {
  auto before = octets(3001, 3);
  auto inside = octets(5000, 5);
  auto after = octets(4000, 9);
  auto write = [&](output_stream& out) {
    out.write_sequence(before.data(), before.size());
    auto token = out.begin_encapsulation();
    out.write_sequence(inside.data(), inside.size());
    out.write_double(1.0);  // aligned from the encapsulation's origin
    out.end_encapsulation(token);
    out.write_sequence(after.data(), after.size());
    out.write_long(-1);
  };
  output_stream reference;
  write(reference);
  output_stream out;
  out.set_external_threshold(3000);
  write(out);
  REQUIRE(out.external_chunks().size() == 2);  // before and after, not inside
  CHECK(out.external_chunks()[0].size == before.size());
  CHECK(out.external_chunks()[1].size == after.size());
  CHECK(spliced(out) == plain(reference));
}

TEST_CASE("set_origin_here and restore_origin across a chunk", "[cdr][external]") {
  auto big = octets(4097);
  auto write = [&](output_stream& out) {
    out.write_octet(1);
    const std::size_t saved = out.set_origin_here();
    out.write_sequence(big.data(), big.size());
    out.write_double(3.0);  // aligned from the moved origin
    out.restore_origin(saved);
    out.write_double(4.0);  // aligned from the stream's start again
  };
  output_stream reference;
  write(reference);
  output_stream out;
  out.set_external_threshold(4096);
  write(out);
  CHECK(out.external_chunks().size() == 1);
  CHECK(out.aligned_position() == reference.aligned_position());
  CHECK(spliced(out) == plain(reference));
}

TEST_CASE("reset forgets the chunks and keeps the threshold; threshold 0 is off", "[cdr][external]") {
  auto big = octets(10000);
  auto other = octets(9000, 4);
  output_stream out;
  CHECK(out.external_threshold() == 0);
  out.set_external_threshold(8192);
  CHECK(out.external_threshold() == 8192);
  out.write_octets(big.data(), big.size());
  REQUIRE(out.has_external_chunks());
  out.reset();
  CHECK_FALSE(out.has_external_chunks());
  CHECK(out.external_size() == 0);
  CHECK(out.aligned_position() == 0);
  CHECK(out.external_threshold() == 8192);
  // The next message's chunks and sizes start afresh.
  out.write_octet(1);
  out.write_octets(other.data(), other.size());
  out.write_long(3);
  CHECK(out.external_size() == other.size());
  REQUIRE(out.external_chunks().size() == 1);
  CHECK(out.external_chunks()[0].position == 1);
  output_stream reference;
  reference.write_octet(1);
  reference.write_octets(other.data(), other.size());
  reference.write_long(3);
  CHECK(spliced(out) == plain(reference));

  out.reset();
  out.set_external_threshold(0);
  CHECK(out.external_threshold() == 0);
  out.write_octets(big.data(), big.size());
  CHECK_FALSE(out.has_external_chunks());
  CHECK(out.size() == big.size());
}

TEST_CASE("a moved stream takes its chunks along", "[cdr][external]") {
  auto big = octets(9000);
  output_stream out;
  out.set_external_threshold(8192);
  out.write_ulong(1);
  out.write_octets(big.data(), big.size());
  out.write_long(2);
  auto expected = spliced(out);
  output_stream moved(std::move(out));
  CHECK(moved.external_chunks().size() == 1);
  CHECK(spliced(moved) == expected);
  output_stream assigned;
  assigned = std::move(moved);
  CHECK(spliced(assigned) == expected);
  CHECK_FALSE(moved.has_external_chunks());  // NOLINT(bugprone-use-after-move): moved-from is empty
}

TEST_CASE("zero-length blocks never become chunks", "[cdr][external]") {
  output_stream out;
  out.set_external_threshold(1);
  out.write_octets(nullptr, 0);
  out.write_array(static_cast<const double*>(nullptr), 0);
  CHECK_FALSE(out.has_external_chunks());
  CHECK(out.size() == 0);
}
