#include "orb/core/collocation.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <vector>

#include "orb/core/orb_impl.h"
#include "orb/core/request_dispatch.h"
#include "orb/core/server.h"

namespace switchyard::core {

namespace {

// What a collocated call at one nesting depth works in: its request, copied out of the thread's
// request stream (which a call from inside the upcall writes again), and its reply. Kept for the
// thread's life: no allocation per call once they have grown.
struct collocated_buffers {
  std::vector<std::byte> request;
  cdr::output_stream reply{4096};
};

thread_local std::vector<std::unique_ptr<collocated_buffers>> buffers_by_depth;
thread_local std::size_t depth = 0;

// Where the timer records when -ORBInstrument is off: switched off, so nothing is recorded.
instrument::probe_table& switched_off_probes() {
  static instrument::probe_table table;
  return table;
}

// Copies the whole request (its own octets and any external chunks) into `into`.
void copy_request(cdr::output_stream& request, const giop::message_mark& mark, std::vector<std::byte>& into) {
  if (!request.has_external_chunks()) [[likely]] {
    const auto message = giop::protocol::finish(request, mark);
    into.assign(message.begin(), message.end());
    return;
  }
  std::span<const std::byte> pieces[giop::protocol::max_gather_pieces];
  const std::size_t count = giop::protocol::finish_gather(request, mark, pieces);
  into.clear();
  for (std::size_t i = 0; i < count; ++i) into.insert(into.end(), pieces[i].begin(), pieces[i].end());
}

constexpr std::string_view trace_peer = "this ORB";

}  // namespace

bool names_this_orb(orb_impl& orb, const iop::invocation_target& target) {
  server& serving = orb.serving();
  if (!serving.is_listening()) return false;
  const auto endpoints = serving.advertised_endpoints();
  if (std::find(endpoints.begin(), endpoints.end(), target.where) == endpoints.end()) return false;
  const std::string_view key(reinterpret_cast<const char*>(target.object_key.data()), target.object_key.size());
  return orb.adapters().is_own_key(key);
}

void call_collocated(orb_impl& orb, cdr::output_stream& request, const giop::message_mark& mark,
                     client_connection::reply& reply, bool copy_reply) {
  if (depth == buffers_by_depth.size()) buffers_by_depth.push_back(std::make_unique<collocated_buffers>());
  collocated_buffers& buffers = *buffers_by_depth[depth];
  copy_request(request, mark, buffers.request);
  const giop::message_view message = giop::make_message_view(buffers.request, 0xffffffffu);

  message_trace& trace = orb.trace();
  if (trace.messages()) [[unlikely]]
    trace.message("collocated", true, trace_peer, message.bytes);

  // The server's threads each write their own probe table; a collocated call leases one for
  // itself, only when the probes are on.
  const bool probing = instrument::probes_compiled_in && orb.options().instrument;
  instrument::probe_table& probes = probing ? orb.probes().lease() : switched_off_probes();
  struct scope {
    orb_impl& orb;
    instrument::probe_table& probes;
    bool probing;
    scope(orb_impl& o, instrument::probe_table& p, bool on) noexcept : orb(o), probes(p), probing(on) { ++depth; }
    ~scope() {
      --depth;
      if (probing) orb.probes().give_back(probes);
    }
  } nested(orb, probes, probing);

  instrument::phase_timer timer(probes);
  const auto answer =
      dispatch_request(orb, message, *giop::protocol_for(message.header.ver.minor), buffers.reply, timer, nullptr);
  if (answer.empty()) return;  // a oneway
  if (trace.messages()) [[unlikely]]
    trace.message("collocated", false, trace_peer, answer);
  if (copy_reply) [[unlikely]]
    reply.hold_copy(answer);
  else reply.hold(giop::make_message_view(answer, 0xffffffffu));
}

}  // namespace switchyard::core
