// The Integrity::Echo servant `sy-bench server` serves beside the ttcp servants: the generated
// skeleton (syidl, idl/integrity.idl), every operation doing what the IDL comments say, so any
// ORB's client can check data integrity and time the evaluation report's types against it.
#pragma once

#include <memory>

#include "switchyard/servant.h"

namespace switchyard::bench {

std::shared_ptr<servant> make_echo_servant();

}  // namespace switchyard::bench
