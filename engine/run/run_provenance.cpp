// The output's /parameters of a run (run_provenance.hpp).
#include "run_provenance.hpp"

#include "stokesian/core/number_text.hpp"
#include "stokesian/io/provenance.hpp"
#include "stokesian/settings/scenario_loader.hpp"

namespace stokesian {

namespace {

// The run's settings as /parameters/run holds them: numbers as numbers.
std::map<std::string, io::parameter_value> run_parameter_values(const scenario& s) {
    return {{"precision", to_string(s.run.precision)},
            {"hi_precision", std::string(to_string(s.run.precision.hi))},
            {"integration_precision", std::string(to_string(s.run.precision.integration))},
            {"integrator", std::string(to_string(s.run.integrator))},
            {"dt", s.run.dt},
            {"planned_steps", std::uint64_t{s.run.total_steps()}},
            {"sample_interval_steps", std::uint64_t{s.run.sample_interval_steps()}}};
}

}  // namespace

void write_identity(io::h5md_writer& out, const run_request& req) {
    const scenario& s = req.scenario_;
    out.write_parameters("scenario", io::text_parameters({{"name", s.name},
                                                          {"case", s.case_name},
                                                          {"description", s.description},
                                                          {"source_path", s.source_path.string()},
                                                          {"source_text", s.source_text},
                                                          {"resolved_configuration", resolved_configuration(s)}}));
    std::map<std::string, io::parameter_value> run = run_parameter_values(s);
    run["status"] = std::string("running");
    out.write_parameters("run", run);
    out.write_parameters("build", io::text_parameters(io::build_provenance()));
    out.write_parameters("invocation", io::text_parameters(req.invocation));
}

void write_provenance(io::h5md_writer& out, const run_request& req, const engine& eng, const run_result& r) {
    std::map<std::string, io::parameter_value> run = run_parameter_values(req.scenario_);
    run.insert({{"steps", std::uint64_t{r.steps}},
                {"status", r.status},
                {"wall_seconds", r.wall_seconds},
                {"final_state_digest", r.final_state_digest},
                {digest_algorithm_key, digest_algorithm_tag}});
    if (r.resumed_from_step > 0) run["resumed_from_step"] = std::uint64_t{r.resumed_from_step};
    out.write_parameters("run", run);
    out.write_parameters("engine", io::text_parameters(eng.description().provenance()));
}

}  // namespace stokesian
