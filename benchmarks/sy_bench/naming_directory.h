// The servers' references through the CosNaming service (omniNames), for --netns: `sy-bench
// server --naming URL --naming-context ID` binds every object it serves under the context ID, and
// the experiment resolves them from there instead of reading them from the server's IOR file, as
// an application on another host would. Stubs: omniORB's CosNaming.idl through syidl.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "switchyard/object.h"

namespace switchyard {
class orb;
}

namespace switchyard::bench {

// Whether sy-bench was built with the CosNaming stubs (Debian's omniorb-idl has the IDL).
bool naming_available() noexcept;

// Waits until the naming service at `url` (corbaloc:...) answers for its root context, at most
// `timeout`. omniNames listens a moment before its root context is active.
bool wait_for_naming(const std::shared_ptr<switchyard::orb>& orb, const std::string& url,
                     std::chrono::milliseconds timeout);

// Binds each (name, object) under the context ID (kind "sy-bench", made afresh: a second server
// with the same ID raises AlreadyBound).
void bind_in_naming(const std::shared_ptr<switchyard::orb>& orb, const std::string& url, const std::string& context,
                    const std::vector<std::pair<std::string, object_ref>>& objects);

// The stringified references of `names` under the context, as the naming service returns them.
// Raises std::runtime_error naming the first it cannot resolve.
std::vector<std::string> resolve_in_naming(const std::shared_ptr<switchyard::orb>& orb, const std::string& url,
                                           const std::string& context, const std::vector<std::string>& names);

}  // namespace switchyard::bench
