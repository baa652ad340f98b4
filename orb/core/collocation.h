// Collocated calls (-ORBCollocation, docs/orb.md "Collocated calls"): a call to an object of the
// calling process's own ORB, made without a socket. The reference binds without a connection
// (object_state::bind, once per binding); the invocation marshals its request as for any server,
// then call_collocated serves it in the caller's thread through the server's own dispatch
// (orb/core/request_dispatch.h: servant and operation demultiplexing, the generated skeleton,
// the reply marshaled) and hands the reply to the invocation's usual reply reading. Internal to
// orb/core.
#pragma once

#include "orb/core/client_connection.h"
#include "orb/giop/protocol.h"
#include "orb/ior/object_reference.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::core {

class orb_impl;

// Whether `target` names `orb` itself: one of the endpoints its server advertises, and a key of
// one of its adapters (or a plain key bound to one). False while the ORB listens nowhere.
bool names_this_orb(orb_impl& orb, const iop::invocation_target& target);

// Serves the request finished in `request` (begun at `mark`) in this thread for `orb`. For a
// two-way request the reply goes into `reply`: a view of this thread's reply buffer for this
// nesting depth (valid until the next collocated call at the same depth: the invocation reads it
// first), or a copy when `copy_reply` (a deferred call, whose reply is taken later). A call made
// from inside the upcall nests: it uses buffers of its own. Allocates nothing in the steady
// state. -ORBTrace shows the request and the reply ("collocated"); -ORBInstrument counts them in
// a probe table leased for the call.
void call_collocated(orb_impl& orb, cdr::output_stream& request, const giop::message_mark& mark,
                     client_connection::reply& reply, bool copy_reply = false);

}  // namespace switchyard::core
