// FixedPoint::Ledger (fixed_point.idl), shared by the backend tests and tests/interop: the
// servant our ORB serves, and the calls a client makes against any Ledger server (ours or
// omniORB's), each checking the exact value that comes back.
#pragma once

#include "fixed_point.h"

#include <catch2/catch.hpp>

#include <mutex>
#include <string>

namespace test {

struct ledger_servant final : FixedPoint::Ledger_skeleton {
  std::mutex mutex;
  FixedPoint::Money limit_value{"1000"};

  FixedPoint::Money echo_money(const FixedPoint::Money& m) override { return m; }
  FixedPoint::Rate echo_rate(const FixedPoint::Rate& r) override { return r; }
  FixedPoint::Whole echo_whole(const FixedPoint::Whole& w) override { return w; }
  FixedPoint::Fraction echo_fraction(const FixedPoint::Fraction& f) override { return f; }
  FixedPoint::Digit echo_digit(const FixedPoint::Digit& d) override { return d; }
  FixedPoint::MoneyList echo_list(const FixedPoint::MoneyList& l) override { return l; }
  FixedPoint::RateTable echo_table(const FixedPoint::RateTable& t) override { return t; }
  FixedPoint::Account echo_account(const FixedPoint::Account& a) override { return a; }
  FixedPoint::Accounts echo_accounts(const FixedPoint::Accounts& a) override { return a; }
  FixedPoint::Amount echo_amount(const FixedPoint::Amount& a) override { return a; }
  switchyard::any echo_any(const switchyard::any& a) override { return a; }
  FixedPoint::Money combine(FixedPoint::Money& a, const FixedPoint::Money& b, FixedPoint::Money& sum) override {
    const FixedPoint::Money before = a;
    sum = a + b;
    a = a * 2;
    return before - b;
  }
  FixedPoint::Money withdraw(const FixedPoint::Money& balance, const FixedPoint::Money& amount) override {
    if (amount > balance) throw FixedPoint::Overdrawn(amount - balance);
    return balance - amount;
  }
  FixedPoint::Money limit() override {
    std::lock_guard lock(mutex);
    return limit_value;
  }
  void limit(const FixedPoint::Money& value) override {
    std::lock_guard lock(mutex);
    limit_value = value;
  }
};

inline FixedPoint::Account sample_account(int k) {
  using switchyard::fixed;
  return {"owner " + std::to_string(k), fixed(k) * fixed("1.00001") - fixed(500), fixed(k % 100) / fixed(4),
          fixed("0.125") * fixed(k % 7), k};
}

// Every operation of Ledger, with values at the edges of each type. `with_unions` false leaves
// out echo_amount, for omniORB 4.2's servant: its unions copy-construct their fixed members,
// which loses their digits, and marshaling the copy fails an assertion.
inline void check_ledger_calls(FixedPoint::Ledger& ledger, bool with_unions = true) {
  using switchyard::fixed;
  for (const char* text : {"12345.67891", "-0.00001", "0", "99999.99999", "-99999.99999", "1.5"}) {
    CAPTURE(text);
    CHECK(ledger.echo_money(fixed(text)) == fixed(text));
  }
  CHECK(ledger.echo_money(FixedPoint::price) == fixed("12.345"));
  // The stub writes fixed<10,5>: digits past the scale are truncated, as omniORB does.
  CHECK(ledger.echo_money(fixed("1.123456789")) == fixed("1.12345"));
  CHECK(ledger.echo_money(fixed("-1.123456789")) == fixed("-1.12345"));
  for (const char* text : {"1.5", "-99.99", "0.01", "10"}) {
    CAPTURE(text);
    CHECK(ledger.echo_rate(fixed(text)) == fixed(text));
  }
  for (const char* text : {"9999999999999999999999999999999", "-1234567890123456789012345678901", "0", "1"}) {
    CAPTURE(text);
    CHECK(ledger.echo_whole(fixed(text)) == fixed(text));
  }
  for (const char* text : {"0.9999999999999999999999999999999", "-0.0000000000000000000000000000001", "0.5"}) {
    CAPTURE(text);
    CHECK(ledger.echo_fraction(fixed(text)) == fixed(text));
  }
  CHECK(ledger.echo_digit(fixed(7)) == fixed(7));
  CHECK(ledger.echo_digit(fixed(-9)) == fixed(-9));

  FixedPoint::MoneyList list;
  for (int k = 0; k < 1000; ++k) list.push_back(fixed(k - 500) * fixed("1.00001") + fixed("0.00003"));
  CHECK(ledger.echo_list(list) == list);
  CHECK(ledger.echo_list({}).empty());
  const FixedPoint::RateTable table{fixed("1.25"), fixed("-2.5"), fixed(0)};
  CHECK(ledger.echo_table(table) == table);

  CHECK(ledger.echo_account(sample_account(42)) == sample_account(42));
  FixedPoint::Accounts accounts;
  for (int k = 0; k < 100; ++k) accounts.push_back(sample_account(k));
  CHECK(ledger.echo_accounts(accounts) == accounts);

  if (with_unions) {
    FixedPoint::Amount exact, estimate;
    exact.exact(fixed("12.34567"));
    estimate.estimate(fixed("-0.5"));
    CHECK(ledger.echo_amount(exact) == exact);
    CHECK(ledger.echo_amount(estimate) == estimate);
  }

  // Anys: a typedef's named insertion, the plain fixed<d,s> of a value, and a struct.
  switchyard::any money_any;
  FixedPoint::insert_Money(money_any, fixed("-42.5"));
  FixedPoint::Money money_back;
  REQUIRE(FixedPoint::extract_Money(ledger.echo_any(money_any), money_back));
  CHECK(money_back == fixed("-42.5"));
  switchyard::any plain;
  plain <<= fixed("3.14159");
  fixed plain_back;
  REQUIRE((ledger.echo_any(plain) >>= plain_back));
  CHECK(plain_back == fixed("3.14159"));
  switchyard::any account_any;
  account_any <<= sample_account(7);
  FixedPoint::Account account_back;
  REQUIRE((ledger.echo_any(account_any) >>= account_back));
  CHECK(account_back == sample_account(7));

  FixedPoint::Money a{"10.5"}, sum;
  CHECK(ledger.combine(a, fixed("0.25"), sum) == fixed("10.25"));
  CHECK(a == fixed(21));
  CHECK(sum == fixed("10.75"));

  CHECK(ledger.withdraw(fixed(100), fixed("30.01")) == fixed("69.99"));
  try {
    ledger.withdraw(fixed(100), fixed("150.5"));
    FAIL("withdraw past the balance returned");
  } catch (const FixedPoint::Overdrawn& e) {
    CHECK(e.by == fixed("50.5"));
  }

  ledger.limit(fixed("500.25"));
  CHECK(ledger.limit() == fixed("500.25"));

  // Too many integer digits for fixed<10,5>: refused before sending, and the connection serves on.
  try {
    ledger.echo_money(fixed("123456"));
    FAIL("a fixed<10,5> of six integer digits was sent");
  } catch (const switchyard::SystemException& e) {
    CHECK(e.kind() == switchyard::SystemExceptionKind::DATA_CONVERSION);
    CHECK(e.completed() == switchyard::CompletionStatus::no);
  }
  CHECK(ledger.echo_money(fixed("2.5")) == fixed("2.5"));
}

}  // namespace test
