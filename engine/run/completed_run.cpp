#include "completed_run.hpp"

#include "run_files.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/number_text.hpp"
#include "stokesian/io/h5md.hpp"

namespace stokesian {

namespace fs = std::filesystem;

std::optional<run_result> completed_run_at(const fs::path& output, const scenario& s) {
    std::error_code error;
    if (!fs::is_regular_file(output, error) || fs::exists(partial_of(output), error)) return std::nullopt;
    try {
        const io::h5md_file file(output);
        if (!file.exists("/parameters/run") || !file.exists("/parameters/scenario")) return std::nullopt;
        const auto run = file.parameter_attributes("/parameters/run");
        const auto scenario = file.parameter_attributes("/parameters/scenario");
        auto value = [](const std::map<std::string, std::string>& m, const char* key) {
            const auto at = m.find(key);
            return at == m.end() ? std::string() : at->second;
        };
        if (value(run, "status") != "completed" || value(scenario, "source_text") != s.source_text ||
            value(scenario, "case") != s.case_name)
            return std::nullopt;
        const std::optional<std::uint64_t> steps = read_count(value(run, "steps"));
        const std::optional<double> wall = read_number(value(run, "wall_seconds"));
        // A completed run ran all its steps (a file whose status was edited did not).
        if (!steps || !wall || *steps != s.run.total_steps()) return std::nullopt;
        run_result r;
        r.output = output;
        r.status = "completed";
        r.steps = *steps;
        r.simulated_time = double(*steps) * s.run.dt;
        r.wall_seconds = *wall;
        r.final_state_digest = value(run, "final_state_digest");
        if (file.exists("/parameters/engine")) r.engine = file.parameter_attributes("/parameters/engine");
        return r;
    } catch (const input_error&) {
        return std::nullopt;  // not a readable H5MD file: not a completed run's output
    }
}

}  // namespace stokesian
