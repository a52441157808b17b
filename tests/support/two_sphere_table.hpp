#pragma once
// The two-sphere oracle's committed table (reference_data/two_sphere/exact_two_sphere.csv,
// engine/docs/two-sphere-oracle.md) and the engine's isolated pair measured against it: the four
// torque-free mobility modes x11a +- x12a, y11a +- y12a from the velocities of an engine holding two
// spheres and nothing else.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "stokesian/backends/engine_factory.hpp"
#include "stokesian/core/engine.hpp"
#include "support/build_paths.hpp"

namespace stokesian::testing_support {

// One row: every column by name (values and their "<name>_err" truncation errors).
struct two_sphere_row {
    std::map<std::string, double> column;
    double operator[](const std::string& name) const { return column.at(name); }
    double distance() const { return column.at("r_over_a"); }
    double gap() const { return column.at("gap"); }
};

inline std::vector<two_sphere_row> read_two_sphere_table() {
    const std::string path = test_support::checkout_file("reference_data/two_sphere/exact_two_sphere.csv");
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path;
    std::string line;
    std::vector<std::string> names;
    std::vector<two_sphere_row> rows;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cells;
        std::stringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
        if (names.empty()) {
            names = cells;
            continue;
        }
        two_sphere_row row;
        for (std::size_t k = 0; k < names.size() && k < cells.size(); ++k) row.column[names[k]] = std::stod(cells[k]);
        rows.push_back(row);
    }
    EXPECT_EQ(rows.size(), 105u) << path;
    return rows;
}

// The mobility modes (units mu0) of an isolated pair: velocity of sphere 0 along the load for equal
// (sum) or opposite (difference) forces along the line of centres (x) or normal to it (y).
struct pair_mobility_modes {
    double x_sum, x_difference, y_sum, y_difference;
    double x11a() const { return 0.5 * (x_sum + x_difference); }
    double x12a() const { return 0.5 * (x_sum - x_difference); }
    double y11a() const { return 0.5 * (y_sum + y_difference); }
    double y12a() const { return 0.5 * (y_sum - y_difference); }
};

// Spheres at -r/2 and r/2 on the x axis (r/2 exact, so their distance is r exactly), forces of unit
// size; the velocities of the engine's first evaluation (the constructor's: a cold-started solve).
inline pair_mobility_modes measure_pair_modes(const engine_config& c, double distance) {
    const auto velocity = [&](vec3<double> f0, vec3<double> f1) {
        initial_state s;
        s.positions = {{-0.5 * distance * c.system.radius, 0, 0}, {0.5 * distance * c.system.radius, 0, 0}};
        s.external_forces = {f0, f1};
        auto e = make_engine(c, s);
        frame f;
        e->read_frame(f);
        return f.velocity[0];
    };
    const double per_mu0 = 1.0 / c.system.self_mobility;
    return {velocity({1, 0, 0}, {1, 0, 0}).x * per_mu0, velocity({1, 0, 0}, {-1, 0, 0}).x * per_mu0,
            velocity({0, 1, 0}, {0, 1, 0}).y * per_mu0, velocity({0, 1, 0}, {0, -1, 0}).y * per_mu0};
}

// An isolated pair, CPU, implicit scheme, lubrication `model`, hi=f64,int=f64 unless told.
inline engine_config isolated_pair_config(lubrication_model model,
                                          precision_mode precision = reference_precision_mode) {
    engine_config c;
    c.system.box.periodic = false;
    c.system.lubrication.enabled = true;
    c.system.lubrication.scheme = lubrication_scheme::implicit_solve;
    c.system.lubrication.model = model;
    c.precision = precision;
    c.backend = "cpu";
    c.threads = 1;
    return c;
}

}  // namespace stokesian::testing_support
