#pragma once
// Scenario texts of the tests that change one key of a valid scenario and parse it.
#include <string>

namespace stokesian::test_support {

// Two spheres 3 a apart in an open box under the force -z, ten steps of dt = 0.01: the smallest valid
// scenario, named `name`; [run] comes last, so that a test may append run keys.
inline std::string two_sphere_scenario(const std::string& name) {
    return "\n[scenario]\nname = \"" + name +
           "\"\n[box]\nboundary = \"open\"\n[particles]\npositions = [[0.0, 0.0, 0.0], [3.0, 0.0, 0.0]]\n"
           "force = [0.0, 0.0, -1.0]\n[run]\ndt = 0.01\nsteps = 10\n";
}

}  // namespace stokesian::test_support
