#include "device_peak.hpp"

namespace stokesian::bench {

std::optional<int> fp32_lanes_per_sm(int major, int minor) {
    switch (major) {
        case 6: return minor == 0 ? 64 : 128;  // P100: 64; consumer Pascal: 128
        case 7: return 64;                     // Volta, Turing
        case 8: return minor == 0 ? 64 : 128;  // A100: 64; GA10x, Ada: 128
        case 9: return 128;                    // Hopper
        case 10: return 128;                   // Blackwell (data centre)
        case 12: return 128;                   // Blackwell (consumer)
        default: return std::nullopt;
    }
}

std::optional<int> fp64_lanes_per_sm(int major, int minor) {
    switch (major) {
        case 6: return minor == 0 ? 32 : 4;
        case 7: return minor == 0 ? 32 : 2;  // V100: 32; Turing: 2
        case 8: return minor == 0 ? 32 : 2;  // A100: 32; GA10x, Ada: 2
        case 9: return 64;                   // H100, H200
        case 10: return 64;
        case 12: return 2;
        default: return std::nullopt;
    }
}

double peak_gflops(int multiprocessors, int lanes_per_sm, double clock_khz) {
    return double(multiprocessors) * double(lanes_per_sm) * 2.0 * clock_khz * 1e-6;
}

int flops_per_pair(precision hi) {
    // separation 3 + r^2 5 + tensor coefficients 10 + sqrt 1 + division 1 + tensor times force 18
    // + accumulation 3 (f32, f64) or 3 x 10 (ds): engine/docs/performance.md.
    constexpr int common = 3 + 5 + 10 + 1 + 1 + 18;
    return hi == precision::ds ? common + 30 : common + 3;
}

std::string arithmetic_unit(precision hi) { return hi == precision::f64 ? "fp64" : "fp32"; }

}  // namespace stokesian::bench
