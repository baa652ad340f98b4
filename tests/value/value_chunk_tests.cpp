// A chunked value's state split between chunks anywhere between two primitives, as a sender may
// (omniORB ends a chunk where its 8 KiB buffer fills): every read of the state goes on in the
// next chunk (switchyard/cdr/input_stream.h, chunk_continuation), generated code's structs and
// runs are rejoined with their layouts, and what a hand-written read cannot rejoin without the
// members' types is refused with MARSHAL, never read wrong.
#include "values.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "switchyard/any.h"
#include "switchyard/exception.h"
#include "switchyard/value.h"
#include "tests/value/value_testing.h"

using namespace switchyard;
using namespace switchyard::test::values;

namespace {

struct point {
  std::int32_t x = 0, y = 0;
  bool operator==(const point&) const = default;
};

// valuetype Sample { long a; double d; string s; sequence<double> ds; Point p; sequence<Point> ps; }
// with struct Point { long x; long y; } read as generated code reads it: one 4-aligned block for
// the point, one for the run of points.
class Sample : public virtual value_base {
 public:
  static constexpr std::string_view repository_id = "IDL:Sample:1.0";
  static std::string_view _static_repository_id() noexcept { return repository_id; }
  std::string_view _repository_id() const noexcept override { return repository_id; }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 1> ids{repository_id};
    return ids;
  }
  void _write_state(cdr::output_stream&) const override {}  // these tests write by hand
  void _read_state(cdr::input_stream& in) override {
    a = in.read_long();
    d = in.read_double();
    s = in.read_string();
    in.read_sequence(ds);
    p = load_point(in.take_aligned(4, 8), in.swapping());
    ps.resize(in.read_length(8));
    if (!ps.empty()) {
      const std::byte* block = in.take_aligned(4, 8 * ps.size());
      for (std::size_t i = 0; i < ps.size(); ++i) ps[i] = load_point(block + 8 * i, in.swapping());
    }
  }
  static point load_point(const std::byte* at, bool swap) {
    return {cdr::load<std::int32_t>(at, swap), cdr::load<std::int32_t>(at + 4, swap)};
  }

  std::int32_t a = 0;
  double d = 0;
  std::string s;
  std::vector<double> ds;
  point p;
  std::vector<point> ps;
};

// Two reads that cannot be rejoined: a struct of two doubles (after a split at an 8-aligned
// member the next chunk's first 4 octets may be padding or data), and a struct laid out for its
// position (take_struct).
class Wide : public virtual value_base {
 public:
  static constexpr std::string_view repository_id = "IDL:Wide:1.0";
  static std::string_view _static_repository_id() noexcept { return repository_id; }
  std::string_view _repository_id() const noexcept override { return repository_id; }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 1> ids{repository_id};
    return ids;
  }
  void _write_state(cdr::output_stream&) const override {}
  void _read_state(cdr::input_stream& in) override {
    const std::byte* at = in.take_aligned(8, 16);
    x = cdr::load<double>(at, in.swapping());
    y = cdr::load<double>(at + 8, in.swapping());
    const std::byte* q = in.take_struct(8);
    p = Sample::load_point(q, in.swapping());
  }
  double x = 0, y = 0;
  point p;
};

// A chunked value written piece by piece, with a chunk boundary wherever cut() is called: the
// chunk ends where the last piece did, and the next piece's padding goes in the next chunk.
class chunked_value {
 public:
  explicit chunked_value(std::string_view repository_id) {
    out_.write_ulong(0x7fffff0a);  // a value tag: one repository id, chunked
    out_.write_string(repository_id);
    open();
  }
  cdr::output_stream& out() { return out_; }
  void cut() {
    close();
    open();
  }
  // Ends the chunk and the value (end tag -1), and returns the bytes.
  std::vector<std::byte> finish() {
    close();
    out_.write_long(-1);
    return bytes_of(out_);
  }

 private:
  void open() {
    out_.align(4);
    length_at_ = out_.size();
    out_.write_long(0);
  }
  void close() {
    auto length = static_cast<std::int32_t>(out_.size() - length_at_ - 4);
    REQUIRE(length > 0);
    std::memcpy(out_.data() + length_at_, &length, 4);
  }

  cdr::output_stream out_;
  std::size_t length_at_ = 0;
};

using piece = std::function<void(cdr::output_stream&)>;

// Sample's state as the pieces a sender may put a chunk boundary between: every primitive, and
// a string's characters in two parts.
std::vector<piece> sample_pieces() {
  std::vector<piece> pieces;
  pieces.push_back([](auto& o) { o.write_long(7); });
  pieces.push_back([](auto& o) { o.write_double(2.5); });
  pieces.push_back([](auto& o) { o.write_ulong(6); });  // "hello" and its NUL
  pieces.push_back([](auto& o) { o.write_octets("hel", 3); });
  pieces.push_back([](auto& o) { o.write_octets("lo", 3); });
  pieces.push_back([](auto& o) { o.write_ulong(3); });
  for (double v : {1.5, -2.25, 3.75}) pieces.push_back([v](auto& o) { o.write_double(v); });
  for (std::int32_t v : {3, 4}) pieces.push_back([v](auto& o) { o.write_long(v); });
  pieces.push_back([](auto& o) { o.write_ulong(2); });
  for (std::int32_t v : {5, 6, 7, 8}) pieces.push_back([v](auto& o) { o.write_long(v); });
  return pieces;
}

// The pieces in one chunked value, with a boundary after each piece `cut_after` says.
std::vector<std::byte> write_pieces(std::string_view id, const std::vector<piece>& pieces,
                                    const std::function<bool(std::size_t)>& cut_after) {
  chunked_value v(id);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    pieces[i](v.out());
    if (i + 1 < pieces.size() && cut_after(i)) v.cut();
  }
  return v.finish();
}

void check_sample(const value_ref<Sample>& back) {
  REQUIRE(back);
  CHECK(back->a == 7);
  CHECK(back->d == 2.5);
  CHECK(back->s == "hello");
  CHECK(back->ds == std::vector<double>{1.5, -2.25, 3.75});
  CHECK(back->p == point{3, 4});
  CHECK(back->ps == std::vector<point>{{5, 6}, {7, 8}});
}

value_ref<Sample> read_sample(const std::vector<std::byte>& bytes) {
  auto in = reader_of(bytes);
  value_ref<Sample> back;
  read_value(in, back);
  CHECK(in.at_end());
  return back;
}

}  // namespace

TEST_CASE("a state split after any one of its primitives reads back whole", "[value][chunks]") {
  auto registered = factories::of<Sample>();
  const auto pieces = sample_pieces();
  check_sample(read_sample(write_pieces(Sample::repository_id, pieces, [](std::size_t) { return false; })));
  for (std::size_t at = 0; at + 1 < pieces.size(); ++at) {
    INFO("a chunk boundary after piece " << at);
    check_sample(read_sample(write_pieces(Sample::repository_id, pieces, [at](std::size_t i) { return i == at; })));
  }
}

TEST_CASE("a state split after every primitive reads back whole", "[value][chunks]") {
  auto registered = factories::of<Sample>();
  auto bytes = write_pieces(Sample::repository_id, sample_pieces(), [](std::size_t) { return true; });
  check_sample(read_sample(bytes));
}

TEST_CASE("read without a layout, what only the members' types could rejoin raises MARSHAL", "[value][chunks]") {
  auto registered = factories::of<Wide>();
  auto wide = [](bool cut_doubles, bool cut_before_struct, bool cut_in_struct) {
    chunked_value v(Wide::repository_id);
    v.out().write_double(1.5);
    if (cut_doubles) v.cut();
    v.out().write_double(2.5);
    if (cut_before_struct) v.cut();
    v.out().write_long(3);
    if (cut_in_struct) v.cut();
    v.out().write_long(4);
    return v.finish();
  };
  auto read_wide = [](const std::vector<std::byte>& bytes) {
    auto in = reader_of(bytes);
    value_ref<Wide> back;
    read_value(in, back);
    return back;
  };
  SECTION("unsplit, both read") {
    auto back = read_wide(wide(false, false, false));
    REQUIRE(back);
    CHECK(back->x == 1.5);
    CHECK(back->y == 2.5);
    CHECK(back->p == point{3, 4});
  }
  SECTION("8-aligned members split") {
    CHECK(marshal_minor_of([&] { read_wide(wide(true, false, false)); }) == minor::split_between_chunks);
  }
  SECTION("a struct laid out for its position, in the next chunk") {
    CHECK(marshal_minor_of([&] { read_wide(wide(false, true, false)); }) == minor::split_between_chunks);
  }
  SECTION("a struct laid out for its position, split") {
    CHECK(marshal_minor_of([&] { read_wide(wide(false, false, true)); }) == minor::split_between_chunks);
  }
}

namespace {

// Bulk's state (values.idl) with a few elements of each member, as pieces: its Readings are laid
// out for where they start (the first read alone, the rest as a run) and Span holds doubles, so
// only the generated layouts rejoin them.
std::vector<piece> bulk_pieces() {
  std::vector<piece> pieces;
  pieces.push_back([](auto& o) { o.write_long(21); });
  pieces.push_back([](auto& o) { o.write_ulong(1); });  // names: "ab"
  pieces.push_back([](auto& o) { o.write_ulong(3); });
  pieces.push_back([](auto& o) { o.write_octets("a", 1); });
  pieces.push_back([](auto& o) { o.write_octets("b", 2); });
  pieces.push_back([](auto& o) { o.write_ulong(1); });  // points: {1, -1}
  pieces.push_back([](auto& o) { o.write_long(1); });
  pieces.push_back([](auto& o) { o.write_long(-1); });
  pieces.push_back([](auto& o) { o.write_ulong(1); });  // weights: 0.5
  pieces.push_back([](auto& o) { o.write_double(0.5); });
  pieces.push_back([](auto& o) { o.write_ulong(3); });  // readings
  for (int i = 0; i < 3; ++i) {
    pieces.push_back([i](auto& o) { o.write_octet(static_cast<std::uint8_t>(i + 1)); });
    pieces.push_back([i](auto& o) { o.write_double(i * 0.25); });
    pieces.push_back([i](auto& o) { o.write_long(-i); });
  }
  pieces.push_back([](auto& o) { o.write_double(-1.5); });  // range
  pieces.push_back([](auto& o) { o.write_double(1e9); });
  return pieces;
}

void check_bulk(const std::vector<std::byte>& bytes) {
  auto in = reader_of(bytes);
  value_ref<Values::Bulk> back;
  read_value(in, back);
  CHECK(in.at_end());
  REQUIRE(back);
  CHECK(back->a() == 21);
  CHECK(back->names() == Values::NameSeq{"ab"});
  CHECK(back->points() == Values::PointSeq{{1, -1}});
  CHECK(back->weights() == Values::DoubleSeq{0.5});
  CHECK(back->readings() == Values::ReadingSeq{{1, 0.0, 0}, {2, 0.25, -1}, {3, 0.5, -2}});
  CHECK(back->range() == Values::Span{-1.5, 1e9});
}

}  // namespace

TEST_CASE("generated structs and runs split after any of their primitives read back whole", "[value][chunks]") {
  const auto pieces = bulk_pieces();
  const auto id = Values::Bulk::_static_repository_id();
  check_bulk(write_pieces(id, pieces, [](std::size_t) { return false; }));
  for (std::size_t at = 0; at + 1 < pieces.size(); ++at) {
    INFO("a chunk boundary after piece " << at);
    check_bulk(write_pieces(id, pieces, [at](std::size_t i) { return i == at; }));
  }
  INFO("a chunk boundary after every piece");
  check_bulk(write_pieces(id, pieces, [](std::size_t) { return true; }));
}

TEST_CASE("a chunk we write ends after a string that crosses a KiB of the message", "[value][chunks]") {
  // omniORB reads a message in 8 KiB buffers and continues a chunk across two of them only where
  // the array or string it is reading ends the chunk (orb/value/value_writer.h).
  value_ref<Values::Bulk> sent = new Values::OBV_Bulk(21, {std::string(3000, 'n')}, {}, {}, {}, {1.5, 2.5});
  cdr::output_stream out;
  write_value(out, sent);
  const auto bytes = bytes_of(out);
  auto in = reader_of(bytes);
  CHECK(in.read_ulong() == 0x7fffff0e);  // chunked, a list of repository ids
  REQUIRE(in.read_ulong() == 2);
  CHECK(in.read_string() == Values::Bulk::_static_repository_id());
  CHECK(in.read_string() == Values::Base::_static_repository_id());
  CHECK(in.read_long() == 4 + 4 + 4 + 3001);  // a, the names' count, the string: then the chunk ends
  in.skip(4 + 4 + 4 + 3001);
  const std::int32_t rest = in.read_long();  // the counts of points, weights, readings; the range
  CHECK(rest > 0);
  in.skip(static_cast<std::size_t>(rest));
  CHECK(in.read_long() == -1);
  CHECK(in.at_end());

  auto back_in = reader_of(bytes);
  value_ref<Values::Bulk> back;
  read_value(back_in, back);
  REQUIRE(back);
  CHECK(back->names() == sent->names());
  CHECK(back->range() == sent->range());
}

namespace {

// A truncatable value whose state raises an exception after a large array.
class Faulty : public virtual value_base {
 public:
  std::string_view _repository_id() const noexcept override { return "IDL:Faulty:1.0"; }
  std::span<const std::string_view> _truncatable_ids() const noexcept override {
    static constexpr std::array<std::string_view, 2> ids{"IDL:Faulty:1.0", "IDL:Base:1.0"};
    return ids;
  }
  void _write_state(cdr::output_stream& out) const override {
    const std::vector<double> many(500, 1.0);
    out.write_sequence(many.data(), many.size());
    throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no, "refused");
  }
  void _read_state(cdr::input_stream&) override {}
};

}  // namespace

TEST_CASE("a state that raises leaves the stream as it was for what follows", "[value][chunks]") {
  cdr::output_stream out;
  value_ref<Faulty> faulty = new Faulty;
  CHECK_THROWS_AS(write_value(out, faulty), SystemException);
  // No chunk is open any more: a block later goes in whole, and nothing else is written, even
  // past where the value's writer would have ended its chunk.
  out.reset();
  const std::vector<double> many(2000, 2.0);
  out.write_sequence(many.data(), many.size());
  CHECK(out.size() == 4 + 4 + 2000 * 8);
  const auto bytes = bytes_of(out);
  auto in = reader_of(bytes);
  std::vector<double> back;
  in.read_sequence(back);
  CHECK(back == many);
}

TEST_CASE("a malformed split is refused with MARSHAL", "[value][chunks]") {
  auto registered = factories::of<Sample>();
  SECTION("a primitive split in the middle") {
    chunked_value v(Sample::repository_id);
    v.out().write_octet(7);
    v.out().write_octet(0);
    v.cut();
    v.out().write_octet(0);
    v.out().write_octet(0);
    auto bytes = v.finish();
    CHECK(marshal_minor_of([&] { read_sample(bytes); }) == minor::split_between_chunks);
  }
  SECTION("the end tag where the state goes on") {
    auto pieces = sample_pieces();
    pieces.resize(2);  // a and d, then -1
    auto bytes = write_pieces(Sample::repository_id, pieces, [](std::size_t) { return true; });
    CHECK(marshal_minor_of([&] { read_sample(bytes); }) == minor::read_past_end);
  }
  SECTION("a sequence longer than the whole message") {
    auto pieces = sample_pieces();
    pieces[5] = [](auto& o) { o.write_ulong(1000); };  // 1000 doubles announced, 3 sent
    auto bytes = write_pieces(Sample::repository_id, pieces, [](std::size_t i) { return i == 5; });
    CHECK(marshal_minor_of([&] { read_sample(bytes); }) == minor::length_too_large);
  }
}

TEST_CASE("after the value, the stream reads only its own data again", "[value][chunks]") {
  auto registered = factories::of<Sample>();
  auto bytes = write_pieces(Sample::repository_id, sample_pieces(), [](std::size_t) { return true; });
  bytes.push_back(std::byte{1});  // one octet after the value
  auto in = reader_of(bytes);
  value_ref<Sample> back;
  read_value(in, back);
  check_sample(back);
  CHECK(marshal_minor_of([&] { in.read_long(); }) == minor::read_past_end);
  CHECK(in.read_octet() == 1);
}

namespace {

// Reads `bytes` as a T.
template <class T>
void read_as(const std::vector<std::byte>& bytes) {
  auto in = reader_of(bytes);
  value_ref<T> back;
  read_value(in, back);
}

// Calls `read` on `bytes` with each octet flipped three ways: a value or MARSHAL, never a crash.
void mutate_every_octet(const std::vector<std::byte>& bytes,
                        const std::function<void(const std::vector<std::byte>&)>& read) {
  int read_whole = 0, refused = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (std::uint8_t flip : {0x01, 0x80, 0xff}) {
      auto mutated = bytes;
      mutated[i] ^= std::byte{flip};
      try {
        read(mutated);
        ++read_whole;
      } catch (const SystemException& e) {
        CHECK(e.kind() == SystemExceptionKind::MARSHAL);
        ++refused;
      }
    }
  }
  CHECK(read_whole > 0);
  CHECK(refused > 0);
}

}  // namespace

TEST_CASE("every octet of a state split everywhere mutated: a value or MARSHAL, never a crash", "[value][chunks]") {
  auto registered = factories::of<Sample>();
  SECTION("hand-written reads") {
    mutate_every_octet(write_pieces(Sample::repository_id, sample_pieces(), [](std::size_t) { return true; }),
                       read_as<Sample>);
  }
  SECTION("generated structs and runs") {
    mutate_every_octet(
        write_pieces(Values::Bulk::_static_repository_id(), bulk_pieces(), [](std::size_t) { return true; }),
        read_as<Values::Bulk>);
  }
}

namespace {

// An Any of Bulk's TypeCode reads `bytes` without Bulk's factory (a dynamic value, orb/dynamic)
// and writes the value again; returns what it wrote.
std::vector<std::byte> relay_as_unknown_bulk(const std::vector<std::byte>& bytes) {
  factory_removed unknown(Values::Bulk::_static_repository_id());
  auto in = reader_of(bytes);
  any a;
  a.assign_from(Values::_tc_Bulk(), in);
  CHECK(in.at_end());
  cdr::output_stream out;
  write_value(out, a);
  return bytes_of(out);
}

}  // namespace

TEST_CASE("an Any without the value's factory reads a state split anywhere and sends it whole",
          "[value][chunks][any]") {
  const auto pieces = bulk_pieces();
  const auto id = Values::Bulk::_static_repository_id();
  check_bulk(relay_as_unknown_bulk(write_pieces(id, pieces, [](std::size_t) { return false; })));
  for (std::size_t at = 0; at + 1 < pieces.size(); ++at) {
    INFO("a chunk boundary after piece " << at);
    check_bulk(relay_as_unknown_bulk(write_pieces(id, pieces, [at](std::size_t i) { return i == at; })));
  }
  INFO("a chunk boundary after every piece");
  const auto everywhere = write_pieces(id, pieces, [](std::size_t) { return true; });
  check_bulk(relay_as_unknown_bulk(everywhere));

  // Every octet mutated: a value or MARSHAL, never a crash (and what is relayed reads again).
  mutate_every_octet(everywhere,
                     [](const std::vector<std::byte>& bytes) { read_as<Values::Bulk>(relay_as_unknown_bulk(bytes)); });
}
