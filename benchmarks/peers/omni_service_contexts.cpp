#include "omni_service_contexts.h"

#include <omniORB4/CORBA.h>
#include <omniORB4/omniInterceptors.h>
// omniORB internals, in this order: GIOP_S needs giopStream complete.
// clang-format off
#include <omniORB4/internal/giopStrand.h>
#include <omniORB4/internal/giopStream.h>
#include <omniORB4/internal/GIOP_S.h>
// clang-format on

#include <mutex>
#include <utility>

namespace switchyard::bench {
namespace {

// Set once before the first call, read by omniORB's threads afterwards.
CORBA::ULong context_id = 0;
std::string request_text;

std::mutex reply_mutex;
std::string reply_text;  // under reply_mutex

// omniORB runs a call's serverReceiveRequest and serverSendReply on the same worker thread.
thread_local std::string seen_in_request;
thread_local bool request_had_context = false;

std::string text_of(const IOP::ServiceContext& context) {
  const auto& data = context.context_data;
  return {reinterpret_cast<const char*>(data.get_buffer()), data.length()};
}

void append(IOP::ServiceContextList& list, CORBA::ULong id, const std::string& text) {
  const CORBA::ULong at = list.length();
  list.length(at + 1);
  list[at].context_id = id;
  list[at].context_data.length(static_cast<CORBA::ULong>(text.size()));
  for (CORBA::ULong i = 0; i < text.size(); ++i) list[at].context_data[i] = static_cast<CORBA::Octet>(text[i]);
}

CORBA::Boolean server_receive(omni::omniInterceptors::serverReceiveRequest_T::info_T& info) {
  request_had_context = false;
  const IOP::ServiceContextList& received = info.giop_s.service_contexts();
  for (CORBA::ULong i = 0; i < received.length(); ++i) {
    if (received[i].context_id != context_id) continue;
    seen_in_request = text_of(received[i]);
    request_had_context = true;
  }
  return true;
}

CORBA::Boolean server_reply(omni::omniInterceptors::serverSendReply_T::info_T& info) {
  // omniORB empties the list before this hook and writes what it then holds into the reply header.
  if (request_had_context) append(info.giop_s.service_contexts(), context_id + 1, "omniORB saw: " + seen_in_request);
  request_had_context = false;
  return true;
}

CORBA::Boolean client_send(omni::omniInterceptors::clientSendRequest_T::info_T& info) {
  append(info.service_contexts, context_id, request_text);
  return true;
}

CORBA::Boolean client_receive(omni::omniInterceptors::clientReceiveReply_T::info_T& info) {
  for (CORBA::ULong i = 0; i < info.service_contexts.length(); ++i) {
    if (info.service_contexts[i].context_id != context_id + 1) continue;
    std::lock_guard lock(reply_mutex);
    reply_text = text_of(info.service_contexts[i]);
  }
  return true;
}

}  // namespace

void echo_request_context(unsigned long id) {
  context_id = static_cast<CORBA::ULong>(id);
  omniORB::getInterceptors()->serverReceiveRequest.add(server_receive);
  omniORB::getInterceptors()->serverSendReply.add(server_reply);
}

void send_request_context(unsigned long id, const std::string& text) {
  context_id = static_cast<CORBA::ULong>(id);
  request_text = text;
  omniORB::getInterceptors()->clientSendRequest.add(client_send);
  omniORB::getInterceptors()->clientReceiveReply.add(client_receive);
}

std::string take_reply_context() {
  std::lock_guard lock(reply_mutex);
  return std::exchange(reply_text, {});
}

}  // namespace switchyard::bench
