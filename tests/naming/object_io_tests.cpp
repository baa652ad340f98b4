// Object references on the wire (switchyard/object_io.h): the nil IOR byte for byte, round trips,
// which ORB a read reference is bound to, malformed IORs, and references as parameters, results,
// out/inout, struct/union/exception members and sequence elements of generated stubs and
// skeletons (references.idl) between two ORBs on loopback.
#include "switchyard/object_io.h"

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

#include "orb/core/object_state.h"
#include "orb/core/orb_impl.h"
#include "references.h"
#include "switchyard/exception.h"
#include "switchyard/invocation.h"
#include "switchyard/orb.h"
#include "tests/naming/serving_orb.h"

using namespace switchyard;
using naming_test::serving_orb;

namespace {

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

template <class F>
SystemException system_exception_of(F&& f) {
  try {
    f();
  } catch (const SystemException& e) {
    return e;
  }
  FAIL("no SystemException raised");
  throw std::logic_error("unreachable");
}

core::orb_impl* orb_of(const object_ref& reference) { return &reference.state()->orb(); }

struct greeter final : refs::Greeter_skeleton {
  explicit greeter(std::string n) : name(std::move(n)) {}
  std::string name;
  std::atomic<int> count{0};
  std::string greet(const std::string& who) override {
    ++count;
    return name + " greets " + who;
  }
  std::int32_t calls() override { return count; }
};

// Answers with what it was sent, and records which ORB the references it received are bound to.
struct registry final : refs::Registry_skeleton {
  explicit registry(orb& server) : server(server) {}
  orb& server;
  std::mutex mutex;
  std::vector<core::orb_impl*> received_bound_to;
  core::orb_impl* current_after_call_back = nullptr;
  refs::Greeter favourite_;

  void record(const object_ref& reference) {
    std::lock_guard lock(mutex);
    received_bound_to.push_back(reference.is_nil() ? nullptr : orb_of(reference));
  }

  object_ref echo_object(const object_ref& o) override {
    record(o);
    return o;
  }
  refs::Greeter echo_greeter(const refs::Greeter& g, refs::Greeter& copy, refs::Greeter& swapped) override {
    record(g._reference());
    copy = g;
    refs::Greeter before = swapped;
    swapped = g;
    return before;
  }
  refs::Greeter make_greeter(const std::string& name) override {
    return refs::Greeter(server.root_adapter().activate(std::make_shared<greeter>(name)));
  }
  object_ref nil_object() override { return {}; }
  refs::GreeterSeq echo_greeters(const refs::GreeterSeq& gs) override {
    for (const auto& g : gs) record(g._reference());
    return gs;
  }
  refs::EntrySeq echo_entries(const refs::EntrySeq& es) override { return es; }
  refs::MaybeGreeter echo_maybe(const refs::MaybeGreeter& m) override { return m; }
  std::string call_back(const refs::Greeter& g, const std::string& who) override {
    record(g._reference());
    std::string answer = refs::Greeter(g).greet(who);  // an invocation inside the upcall
    current_after_call_back = current_receiving_orb();
    return answer;
  }
  void refuse(const refs::Greeter& instead) override { throw refs::Refused(instead, "ask the other one"); }
  void be_busy() override { throw refs::Registry::Busy(self()); }
  refs::Greeter favourite() override {
    std::lock_guard lock(mutex);
    return favourite_;
  }
  void favourite(const refs::Greeter& value) override {
    record(value._reference());
    std::lock_guard lock(mutex);
    favourite_ = value;
  }
  refs::Registry self() override { return refs::Registry(server.root_adapter().reference_to("registry")); }
};

}  // namespace

TEST_CASE("a nil reference is the nil IOR: an empty type id and no profiles", "[object_io]") {
  cdr::output_stream out;
  write_object(out, object_ref{});
  // ulong 1 (the string's length with its NUL), the NUL, padding to 4, ulong 0 profiles.
  const auto expected = cdr::native_byte_order == cdr::byte_order::little_endian
                            ? bytes_of({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
                            : bytes_of({0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0});
  REQUIRE(std::vector<std::byte>(out.bytes().begin(), out.bytes().end()) == expected);

  auto client = orb_init(std::vector<std::string>{});
  cdr::input_stream in(out.bytes(), cdr::native_byte_order);
  CHECK(read_object(in, *client).is_nil());
  CHECK(in.at_end());
  client->destroy();
}

TEST_CASE("the nil IOR reads as nil in big-endian too, without an ORB in scope being used", "[object_io]") {
  const auto big = bytes_of({0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0});
  auto client = orb_init(std::vector<std::string>{});
  reference_binding_scope scope(*client);
  cdr::input_stream in(big, cdr::byte_order::big_endian);
  CHECK(read_object(in).is_nil());
  CHECK(in.at_end());
  client->destroy();
}

TEST_CASE("a reference round-trips through CDR and binds to the ORB that read it", "[object_io]") {
  serving_orb server;
  auto reference = server.orb->root_adapter().activate(std::make_shared<greeter>("ann"));
  auto client = orb_init(std::vector<std::string>{});

  cdr::output_stream out;
  out.write_octet(7);  // the IOR starts unaligned: its type id aligns itself
  write_object(out, reference);
  out.write_long(-1);

  SECTION("explicit ORB") {
    cdr::input_stream in(out.bytes(), cdr::native_byte_order);
    CHECK(in.read_octet() == 7);
    object_ref read = read_object(in, *client);
    CHECK(in.read_long() == -1);
    CHECK(in.at_end());
    REQUIRE_FALSE(read.is_nil());
    CHECK(read.is_equivalent(reference));
    CHECK(read.repository_id() == refs::Greeter::_repository_id);
    CHECK(orb_of(read) == &client->impl());
    CHECK(refs::Greeter(read).greet("bob") == "ann greets bob");
  }
  SECTION("the thread's ORB, scopes nested and restored") {
    CHECK(current_receiving_orb() == nullptr);
    reference_binding_scope outer(*server.orb);
    {
      reference_binding_scope inner(*client);
      CHECK(current_receiving_orb() == &client->impl());
      cdr::input_stream in(out.bytes(), cdr::native_byte_order);
      in.read_octet();
      CHECK(orb_of(read_object(in)) == &client->impl());
    }
    CHECK(current_receiving_orb() == &server.orb->impl());
    cdr::input_stream in(out.bytes(), cdr::native_byte_order);
    in.read_octet();
    CHECK(orb_of(read_object(in)) == &server.orb->impl());
  }
  client->destroy();
}

TEST_CASE("a stringified IOR and the CDR one are the same IOR", "[object_io]") {
  serving_orb server;
  auto reference = server.orb->root_adapter().activate(std::make_shared<greeter>("ann"));
  cdr::output_stream out;
  write_object(out, reference);
  // "IOR:" + hex of an encapsulation: the byte-order octet, padding, then exactly these octets.
  std::string text = server.orb->object_to_string(reference);
  REQUIRE(text.size() == 4 + 2 * (4 + out.size()));
  std::string hex;
  static constexpr char digits[] = "0123456789abcdef";
  for (std::byte b : out.bytes()) {
    hex += digits[std::to_integer<int>(b) >> 4];
    hex += digits[std::to_integer<int>(b) & 15];
  }
  CHECK(text.substr(4 + 8) == hex);
}

TEST_CASE("read_object without an ORB in scope raises BAD_INV_ORDER and reads nothing", "[object_io][errors]") {
  cdr::output_stream out;
  write_object(out, object_ref{});
  cdr::input_stream in(out.bytes(), cdr::native_byte_order);
  REQUIRE(current_receiving_orb() == nullptr);
  auto e = system_exception_of([&] { read_object(in); });
  CHECK(e.kind() == SystemExceptionKind::BAD_INV_ORDER);
  CHECK(std::string(e.what()).find("no ORB") != std::string::npos);
  CHECK(in.position() == 0);
}

TEST_CASE("malformed IORs raise MARSHAL, never read past the end", "[object_io][errors]") {
  auto client = orb_init(std::vector<std::string>{});
  const bool little = cdr::native_byte_order == cdr::byte_order::little_endian;
  auto ulong = [&](std::uint32_t v) {
    std::array<int, 4> b{int(v & 0xff), int((v >> 8) & 0xff), int((v >> 16) & 0xff), int(v >> 24)};
    if (!little) std::swap(b[0], b[3]), std::swap(b[1], b[2]);
    return std::vector<int>(b.begin(), b.end());
  };
  auto cat = [](std::vector<std::vector<int>> parts) {
    std::vector<std::byte> out;
    for (auto& p : parts)
      for (int v : p) out.push_back(static_cast<std::byte>(v));
    return out;
  };
  auto read = [&](const std::vector<std::byte>& bytes) {
    cdr::input_stream in(bytes, cdr::native_byte_order);
    return read_object(in, *client);
  };

  SECTION("empty") {
    CHECK(system_exception_of([&] { read({}); }).kind() == SystemExceptionKind::MARSHAL);
  }
  SECTION("type id longer than the message") {
    auto bytes = cat({ulong(1000), {'I', 'D', 'L'}});
    CHECK(system_exception_of([&] { read(bytes); }).kind() == SystemExceptionKind::MARSHAL);
  }
  SECTION("a profile count of four billion") {
    auto bytes = cat({ulong(1), {0, 0, 0, 0}, ulong(0xffffffffu)});
    CHECK(system_exception_of([&] { read(bytes); }).kind() == SystemExceptionKind::MARSHAL);
  }
  SECTION("profile data cut short") {
    auto bytes = cat({ulong(1), {0, 0, 0, 0}, ulong(1), ulong(0), ulong(64), {1, 2, 3}});
    CHECK(system_exception_of([&] { read(bytes); }).kind() == SystemExceptionKind::MARSHAL);
  }
  SECTION("an IIOP profile whose body does not decode") {
    auto bytes = cat({ulong(1), {0, 0, 0, 0}, ulong(1), ulong(0), ulong(3), {little ? 1 : 0, 1, 2}});
    auto e = system_exception_of([&] { read(bytes); });
    CHECK(e.kind() == SystemExceptionKind::MARSHAL);
    CHECK(e.minor() == minor::bad_ior);
  }
  SECTION("only profiles we do not know: a reference that cannot be invoked") {
    auto bytes = cat({ulong(5), {'I', 'D', 'L', ':', 0}, {0, 0, 0}, ulong(1), ulong(0x4242), ulong(2), {9, 9}});
    object_ref r = read(bytes);
    REQUIRE_FALSE(r.is_nil());
    CHECK(r.repository_id() == "IDL:");
    CHECK(system_exception_of([&] { r.non_existent(); }).kind() == SystemExceptionKind::INV_OBJREF);
  }
  client->destroy();
}

TEST_CASE("generated stubs and skeletons pass object references both ways", "[object_io][end_to_end]") {
  serving_orb server;
  serving_orb client;  // serves the client's own greeters, which the server calls back
  auto registry_servant = std::make_shared<registry>(*server.orb);
  refs::Registry registry_ref(server.orb->root_adapter().activate_with_id("registry", registry_servant));
  // The client's view of the registry: its own reference, through its own ORB.
  refs::Registry reg(client.orb->string_to_object(server.orb->object_to_string(registry_ref._reference())));
  auto mine_servant = std::make_shared<greeter>("mine");
  refs::Greeter mine(client.orb->root_adapter().activate(mine_servant));
  core::orb_impl* const client_orb = &client.orb->impl();
  core::orb_impl* const server_orb = &server.orb->impl();

  SECTION("Object in and out, bound to the receiving ORB each way") {
    object_ref back = reg.echo_object(mine._reference());
    REQUIRE_FALSE(back.is_nil());
    CHECK(back.is_equivalent(mine._reference()));
    CHECK(orb_of(back) == client_orb);
    CHECK(registry_servant->received_bound_to == std::vector<core::orb_impl*>{server_orb});
    CHECK(refs::Greeter(back).greet("x") == "mine greets x");
  }
  SECTION("nil references") {
    CHECK(reg.echo_object(object_ref{}).is_nil());
    CHECK(reg.nil_object().is_nil());
    CHECK(registry_servant->received_bound_to == std::vector<core::orb_impl*>{nullptr});
  }
  SECTION("interface-typed in, out, inout and result") {
    auto other = reg.make_greeter("server-made");
    REQUIRE_FALSE(other._is_nil());
    CHECK(orb_of(other._reference()) == client_orb);
    CHECK(other.greet("me") == "server-made greets me");

    refs::Greeter copy;
    refs::Greeter swapped = other;
    refs::Greeter result = reg.echo_greeter(mine, copy, swapped);
    CHECK(result._reference().is_equivalent(other._reference()));
    CHECK(copy._reference().is_equivalent(mine._reference()));
    CHECK(swapped._reference().is_equivalent(mine._reference()));
    CHECK(copy.greet("c") == "mine greets c");
    CHECK(orb_of(copy._reference()) == client_orb);
  }
  SECTION("sequences, structs and unions of references") {
    auto other = reg.make_greeter("other");
    refs::GreeterSeq seq{mine, refs::Greeter{}, other};
    auto back = reg.echo_greeters(seq);
    REQUIRE(back.size() == 3);
    CHECK(back[0]._reference().is_equivalent(mine._reference()));
    CHECK(back[1]._is_nil());
    CHECK(back[2].greet("s") == "other greets s");

    refs::EntrySeq entries(2);
    entries[0].name = "first";
    entries[0].who = mine;
    entries[0].any_object = other._reference();
    entries[1].name = "empty";
    auto got = reg.echo_entries(entries);
    REQUIRE(got.size() == 2);
    CHECK(got[0].name == "first");
    CHECK(got[0].who.greet("e") == "mine greets e");
    CHECK(got[0].any_object.is_equivalent(other._reference()));
    CHECK(got[1].who._is_nil());
    CHECK(got[1].any_object.is_nil());

    refs::MaybeGreeter maybe;
    maybe.who(mine);
    auto m = reg.echo_maybe(maybe);
    REQUIRE(m._d());
    CHECK(m.who().greet("u") == "mine greets u");
    maybe.why_not("none");
    CHECK(reg.echo_maybe(maybe).why_not() == "none");
  }
  SECTION("the server calls back through a reference it received, inside its upcall") {
    CHECK(reg.call_back(mine, "srv") == "mine greets srv");
    CHECK(mine_servant->count == 1);
    // After its own invocation, the upcall's ORB is current again.
    CHECK(registry_servant->current_after_call_back == server_orb);
    CHECK(current_receiving_orb() == nullptr);  // and the client's thread is back outside any scope
  }
  SECTION("references in user exceptions, one nested in its interface") {
    try {
      reg.refuse(mine);
      FAIL("no Refused");
    } catch (const refs::Refused& e) {
      CHECK(e.reason == "ask the other one");
      CHECK(refs::Greeter(e.instead).greet("r") == "mine greets r");
      CHECK(orb_of(e.instead._reference()) == client_orb);
    }
    try {
      reg.be_busy();
      FAIL("no Busy");
    } catch (const refs::Registry::Busy& e) {
      CHECK(e.try_later._reference().is_equivalent(registry_ref._reference()));
      CHECK(refs::Registry(e.try_later).nil_object().is_nil());
    }
  }
  SECTION("attributes of interface type, and a reference to the registry itself") {
    CHECK(reg.favourite()._is_nil());
    reg.favourite(mine);
    CHECK(reg.favourite().greet("a") == "mine greets a");
    CHECK(reg.self()._reference().is_equivalent(registry_ref._reference()));
  }
  SECTION("a malformed reference in the arguments is a MARSHAL reply; the server keeps serving") {
    auto e = system_exception_of([&] {
      // The invocation ends with this lambda: while it lives it holds the connection's reply.
      invocation call(reg._reference(), "echo_object");
      call.invoke([](cdr::output_stream& args) {
        args.write_string("IDL:refs/Greeter:1.0");
        args.write_ulong(1);
        args.write_ulong(0);  // TAG_INTERNET_IOP
        args.write_ulong(2);
        args.write_octet(1);
        args.write_octet(1);  // a profile body too short to decode
      });
    });
    CHECK(e.kind() == SystemExceptionKind::MARSHAL);
    CHECK(reg.echo_object(object_ref{}).is_nil());
  }
}
