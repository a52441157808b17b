#pragma once
// The placement options of suites and studies (docs/reference/cli.md "Command-line vocabulary"):
// `--gpus 0,1 | all`, spelled as run.devices (parse_device_selection), and `--batch`. The devices
// of one run are the [run] key's own option, `--devices` (options_run.hpp).
#include <CLI/CLI.hpp>
#include <string>

namespace stokesian::cli {

// `--gpus LIST` into `gpus` (the text, checked; empty when not given): the GPUs the runs of a suite or
// study are spread over, one device per run (regression::place_on_gpus).
CLI::Option* add_gpus_option(CLI::App& cmd, std::string& gpus);

// `--batch off|auto|on` into `batch` (the text, checked; empty when not given): whether the runs of a
// suite or study that can share one batched launch do (regression::batch_mode).
CLI::Option* add_batch_option(CLI::App& cmd, std::string& batch);

}  // namespace stokesian::cli
