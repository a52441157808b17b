#pragma once
// The backends this build carries, each registered by one function of its own file.
#include "stokesian/backends/backend_extensions.hpp"
#include "stokesian/backends/registry.hpp"

namespace stokesian::backends {

void register_cpu_backend(registry& r);    // cpu_registration.cpp
void register_cuda_backends(registry& r);  // cuda_registration.cpp: cuda (not built: says so)

inline void register_builtin_backends(registry& r) {
    register_cpu_backend(r);
    register_cuda_backends(r);
    // A build's added backends (CMake STOKESIAN_EXTRA_BACKENDS; none by default).
    STOKESIAN_REGISTER_EXTRA_BACKENDS(r)
}

}  // namespace stokesian::backends
