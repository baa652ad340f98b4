// Fixed-point types through generated code: the CDR octets of each typedef, members, sequences,
// arrays and unions read back in both byte orders, constants, Anys, and every Ledger operation
// end to end through our ORB at each GIOP version.
#include "fixed_point.h"

#include <catch2/catch.hpp>

#include "tests/core/orb_fixture.h"
#include "tests/idl_compiler/backend/ledger_calls.h"

using namespace switchyard;

namespace {

template <class T>
T round_trip(const T& value) {
  cdr::output_stream out;
  cdr_write(out, value);
  cdr::input_stream in(out.bytes(), cdr::native_byte_order);
  T back{};
  cdr_read(in, back);
  CHECK(in.remaining() == 0);
  return back;
}

std::vector<std::uint8_t> octets_of(std::span<const std::byte> bytes, std::size_t from, std::size_t to) {
  return {reinterpret_cast<const std::uint8_t*>(bytes.data()) + from,
          reinterpret_cast<const std::uint8_t*>(bytes.data()) + to};
}

}  // namespace

TEST_CASE("fixed-point constants hold their exact values", "[idl_compiler][backend][fixed]") {
  CHECK(FixedPoint::price == fixed("12.345"));
  CHECK(FixedPoint::half == fixed("0.5"));
  CHECK(FixedPoint::third == fixed("0.3333333333333333333333333333333"));
  CHECK(FixedPoint::third.fixed_digits() == 31);
  CHECK(FixedPoint::product == fixed(3));  // 1.5 * 2.25 - 0.375, exactly
}

TEST_CASE("fixed-point members are packed decimals at their declared digits and scale",
          "[idl_compiler][backend][fixed]") {
  // Account: string "ab" (octets 0-6), Money 1.5 (fixed<10,5>: 6 octets), Rate -0.25
  // (fixed<5,2>: 3), fee 0.125 (fixed<6,3>: 4), then the long (at 20, aligned). Packed decimals have
  // no byte order.
  const FixedPoint::Account account{"ab", fixed("1.5"), fixed("-0.25"), fixed("0.125"), 7};
  cdr::output_stream out;
  cdr_write(out, account);
  REQUIRE(out.bytes().size() == 24);
  CHECK(octets_of(out.bytes(), 7, 20) == std::vector<std::uint8_t>{0x00, 0x00, 0x01, 0x50, 0x00, 0x0c,  // 00001.50000+
                                                                   0x00, 0x02, 0x5d,                    // 000.25-
                                                                   0x00, 0x00, 0x12, 0x5c});            // 000.125+
  CHECK(round_trip(account) == account);
  FixedPoint::Amount amount;
  amount.estimate(fixed("-99.99"));
  CHECK(round_trip(amount) == amount);
  amount.exact(fixed("-99999.99999"));
  CHECK(round_trip(amount) == amount);
  const FixedPoint::Tally tally{fixed("-12.5"), "anonymous fixed<3,1>"};
  CHECK(round_trip(tally) == tally);
  cdr::output_stream tally_out;
  cdr_write(tally_out, tally);
  CHECK(octets_of(tally_out.bytes(), 0, 2) == std::vector<std::uint8_t>{0x12, 0x5d});
  const FixedPoint::RateTable table{fixed("0.01"), fixed("-10"), fixed(0)};
  cdr::output_stream table_out;
  table_out.write_fixed(table[0], 4, 2);
  CHECK(octets_of(table_out.bytes(), 0, 3) == std::vector<std::uint8_t>{0x00, 0x00, 0x1c});
}

TEST_CASE("a fixed-point value that does not fit its type is refused", "[idl_compiler][backend][fixed]") {
  cdr::output_stream out;
  const FixedPoint::Account account{"", fixed("100000"), fixed(0), fixed(0), 0};  // Money holds 5 integer digits
  try {
    cdr_write(out, account);
    FAIL("written");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::DATA_CONVERSION);
    CHECK(e.minor() == minor::fixed_out_of_range);
  }
}

TEST_CASE("a packed decimal with a bad nibble is MARSHAL, through generated code and Anys",
          "[idl_compiler][backend][fixed]") {
  // Rate (fixed<5,2>): 0x00 0x1a 0x5c has the digit nibble 0xa.
  const std::uint8_t octets[] = {0, 0, 0, 0, 0x00, 0x1a, 0x5c, 0};
  cdr::input_stream in(std::as_bytes(std::span(octets)), cdr::byte_order::big_endian);
  in.skip(4);
  try {
    (void)in.read_fixed(5, 2);
    FAIL("read");
  } catch (const SystemException& e) {
    CHECK(e.kind() == SystemExceptionKind::MARSHAL);
    CHECK(e.minor() == minor::bad_fixed);
  }
  // An Any's value is checked through its TypeCode when it is read from a message.
  any a;
  FixedPoint::insert_Rate(a, fixed("1.5"));
  cdr::output_stream out;
  write_any(out, a);
  auto bytes = std::vector<std::byte>(out.bytes().begin(), out.bytes().end());
  bytes[bytes.size() - 2] = std::byte{0x1a};  // 0x01 0x50 0x0c: the middle octet
  cdr::input_stream bad(bytes, cdr::native_byte_order);
  any back;
  CHECK_THROWS_AS(read_any(bad, back), SystemException);
}

TEST_CASE("fixed-point typedefs in Anys: named insertion and extraction", "[idl_compiler][backend][fixed]") {
  any a;
  FixedPoint::insert_Money(a, fixed("-7.25"));
  CHECK(a.type().unaliased().kind() == tc_kind::tk_fixed);
  CHECK(a.type().unaliased().fixed_digits() == 10);
  CHECK(a.type().unaliased().fixed_scale() == 5);
  FixedPoint::Money money;
  REQUIRE(FixedPoint::extract_Money(a, money));
  CHECK(money == fixed("-7.25"));
  fixed plain;
  REQUIRE((a >>= plain));  // any fixed TypeCode
  CHECK(plain == fixed("-7.25"));
  std::string text;
  CHECK_FALSE((a >>= text));
  FixedPoint::MoneyList list{fixed(1), fixed("-0.00001")}, list_back;
  FixedPoint::insert_MoneyList(a, list);
  REQUIRE(FixedPoint::extract_MoneyList(a, list_back));
  CHECK(list_back == list);
}

TEST_CASE("every Ledger operation end to end with fixed-point values", "[idl_compiler][backend][fixed]") {
  auto giop = GENERATE("1.0", "1.1", "1.2");
  CAPTURE(giop);
  test::serving_orb server({"-ORBGIOPVersion", giop});
  auto servant = std::make_shared<test::ledger_servant>();
  auto ior = server.orb->object_to_string(server.orb->root_adapter().activate(servant));
  server.start();
  auto client = orb_init({"-ORBGIOPVersion", giop});
  auto ledger = FixedPoint::Ledger::_narrow(client->string_to_object(ior));
  REQUIRE_FALSE(ledger._is_nil());
  test::check_ledger_calls(ledger);
}
