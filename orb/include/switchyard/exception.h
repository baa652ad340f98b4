// CORBA exceptions: the system exceptions every layer raises (and the server sends over the wire)
// and the base of the user exceptions that IDL declares.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

namespace switchyard {

// Whether the operation had run when the exception was raised (CORBA 2.3, 4.12.1).
enum class CompletionStatus : std::uint32_t { yes = 0, no = 1, maybe = 2 };

std::string_view to_string(CompletionStatus status) noexcept;

// Every exception the ORB raises or carries derives from this.
class Exception : public std::exception {
 public:
  // The repository id, e.g. "IDL:omg.org/CORBA/MARSHAL:1.0".
  virtual std::string_view repository_id() const noexcept = 0;
};

// Raised by IDL-declared `raises` clauses; generated code derives one class per IDL exception.
class UserException : public Exception {
 public:
  const char* what() const noexcept override { return "CORBA user exception"; }
};

// The kinds of system exception (CORBA 3.x, table 4.1 and its additions). Their order is fixed:
// it is the index into the name table in exception.cpp.
enum class SystemExceptionKind : std::uint8_t {
  UNKNOWN,
  BAD_PARAM,
  NO_MEMORY,
  IMP_LIMIT,
  COMM_FAILURE,
  INV_OBJREF,
  NO_PERMISSION,
  INTERNAL,
  MARSHAL,
  INITIALIZE,
  NO_IMPLEMENT,
  BAD_TYPECODE,
  BAD_OPERATION,
  NO_RESOURCES,
  NO_RESPONSE,
  PERSIST_STORE,
  BAD_INV_ORDER,
  TRANSIENT,
  FREE_MEM,
  INV_IDENT,
  INV_FLAG,
  INTF_REPOS,
  BAD_CONTEXT,
  OBJ_ADAPTER,
  DATA_CONVERSION,
  OBJECT_NOT_EXIST,
  TRANSACTION_REQUIRED,
  TRANSACTION_ROLLEDBACK,
  INVALID_TRANSACTION,
  INV_POLICY,
  CODESET_INCOMPATIBLE,
  REBIND,
  TIMEOUT,
  TRANSACTION_UNAVAILABLE,
  TRANSACTION_MODE,
  BAD_QOS,
};

// One class for every system exception: the kind is data, not a type, because the wire carries
// only a repository id and the server must be able to send any of them it receives or raises.
// Catch it by kind: `catch (const SystemException& e) { if (e.kind() == ...) }`.
class SystemException : public Exception {
 public:
  SystemException(SystemExceptionKind kind, std::uint32_t minor, CompletionStatus completed = CompletionStatus::no,
                  std::string detail = {});

  SystemExceptionKind kind() const noexcept { return kind_; }
  std::uint32_t minor() const noexcept { return minor_; }
  CompletionStatus completed() const noexcept { return completed_; }
  // Free text for people (never sent on the wire).
  const std::string& detail() const noexcept { return detail_; }

  std::string_view repository_id() const noexcept override;
  // "MARSHAL (minor 0x53590003, completed no): sequence length 4294967295 exceeds 92 bytes left"
  const char* what() const noexcept override { return message_.c_str(); }

  // The kind named by a repository id ("IDL:omg.org/CORBA/MARSHAL:1.0"), or UNKNOWN.
  static SystemExceptionKind kind_from_repository_id(std::string_view id) noexcept;
  // The short name, "MARSHAL".
  static std::string_view name(SystemExceptionKind kind) noexcept;

 private:
  SystemExceptionKind kind_;
  std::uint32_t minor_;
  CompletionStatus completed_;
  std::string detail_;
  std::string message_;
};

// Switchyard's minor codes: our vendor minor codeset id ('S','Y') in the high 20 bits, as the
// specification asks of vendors (CORBA 3.x, 4.12.1). OMG-standard minor codes are used where the
// specification defines one (omg_minor below).
namespace minor {

inline constexpr std::uint32_t vendor_base = 0x53590000u;
constexpr std::uint32_t omg_minor(std::uint32_t code) noexcept { return 0x4f4d0000u | code; }

// MARSHAL
inline constexpr std::uint32_t read_past_end = vendor_base | 1;          // a read beyond the data
inline constexpr std::uint32_t length_too_large = vendor_base | 2;       // a length beyond what is left
inline constexpr std::uint32_t length_over_limit = vendor_base | 3;      // a length beyond the configured maximum
inline constexpr std::uint32_t string_not_terminated = vendor_base | 4;  // string without its NUL
inline constexpr std::uint32_t bad_boolean = vendor_base | 5;            // boolean octet neither 0 nor 1
inline constexpr std::uint32_t bad_byte_order = vendor_base | 6;         // byte-order octet neither 0 nor 1
inline constexpr std::uint32_t bad_wstring = vendor_base | 7;            // odd wstring length, bad surrogate
inline constexpr std::uint32_t bad_enum = vendor_base | 8;               // enum or discriminator out of range
inline constexpr std::uint32_t bad_message = vendor_base | 9;            // malformed GIOP message
inline constexpr std::uint32_t fragment_limit = vendor_base | 10;        // reassembly beyond its limit
inline constexpr std::uint32_t bad_ior = vendor_base | 11;               // malformed IOR or profile
inline constexpr std::uint32_t bad_url = vendor_base | 12;               // malformed corbaloc: URL
inline constexpr std::uint32_t bad_value = vendor_base | 13;             // malformed valuetype encoding
inline constexpr std::uint32_t value_nesting = vendor_base | 14;         // values nested beyond the limit
inline constexpr std::uint32_t value_type_mismatch = vendor_base | 15;   // a value of another type than expected
inline constexpr std::uint32_t split_between_chunks = vendor_base | 16;  // struct data a value chunk splits unreadably
inline constexpr std::uint32_t too_many_values = vendor_base | 17;       // more values in one message than the limit
inline constexpr std::uint32_t nul_inside_string = vendor_base | 18;     // a NUL before a (w)string's end
inline constexpr std::uint32_t bad_fixed = vendor_base | 19;             // a packed decimal nibble out of range
inline constexpr std::uint32_t no_value_factory = omg_minor(1);          // unknown value type, no factory (CORBA 3.x)

// COMM_FAILURE / TRANSIENT
inline constexpr std::uint32_t connect_failed = vendor_base | 20;
inline constexpr std::uint32_t send_failed = vendor_base | 21;
inline constexpr std::uint32_t recv_failed = vendor_base | 22;
inline constexpr std::uint32_t connection_closed = vendor_base | 23;
inline constexpr std::uint32_t send_timed_out = vendor_base | 24;        // the peer read nothing for the send timeout
inline constexpr std::uint32_t out_of_descriptors = vendor_base | 25;    // accept: EMFILE, ENFILE, ENOBUFS, ENOMEM
inline constexpr std::uint32_t tls_handshake_failed = vendor_base | 26;  // TLS: no common protocol, peer's alert, ...

// BAD_PARAM
inline constexpr std::uint32_t bad_option = vendor_base | 30;    // unknown or malformed -ORB option
inline constexpr std::uint32_t bad_endpoint = vendor_base | 31;  // malformed endpoint string
inline constexpr std::uint32_t tls_setup = vendor_base | 32;     // unreadable certificate, key or CA; bad TLS option
inline constexpr std::uint32_t nul_in_string_argument = vendor_base | 33;  // a (w)string to send holds a NUL

// NO_PERMISSION (TLS and authorization: docs/orb.md, "TLS")
inline constexpr std::uint32_t peer_not_verified = vendor_base | 50;  // the peer's certificate failed verification
inline constexpr std::uint32_t peer_not_allowed = vendor_base | 51;   // the adapter does not let this caller in

// DATA_CONVERSION (fixed-point values: switchyard/fixed.h)
inline constexpr std::uint32_t fixed_out_of_range = vendor_base | 60;  // more integer digits than the type holds
inline constexpr std::uint32_t bad_fixed_text = vendor_base | 61;      // a malformed fixed-point literal
inline constexpr std::uint32_t fixed_division_by_zero = vendor_base | 62;

// IMP_LIMIT: a server's resource limit (docs/orb.md, "Limits")
inline constexpr std::uint32_t buffer_limit = vendor_base | 40;  // server-wide buffered bytes exhausted

}  // namespace minor

}  // namespace switchyard
