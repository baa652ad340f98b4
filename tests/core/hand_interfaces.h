// Hand-written stubs and skeletons for the core's tests, standing in for syidl's output until it
// exists: the papers' ttcp_sequence (../../idl/ttcp_sequence.idl, repository ids as published)
// and a small `probe` interface that exercises exceptions, timeouts and forwarding.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "switchyard/exception.h"
#include "switchyard/invocation.h"
#include "switchyard/object.h"
#include "switchyard/servant.h"
#include "switchyard/server_request.h"

namespace hand {

struct BinStruct {
  std::int16_t s;
  char c;
  std::int32_t l;
  std::uint8_t o;
  double d;
  friend bool operator==(const BinStruct&, const BinStruct&) = default;
};

inline void write(switchyard::cdr::output_stream& out, const std::vector<BinStruct>& seq) {
  out.write_ulong(static_cast<std::uint32_t>(seq.size()));
  for (const auto& b : seq) {
    out.write_short(b.s);
    out.write_char(b.c);
    out.write_long(b.l);
    out.write_octet(b.o);
    out.write_double(b.d);
  }
}

inline std::vector<BinStruct> read_structs(switchyard::cdr::input_stream& in) {
  // 16 octets of members at least: padding depends on where each struct starts.
  std::uint32_t n = in.read_length(16);
  std::vector<BinStruct> seq(n);
  for (auto& b : seq) {
    b.s = in.read_short();
    b.c = in.read_char();
    b.l = in.read_long();
    b.o = in.read_octet();
    b.d = in.read_double();
  }
  return seq;
}

// --- ttcp_sequence ---------------------------------------------------------------------------

class ttcp_sequence_skeleton : public switchyard::servant {
 public:
  virtual void sendStructSeq_2way(const std::vector<BinStruct>& seq) = 0;
  virtual void sendOctetSeq_2way(const std::vector<std::uint8_t>& seq) = 0;
  virtual void sendNoParams_2way() = 0;
  virtual void sendNoParams_1way() = 0;

  const switchyard::interface_info& _interface() const noexcept override { return info; }

 private:
  static void skel_structs(switchyard::servant& self, switchyard::server_request& request) {
    auto seq = read_structs(request.arguments());
    static_cast<ttcp_sequence_skeleton&>(self).sendStructSeq_2way(seq);
  }
  static void skel_octets(switchyard::servant& self, switchyard::server_request& request) {
    std::vector<std::uint8_t> seq;
    request.arguments().read_sequence(seq);
    static_cast<ttcp_sequence_skeleton&>(self).sendOctetSeq_2way(seq);
  }
  static void skel_noparams_2way(switchyard::servant& self, switchyard::server_request&) {
    static_cast<ttcp_sequence_skeleton&>(self).sendNoParams_2way();
  }
  static void skel_noparams_1way(switchyard::servant& self, switchyard::server_request&) {
    static_cast<ttcp_sequence_skeleton&>(self).sendNoParams_1way();
  }
  static constexpr std::string_view ids[] = {"IDL:ttcp_sequence:1.0"};
  static constexpr switchyard::operation_info operations[] = {
      {"sendStructSeq_2way", &skel_structs},
      {"sendOctetSeq_2way", &skel_octets},
      {"sendNoParams_2way", &skel_noparams_2way},
      {"sendNoParams_1way", &skel_noparams_1way},
  };

 public:
  static constexpr switchyard::interface_info info{"IDL:ttcp_sequence:1.0", ids, operations, nullptr};
};

class ttcp_sequence_stub {
 public:
  explicit ttcp_sequence_stub(switchyard::object_ref reference) : ref_(std::move(reference)) {}
  void sendStructSeq_2way(const std::vector<BinStruct>& seq) {
    switchyard::invocation call(ref_, "sendStructSeq_2way", 0);
    call.invoke([&](switchyard::cdr::output_stream& args) { write(args, seq); });
  }
  void sendOctetSeq_2way(const std::vector<std::uint8_t>& seq) {
    switchyard::invocation call(ref_, "sendOctetSeq_2way", 1);
    call.invoke([&](switchyard::cdr::output_stream& args) { args.write_sequence(seq.data(), seq.size()); });
  }
  void sendNoParams_2way() {
    switchyard::invocation call(ref_, "sendNoParams_2way", 2);
    call.invoke();
  }
  void sendNoParams_1way() {
    switchyard::invocation call(ref_, "sendNoParams_1way", 3);
    call.invoke_oneway();
  }
  const switchyard::object_ref& reference() const noexcept { return ref_; }

 private:
  switchyard::object_ref ref_;
};

// --- probe: exceptions, slow calls, forwarding -----------------------------------------------

class probe_skeleton : public switchyard::servant {
 public:
  virtual std::int32_t echo_long(std::int32_t v) = 0;
  virtual std::string echo_string(const std::string& v) = 0;
  virtual void raise_system() = 0;                 // a servant that throws a CORBA system exception
  virtual void raise_standard() = 0;               // a servant that throws std::runtime_error
  virtual void wait_for_release() = 0;             // blocks until the test releases it
  virtual void raise_user(std::int32_t code) = 0;  // raises probe::refused when code != 0

  const switchyard::interface_info& _interface() const noexcept override { return info; }

 private:
  static void skel_echo_long(switchyard::servant& self, switchyard::server_request& request) {
    auto v = request.arguments().read_long();
    auto r = static_cast<probe_skeleton&>(self).echo_long(v);
    if (request.response_expected()) request.reply().write_long(r);
  }
  static void skel_echo_string(switchyard::servant& self, switchyard::server_request& request) {
    auto v = request.arguments().read_string();
    auto r = static_cast<probe_skeleton&>(self).echo_string(v);
    if (request.response_expected()) request.reply().write_string(r);
  }
  static void skel_raise_system(switchyard::servant& self, switchyard::server_request&) {
    static_cast<probe_skeleton&>(self).raise_system();
  }
  static void skel_raise_standard(switchyard::servant& self, switchyard::server_request&) {
    static_cast<probe_skeleton&>(self).raise_standard();
  }
  static void skel_wait(switchyard::servant& self, switchyard::server_request&) {
    static_cast<probe_skeleton&>(self).wait_for_release();
  }
  static void skel_raise_user(switchyard::servant& self, switchyard::server_request& request);

  static constexpr std::string_view ids[] = {"IDL:test/probe:1.0"};
  static constexpr switchyard::operation_info operations[] = {
      {"echo_long", &skel_echo_long},       {"echo_string", &skel_echo_string},
      {"raise_system", &skel_raise_system}, {"raise_standard", &skel_raise_standard},
      {"wait_for_release", &skel_wait},     {"raise_user", &skel_raise_user},
  };

 public:
  static constexpr switchyard::interface_info info{"IDL:test/probe:1.0", ids, operations, nullptr};
};

// IDL: exception refused { long code; };
struct refused : switchyard::UserException {
  std::int32_t code = 0;
  std::string_view repository_id() const noexcept override { return "IDL:test/refused:1.0"; }
};

inline void probe_skeleton::skel_raise_user(switchyard::servant& self, switchyard::server_request& request) {
  auto code = request.arguments().read_long();
  try {
    static_cast<probe_skeleton&>(self).raise_user(code);
  } catch (const refused& e) {
    auto& out = request.user_exception_reply();
    out.write_string(e.repository_id());
    out.write_long(e.code);
  }
}

class probe_stub {
 public:
  explicit probe_stub(switchyard::object_ref reference) : ref_(std::move(reference)) {}
  std::int32_t echo_long(std::int32_t v) {
    switchyard::invocation call(ref_, "echo_long", 0);
    return call.invoke([&](switchyard::cdr::output_stream& args) { args.write_long(v); }).read_long();
  }
  std::string echo_string(const std::string& v) {
    switchyard::invocation call(ref_, "echo_string", 1);
    return call.invoke([&](switchyard::cdr::output_stream& args) { args.write_string(v); }).read_string();
  }
  void raise_system() { switchyard::invocation(ref_, "raise_system", 2).invoke(); }
  void raise_standard() { switchyard::invocation(ref_, "raise_standard", 3).invoke(); }
  void wait_for_release() { switchyard::invocation(ref_, "wait_for_release", 4).invoke(); }
  void raise_user(std::int32_t code) {
    switchyard::invocation call(ref_, "raise_user", 5);
    call.invoke([&](switchyard::cdr::output_stream& args) { args.write_long(code); },
                [](std::string_view id, switchyard::cdr::input_stream& body) {
                  if (id == "IDL:test/refused:1.0") {
                    refused e;
                    e.code = body.read_long();
                    throw e;
                  }
                });
  }
  // An operation the interface does not have.
  void no_such_operation() { switchyard::invocation(ref_, "no_such_operation").invoke(); }

 private:
  switchyard::object_ref ref_;
};

}  // namespace hand
