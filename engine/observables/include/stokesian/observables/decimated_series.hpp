#pragma once
// A time series kept at bounded size: samples are grouped in blocks of fixed length and each
// block stores its last time, its last value and the largest |value| it saw. A run of any length
// then writes a few thousand points per observable while no excursion between points is lost.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "stokesian/observables/saved_state.hpp"

namespace stokesian {

class decimated_series {
public:
    explicit decimated_series(std::uint64_t block = 1) : block_(std::max<std::uint64_t>(1, block)) {}

    void add(std::uint64_t step, double time, double value) {
        block_max_ = std::max(block_max_, std::fabs(value));
        overall_max_ = std::max(overall_max_, std::fabs(value));
        if (!std::isfinite(value)) non_finite_ = true;
        if (++in_block_ == block_) flush(step, time, value);
        last_step_ = step;
        last_time_ = time;
        last_value_ = value;
    }
    // Closes a partial last block.
    void finish() {
        if (in_block_ > 0) flush(last_step_, last_time_, last_value_);
    }

    std::uint64_t block() const { return block_; }
    double max_abs() const { return non_finite_ ? INFINITY : overall_max_; }
    const std::vector<std::uint64_t>& step() const { return step_; }
    const std::vector<double>& time() const { return time_; }
    const std::vector<double>& value() const { return value_; }
    const std::vector<double>& block_max_abs() const { return block_max_abs_; }

    // Checkpoints: every member under "<prefix>.<member>"; restore() requires the same block length
    // (it follows from the run's settings, so a mismatch means a checkpoint of another run).
    void save(saved_state& s, const std::string& prefix) const {
        s.put_count(prefix + ".block", block_);
        s.put_count(prefix + ".in_block", in_block_);
        s.put_real(prefix + ".block_max", block_max_);
        s.put_real(prefix + ".overall_max", overall_max_);
        s.put_count(prefix + ".non_finite", non_finite_ ? 1 : 0);
        s.put_count(prefix + ".last_step", last_step_);
        s.put_real(prefix + ".last_time", last_time_);
        s.put_real(prefix + ".last_value", last_value_);
        s.put_counts(prefix + ".step", step_);
        s.put_reals(prefix + ".time", time_);
        s.put_reals(prefix + ".value", value_);
        s.put_reals(prefix + ".block_max_abs", block_max_abs_);
    }
    void restore(const saved_state& s, const std::string& prefix) {
        if (s.count(prefix + ".block") != block_)
            throw std::invalid_argument("state '" + prefix + ".block' = " + std::to_string(s.count(prefix + ".block")) +
                                        ", the run uses blocks of " + std::to_string(block_) + " samples");
        const std::uint64_t in_block = s.count(prefix + ".in_block");
        if (in_block >= block_)
            throw std::invalid_argument("state '" + prefix + ".in_block' = " + std::to_string(in_block) +
                                        ", expected less than the block length " + std::to_string(block_));
        const std::vector<std::uint64_t>& step = s.count_array(prefix + ".step");
        require_length(s.real_array(prefix + ".time"), step.size(), prefix + ".time");
        require_length(s.real_array(prefix + ".value"), step.size(), prefix + ".value");
        require_length(s.real_array(prefix + ".block_max_abs"), step.size(), prefix + ".block_max_abs");
        in_block_ = in_block;
        block_max_ = s.real(prefix + ".block_max");
        overall_max_ = s.real(prefix + ".overall_max");
        non_finite_ = s.flag(prefix + ".non_finite");
        last_step_ = s.count(prefix + ".last_step");
        last_time_ = s.real(prefix + ".last_time");
        last_value_ = s.real(prefix + ".last_value");
        step_ = step;
        time_ = s.real_array(prefix + ".time");
        value_ = s.real_array(prefix + ".value");
        block_max_abs_ = s.real_array(prefix + ".block_max_abs");
    }

private:
    void flush(std::uint64_t step, double time, double value) {
        step_.push_back(step);
        time_.push_back(time);
        value_.push_back(value);
        block_max_abs_.push_back(non_finite_ ? INFINITY : block_max_);
        block_max_ = 0.0;
        in_block_ = 0;
    }

    std::uint64_t block_;
    std::uint64_t in_block_ = 0;
    double block_max_ = 0.0, overall_max_ = 0.0;
    bool non_finite_ = false;
    std::uint64_t last_step_ = 0;
    double last_time_ = 0.0, last_value_ = 0.0;
    std::vector<std::uint64_t> step_;
    std::vector<double> time_, value_, block_max_abs_;
};

}  // namespace stokesian
