#include "transports/acceptor.h"

namespace switchyard::transports {

acceptor::~acceptor() = default;

}  // namespace switchyard::transports
