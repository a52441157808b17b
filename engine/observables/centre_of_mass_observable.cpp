// Centre of mass of the unwrapped positions and its velocity (the mean particle velocity): the
// sedimentation speed, and z_cm(t) of the paper's Fig. 3b.
#include "observables_impl.hpp"
#include "stokesian/observables/decimated_series.hpp"
#include "stokesian/observables/result_sink.hpp"

namespace stokesian {

namespace {

class centre_of_mass_observable final : public observable {
public:
    centre_of_mass_observable(const box_settings& box, std::uint64_t block) : box_(box), z_(block), vz_(block) {}

    void sample(const frame& f) override {
        const std::size_t n = f.position.size();
        double z = 0.0, vz = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            z += unwrapped_position(f, i, box_).z;
            vz += f.velocity[i].z;
        }
        z /= double(n);
        vz /= double(n);
        if (samples_ == 0) {
            first_time_ = f.time;
            first_z_ = z;
        }
        last_time_ = f.time;
        last_z_ = z;
        sampled_velocity_sum_ += vz;
        ++samples_;
        z_.add(f.step, f.time, z);
        vz_.add(f.step, f.time, vz);
    }

    void write(result_sink& out) const override {
        write_series(out, "centre_of_mass/z", z_);
        write_series(out, "centre_of_mass/velocity_z", vz_);
        out.write_result("centre_of_mass/mean_velocity_z", mean_velocity(),
                         {{"meaning",
                           "(z_cm(t_end) - z_cm(t_0)) / (t_end - t_0), unwrapped positions: "
                           "the sedimentation velocity over the run"}});
        out.write_result("centre_of_mass/mean_sampled_velocity_z", mean_sampled_velocity(),
                         {{"meaning",
                           "mean over the samples of the instantaneous <v_z> (the explicit Euler step "
                           "moves with the velocities of every step, so this can differ from "
                           "mean_velocity_z by the variation between samples)"}});
    }

    void summarise(std::map<std::string, double>& summary) const override {
        summary["centre_of_mass_mean_velocity_z"] = mean_velocity();
        summary["centre_of_mass_mean_sampled_velocity_z"] = mean_sampled_velocity();
    }

    std::string kind() const override { return "centre_of_mass"; }

    void save(saved_state& s) const override {
        z_.save(s, "z");
        vz_.save(s, "velocity_z");
        s.put_count("samples", samples_);
        s.put_reals("first_last", {first_time_, first_z_, last_time_, last_z_});
        s.put_real("sampled_velocity_sum", sampled_velocity_sum_);
    }

    void restore(const saved_state& s) override {
        const std::vector<double>& first_last = s.real_array("first_last");
        require_length(first_last, 4, "first_last");
        z_.restore(s, "z");
        vz_.restore(s, "velocity_z");
        samples_ = s.count("samples");
        first_time_ = first_last[0];
        first_z_ = first_last[1];
        last_time_ = first_last[2];
        last_z_ = first_last[3];
        sampled_velocity_sum_ = s.real("sampled_velocity_sum");
    }

private:
    double mean_sampled_velocity() const { return samples_ > 0 ? sampled_velocity_sum_ / double(samples_) : 0.0; }
    double mean_velocity() const {
        return last_time_ > first_time_ ? (last_z_ - first_z_) / (last_time_ - first_time_) : 0.0;
    }

    box_settings box_;
    decimated_series z_, vz_;
    std::uint64_t samples_ = 0;
    double first_time_ = 0.0, first_z_ = 0.0, last_time_ = 0.0, last_z_ = 0.0;
    double sampled_velocity_sum_ = 0.0;
};

}  // namespace

std::unique_ptr<observable> make_centre_of_mass_observable(const box_settings& box, std::uint64_t block) {
    return std::make_unique<centre_of_mass_observable>(box, block);
}

}  // namespace stokesian
