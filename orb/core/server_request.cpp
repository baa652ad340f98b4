#include "switchyard/server_request.h"

#include "orb/core/reply_sink.h"

namespace switchyard {

cdr::output_stream& server_request::begin_reply(reply_status status) {
  status_ = status;
  return sink_->begin_reply(request_id_, status);
}

}  // namespace switchyard
