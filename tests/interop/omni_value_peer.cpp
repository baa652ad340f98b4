// omniORB's side of the valuetype interop tests (tests/value/values.idl, built with omniidl
// -DPEER_OMITS_DERIVED: this program knows PeerDerived and not Derived).
//
//   omni_value_peer server --ior-file F [--seconds N] [--servants N (ignored)] [-ORB...]
//     (the mode word may stand anywhere among the arguments)
//     serves Values::ValueEcho on 127.0.0.1, writes "echo IOR:..." to F (whole, by rename), and
//     runs until shutdown(), SIGTERM/SIGINT or N seconds (default 120).
//   omni_value_peer client --ior IOR [--with-bulk] [-ORB...]
//     calls a ValueEcho (ours) and checks every answer: null, a self-cycle and a 3-cycle, a
//     struct sharing one value, a sequence repeating one, boxes, a PeerDerived the server must
//     truncate, a Derived this program must truncate, a Describable holding a Caption, a reference
//     or nothing, and with --with-bulk a Bulk larger than omniORB's buffer (which omniORB chunks
//     wherever it fills). Prints "ok NAME" or "FAIL NAME: why" per
//     check, then calls shutdown(); exit 0 only when all pass.
#include <omniORB4/CORBA.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "values.hh"

namespace {

volatile std::sig_atomic_t stop_requested = 0;

extern "C" void on_stop_signal(int) { stop_requested = 1; }

// Caption supports the abstract interface Describable: its operation is ours to implement, and
// so is its factory.
class caption_impl final : public virtual OBV_Values::Caption, public virtual CORBA::DefaultValueRefCountBase {
 public:
  caption_impl() = default;
  explicit caption_impl(const char* text) : OBV_Values::Caption(text) {}
  char* describe() override { return CORBA::string_dup(("caption: " + std::string(text())).c_str()); }
};

class caption_factory final : public CORBA::ValueFactoryBase {
 public:
  CORBA::ValueBase* create_for_unmarshal() override { return new caption_impl(); }
};

void register_factories(CORBA::ORB_ptr orb) {
  // omniidl registers the boxes' factories itself; concrete valuetypes need theirs registered.
  CORBA::ValueFactoryBase_var node = new Values::Node_init();
  CORBA::ValueFactoryBase_var base = new Values::Base_init();
  CORBA::ValueFactoryBase_var derived = new Values::PeerDerived_init();
  CORBA::ValueFactoryBase_var bulk = new Values::Bulk_init();
  orb->register_value_factory(Values::Node::_PD_repoId, node.in());
  orb->register_value_factory(Values::Base::_PD_repoId, base.in());
  orb->register_value_factory(Values::PeerDerived::_PD_repoId, derived.in());
  orb->register_value_factory(Values::Bulk::_PD_repoId, bulk.in());
  CORBA::ValueFactoryBase_var caption = new caption_factory();
  orb->register_value_factory(Values::Caption::_PD_repoId, caption.in());
}

template <class T>
T* add_ref(T* v) {
  if (v) v->_add_ref();
  return v;
}

// Breaks every next link reachable from `start`, so that a cyclic graph is freed.
void unlink_nodes(Values::Node* start) {
  std::vector<Values::Node*> seen;
  std::vector<Values::Node_var> kept;  // each held while the links go
  for (Values::Node* n = start; n != nullptr && seen.size() < 10000; n = n->next()) {
    if (std::find(seen.begin(), seen.end(), n) != seen.end()) break;
    seen.push_back(n);
    kept.push_back(Values::Node_var(add_ref(n)));
  }
  for (Values::Node* n : seen) n->next(nullptr);
}

class value_echo final : public POA_Values::ValueEcho {
 public:
  Values::Node* echo_node(Values::Node* n) override { return add_ref(hold(n)); }
  Values::Pair* echo_pair(const Values::Pair& p) override {
    hold(p.first.in());
    hold(p.second.in());
    return new Values::Pair(p);
  }
  Values::NodeSeq* echo_nodes(const Values::NodeSeq& nodes) override {
    for (CORBA::ULong i = 0; i < nodes.length(); ++i) hold(nodes[i].in());
    return new Values::NodeSeq(nodes);
  }
  // The graphs echoed may be cyclic: unlinked when serving ends (the reply is sent after an
  // operation returns, so not sooner).
  void unlink_held() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (CORBA::ULong i = 0; i < held_.size(); ++i) unlink_nodes(held_[i].in());
    held_.clear();
  }
  Values::Text* echo_text(Values::Text* t) override { return add_ref(t); }
  Values::BoxedPoint* echo_point(Values::BoxedPoint* p) override { return add_ref(p); }
  Values::Base* echo_base(Values::Base* b) override { return add_ref(b); }
  CORBA::Any* echo_any(const CORBA::Any& a) override { return new CORBA::Any(a); }
  char* type_of(Values::Base* b) override { return CORBA::string_dup(b ? b->_NP_repositoryId() : ""); }
  Values::Base* make_derived() override {
    OBV_Values::PeerDerived* d = new OBV_Values::PeerDerived();
    d->a(7);
    d->weight(2.5);
    Values::Node_var extra = new OBV_Values::Node();
    extra->id(8);
    d->extra(extra.in());
    return d;
  }
  char* describe() override { return CORBA::string_dup("ValueEcho"); }
  Values::Describable_ptr echo_describable(Values::Describable_ptr d) override {
    return Values::Describable::_duplicate(d);
  }
  char* describe_here(Values::Describable_ptr d) override {
    if (d == nullptr || d->_NP_is_nil()) return CORBA::string_dup("");
    if (d->_NP_to_value() == nullptr) return CORBA::string_dup("a reference");
    return d->describe();
  }
  void shutdown() override { stop_requested = 1; }

 private:
  Values::Node* hold(Values::Node* n) {
    if (n != nullptr) {
      std::lock_guard<std::mutex> lock(mutex_);
      held_.push_back(Values::Node_var(add_ref(n)));
    }
    return n;
  }
  std::mutex mutex_;
  std::vector<Values::Node_var> held_;
};

bool write_ior_file(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary);
    out << text;
    if (!out) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

int serve(CORBA::ORB_ptr orb, const std::string& ior_file, unsigned seconds) {
  CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
  PortableServer::POA_var poa = PortableServer::POA::_narrow(object);
  value_echo* servant = new value_echo();
  PortableServer::ObjectId_var id = poa->activate_object(servant);
  CORBA::Object_var reference = poa->id_to_reference(id);
  CORBA::String_var ior = orb->object_to_string(reference);
  PortableServer::POAManager_var manager = poa->the_POAManager();
  manager->activate();
  if (!write_ior_file(ior_file, std::string("echo ") + ior.in() + "\n")) {
    std::cerr << "omni_value_peer: cannot write " << ior_file << "\n";
    return 1;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!stop_requested && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  manager->deactivate(true, true);  // every request done: the graphs are ours alone
  servant->unlink_held();
  servant->_remove_ref();
  return 0;
}

// ---------------------------------------------------------------- the client's checks

int failures = 0;

void check(bool ok, const char* name, const std::string& why = "") {
  if (ok) {
    std::cout << "ok " << name << "\n";
  } else {
    std::cout << "FAIL " << name << (why.empty() ? "" : ": " + why) << "\n";
    ++failures;
  }
}

Values::Node* node(CORBA::Long id) {
  OBV_Values::Node* n = new OBV_Values::Node();
  n->id(id);
  return n;
}

// About 26 KiB of Bulk (values.idl): 400 names, 1000 points, 300 weights, 600 Readings.
constexpr CORBA::ULong bulk_names = 400, bulk_points = 1000, bulk_weights = 300, bulk_readings = 600;

Values::Bulk* make_bulk() {
  OBV_Values::Bulk* bulk = new OBV_Values::Bulk();
  bulk->a(21);
  bulk->names().length(bulk_names);
  for (CORBA::ULong i = 0; i < bulk_names; ++i) bulk->names()[i] = ("name-" + std::to_string(i)).c_str();
  bulk->points().length(bulk_points);
  for (CORBA::ULong i = 0; i < bulk_points; ++i) bulk->points()[i] = Values::Point{CORBA::Long(i), -CORBA::Long(i)};
  bulk->weights().length(bulk_weights);
  for (CORBA::ULong i = 0; i < bulk_weights; ++i) bulk->weights()[i] = i * 0.5;
  bulk->readings().length(bulk_readings);
  for (CORBA::ULong i = 0; i < bulk_readings; ++i)
    bulk->readings()[i] = Values::Reading{CORBA::Octet(i % 256), i * 0.25, -CORBA::Long(i)};
  bulk->range(Values::Span{-1.5, 1e9});
  return bulk;
}

// Whether `value` is a Bulk equal to make_bulk()'s.
bool same_bulk(Values::Base* value) {
  Values::Bulk* b = value != nullptr ? Values::Bulk::_downcast(value) : nullptr;
  bool same = b != nullptr && b->a() == 21 && b->names().length() == bulk_names &&
              b->points().length() == bulk_points && b->weights().length() == bulk_weights &&
              b->readings().length() == bulk_readings && b->range().from == -1.5 && b->range().to == 1e9;
  for (CORBA::ULong i = 0; same && i < bulk_names; ++i)
    same = std::string(b->names()[i].in()) == "name-" + std::to_string(i);
  for (CORBA::ULong i = 0; same && i < bulk_points; ++i)
    same = b->points()[i].x == CORBA::Long(i) && b->points()[i].y == -CORBA::Long(i);
  for (CORBA::ULong i = 0; same && i < bulk_weights; ++i) same = b->weights()[i] == i * 0.5;
  for (CORBA::ULong i = 0; same && i < bulk_readings; ++i)
    same = b->readings()[i].flags == i % 256 && b->readings()[i].value == i * 0.25 &&
           b->readings()[i].count == -CORBA::Long(i);
  return same;
}

void run_checks(Values::ValueEcho_ptr echo, bool with_bulk) {
  {
    Values::Node_var back = echo->echo_node(nullptr);
    check(back.in() == nullptr, "null");
  }
  {
    Values::Node_var n = node(1);
    n->next(n.in());
    Values::Node_var back = echo->echo_node(n.in());
    n->next(nullptr);
    check(back.in() != nullptr && back->id() == 1 && back->next() == back.in(), "self-cycle");
    if (back.in()) back->next(nullptr);
  }
  {
    Values::Node_var a = node(1), b = node(2), c = node(3);
    a->next(b.in());
    b->next(c.in());
    c->next(a.in());
    Values::Node_var back = echo->echo_node(a.in());
    c->next(nullptr);
    bool ok = back.in() && back->next() && back->next()->next() && back->next()->id() == 2 &&
              back->next()->next()->id() == 3 && back->next()->next()->next() == back.in();
    check(ok, "3-cycle");
    if (ok) back->next()->next()->next(nullptr);
  }
  {
    Values::Pair p;
    Values::Node_var shared = node(5);
    p.first = add_ref(shared.in());
    p.second = add_ref(shared.in());
    Values::Pair_var back = echo->echo_pair(p);
    check(back->first.in() != nullptr && back->first.in() == back->second.in() && back->first->id() == 5,
          "shared pair");
  }
  {
    Values::NodeSeq seq;
    seq.length(4);
    Values::Node_var x = node(1), y = node(2);
    seq[0] = add_ref(x.in());
    seq[1] = add_ref(y.in());
    seq[2] = add_ref(x.in());
    Values::NodeSeq_var back = echo->echo_nodes(seq);
    check(back->length() == 4 && back[0u].in() == back[2u].in() && back[0u].in() != back[1u].in() &&
              back[3u].in() == nullptr,
          "shared sequence");
  }
  {
    Values::Text_var t = new Values::Text("boxed");
    Values::Text_var back = echo->echo_text(t.in());
    check(back.in() && std::strcmp(back->_value(), "boxed") == 0, "boxed string");
    Values::Text_var none = echo->echo_text(nullptr);
    check(none.in() == nullptr, "null box");
    Values::Point point{-3, 4};
    Values::BoxedPoint_var p = new Values::BoxedPoint(point);
    Values::BoxedPoint_var pb = echo->echo_point(p.in());
    check(pb.in() && pb->x() == -3 && pb->y() == 4, "boxed struct");
  }
  {
    OBV_Values::PeerDerived* d = new OBV_Values::PeerDerived();
    Values::Base_var held = d;
    d->a(11);
    d->weight(1.5);
    Values::Node_var extra = node(12);
    d->extra(extra.in());
    CORBA::String_var seen = echo->type_of(held.in());
    check(std::string(seen.in()) == Values::Base::_PD_repoId, "server truncates PeerDerived",
          std::string("it saw ") + seen.in());
    Values::Base_var back = echo->echo_base(held.in());
    check(back.in() && back->a() == 11 && std::string(back->_NP_repositoryId()) == Values::Base::_PD_repoId,
          "PeerDerived comes back as Base");
  }
  if (with_bulk) {
    // About 26 KiB of state: omniORB ends a chunk wherever its buffer fills, between two
    // strings, two members of a point or of a Reading (more than a buffer of them, so at least
    // once); the server must read on into the next chunk.
    Values::Base_var held = make_bulk();
    Values::Base_var back = echo->echo_base(held.in());
    check(same_bulk(back.in()), "a value larger than the buffer, chunked where it filled");
  }
  {
    Values::Node_var a = node(1), b = node(2), c = node(3);
    a->next(b.in());
    b->next(c.in());
    c->next(a.in());
    CORBA::Any sent;
    sent <<= a.in();
    CORBA::Any_var back = echo->echo_any(sent);
    c->next(nullptr);
    Values::Node* got = nullptr;  // the Any's
    bool ok = (back.in() >>= got) && got != nullptr && got->id() == 1 && got->next() && got->next()->next() &&
              got->next()->next()->id() == 3 && got->next()->next()->next() == got;
    check(ok, "an Any holding a 3-cycle");
    if (ok) got->next()->next()->next(nullptr);
  }
  {
    Values::Pair p;
    Values::Node_var shared = node(6);
    p.first = add_ref(shared.in());
    p.second = add_ref(shared.in());
    CORBA::Any sent;
    sent <<= p;
    CORBA::Any_var back = echo->echo_any(sent);
    const Values::Pair* got = nullptr;
    check((back.in() >>= got) && got->first.in() != nullptr && got->first.in() == got->second.in() &&
              got->first->id() == 6,
          "an Any holding a struct whose members share a value");
  }
  {
    // The server (ours) has no factory for PeerDerived: it reads it from the Any's TypeCode and
    // sends it back whole, not truncated.
    OBV_Values::PeerDerived* d = new OBV_Values::PeerDerived();
    Values::PeerDerived_var held = d;
    d->a(11);
    d->weight(1.5);
    Values::Node_var extra = node(12);
    d->extra(extra.in());
    CORBA::Any sent;
    sent <<= held.in();
    CORBA::Any_var back = echo->echo_any(sent);
    Values::PeerDerived* got = nullptr;
    check((back.in() >>= got) && got != nullptr && got->a() == 11 && got->weight() == 1.5 && got->extra() &&
              got->extra()->id() == 12,
          "an Any holding a value of a type the server does not know comes back whole");
  }
  if (with_bulk) {
    Values::Base_var held = make_bulk();
    CORBA::Any sent;
    sent <<= Values::Bulk::_downcast(held.in());
    CORBA::Any_var back = echo->echo_any(sent);
    Values::Bulk* got = nullptr;
    check((back.in() >>= got) && same_bulk(got), "an Any holding a value larger than the buffer");
  }
  {
    // An abstract interface holding a value: the server calls it locally, and echoes a copy.
    Values::Caption_var caption = new caption_impl("from omniORB");
    CORBA::String_var here = echo->describe_here(caption.in());
    check(std::string(here.in()) == "caption: from omniORB", "the server calls a value passed as an abstract interface",
          std::string("it said ") + here.in());
    Values::Describable_var back = echo->echo_describable(caption.in());
    bool ok = back.in() != nullptr && back->_NP_to_value() != nullptr &&
              Values::Caption::_downcast(back->_NP_to_value()) != nullptr;
    CORBA::String_var described = ok ? back->describe() : CORBA::string_dup("");
    check(ok && std::string(described.in()) == "caption: from omniORB",
          "a value passed as an abstract interface comes back a value");
  }
  {
    // Holding a reference: the server does not call it; what comes back is called remotely.
    CORBA::String_var here = echo->describe_here(echo);
    check(std::string(here.in()) == "a reference", "a reference passed as an abstract interface arrives one",
          std::string("it said ") + here.in());
    Values::Describable_var back = echo->echo_describable(echo);
    bool ok = back.in() != nullptr && !back->_NP_is_nil() && back->_NP_to_value() == nullptr;
    CORBA::String_var described = ok ? back->describe() : CORBA::string_dup("");
    check(ok && std::string(described.in()) == "ValueEcho", "a reference passed as an abstract interface comes back");
  }
  {
    // In an Any: our server copies it through the TypeCode (tk_abstract_interface).
    Values::Caption_var caption = new caption_impl("in an Any");
    CORBA::Any sent;
    sent <<= static_cast<Values::Describable_ptr>(caption.in());
    CORBA::Any_var back = echo->echo_any(sent);
    Values::Describable_ptr got = nullptr;  // the Any's
    bool ok = (back.in() >>= got) && got != nullptr && got->_NP_to_value() != nullptr;
    CORBA::String_var described = ok ? got->describe() : CORBA::string_dup("");
    check(ok && std::string(described.in()) == "caption: in an Any", "an Any holding an abstract interface");
  }
  {
    Values::Describable_var back = echo->echo_describable(Values::Describable::_nil());
    CORBA::String_var here = echo->describe_here(Values::Describable::_nil());
    check((back.in() == nullptr || back->_NP_is_nil()) && std::string(here.in()).empty(), "a nil abstract interface");
  }
  {
    Values::Base_var made = echo->make_derived();
    check(made.in() && made->a() == 7 && std::string(made->_NP_repositoryId()) == Values::Base::_PD_repoId,
          "Derived (unknown here) truncated to Base",
          made.in() ? std::string("got ") + made->_NP_repositoryId() : "null");
  }
}

[[noreturn]] void usage(const char* why) {
  std::cerr << "omni_value_peer: " << why
            << "\nusage: omni_value_peer server --ior-file F [--seconds N] | client --ior IOR\n";
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
  std::string mode, ior_file, ior;
  bool with_bulk = false;
  unsigned seconds = 120;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* why) -> std::string {
      if (i + 1 >= argc) usage(why);
      return argv[++i];
    };
    if (a == "--ior-file") ior_file = value("--ior-file needs a path");
    else if (a == "--ior") ior = value("--ior needs an IOR");
    else if (a == "--with-bulk") with_bulk = true;
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
    register_factories(orb);
    if (mode == "server") {
      if (ior_file.empty()) usage("--ior-file is required");
      status = serve(orb, ior_file, seconds);
    } else if (mode == "client") {
      if (ior.empty()) usage("--ior is required");
      CORBA::Object_var object = orb->string_to_object(ior.c_str());
      Values::ValueEcho_var echo = Values::ValueEcho::_narrow(object);
      if (CORBA::is_nil(echo)) usage("the IOR is not a ValueEcho");
      run_checks(echo, with_bulk);
      echo->shutdown();
      status = failures == 0 ? 0 : 1;
    } else {
      usage("mode is server or client");
    }
  } catch (const CORBA::SystemException& e) {
    std::cerr << "omni_value_peer: " << e._name() << " minor 0x" << std::hex << e.minor() << std::dec << "\n";
    status = 1;
  } catch (const CORBA::Exception& e) {
    std::cerr << "omni_value_peer: " << e._name() << "\n";
    status = 1;
  }
  orb->destroy();
  return status;
}
