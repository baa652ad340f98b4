#include "transports/uiop/uiop_connection.h"

namespace switchyard::transports::uiop {

connection::connection(native_handle handle, const transport_options& options, std::string local_address,
                       std::string peer_address)
    : socket_connection(handle, options, std::move(local_address), std::move(peer_address)) {}

}  // namespace switchyard::transports::uiop
