// -ORBTrace LEVEL [-ORBTraceFile PATH]: what crosses the ORB's connections, one line per event,
// as omniORB's -ORBtraceLevel does, to stderr or a file:
//   1  connections: accepted, connected, ended (and why)
//   2  and every message, either way: GIOP version, type, size, request id, and for requests the
//      operation and object key, for replies their status
//   3  and each message's octets in hex
// Off (the default), it costs the request path one load and one untaken branch per message.
// Internal to orb/core; the ORB owns one and its connections, server and client, write to it.
// Thread-safe: lines are written whole under a lock.
#pragma once

#include <cstdio>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "orb/giop/message_header.h"

namespace switchyard::core {

class message_trace {
 public:
  // Level 0 traces nothing. A file that cannot be opened raises BAD_PARAM naming it.
  message_trace(int level, const std::string& file);
  ~message_trace();
  message_trace(const message_trace&) = delete;
  message_trace& operator=(const message_trace&) = delete;

  bool connections() const noexcept { return level_ >= 1; }
  bool messages() const noexcept { return level_ >= 2; }

  // "server accepted iiop://127.0.0.1:40112", "client ended iiop://...: idle timeout".
  void connection(std::string_view side, std::string_view event, std::string_view peer, std::string_view why = {});
  // "server in  iiop://...: GIOP 1.2 Request 84 octets, id 7, op 'echo_long', key 5359..."; the
  // octets follow at level 3. `bytes` is one whole message (or its first piece: the header says
  // how large the whole is).
  void message(std::string_view side, bool incoming, std::string_view peer, std::span<const std::byte> bytes);

 private:
  void write_line(const std::string& line);

  int level_;
  std::FILE* out_;
  bool owns_out_;
  std::mutex mutex_;
};

}  // namespace switchyard::core
