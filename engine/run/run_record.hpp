#pragma once
// Checks of a checkpoint against the run that resumes it (run_record.cpp). Each throws one
// input_error line naming the checkpoint file, the key and both values.
#include <filesystem>
#include <map>
#include <string>

#include "stokesian/run/run.hpp"

namespace stokesian::backends {
struct capabilities;
}

namespace stokesian {

// Adds engine_backend, engine_hi_kernel and engine_cuda_fp_flags from an engine's description.
void record_engine(std::map<std::string, std::string>& record, const std::map<std::string, std::string>& description);

// The scenario text, case, N, precision, dt, integrator, run length, sampling, trajectory,
// min_separation and the requested backend and kernel must be the checkpoint's.
void check_same_run(const scenario& s, const io::run_checkpoint& c, const std::filesystem::path& checkpoint_path);
// The engine that continues must be the kind that wrote the checkpoint (backend, kernel, device
// flags); two kernels of the CPU's bits (`can`: the backend's capabilities::cpu_order_kernels) are
// the same kind.
void check_same_engine(const std::map<std::string, std::string>& description, const io::run_checkpoint& c,
                       const std::filesystem::path& checkpoint_path, const backends::capabilities& can);

}  // namespace stokesian
