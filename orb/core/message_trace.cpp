#include "orb/core/message_trace.h"

#include <chrono>
#include <cinttypes>
#include <ctime>

#include "orb/giop/messages.h"
#include "orb/giop/protocol.h"
#include "switchyard/exception.h"

namespace switchyard::core {

namespace {

std::string hex(std::span<const std::byte> bytes, std::size_t limit) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes.size() && i < limit; ++i) {
    out += digits[std::to_integer<unsigned>(bytes[i]) >> 4];
    out += digits[std::to_integer<unsigned>(bytes[i]) & 15];
  }
  return out;
}

// What a message says about itself, as far as it can be read (a malformed one says so).
std::string describe(std::span<const std::byte> bytes) {
  auto header = giop::decode_header(bytes, 0xffffffffu);
  if (header.status != giop::header_status::ok)
    return "not a GIOP message (" + std::string(giop::to_string(header.status)) + "), " + std::to_string(bytes.size()) +
           " octets";
  const auto& h = header.header;
  std::string text = "GIOP 1." + std::to_string(h.ver.minor) + " " + std::string(giop::to_string(h.type)) + " " +
                     std::to_string(giop::header_size + h.body_size) + " octets";
  if (h.more_fragments) text += ", more fragments";
  const giop::protocol* protocol = giop::protocol_for(h.ver.minor);
  if (protocol == nullptr || bytes.size() < giop::header_size + h.body_size || h.more_fragments) return text;
  const giop::message_view message{h, bytes.first(giop::header_size + h.body_size)};
  try {
    switch (h.type) {
      case giop::message_type::request: {
        auto request = protocol->decode_request(message);
        text += ", id " + std::to_string(request.request_id) + ", op '" + std::string(request.operation) + "'";
        if (!request.response_expected()) text += " (one-way)";
        if (request.target.disposition == giop::addressing_disposition::key_addr)
          text += ", key " + hex(request.target.object_key, 48);
        break;
      }
      case giop::message_type::reply: {
        auto reply = protocol->decode_reply(message);
        text += ", id " + std::to_string(reply.request_id) + ", " + std::string(giop::to_string(reply.status));
        break;
      }
      case giop::message_type::locate_request:
        text += ", id " + std::to_string(protocol->decode_locate_request(message).request_id);
        break;
      case giop::message_type::locate_reply: {
        auto reply = protocol->decode_locate_reply(message);
        text += ", id " + std::to_string(reply.request_id) + ", " + std::string(giop::to_string(reply.status));
        break;
      }
      case giop::message_type::cancel_request:
        text += ", id " + std::to_string(protocol->decode_cancel_request(message));
        break;
      default:
        break;
    }
  } catch (const SystemException& e) {
    text += ", malformed: ";
    text += e.what();
  }
  return text;
}

}  // namespace

message_trace::message_trace(int level, const std::string& file) : level_(level), out_(stderr), owns_out_(false) {
  if (level_ <= 0 || file.empty()) return;
  out_ = std::fopen(file.c_str(), "a");
  if (out_ == nullptr)
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_option, CompletionStatus::no,
                          "-ORBTraceFile: cannot open '" + file + "' for writing");
  owns_out_ = true;
}

message_trace::~message_trace() {
  if (owns_out_) std::fclose(out_);
}

void message_trace::connection(std::string_view side, std::string_view event, std::string_view peer,
                               std::string_view why) {
  if (!connections()) return;
  std::string line = std::string(side) + " " + std::string(event) + " " + std::string(peer);
  if (!why.empty()) line += ": " + std::string(why);
  write_line(line);
}

void message_trace::message(std::string_view side, bool incoming, std::string_view peer,
                            std::span<const std::byte> bytes) {
  if (!messages()) return;
  std::string line = std::string(side) + (incoming ? " in  " : " out ") + std::string(peer) + ": " + describe(bytes);
  if (level_ >= 3) line += "\n    " + hex(bytes, bytes.size());
  write_line(line);
}

void message_trace::write_line(const std::string& line) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() % 1000000;
  std::tm local{};
  ::localtime_r(&seconds, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%H:%M:%S", &local);
  std::lock_guard lock(mutex_);
  std::fprintf(out_, "switchyard %s.%06" PRId64 " %s\n", stamp, static_cast<std::int64_t>(micros), line.c_str());
  std::fflush(out_);
}

}  // namespace switchyard::core
