#pragma once
// What the Ewald-summed Rotne-Prager-Yamakawa tensor (physics/tensors/rpy_ewald.hpp) needs beyond
// the radius: the box, the splitting parameter and the truncations chosen from the tolerance
// (core/ewald_setup.hpp computes them in double on the host; every backend gets the same values,
// converted once to its working precision), and the 3 x 3 symmetric block type it evaluates.
#include "stokesian/config.hpp"

namespace stokesian {

// A symmetric 3 x 3 block of the mobility matrix, in units of mu0.
template <class W>
struct symmetric_block {
    W xx, yy, zz, xy, xz, yz;
};

// Table lengths: wave vectors and real-space images per axis. The setup refuses a tolerance and
// splitting parameter that need more (one line, exit code 2).
inline constexpr int ewald_max_waves = 15;
inline constexpr int ewald_max_images = 15;

template <class W>
struct ewald_parameters {
    W edge[3];                             // L_x, L_y, L_z
    W xi;                                  // the splitting parameter
    W real_cutoff2;                        // r_c^2: real-space terms with |r + n L| <= r_c
    W wave_cutoff2;                        // k_c^2: wave vectors with |k| <= k_c
    W wave_step[3];                        // 2 pi / L_d
    W wave_scale;                          // 2 x 6 pi a / V: the +k and -k terms of the half-space sum together
    W inverse_4xi2;                        // 1 / (4 xi^2)
    W radius2_over_3;                      // a^2 / 3
    int images[3];                         // |n_d| <= images[d]
    int waves[3];                          // |m_d| <= waves[d]
    W wave_decay[3][ewald_max_waves + 1];  // exp(-(m 2 pi / L_d)^2 / (4 xi^2)), m = 0 ... waves[d]
    symmetric_block<W> self;               // mu_ii / mu0: the self term, its images and the wave sum at r = 0
};

template <class W>
ewald_parameters<W> convert_ewald_parameters(const ewald_parameters<double>& d) {
    ewald_parameters<W> p{};
    for (int k = 0; k < 3; ++k) {
        p.edge[k] = static_cast<W>(d.edge[k]);
        p.wave_step[k] = static_cast<W>(d.wave_step[k]);
        p.images[k] = d.images[k];
        p.waves[k] = d.waves[k];
        for (int m = 0; m <= ewald_max_waves; ++m) p.wave_decay[k][m] = static_cast<W>(d.wave_decay[k][m]);
    }
    p.xi = static_cast<W>(d.xi);
    p.real_cutoff2 = static_cast<W>(d.real_cutoff2);
    p.wave_cutoff2 = static_cast<W>(d.wave_cutoff2);
    p.wave_scale = static_cast<W>(d.wave_scale);
    p.inverse_4xi2 = static_cast<W>(d.inverse_4xi2);
    p.radius2_over_3 = static_cast<W>(d.radius2_over_3);
    p.self = {static_cast<W>(d.self.xx), static_cast<W>(d.self.yy), static_cast<W>(d.self.zz),
              static_cast<W>(d.self.xy), static_cast<W>(d.self.xz), static_cast<W>(d.self.yz)};
    return p;
}

}  // namespace stokesian
