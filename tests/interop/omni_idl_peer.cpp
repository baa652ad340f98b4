// omniORB's side of the interop tests of IDL constructs (tests/idl_compiler/backend/):
// fixed-point types (fixed_point.idl) and contexts (contexts.idl).
//
//   omni_idl_peer server --ior-file F [--seconds N] [--servants N (ignored)] [-ORB...]
//     (the mode word may stand anywhere among the arguments)
//     serves FixedPoint::Ledger and Contexts::Probe on 127.0.0.1 with the semantics of
//     ledger_calls.h and probe_calls.h, writes "echo IOR:..." (the Ledger: the name
//     omni_server_process.h reads) and "probe IOR:..." to F (whole, by rename), and runs until
//     SIGTERM/SIGINT or N seconds (default 120).
//   omni_idl_peer client --ledger IOR --probe IOR [-ORB...]
//     calls a Ledger (ours) with values at the edges of each fixed type: typedefs of odd and even
//     digits, fixed<31,0> and fixed<31,31>, members, sequences, arrays, unions, Anys, inout and
//     out parameters, a user exception and an attribute; then a Probe with a context whose
//     properties the operations' clauses match or not. Prints "ok NAME" or "FAIL NAME: why" per
//     check; exit 0 only when all pass.
#include <omniORB4/CORBA.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "contexts.hh"
#include "fixed_point.hh"

namespace {

volatile std::sig_atomic_t stop_requested = 0;
extern "C" void on_stop_signal(int) { stop_requested = 1; }

using FixedPoint::Money;
using FixedPoint::Rate;

class ledger final : public POA_FixedPoint::Ledger {
 public:
  Money echo_money(const Money& m) override { return m; }
  Rate echo_rate(const Rate& r) override { return r; }
  FixedPoint::Whole echo_whole(const FixedPoint::Whole& w) override { return w; }
  FixedPoint::Fraction echo_fraction(const FixedPoint::Fraction& f) override { return f; }
  FixedPoint::Digit echo_digit(const FixedPoint::Digit& d) override { return d; }
  FixedPoint::MoneyList* echo_list(const FixedPoint::MoneyList& l) override { return new FixedPoint::MoneyList(l); }
  FixedPoint::RateTable_slice* echo_table(const FixedPoint::RateTable t) override {
    return FixedPoint::RateTable_dup(t);
  }
  // Member by member: omniORB 4.2's _omni_Fixed has an implicit copy constructor, which drops
  // the digits and scale, and marshaling such a copy fails an assertion. Assignment keeps them.
  FixedPoint::Account* echo_account(const FixedPoint::Account& a) override {
    FixedPoint::Account* copy = new FixedPoint::Account();
    copy->owner = a.owner;
    copy->balance = a.balance;
    copy->interest = a.interest;
    copy->fee = a.fee;
    copy->id = a.id;
    return copy;
  }
  FixedPoint::Accounts* echo_accounts(const FixedPoint::Accounts& a) override { return new FixedPoint::Accounts(a); }
  // Never called: a union's setter copy-constructs its fixed member (see echo_account), so
  // omniORB 4.2 cannot marshal a union holding one.
  FixedPoint::Amount echo_amount(const FixedPoint::Amount& a) override { return a; }
  CORBA::Any* echo_any(const CORBA::Any& a) override { return new CORBA::Any(a); }
  Money combine(Money& a, const Money& b, Money& sum) override {
    const Money before = a;
    sum = a + b;
    a = a * CORBA::Fixed(2);
    return before - b;
  }
  Money withdraw(const Money& balance, const Money& amount) override {
    if (amount > balance) throw FixedPoint::Overdrawn(amount - balance);
    return balance - amount;
  }
  Money limit() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return limit_;
  }
  void limit(const Money& value) override {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = value;
  }

 private:
  std::mutex mutex_;
  Money limit_ = "1000";
};

// The properties of a context, "name=value" in name order, after `first`.
Contexts::Strings* listed(const std::string& first, CORBA::Context_ptr ctx) {
  std::vector<std::string> lines;
  CORBA::NVList_var values;
  try {
    if (!CORBA::is_nil(ctx)) ctx->get_values(nullptr, 0, "*", values.out());
  } catch (const CORBA::BAD_CONTEXT&) {  // omniORB 4.2's answer when no property matches
  }
  for (CORBA::ULong k = 0; !CORBA::is_nil(values) && k < values->count(); ++k) {
    CORBA::NamedValue_ptr item = values->item(k);
    const char* value = "";
    *item->value() >>= value;
    lines.push_back(std::string(item->name()) + "=" + value);
  }
  std::sort(lines.begin(), lines.end());
  Contexts::Strings* out = new Contexts::Strings();
  out->length(static_cast<CORBA::ULong>(lines.size() + 1));
  (*out)[0] = CORBA::string_dup(first.c_str());
  for (CORBA::ULong k = 0; k < lines.size(); ++k) (*out)[k + 1] = CORBA::string_dup(lines[k].c_str());
  return out;
}

class probe final : public POA_Contexts::Probe {
 public:
  Contexts::Strings* seen(CORBA::Long tag, char*& note, CORBA::Context_ptr _ctxt) override {
    std::string noted = std::string(note) + " seen";
    CORBA::string_free(note);
    note = CORBA::string_dup(noted.c_str());
    return listed(std::to_string(tag), _ctxt);
  }
  Contexts::Strings* seen_none(const char* label, CORBA::Context_ptr _ctxt) override { return listed(label, _ctxt); }
  Contexts::Strings* seen_without(CORBA::Long tag) override {
    return listed(std::to_string(tag), CORBA::Context::_nil());
  }
  void remember(const char* label, CORBA::Context_ptr _ctxt) override {
    Contexts::Strings_var now = listed(label, _ctxt);
    std::lock_guard<std::mutex> lock(mutex_);
    remembered_ = now;
  }
  Contexts::Strings* remembered() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return new Contexts::Strings(remembered_);
  }

 private:
  std::mutex mutex_;
  Contexts::Strings remembered_;
};

bool write_ior_file(const std::string& path, const std::string& text) {
  {
    std::ofstream out(path + ".tmp");
    out << text;
    if (!out) return false;
  }
  return std::rename((path + ".tmp").c_str(), path.c_str()) == 0;
}

int serve(CORBA::ORB_ptr orb, const std::string& ior_file, unsigned seconds) {
  CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
  PortableServer::POA_var poa = PortableServer::POA::_narrow(object);
  ledger* servant = new ledger();
  PortableServer::ObjectId_var id = poa->activate_object(servant);
  CORBA::Object_var reference = poa->id_to_reference(id);
  CORBA::String_var ior = orb->object_to_string(reference);
  probe* probe_servant = new probe();
  PortableServer::ObjectId_var probe_id = poa->activate_object(probe_servant);
  CORBA::Object_var probe_reference = poa->id_to_reference(probe_id);
  CORBA::String_var probe_ior = orb->object_to_string(probe_reference);
  PortableServer::POAManager_var manager = poa->the_POAManager();
  manager->activate();
  if (!write_ior_file(ior_file, std::string("echo ") + ior.in() + "\nprobe " + probe_ior.in() + "\n")) {
    std::cerr << "omni_idl_peer: cannot write " << ior_file << "\n";
    return 1;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!stop_requested && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  manager->deactivate(true, true);
  servant->_remove_ref();
  probe_servant->_remove_ref();
  return 0;
}

// ---------------------------------------------------------------- the client's checks

int failures = 0;

void check(bool ok, const std::string& name, const std::string& why = "") {
  if (ok) {
    std::cout << "ok " << name << "\n";
  } else {
    std::cout << "FAIL " << name << (why.empty() ? "" : ": " + why) << "\n";
    ++failures;
  }
}

std::string text(const CORBA::Fixed& f) {
  CORBA::String_var s = f.to_string();
  return s.in();
}

// A call that must return `expected`, compared as values (1.50 == 1.5).
void check_value(const std::string& name, const CORBA::Fixed& got, const CORBA::Fixed& expected) {
  check(got == expected, name, "got " + text(got) + ", expected " + text(expected));
}

// Filled in place: a copy-constructed Account would lose its fixed members' digits (above).
void fill_account(FixedPoint::Account& a, int k) {
  a.owner = CORBA::string_dup(("owner " + std::to_string(k)).c_str());
  a.balance = CORBA::Fixed(k) * CORBA::Fixed("1.00001") - CORBA::Fixed(500);
  a.interest = CORBA::Fixed(k % 100) / CORBA::Fixed(4);
  a.fee = CORBA::Fixed("0.125") * CORBA::Fixed(k % 7);
  a.id = k;
}

bool same(const FixedPoint::Account& a, const FixedPoint::Account& b) {
  return std::string(a.owner.in()) == b.owner.in() && a.balance == b.balance && a.interest == b.interest &&
         a.fee == b.fee && a.id == b.id;
}

void run_ledger_checks(FixedPoint::Ledger_ptr l) {
  for (const char* v : {"12345.67891", "-0.00001", "0", "99999.99999", "-99999.99999", "1.5"})
    check_value(std::string("echo_money ") + v, l->echo_money(Money(v)), CORBA::Fixed(v));
  // Our server reads the scale it was sent: omniORB writes 1.123456789 as fixed<10,5>, 1.12345.
  check_value("echo_money truncates past the scale", l->echo_money(Money("1.123456789")), CORBA::Fixed("1.12345"));
  for (const char* v : {"1.5", "-99.99", "0.01", "10"})
    check_value(std::string("echo_rate ") + v, l->echo_rate(Rate(v)), CORBA::Fixed(v));
  for (const char* v : {"9999999999999999999999999999999", "-1234567890123456789012345678901", "0", "1"})
    check_value(std::string("echo_whole ") + v, l->echo_whole(FixedPoint::Whole(v)), CORBA::Fixed(v));
  for (const char* v : {"0.9999999999999999999999999999999", "-0.0000000000000000000000000000001", "0.5"})
    check_value(std::string("echo_fraction ") + v, l->echo_fraction(FixedPoint::Fraction(v)), CORBA::Fixed(v));
  check_value("echo_digit 7", l->echo_digit(FixedPoint::Digit(7)), CORBA::Fixed(7));
  check_value("echo_digit -9", l->echo_digit(FixedPoint::Digit(-9)), CORBA::Fixed(-9));

  FixedPoint::MoneyList list;
  list.length(1000);
  for (CORBA::ULong k = 0; k < 1000; ++k)
    list[k] = CORBA::Fixed(static_cast<int>(k) - 500) * CORBA::Fixed("1.00001") + CORBA::Fixed("0.00003");
  FixedPoint::MoneyList_var list_back = l->echo_list(list);
  bool same_list = list_back->length() == list.length();
  for (CORBA::ULong k = 0; same_list && k < list.length(); ++k) same_list = list_back[k] == list[k];
  check(same_list, "echo_list of 1000 Money");

  FixedPoint::RateTable table;
  table[0] = "1.25";
  table[1] = "-2.5";
  table[2] = 0;
  FixedPoint::RateTable_var table_back = l->echo_table(table);
  check(table_back[0] == table[0] && table_back[1] == table[1] && table_back[2] == table[2], "echo_table");

  FixedPoint::Account sample42, sample7;
  fill_account(sample42, 42);
  fill_account(sample7, 7);
  FixedPoint::Account_var one = l->echo_account(sample42);
  check(same(one.in(), sample42), "echo_account");
  FixedPoint::Accounts accounts;
  accounts.length(100);
  for (CORBA::ULong k = 0; k < 100; ++k) fill_account(accounts[k], static_cast<int>(k));
  FixedPoint::Accounts_var accounts_back = l->echo_accounts(accounts);
  bool same_accounts = accounts_back->length() == 100;
  for (CORBA::ULong k = 0; same_accounts && k < 100; ++k) same_accounts = same(accounts_back[k], accounts[k]);
  check(same_accounts, "echo_accounts of 100");

  // No echo_amount: omniORB 4.2 cannot marshal a union holding a fixed (see the servant's).

  {
    CORBA::Any sent;
    sent <<= CORBA::Any::from_fixed(CORBA::Fixed("-42.5"), 10, 5);
    CORBA::Any_var back = l->echo_any(sent);
    CORBA::Fixed got;
    check((back.in() >>= CORBA::Any::to_fixed(got, 10, 5)) && got == CORBA::Fixed("-42.5"), "echo_any fixed<10,5>",
          text(got));
  }
  {
    CORBA::Any sent;
    FixedPoint::Account* held = new FixedPoint::Account();
    fill_account(*held, 7);
    sent <<= held;  // the Any takes it: `sent <<= sample7` would copy-construct (above)
    CORBA::Any_var back = l->echo_any(sent);
    const FixedPoint::Account* got = nullptr;
    check((back.in() >>= got) && got != nullptr && same(*got, sample7), "echo_any Account");
  }

  Money a = "10.5", sum;
  Money result = l->combine(a, Money("0.25"), sum);
  check(result == CORBA::Fixed("10.25") && a == CORBA::Fixed(21) && sum == CORBA::Fixed("10.75"),
        "combine (inout, out, result)", text(result) + " " + text(a) + " " + text(sum));

  check_value("withdraw", l->withdraw(Money(100), Money("30.01")), CORBA::Fixed("69.99"));
  try {
    l->withdraw(Money(100), Money("150.5"));
    check(false, "withdraw raises Overdrawn", "it returned");
  } catch (const FixedPoint::Overdrawn& e) {
    check_value("withdraw raises Overdrawn", e.by, CORBA::Fixed("50.5"));
  }

  l->limit(Money("500.25"));
  check_value("attribute limit", l->limit(), CORBA::Fixed("500.25"));
}

std::string joined(const Contexts::Strings& strings) {
  std::string out;
  for (CORBA::ULong k = 0; k < strings.length(); ++k) out += (k ? "|" : "") + std::string(strings[k].in());
  return out;
}

void check_strings(const std::string& name, const Contexts::Strings& got, const std::string& expected) {
  check(joined(got) == expected, name, "got " + joined(got) + ", expected " + expected);
}

void run_probe_checks(CORBA::ORB_ptr orb, Contexts::Probe_ptr p) {
  // Children of the default context (which is one object per process, and stays empty).
  CORBA::Context_var root, ctx, empty;
  orb->get_default_context(root.out());
  root->create_child("probe", ctx.out());
  root->create_child("empty", empty.out());
  const char* const properties[][2] = {
      {"test", "hello"},     {"app_user", "ada"},     {"app_", "empty suffix"},
      {"apple", "not app_"}, {"testing", "not test"}, {"nothing", "only seen_none's pattern matches nothing*"}};
  for (const auto& property : properties) {
    CORBA::Any value;
    value <<= property[1];
    ctx->set_one_value(property[0], value);
  }
  CORBA::String_var note = CORBA::string_dup("a note");
  Contexts::Strings_var seen = p->seen(7, note.inout(), ctx);
  check_strings("seen: the properties test and app_* match", seen.in(), "7|app_=empty suffix|app_user=ada|test=hello");
  check(std::string(note.in()) == "a note seen", "seen: the inout string before the context", note.in());
  Contexts::Strings_var none = p->seen_none("none", ctx);
  check_strings("seen_none: nothing* matches", none.in(), "none|nothing=only seen_none's pattern matches nothing*");
  Contexts::Strings_var none_empty = p->seen_none("none", empty);
  check_strings("seen_none with no properties", none_empty.in(), "none");
  Contexts::Strings_var without = p->seen_without(3);
  check_strings("seen_without: no context clause", without.in(), "3");
  p->remember("remembered", ctx);
  Contexts::Strings_var remembered = p->remembered();
  for (int k = 0; k < 200 && remembered->length() == 0; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    remembered = p->remembered();
  }
  check_strings("a one-way call's context", remembered.in(), "remembered|test=hello");
}

[[noreturn]] void usage(const char* why) {
  std::cerr << "omni_idl_peer: " << why
            << "\nusage: omni_idl_peer server --ior-file F [--seconds N] | client --ledger IOR --probe IOR\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
  std::string mode, ior_file, ledger_ior, probe_ior;
  unsigned seconds = 120;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* why) -> std::string {
      if (i + 1 >= argc) usage(why);
      return argv[++i];
    };
    if (a == "--ior-file") ior_file = value("--ior-file needs a path");
    else if (a == "--ledger") ledger_ior = value("--ledger needs an IOR");
    else if (a == "--probe") probe_ior = value("--probe needs an IOR");
    else if (a == "--seconds") seconds = static_cast<unsigned>(std::stoul(value("--seconds needs a number")));
    else if (a == "--servants") value("--servants needs a number");
    else if ((a == "server" || a == "client") && mode.empty()) mode = a;  // anywhere (omni_server_process.h appends it)
    else usage(("unknown argument " + a).c_str());
  }
  struct sigaction stop_action {};
  stop_action.sa_handler = on_stop_signal;
  sigaction(SIGTERM, &stop_action, nullptr);
  sigaction(SIGINT, &stop_action, nullptr);
  int status = 0;
  try {
    if (mode == "server") {
      if (ior_file.empty()) usage("--ior-file is required");
      status = serve(orb, ior_file, seconds);
    } else if (mode == "client") {
      if (ledger_ior.empty() || probe_ior.empty()) usage("--ledger and --probe are required");
      CORBA::Object_var object = orb->string_to_object(ledger_ior.c_str());
      FixedPoint::Ledger_var ledger_ref = FixedPoint::Ledger::_narrow(object);
      if (CORBA::is_nil(ledger_ref)) usage("the --ledger IOR is not a Ledger");
      run_ledger_checks(ledger_ref);
      CORBA::Object_var probe_object = orb->string_to_object(probe_ior.c_str());
      Contexts::Probe_var probe_ref = Contexts::Probe::_narrow(probe_object);
      if (CORBA::is_nil(probe_ref)) usage("the --probe IOR is not a Probe");
      run_probe_checks(orb, probe_ref);
      status = failures == 0 ? 0 : 1;
    } else {
      usage("mode is server or client");
    }
  } catch (const CORBA::SystemException& e) {
    std::cerr << "omni_idl_peer: " << e._name() << " minor 0x" << std::hex << e.minor() << std::dec << "\n";
    status = 1;
  } catch (const CORBA::Exception& e) {
    std::cerr << "omni_idl_peer: " << e._name() << "\n";
    status = 1;
  }
  orb->destroy();
  return status;
}
