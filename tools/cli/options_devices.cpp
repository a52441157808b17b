#include "options_devices.hpp"

#include <stdexcept>

#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/regression/suite_runner.hpp"

namespace stokesian::cli {

CLI::Option* add_gpus_option(CLI::App& cmd, std::string& gpus) {
    return cmd.add_option_function<std::string>(
        "--gpus",
        [&gpus](const std::string& text) {
            try {
                (void)parse_device_selection(text);
            } catch (const std::invalid_argument& e) {
                throw CLI::ValidationError(input_error("command line", "--gpus", text, e.what()).what());
            }
            gpus = text;
        },
        "GPUs the runs are spread over, one device per run, longest runs first onto the least-loaded: device "
        "ordinals (0,1) or all (default all on CUDA; a run with its own run.devices keeps them)");
}

CLI::Option* add_batch_option(CLI::App& cmd, std::string& batch) {
    return cmd.add_option_function<std::string>(
        "--batch",
        [&batch](const std::string& text) {
            try {
                (void)regression::parse_batch_mode(text);
            } catch (const std::invalid_argument& e) {
                throw CLI::ValidationError(input_error("command line", "--batch", text, e.what()).what());
            }
            batch = text;
        },
        "runs of the same N, precision mode and physics (differing in initial state, dt, length, sampling) "
        "advanced by one batched launch, each bit for bit the run alone: off, auto (runs on a GPU; the default "
        "unless the manifest's [suite] batch says otherwise) or on (the CPU too)");
}

}  // namespace stokesian::cli
