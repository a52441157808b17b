#pragma once
// The backends `stokesian bench fcc` times phase by phase (backends::backend::time_phases), told
// apart by capability, never by name: those that compute on a device (capabilities::devices > 0)
// are timed with the device kernels (--hi-kernel) and compared against those on the host (timed
// with --cpu-kernel); the device header describes the device of the first
// (backends::backend::describe_device).
#include <string>
#include <vector>

#include "stokesian/backends/registry.hpp"

namespace stokesian::bench {

struct timed_backends {
    std::vector<const backends::backend*> on_device, on_host;  // each in the order requested
    // The timed backends' names, the host's first: "cpu,cuda" (for messages).
    std::string names() const;
};

// The backends `requested` names (registered names or auto, resolved as the registry resolves it
// for any size), each once. Throws input_error (--backend) for one with no phase timer that is
// available here; one that is absent here is returned, its availability checked by the caller after
// the arguments (require_available).
timed_backends phase_timed_backends(const std::vector<std::string>& requested);

// Throws input_error "<what>: <why not> (<instead>)" when `b` cannot run here (no device, not built).
void require_available(const backends::backend& b, const std::string& what, const std::string& instead);

}  // namespace stokesian::bench
