// omni_peer_client: an omniORB client that drives a ttcp_sequence or Integrity::Echo server
// (omni_server, or our own ORB's) and checks every answer.
//
//   omni_peer_client (--ior IOR | --ior-file PATH [--object NAME]) --call CMD [--call CMD ...]
//                    [--count K] [--ssl DIR [--ssl-key FILE]]
//                    [--send-context ID TEXT [--expect-reply-context TEXT]] [-ORB<option> <value> ...]
//
// IOR is a stringified IOR or a corbaloc: URL. With --ior-file (the file omni_server writes),
// ttcp commands use the line named --object (default ttcp/0) and echo commands the line "echo".
// Commands (several may be given, also comma-separated; each runs K times):
//   noparams2way  noparams1way  octets:N  structs:N        on a ttcp_sequence object
//   echo-all      echo:OP (OP: an Echo operation, or refuse_ok, label, calls)   on the Echo object
//   echo-octets:N echo_octets with N octets (large N: omniORB fragments the reply)
//   echo-doubles:N echo-records:N echo-narecords:N   N values, every one checked on return
//                 (with GIOP 1.1 omniORB fragments requests over 8 KB)
//   bad-key       a reference whose object key is mangled: expects OBJECT_NOT_EXIST
//   bad-op        a DII request for an unknown operation: expects BAD_OPERATION
//   non-existent  CORBA::Object::_non_existent() on the ttcp object: expects false
// The GIOP version is omniORB's -ORBmaxGIOPVersion 1.0|1.1|1.2 (passed through). The exit code is
// 0 only when every call succeeded with correct data; with --refused-ok a call of the echo-*:N
// commands refused with CORBA::MARSHAL counts too (printed as "refused"), values that differ never.
// --ssl DIR loads omniORB's SSL transport (omni_ssl.h): CA DIR/ca.pem, certificate and key
// DIR/omni-client.pem or --ssl-key FILE (one PEM file holding both). omniORB then reaches an IOR
// with a TAG_SSL_SEC_TRANS component over SSL (and one without it over TCP, as before); a server
// that refuses the certificate makes the calls fail with TRANSIENT or COMM_FAILURE.
// --send-context ID TEXT adds a service context of id ID holding TEXT to every request, through
// omniORB's interceptor hooks (omni_service_contexts.h); with --expect-reply-context, a call whose
// reply lacks a context ID + 1 holding exactly that text fails.
#include "integrity.hh"
#include "omni_service_contexts.h"
#include "omni_ssl.h"
#include "ttcp_sequence.hh"

#include <omniORB4/IIOP.h>
#include <omniORB4/IOP.h>
#include <omniORB4/cdrStream.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct options {
  std::string ior;
  std::string ior_file;
  std::string object = "ttcp/0";
  std::vector<std::string> calls;
  unsigned long count = 1;
  bool refused_ok = false;  // echo-*:N: CORBA::MARSHAL is an answer, not a failure
  // omniORB sends wstrings only with GIOP 1.2 (its UTF-16 transmission code set is for 1.2 only;
  // 1.1 raises BAD_PARAM_WCharTCSNotKnown), so echo_wstring is skipped below 1.2.
  bool wide_strings = true;
  switchyard::bench::omni_ssl_options ssl;
  // --send-context ID TEXT: every request carries a context ID holding TEXT (omni_service_contexts.h);
  // --expect-reply-context TEXT: each call's reply must carry ID + 1 holding TEXT.
  long send_context = -1;
  std::string context_text, expected_reply_context;
  bool expects_reply_context = false;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "omni_peer_client: " << why << "\n"
            << "usage: omni_peer_client (--ior IOR | --ior-file PATH [--object NAME])"
               " --call CMD [--call CMD ...] [--count K]\n"
               "       [--send-context ID TEXT [--expect-reply-context TEXT]] [-ORB<option> <value> ...]\n"
               "  CMD: noparams2way noparams1way octets:N structs:N echo-all echo:OP"
               " echo-octets:N echo-doubles:N echo-records:N echo-narecords:N bad-key bad-op"
               " non-existent [--refused-ok] [--ssl DIR [--ssl-key FILE]]\n";
  std::exit(2);
}

unsigned long to_count(const std::string& text, const char* what) {
  char* end = nullptr;
  errno = 0;
  unsigned long value = std::strtoul(text.c_str(), &end, 10);
  if (errno != 0 || text.empty() || *end != '\0' || value > 100000000UL) usage(what);
  return value;
}

options parse(int argc, char** argv, std::vector<char*>& orb_args) {
  options opts;
  orb_args.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) usage(what);
      return argv[++i];
    };
    if (arg.rfind("-ORB", 0) == 0) {
      orb_args.push_back(argv[i]);
      if (i + 1 < argc) orb_args.push_back(argv[++i]);
      if (arg == "-ORBmaxGIOPVersion" && std::string(orb_args.back()) < "1.2") {
        opts.wide_strings = false;
      }
    } else if (arg == "--ior") {
      opts.ior = value("--ior needs an IOR or corbaloc");
    } else if (arg == "--ior-file") {
      opts.ior_file = value("--ior-file needs a path");
    } else if (arg == "--object") {
      opts.object = value("--object needs a name");
    } else if (arg == "--call") {
      std::stringstream list(value("--call needs a command"));
      for (std::string call; std::getline(list, call, ',');) {
        if (!call.empty()) opts.calls.push_back(call);
      }
    } else if (arg == "--count") {
      opts.count = to_count(value("--count needs a number"), "bad --count");
    } else if (arg == "--refused-ok") {
      opts.refused_ok = true;
    } else if (arg == "--ssl") {
      opts.ssl.dir = value("--ssl needs a directory");
    } else if (arg == "--ssl-key") {
      opts.ssl.key_file = value("--ssl-key needs a file");
    } else if (arg == "--send-context") {
      opts.send_context = static_cast<long>(to_count(value("--send-context needs an id"), "bad --send-context"));
      opts.context_text = value("--send-context needs an id and a text");
    } else if (arg == "--expect-reply-context") {
      opts.expected_reply_context = value("--expect-reply-context needs a text");
      opts.expects_reply_context = true;
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (opts.ior.empty() == opts.ior_file.empty()) usage("give exactly one of --ior, --ior-file");
  if (opts.calls.empty()) usage("no --call given");
  if (opts.expects_reply_context && opts.send_context < 0) usage("--expect-reply-context needs --send-context");
  if (opts.ssl.dir.empty() && !opts.ssl.key_file.empty()) usage("--ssl-key needs --ssl DIR");
  if (!opts.ssl.dir.empty()) {
    const std::string why = switchyard::bench::configure_omni_ssl(opts.ssl, "omni-client.pem");
    if (!why.empty()) usage("--ssl: " + why);
  }
  return opts;
}

// Reads "name IOR" lines as written by omni_server.
std::map<std::string, std::string> read_ior_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) usage("cannot read " + path);
  std::map<std::string, std::string> iors;
  std::string name, ior;
  while (in >> name >> ior) iors[name] = ior;
  return iors;
}

// A failed check: the message says what was expected and what came back.
struct check_failed {
  std::string message;
};

// A call the server refused with MARSHAL (--refused-ok).
struct call_refused {
  std::string message;
};

template <typename T>
void expect_equal(const T& got, const T& want, const char* what) {
  if (!(got == want)) {
    std::ostringstream text;
    text << what << ": got " << +got << ", want " << +want;
    throw check_failed{text.str()};
  }
}

void expect(bool ok, const std::string& what) {
  if (!ok) throw check_failed{what};
}

// ---- The values sent to Echo: distinctive bit patterns, so a capture shows each byte's origin.

Integrity::Record sample_record(CORBA::Long seed) {
  Integrity::Record r;
  r.l = -7 * seed;
  r.d = 1.5 * seed;
  r.s = static_cast<CORBA::Short>(-3 * seed);
  r.o = static_cast<CORBA::Octet>(0x70 + seed);
  r.f = 0.25f * static_cast<float>(seed);
  r.c = static_cast<CORBA::Char>('a' + seed);
  r.b = seed % 2 == 1;
  return r;
}

bool operator==(const Integrity::Record& a, const Integrity::Record& b) {
  return a.l == b.l && a.d == b.d && a.s == b.s && a.o == b.o && a.f == b.f && a.c == b.c && a.b == b.b;
}

Integrity::NARecord sample_narecord(CORBA::Long seed) {
  Integrity::NARecord r;
  r.o = static_cast<CORBA::Octet>(seed);
  r.d = 2.5 * seed;
  r.c = static_cast<CORBA::Char>('m' + seed);
  r.ll = -9876543210LL * seed;
  r.s = static_cast<CORBA::Short>(42 * seed);
  return r;
}

bool operator==(const Integrity::NARecord& a, const Integrity::NARecord& b) {
  return a.o == b.o && a.d == b.d && a.c == b.c && a.ll == b.ll && a.s == b.s;
}

template <typename Seq>
bool same_sequence(const Seq& a, const Seq& b) {
  if (a.length() != b.length()) return false;
  for (CORBA::ULong i = 0; i < a.length(); ++i) {
    if (!(a[i] == b[i])) return false;
  }
  return true;
}

bool same_variant(const Integrity::Variant& a, const Integrity::Variant& b) {
  if (a._d() != b._d()) return false;
  switch (a._d()) {
    case 1:
      return a.l() == b.l();
    case 2:
      return std::strcmp(a.s(), b.s()) == 0;
    case 3:
      return a.d() == b.d();
    default:
      return a.o() == b.o();
  }
}

void fill_matrix(Integrity::Matrix m) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) m[i][j] = (i + 1) * 100 + j;
  }
}

bool same_matrix(const Integrity::Matrix_slice* a, const Integrity::Matrix_slice* b) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (a[i][j] != b[i][j]) return false;
    }
  }
  return true;
}

Integrity::Nested sample_nested() {
  Integrity::Nested n;
  n.name = CORBA::string_dup("nest");
  n.values.length(3);
  n.values[0] = 1;
  n.values[1] = -2;
  n.values[2] = 0x7fffffff;
  n.tint = Integrity::green;
  n.choice.d(6.25);
  fill_matrix(n.grid);
  n.few.length(2);
  n.few[0] = sample_record(1);
  n.few[1] = sample_record(2);
  return n;
}

bool same_nested(const Integrity::Nested& a, const Integrity::Nested& b) {
  return std::strcmp(a.name, b.name) == 0 && same_sequence(a.values, b.values) && a.tint == b.tint &&
         same_variant(a.choice, b.choice) && same_matrix(a.grid, b.grid) && same_sequence(a.few, b.few);
}

using echo_check = std::function<void(Integrity::Echo_ptr)>;

// Each Echo operation with the values it sends; names are the `echo:OP` commands.
std::vector<std::pair<std::string, echo_check>> echo_checks(bool wide_strings) {
  using namespace Integrity;
  std::vector<std::pair<std::string, echo_check>> checks = {
      {"echo_boolean", [](Echo_ptr e) { expect_equal<bool>(e->echo_boolean(true), true, "boolean"); }},
      {"echo_octet", [](Echo_ptr e) { expect_equal<int>(e->echo_octet(0xA5), 0xA5, "octet"); }},
      {"echo_char", [](Echo_ptr e) { expect_equal<char>(e->echo_char('Z'), 'Z', "char"); }},
      {"echo_short", [](Echo_ptr e) { expect_equal<int>(e->echo_short(-12345), -12345, "short"); }},
      {"echo_ushort", [](Echo_ptr e) { expect_equal<int>(e->echo_ushort(54321), 54321, "ushort"); }},
      {"echo_long", [](Echo_ptr e) { expect_equal<long>(e->echo_long(-123456789), -123456789, "long"); }},
      {"echo_ulong", [](Echo_ptr e) { expect_equal<unsigned long>(e->echo_ulong(0xDEADBEEFu), 0xDEADBEEFu, "ulong"); }},
      {"echo_longlong",
       [](Echo_ptr e) {
         expect_equal<long long>(e->echo_longlong(-1234567890123456789LL), -1234567890123456789LL, "longlong");
       }},
      {"echo_ulonglong",
       [](Echo_ptr e) {
         expect_equal<unsigned long long>(e->echo_ulonglong(0xFEDCBA9876543210ULL), 0xFEDCBA9876543210ULL, "ulonglong");
       }},
      {"echo_float", [](Echo_ptr e) { expect_equal<float>(e->echo_float(3.5f), 3.5f, "float"); }},
      {"echo_double", [](Echo_ptr e) { expect_equal<double>(e->echo_double(-2.25), -2.25, "double"); }},
      {"echo_string",
       [](Echo_ptr e) {
         CORBA::String_var r = e->echo_string("hello, switchyard");
         expect(std::strcmp(r.in(), "hello, switchyard") == 0, "string: got " + std::string(r.in()));
       }},
      {"echo_color", [](Echo_ptr e) { expect_equal<int>(e->echo_color(blue), blue, "color"); }},
      {"echo_record",
       [](Echo_ptr e) { expect(e->echo_record(sample_record(3)) == sample_record(3), "record differs"); }},
      {"echo_narecord",
       [](Echo_ptr e) { expect(e->echo_narecord(sample_narecord(1)) == sample_narecord(1), "narecord differs"); }},
      {"echo_variant",
       [](Echo_ptr e) {
         Variant v;
         v.s(static_cast<const char*>("two"));
         Variant_var r = e->echo_variant(v);
         expect(same_variant(r.in(), v), "variant (case 2) differs");
         Variant other;
         other.o(0x5A);  // the default branch
         other._d(9);
         Variant_var r2 = e->echo_variant(other);
         expect(same_variant(r2.in(), other), "variant (default) differs");
       }},
      {"echo_matrix",
       [](Echo_ptr e) {
         Matrix m;
         fill_matrix(m);
         Matrix_var r = e->echo_matrix(m);
         expect(same_matrix(r.in(), m), "matrix differs");
       }},
      {"echo_nested",
       [](Echo_ptr e) {
         Nested n = sample_nested();
         Nested_var r = e->echo_nested(n);
         expect(same_nested(r.in(), n), "nested differs");
       }},
      {"echo_octets",
       [](Echo_ptr e) {
         Octets o;
         o.length(10);
         for (CORBA::ULong i = 0; i < o.length(); ++i) o[i] = static_cast<CORBA::Octet>(i * 17);
         Octets_var r = e->echo_octets(o);
         expect(same_sequence(r.in(), o), "octets differ");
       }},
      {"echo_longs",
       [](Echo_ptr e) {
         Longs l;
         l.length(4);
         l[0] = 1;
         l[1] = -1;
         l[2] = 0x7fffffff;
         l[3] = -0x7fffffff - 1;
         Longs_var r = e->echo_longs(l);
         expect(same_sequence(r.in(), l), "longs differ");
       }},
      {"echo_doubles",
       [](Echo_ptr e) {
         Doubles d;
         d.length(3);
         d[0] = 0.5;
         d[1] = -1e300;
         d[2] = 3.0;
         Doubles_var r = e->echo_doubles(d);
         expect(same_sequence(r.in(), d), "doubles differ");
       }},
      {"echo_records",
       [](Echo_ptr e) {
         Records s;
         s.length(3);
         for (CORBA::ULong i = 0; i < 3; ++i) s[i] = sample_record(static_cast<CORBA::Long>(i + 1));
         Records_var r = e->echo_records(s);
         expect(same_sequence(r.in(), s), "records differ");
       }},
      {"echo_narecords",
       [](Echo_ptr e) {
         NARecords s;
         s.length(2);
         s[0] = sample_narecord(1);
         s[1] = sample_narecord(2);
         NARecords_var r = e->echo_narecords(s);
         expect(same_sequence(r.in(), s), "narecords differ");
       }},
      {"echo_strings",
       [](Echo_ptr e) {
         Strings s;
         s.length(3);
         s[0] = CORBA::string_dup("");
         s[1] = CORBA::string_dup("a");
         s[2] = CORBA::string_dup("bc");
         Strings_var r = e->echo_strings(s);
         bool same = r->length() == 3;
         for (CORBA::ULong i = 0; same && i < 3; ++i) same = std::strcmp(r[i], s[i]) == 0;
         expect(same, "strings differ");
       }},
      {"echo_any",
       [](Echo_ptr e) {
         CORBA::Any a;
         a <<= static_cast<CORBA::Long>(42);
         CORBA::Any_var r = e->echo_any(a);
         CORBA::Long l = 0;
         expect((r.in() >>= l) && l == 42, "any (long 42) differs");
         CORBA::Any s;
         s <<= "any string";
         CORBA::Any_var rs = e->echo_any(s);
         const char* text = nullptr;
         expect((rs.in() >>= text) && std::strcmp(text, "any string") == 0, "any (string) differs");
       }},
      {"twist",
       [](Echo_ptr e) {
         CORBA::Long a = 21;
         CORBA::String_var s = CORBA::string_dup("abc");
         e->twist(a, s.inout());
         expect(a == 42 && std::strcmp(s.in(), "cba") == 0, "twist: want 42 \"cba\"");
       }},
      {"split",
       [](Echo_ptr e) {
         Nested n = sample_nested();
         CORBA::String_var name;
         Longs_var values;
         CORBA::Long count = e->split(n, name.out(), values.out());
         expect(count == 3 && std::strcmp(name.in(), "nest") == 0 && same_sequence(values.in(), n.values),
                "split: parts differ");
       }},
      {"refuse_ok", [](Echo_ptr e) { expect_equal<long>(e->refuse(0), 0, "refuse(0)"); }},
      {"refuse",
       [](Echo_ptr e) {
         try {
           e->refuse(7);
         } catch (const Refused& r) {
           expect(std::strcmp(r.reason, "refused") == 0 && r.code == 7, "Refused carries wrong members");
           return;
         }
         throw check_failed{"refuse(7) did not raise Refused"};
       }},
      {"label",
       [](Echo_ptr e) {
         e->label("tagged");
         CORBA::String_var r = e->label();
         expect(std::strcmp(r.in(), "tagged") == 0, "label: got " + std::string(r.in()));
       }},
      {"calls",
       [](Echo_ptr e) {
         CORBA::ULong before = e->calls();
         CORBA::ULong after = e->calls();
         expect(after == before + 1, "calls does not count");
       }},
  };
  if (wide_strings) {
    checks.insert(checks.begin() + 12, {"echo_wstring", [](Echo_ptr e) {
                                          const CORBA::WChar text[] = {L'h', L'\u00e9', L'l',      L'l',
                                                                       L'o', L' ',      L'\u2713', 0};
                                          CORBA::WString_var r = e->echo_wstring(text);
                                          expect(std::wcscmp(r.in(), text) == 0, "wstring differs");
                                        }});
  }
  return checks;
}

// The same reference with every IIOP profile's object key mangled (a byte appended and the first
// flipped), so the server has no such object.
CORBA::Object_ptr with_mangled_key(CORBA::ORB_ptr orb, CORBA::Object_ptr object) {
  CORBA::String_var text = orb->object_to_string(object);
  std::string hex(text.in() + 4);  // after "IOR:"
  std::vector<CORBA::Octet> bytes(hex.size() / 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<CORBA::Octet>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  }
  cdrEncapsulationStream in(bytes.data(), static_cast<CORBA::ULong>(bytes.size()), 1);
  IOP::IOR ior;
  ior.type_id = IOP::IOR::unmarshaltype_id(in);
  ior.profiles <<= in;
  for (CORBA::ULong i = 0; i < ior.profiles.length(); ++i) {
    if (ior.profiles[i].tag != IOP::TAG_INTERNET_IOP) continue;
    IIOP::ProfileBody body;
    IIOP::unmarshalProfile(ior.profiles[i], body);
    CORBA::ULong length = body.object_key.length();
    body.object_key.length(length + 1);
    body.object_key[length] = '!';
    if (length > 0) body.object_key[0] ^= 0x55;
    IIOP::encodeProfile(body, ior.profiles[i]);
  }
  cdrEncapsulationStream out(CORBA::ULong(0), true);
  ior >>= out;
  CORBA::Octet* buffer = nullptr;
  CORBA::ULong max = 0, length = 0;
  out.getOctetStream(buffer, max, length);
  static const char digits[] = "0123456789abcdef";
  std::string mangled = "IOR:";
  for (CORBA::ULong i = 0; i < length; ++i) {
    mangled += digits[buffer[i] >> 4];
    mangled += digits[buffer[i] & 15];
  }
  delete[] buffer;
  return orb->string_to_object(mangled.c_str());
}

// Runs one command `count` times; throws check_failed or a CORBA exception on failure.
void run_call(CORBA::ORB_ptr orb, const options& opts, const std::string& call, CORBA::Object_ptr ttcp_object,
              CORBA::Object_ptr echo_object) {
  auto ttcp = [&] {
    if (CORBA::is_nil(ttcp_object)) throw check_failed{"no ttcp object"};
    return ttcp_sequence::_unchecked_narrow(ttcp_object);
  };
  auto echo = [&] {
    if (CORBA::is_nil(echo_object)) throw check_failed{"no echo object"};
    return Integrity::Echo::_unchecked_narrow(echo_object);
  };
  auto sized = [&](const std::string& prefix) { return to_count(call.substr(prefix.size()), "bad size in --call"); };

  if (call == "noparams2way") {
    ttcp_sequence_var t = ttcp();
    for (unsigned long i = 0; i < opts.count; ++i) t->sendNoParams_2way();
  } else if (call == "noparams1way") {
    ttcp_sequence_var t = ttcp();
    for (unsigned long i = 0; i < opts.count; ++i) t->sendNoParams_1way();
    t->sendNoParams_2way();  // one two-way after the one-ways: they were all delivered in order
  } else if (call.rfind("octets:", 0) == 0) {
    ttcp_sequence_var t = ttcp();
    ttcp_sequence::OctetSeq seq;
    seq.length(static_cast<CORBA::ULong>(sized("octets:")));
    for (CORBA::ULong i = 0; i < seq.length(); ++i) seq[i] = static_cast<CORBA::Octet>(i);
    for (unsigned long i = 0; i < opts.count; ++i) t->sendOctetSeq_2way(seq);
  } else if (call.rfind("structs:", 0) == 0) {
    ttcp_sequence_var t = ttcp();
    ttcp_sequence::StructSeq seq;
    seq.length(static_cast<CORBA::ULong>(sized("structs:")));
    for (CORBA::ULong i = 0; i < seq.length(); ++i) {
      seq[i].s = static_cast<CORBA::Short>(i + 1);
      seq[i].c = static_cast<CORBA::Char>('A' + i % 26);
      seq[i].l = static_cast<CORBA::Long>(1000 * (i + 1));
      seq[i].o = static_cast<CORBA::Octet>(0xF0 + i % 16);
      seq[i].d = 0.5 * (i + 1);
    }
    for (unsigned long i = 0; i < opts.count; ++i) t->sendStructSeq_2way(seq);
  } else if (call.rfind("echo-octets:", 0) == 0) {
    Integrity::Echo_var e = echo();
    Integrity::Octets seq;
    seq.length(static_cast<CORBA::ULong>(sized("echo-octets:")));
    for (CORBA::ULong i = 0; i < seq.length(); ++i) seq[i] = static_cast<CORBA::Octet>(i * 7);
    for (unsigned long i = 0; i < opts.count; ++i) {
      Integrity::Octets_var back = e->echo_octets(seq);
      expect(same_sequence(back.in(), seq), "echo_octets: sequence differs");
    }
  } else if (call.rfind("echo-doubles:", 0) == 0 || call.rfind("echo-records:", 0) == 0 ||
             call.rfind("echo-narecords:", 0) == 0) {
    Integrity::Echo_var e = echo();
    auto n = static_cast<CORBA::ULong>(sized(call.substr(0, call.find(':') + 1)));
    for (unsigned long i = 0; i < opts.count; ++i) {
      try {
        if (call.rfind("echo-doubles:", 0) == 0) {
          Integrity::Doubles d;
          d.length(n);
          for (CORBA::ULong k = 0; k < n; ++k) d[k] = 0.125 + 1.5 * k;
          Integrity::Doubles_var r = e->echo_doubles(d);
          expect(same_sequence(r.in(), d), "echo_doubles: values differ");
        } else if (call.rfind("echo-records:", 0) == 0) {
          Integrity::Records s;
          s.length(n);
          for (CORBA::ULong k = 0; k < n; ++k) s[k] = sample_record(static_cast<CORBA::Long>(k + 1));
          Integrity::Records_var r = e->echo_records(s);
          expect(same_sequence(r.in(), s), "echo_records: values differ");
        } else {
          Integrity::NARecords s;
          s.length(n);
          for (CORBA::ULong k = 0; k < n; ++k) s[k] = sample_narecord(static_cast<CORBA::Long>(k + 1));
          Integrity::NARecords_var r = e->echo_narecords(s);
          expect(same_sequence(r.in(), s), "echo_narecords: values differ");
        }
      } catch (const CORBA::MARSHAL& ex) {
        if (!opts.refused_ok) throw;
        std::ostringstream text;
        text << "CORBA::MARSHAL minor 0x" << std::hex << ex.minor();
        throw call_refused{text.str()};
      }
    }
  } else if (call == "echo-all" || call.rfind("echo:", 0) == 0) {
    Integrity::Echo_var e = echo();
    std::string only = call == "echo-all" ? "" : call.substr(5);
    bool found = false;
    for (const auto& [name, check] : echo_checks(opts.wide_strings)) {
      if (!only.empty() && name != only) continue;
      found = true;
      for (unsigned long i = 0; i < opts.count; ++i) {
        try {
          check(e);
        } catch (const check_failed& failure) {
          throw check_failed{name + ": " + failure.message};
        } catch (const CORBA::SystemException& ex) {
          std::ostringstream text;
          text << name << ": CORBA::" << ex._name() << " minor 0x" << std::hex << ex.minor();
          throw check_failed{text.str()};
        } catch (const CORBA::Exception& ex) {
          throw check_failed{name + ": CORBA::" + ex._name()};
        }
      }
    }
    if (!found) throw check_failed{"no echo check named " + only};
  } else if (call == "bad-key") {
    CORBA::Object_ptr target = CORBA::is_nil(ttcp_object) ? echo_object : ttcp_object;
    if (CORBA::is_nil(target)) throw check_failed{"no object"};
    CORBA::Object_var mangled = with_mangled_key(orb, target);
    for (unsigned long i = 0; i < opts.count; ++i) {
      try {
        if (CORBA::is_nil(ttcp_object)) {
          Integrity::Echo_var e = Integrity::Echo::_unchecked_narrow(mangled);
          e->echo_long(1);
        } else {
          ttcp_sequence_var t = ttcp_sequence::_unchecked_narrow(mangled);
          t->sendNoParams_2way();
        }
        throw check_failed{"a call on a mangled object key succeeded"};
      } catch (const CORBA::OBJECT_NOT_EXIST&) {
        // expected
      }
    }
  } else if (call == "bad-op") {
    CORBA::Object_ptr target = CORBA::is_nil(ttcp_object) ? echo_object : ttcp_object;
    if (CORBA::is_nil(target)) throw check_failed{"no object"};
    for (unsigned long i = 0; i < opts.count; ++i) {
      CORBA::Request_var request = target->_request("no_such_operation");
      request->set_return_type(CORBA::_tc_void);
      bool raised = false;
      try {
        request->invoke();
        CORBA::Exception* ex = request->env()->exception();
        raised = ex && CORBA::BAD_OPERATION::_downcast(ex);
        if (!raised) {
          throw check_failed{std::string("unknown operation gave ") + (ex ? ex->_name() : "no exception")};
        }
      } catch (const CORBA::BAD_OPERATION&) {
        raised = true;
      }
      expect(raised, "no BAD_OPERATION");
    }
  } else if (call == "non-existent") {
    CORBA::Object_ptr target = CORBA::is_nil(ttcp_object) ? echo_object : ttcp_object;
    if (CORBA::is_nil(target)) throw check_failed{"no object"};
    for (unsigned long i = 0; i < opts.count; ++i) {
      expect(!target->_non_existent(), "_non_existent() is true for a live object");
    }
  } else {
    usage("unknown command " + call);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> orb_args;
  options opts = parse(argc, argv, orb_args);
  orb_args.push_back(nullptr);
  int orb_argc = static_cast<int>(orb_args.size()) - 1;
  int failures = 0;
  try {
    CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_args.data());
    if (opts.send_context >= 0)
      switchyard::bench::send_request_context(static_cast<unsigned long>(opts.send_context), opts.context_text);
    CORBA::Object_var ttcp_object, echo_object;
    if (!opts.ior.empty()) {
      ttcp_object = orb->string_to_object(opts.ior.c_str());
      echo_object = CORBA::Object::_duplicate(ttcp_object);
    } else {
      auto iors = read_ior_file(opts.ior_file);
      if (iors.count(opts.object)) ttcp_object = orb->string_to_object(iors[opts.object].c_str());
      if (iors.count("echo")) echo_object = orb->string_to_object(iors["echo"].c_str());
    }
    for (const std::string& call : opts.calls) {
      try {
        run_call(orb, opts, call, ttcp_object, echo_object);
        const std::string reply_context = switchyard::bench::take_reply_context();
        if (opts.expects_reply_context && reply_context != opts.expected_reply_context)
          throw check_failed{"reply context '" + reply_context + "', expected '" + opts.expected_reply_context + "'"};
        std::cout << "ok    " << call << " x" << opts.count << std::endl;
      } catch (const call_refused& refusal) {
        std::cout << "refused " << call << ": " << refusal.message << std::endl;
      } catch (const check_failed& failure) {
        ++failures;
        std::cout << "FAIL  " << call << ": " << failure.message << std::endl;
      } catch (const CORBA::SystemException& ex) {
        ++failures;
        std::cout << "FAIL  " << call << ": CORBA::" << ex._name() << " minor 0x" << std::hex << ex.minor() << std::dec
                  << std::endl;
      } catch (const CORBA::Exception& ex) {
        ++failures;
        std::cout << "FAIL  " << call << ": CORBA::" << ex._name() << std::endl;
      }
    }
    orb->destroy();
  } catch (const CORBA::Exception& ex) {
    std::cerr << "omni_peer_client: CORBA::" << ex._name() << "\n";
    return 1;
  }
  std::cout << (failures ? "omni_peer_client: FAILED " : "omni_peer_client: all passed ") << "(" << failures
            << " failing command(s))" << std::endl;
  return failures ? 1 : 0;
}
