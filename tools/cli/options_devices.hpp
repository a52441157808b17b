#pragma once
// The device option family (docs/reference/cli.md "Command-line vocabulary"): `--devices 0,1,2,3 | all`, the GPUs
// one run drives (scenario key run.devices). The spelling is checked here (distinct ordinals
// >= 0); the backend checks that it drives devices, how many, and that they are present.
#include <CLI/CLI.hpp>
#include <string>

namespace stokesian::cli {

// `--devices LIST` into `devices` (the text, checked; empty when not given).
CLI::Option* add_devices_option(CLI::App& cmd, std::string& devices, const std::string& default_help);

// `--gpus LIST` into `gpus` (the text, checked; empty when not given): the GPUs the runs of a suite or
// study are spread over, one device per run (regression::place_on_gpus).
CLI::Option* add_gpus_option(CLI::App& cmd, std::string& gpus);

// `--batch off|auto|on` into `batch` (the text, checked; empty when not given): whether the runs of a
// suite or study that can share one batched launch do (regression::batch_mode).
CLI::Option* add_batch_option(CLI::App& cmd, std::string& batch);

}  // namespace stokesian::cli
