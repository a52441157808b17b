#!/usr/bin/python3
"""Writes engine/physics/include/stokesian/physics/two_body_resistance_table.hpp: the exact
torque-free resistance of two equal spheres that the engine's two-body lubrication model
(physics/two_body_lubrication.hpp, engine/docs/lubrication.md) interpolates. The values come from the
two-sphere oracle (tools/two_sphere_oracle: bispherical sums for the X functions, twin multipole at
order 400 for the Y functions); this script only calls it at its own nodes, fits, checks and prints.

  tools/two_body_table/generate.py [--order 400] [--processes 2] [--series-cache FILE] [--output FILE]

(about 9 minutes on two cores, nearly all of it the oracle's recurrences; --series-cache keeps them
between runs.)

What is tabulated (units 6 pi mu a = 1/mu0), the four mode resistances of the torque-free pair:
  x_sum        = X11A + X12A        (equal forces along the line of centres: Stimson-Jeffery lambda)
  x_difference = X11A - X12A        (opposite forces, squeeze: Brenner's free-surface lambda)
               tabulated as x_difference - 1/(2 xi) - (9/20) ln(1/xi), xi = r/a - 2
  y_sum        = 1/(y11a + y12a)    (equal forces normal to the line, torques zero)
  y_difference = 1/(y11a - y12a)    (opposite forces normal to the line, torques zero)
as Chebyshev series in t = ln xi on SEGMENTS segments of width 1 from t0 = ln(CONTACT_GAP), each
interpolating the oracle at the DEGREE + 1 Chebyshev-Lobatto points (so neighbouring segments share
their end values). Below CONTACT_GAP the near-contact forms of Jeffrey & Onishi (1984) with
Townsend's (2018) coefficients take over, shifted by c0 + c1 xi so that value and slope match the
table at CONTACT_GAP (continuity by construction; the shift is the size of the O(xi) terms the
forms omit). The interpolation error is measured against the oracle between the nodes and printed;
the cutoff is chosen from the error bound CUTOFF_TOLERANCE (printed, see cutoff()).
"""
import argparse
import os
import pathlib
import pickle
import sys
import time

TOOLS = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

import mpmath as mp  # noqa: E402

from two_sphere_oracle import bispherical, pair  # noqa: E402

OUTPUT = TOOLS.parent / "engine/physics/include/stokesian/physics/two_body_resistance_table.hpp"
F = mp.mpf
CONTACT_GAP = F("1e-4")  # the table's first node; below it the near-contact forms
SEGMENT_WIDTH = 1  # in t = ln xi
SEGMENTS = 11  # t from ln 1e-4 to ln 1e-4 + 11 = 1.79 (xi = 6 > the cutoff's 3.5)
DEGREE = 12
CUTOFF_TOLERANCE = F("0.01")  # |R_exact - R_far| / R_far in every mode beyond the taper's start
CUTOFF_STEP = F("0.25")  # the taper starts at a multiple of a/4 ...
TAPER_WIDTH = F("0.5")  # ... and ends a/2 further out
MODES = ("x_sum", "x_difference", "y_sum", "y_difference")

# The constants A of the near-contact forms F = h1/xi + h2 ln(1/xi) + A + h3 xi ln(1/xi) of the Y
# functions (Jeffrey & Onishi 1984, four digits: 0.9983, -0.2737, 0.7028, -0.0274; these digits:
# engine/docs/two-sphere-oracle.md, "Near contact"), and Townsend's h2, h3 (the oracle's docs list
# them). Only their ln(1/xi) dependence matters here: c0 + c1 xi absorbs the rest.
Y_NEAR_CONTACT = {  # name: (h2, A, h3)
    "Y11A": (F(1) / 6, F("0.998323658"), F(0)),
    "Y12A": (-F(1) / 6, F("-0.273662554"), F(0)),
    "Y11B": (-F(1) / 4, F("0.238967319"), -F(1) / 8),
    "Y12B": (F(1) / 4, F("-0.001664876"), F(1) / 8),
    "Y11C": (F(1) / 5, F("0.702850531"), F(47) / 250),
    "Y12C": (F(1) / 20, F("-0.027435334"), F(31) / 500),
}


class _Twin(pair.TwinMultipole):
    def __init__(self, series, order):
        self.series = series
        self.order = order


def twin_multipole(order, processes, cache):
    if cache and os.path.exists(cache):
        with open(cache, "rb") as stream:
            cached_order, series = pickle.load(stream)
        if cached_order == order:
            return _Twin(series, order)
    twin = pair.TwinMultipole(order, processes=processes)
    if cache:
        with open(cache, "wb") as stream:
            pickle.dump((order, twin.series), stream)
    return twin


def singular_x_difference(xi):
    return 1 / (2 * xi) + F(9) / 20 * mp.log(1 / xi)


def exact_modes(twin, xi):
    """The four mode resistances at gap xi (x_difference whole) and their truncation errors."""
    s = 2 + xi
    co, co_err = bispherical.co_moving_drag_factor(s)
    ap, ap_err = bispherical.approaching_drag_factor(s)
    y = pair.torque_free_y_mobility(twin.resistance(s))
    (y11, e11), (y12, e12) = y["y11a"], y["y12a"]
    values = (co, ap, 1 / (y11 + y12), 1 / (y11 - y12))
    errors = (co_err, ap_err, (e11 + e12) / (y11 + y12) ** 2, (e11 + e12) / (y11 - y12) ** 2)
    return values, errors


def tabulated(values, xi):
    """The tabulated functions: x_difference without its singular part."""
    return (values[0], values[1] - singular_x_difference(xi), values[2], values[3])


def near_contact_y(xi):
    """(y_sum, y_difference) of the near-contact forms: the torques eliminated from the Y problem,
    R = (Y11A +- Y12A) - (Y11B +- Y12B)^2 / (3 (Y11C -+ Y12C))."""
    log_inverse = mp.log(1 / xi)
    f = {name: h2 * log_inverse + a + h3 * xi * log_inverse for name, (h2, a, h3) in Y_NEAR_CONTACT.items()}
    y_sum = f["Y11A"] + f["Y12A"] - (f["Y11B"] + f["Y12B"]) ** 2 / (3 * (f["Y11C"] - f["Y12C"]))
    y_difference = f["Y11A"] - f["Y12A"] - (f["Y11B"] - f["Y12B"]) ** 2 / (3 * (f["Y11C"] + f["Y12C"]))
    return y_sum, y_difference


def near_contact_shape(xi):
    """S_m(xi): the xi dependence of the near-contact forms of the tabulated functions."""
    y_sum, y_difference = near_contact_y(xi)
    return (F(0), F(3) / 56 * xi * mp.log(1 / xi), y_sum, y_difference)


def lobatto(n):
    return [mp.cos(mp.pi * j / n) for j in range(n + 1)]


def chebyshev_coefficients(values):
    """c_k with f(x) = sum_k c_k T_k(x), interpolating values at x_j = cos(pi j / n)."""
    n = len(values) - 1
    out = []
    for k in range(n + 1):
        total = mp.fsum(values[j] * mp.cos(mp.pi * j * k / n) * (F(1) / 2 if j in (0, n) else 1) for j in range(n + 1))
        out.append(2 * total / n * (F(1) / 2 if k in (0, n) else 1))
    return out


def clenshaw(c, x):
    b1 = b2 = F(0)
    for ck in reversed(c[1:]):
        b1, b2 = ck + 2 * x * b1 - b2, b1
    return c[0] + x * b1 - b2


def clenshaw_derivative(c, x):
    """d/dx of sum c_k T_k(x), through T_k' = k U_{k-1}."""
    return mp.fsum(k * ck * mp.chebyu(k - 1, x) for k, ck in enumerate(c) if k > 0)


def far_field(s):
    """Mode resistances of the Rotne-Prager two-body mobility: 1/(1 +- t)."""
    t_x = F(3) / (2 * s) - 1 / s ** 3
    t_y = F(3) / (4 * s) + 1 / (2 * s ** 3)
    return (1 / (1 + t_x), 1 / (1 - t_x), 1 / (1 + t_y), 1 / (1 - t_y))


def cutoff(twin):
    """The taper's start r1: the smallest multiple of CUTOFF_STEP from which on every mode's
    |R_exact - R_far| / R_far <= CUTOFF_TOLERANCE, checked on a grid to r/a = 20 (beyond, the
    differences fall like (a/r)^4 and 1/(1 +- t) -> 1). Returns r1 and the largest ratio at r >= r1."""
    grid = [3 + CUTOFF_STEP * k / 4 for k in range(0, 4 * 68 + 1)]  # 3 ... 20 in steps of a/16
    ratios = []
    for s in grid:
        values, _ = exact_modes(twin, s - 2)
        far = far_field(s)
        ratios.append(max(abs(values[m] - far[m]) / far[m] for m in range(4)))
    start = None
    for k, s in enumerate(grid):
        if all(r <= CUTOFF_TOLERANCE for r in ratios[k:]) and (s / CUTOFF_STEP) == int(s / CUTOFF_STEP):
            start = s
            break
    largest = max(r for s, r in zip(grid, ratios) if s >= start)
    return start, largest


def number(x):
    return repr(float(x))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--order", type=int, default=400, help="twin-multipole order (default 400)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--series-cache", default="", help="pickle of the recurrences (read if present)")
    parser.add_argument("--output", default=str(OUTPUT))
    args = parser.parse_args(argv)
    mp.mp.dps = 40
    start = time.time()
    twin = twin_multipole(args.order, args.processes, args.series_cache)
    print(f"twin multipole to order {args.order}: {time.time() - start:.0f} s", flush=True)

    t0 = mp.log(CONTACT_GAP)
    coefficients = [[None] * SEGMENTS for _ in MODES]
    worst = []  # per segment: largest relative interpolation error per mode (of the whole resistance)
    oracle_error = []  # per segment: largest relative truncation error of the oracle at the nodes
    for k in range(SEGMENTS):
        left = t0 + k * SEGMENT_WIDTH
        nodes = [mp.exp(left + SEGMENT_WIDTH * (x + 1) / 2) for x in lobatto(DEGREE)]
        rows = [exact_modes(twin, xi) for xi in nodes]
        for m in range(4):
            coefficients[m][k] = chebyshev_coefficients([tabulated(v, xi)[m] for (v, _), xi in zip(rows, nodes)])
        oracle_error.append([max(e[m] / v[m] for v, e in rows) for m in range(4)])
        errors = [F(0)] * 4
        for j in range(16):  # between the nodes
            x = -1 + (2 * F(j) + 1) / 16
            xi = mp.exp(left + SEGMENT_WIDTH * (x + 1) / 2)
            values, _ = exact_modes(twin, xi)
            exact = tabulated(values, xi)
            for m in range(4):
                errors[m] = max(errors[m], abs(clenshaw(coefficients[m][k], x) - exact[m]) / values[m])
        worst.append(errors)
        print(f"segment {k:2d}: xi = {mp.nstr(mp.exp(left), 3):>8s} ... {mp.nstr(mp.exp(left + SEGMENT_WIDTH), 3):>8s}"
              f"  interpolation " + " ".join(mp.nstr(e, 2) for e in errors) +
              "  oracle " + " ".join(mp.nstr(e, 2) for e in oracle_error[-1]), flush=True)

    # Continuation below CONTACT_GAP: T(xi) = S(xi) + c0 + c1 xi with T's value and slope at xi_a.
    xi_a = CONTACT_GAP
    h = F(10) ** -12
    shape = near_contact_shape(xi_a)
    slope_shape = [(a - b) / (2 * h) for a, b in zip(near_contact_shape(xi_a + h), near_contact_shape(xi_a - h))]
    c0, c1 = [], []
    for m in range(4):
        value = clenshaw(coefficients[m][0], F(-1))
        slope = clenshaw_derivative(coefficients[m][0], F(-1)) * 2 / SEGMENT_WIDTH / xi_a  # d/dxi
        c1.append(slope - slope_shape[m])
        c0.append(value - shape[m] - c1[-1] * xi_a)
    print("continuation below xi = 1e-4: c0 =", [mp.nstr(c, 12) for c in c0], "c1 =", [mp.nstr(c, 8) for c in c1])
    for xi in (F("3e-5"), F("1e-5"), F("1e-6")):
        values, errs = exact_modes(twin, xi)
        exact = tabulated(values, xi)
        shape = near_contact_shape(xi)
        diffs = [abs(shape[m] + c0[m] + c1[m] * xi - exact[m]) / values[m] for m in range(4)]
        print(f"  xi = {mp.nstr(xi, 2)}: continuation - oracle (relative) " + " ".join(mp.nstr(d, 2) for d in diffs) +
              "; oracle error " + " ".join(mp.nstr(e / v, 2) for v, e in zip(values, errs)))

    taper_start, largest = cutoff(twin)
    taper_end = taper_start + TAPER_WIDTH
    print(f"cutoff: taper from r = {mp.nstr(taper_start, 4)} a to {mp.nstr(taper_end, 4)} a; "
          f"largest |R_exact - R_far| / R_far beyond r = {mp.nstr(taper_start, 4)} a: {mp.nstr(largest, 3)} "
          f"(tolerance {mp.nstr(CUTOFF_TOLERANCE, 2)})")
    if mp.log(taper_end - 2) > t0 + SEGMENTS * SEGMENT_WIDTH:
        raise SystemExit("the table ends before the cutoff: more segments")
    write(args.output, coefficients, c0, c1, taper_start, taper_end, largest, worst, args.order)
    print(f"{time.time() - start:.0f} s")
    return 0


def write(path, coefficients, c0, c1, taper_start, taper_end, largest, worst, order):
    lines = []
    for m, name in enumerate(MODES):
        for k in range(SEGMENTS):
            lines.append(f"    /* {name} {k:2d} */ " + ", ".join(number(c) for c in coefficients[m][k]) + ",")
    worst_all = [max(w[m] for w in worst) for m in range(4)]
    y_constants = "\n".join(
        f"inline constexpr double {name}_log = {number(h2)}, {name}_constant = {number(a)}, "
        f"{name}_xi_log = {number(h3)};" for name, (h2, a, h3) in Y_NEAR_CONTACT.items())
    shifts = "\n".join(f"inline constexpr double {name}_shift = {number(c0[m])}, {name}_shift_slope = {number(c1[m])};"
                        for m, name in enumerate(MODES))
    text = f"""#pragma once
// GENERATED by tools/two_body_table/generate.py (twin multipole to order {order}) from the two-sphere oracle
// (tools/two_sphere_oracle); do not edit. The exact torque-free resistance of two equal spheres in its
// four modes (x_sum, x_difference, y_sum, y_difference; units 1/mu0 = 6 pi mu a) as Chebyshev series in
// t = ln xi, xi = r/a - 2, on {SEGMENTS} segments of width {SEGMENT_WIDTH} from ln {number(CONTACT_GAP)}, degree {DEGREE}
// (x_difference without 1/(2 xi) + (9/20) ln(1/xi)). Largest relative interpolation error against the
// oracle between the nodes: {", ".join(mp.nstr(w, 2) for w in worst_all)}. Used by physics/two_body_lubrication.hpp.
// clang-format off

namespace stokesian::two_body_table {{

inline constexpr double contact_gap = {number(CONTACT_GAP)};
inline constexpr double first_log_gap = {number(mp.log(CONTACT_GAP))};
inline constexpr double inverse_segment_width = {number(F(1) / SEGMENT_WIDTH)};
inline constexpr int segments = {SEGMENTS};
inline constexpr int terms = {DEGREE + 1};  // Chebyshev coefficients per segment

// The correction is applied in full for r <= taper_start and tapered to zero at taper_end (units a):
// beyond taper_start every mode's |R_exact - R_far| / R_far <= {mp.nstr(largest, 3)} (tolerance {mp.nstr(CUTOFF_TOLERANCE, 2)}).
inline constexpr double taper_start = {number(taper_start)};
inline constexpr double taper_end = {number(taper_end)};
inline constexpr double cutoff_tolerance = {number(CUTOFF_TOLERANCE)};
inline constexpr double largest_far_field_error = {number(largest)};

// Near contact (xi < contact_gap): h2 ln(1/xi) + A + h3 xi ln(1/xi) of the six Y functions, and the
// shift c0 + c1 xi of each mode that joins the forms to the table with value and slope. (Scalars:
// device code may read a host constexpr scalar, not an array or a struct.)
{y_constants}
{shifts}

}}  // namespace stokesian::two_body_table

// [mode][segment][term]
#define STOKESIAN_TWO_BODY_CHEBYSHEV_COEFFICIENTS \\
""" + " \\\n".join(lines) + "\n// clang-format on\n"
    path = pathlib.Path(path)
    temporary = path.with_name(path.name + ".partial")
    temporary.write_text(text)
    os.replace(temporary, path)
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
