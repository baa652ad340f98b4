// Service contexts through omniORB's own interceptor hooks (omniInterceptors: omniORB 4.2 has no
// Portable Interceptors), for the interop tests of ours (issue 25): a context our interceptor
// adds must reach omniORB's hooks, and one omniORB's hooks add must reach ours.
//
// Server (omni_server --echo-context ID): a request's context of id ID is answered with a reply
// context of id ID + 1 holding "omniORB saw: " and the request context's octets.
// Client (omni_peer_client --send-context ID TEXT): every request carries a context of id ID
// holding TEXT; the reply's context of id ID + 1, if any, is kept for take_reply_context().
//
// Uses omniORB's installed internal headers (GIOP_S) to reach a request's received contexts.
#pragma once

#include <string>

namespace switchyard::bench {

// Both register omniORB interceptors; call after CORBA::ORB_init, before the first call.
void echo_request_context(unsigned long id);
void send_request_context(unsigned long id, const std::string& text);
// The octets of the last reply's context ID + 1 as text, forgotten once taken; empty when none came.
std::string take_reply_context();

}  // namespace switchyard::bench
