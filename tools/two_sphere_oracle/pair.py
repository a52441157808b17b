"""The scalar two-sphere functions of two equal spheres (radius a, centre distance r, s = r/a).

Conventions (Jeffrey & Onishi 1984, section 1): forces and torques are those the spheres exert on
the fluid, d is the unit vector from sphere 1 to sphere 2, (eps.d)_ij = eps_ijk d_k, and
  F1 = 6 pi mu a [(X11A dd + Y11A (I - dd)) U1 + (X12A dd + Y12A (I - dd)) U2]
       + 4 pi mu a^2 [Y11B (eps.d)^T Omega1 - Y12B (eps.d)^T Omega2],
  L1 = 4 pi mu a^2 [Y11B (eps.d) U1 + Y12B (eps.d) U2]
       + 8 pi mu a^3 [Y11C (I - dd) Omega1 + Y12C (I - dd) Omega2]   (+ X^C dd terms, not computed),
i.e. A made dimensionless with 3 pi mu (a1 + a2) = 6 pi mu a, B with pi mu (a1 + a2)^2 = 4 pi mu a^2
and C with pi mu (a1 + a2)^3 = 8 pi mu a^3; for equal spheres Y22B = -Y11B and Y21B = -Y12B.
The mobility functions (velocities for given forces, zero torques) are made dimensionless with
1/(6 pi mu a) = mu0:  U1 = mu0 [(x11a dd + y11a (I - dd)) F1 + (x12a dd + y12a (I - dd)) F2].

Routes (each value carries its truncation error):
  X11A, X12A, x11a, x12a   bispherical (exact):   X11A +- X12A = lambda_co-moving, lambda_approaching
  Y11A ... Y12C            twin multipole (series.py: singular part subtracted, error bounded)
  y11a, y12a               the 4x4 Y resistance matrix inverted (torques eliminated), errors
                           propagated to first order
and, as independent cross-checks, the X functions by twin multipole and every mobility function by
the twin-multipole MOBILITY recurrences (twin_multipole.py).
"""
from concurrent.futures import ProcessPoolExecutor

import mpmath as mp

from . import bispherical, series, twin_multipole

_F = mp.mpf
# Relative: the recurrences keep about 30 digits at mp.dps = 40 (a recomputation at dps 30 agrees to
# 1e-30), so no error is quoted below this fraction of the value.
PRECISION_FLOOR = _F(10) ** -30


def _floored(value, err):
    return value, max(err, PRECISION_FLOOR * abs(value))


# Near-contact coefficients (h1, h2, h3) of 1/xi, log(1/xi), xi log(1/xi) at lambda = 1:
# Townsend 2018 (arXiv:1802.08226) eqs. (10)-(12), (16)-(17) (X^A), J&O (4.15)-(4.16) (Y^A),
# (5.6) (Y^B), (7.10) and Townsend (30), (33)-(34a) (Y^C). X12A, Y12A and Y12B carry the opposite
# signs of the self terms (Townsend (17), (20), (25)).
_G_XA = (_F(1) / 4, _F(9) / 40, _F(3) / 112)  # 2 l^2/(1+l)^3, l(1+7l+l^2)/(5(1+l)^3), (1+18l-29l^2+18l^3+l^4)/(42(1+l)^3)
_G_YA = (_F(0), _F(1) / 6, _F(0))  # 4l(2+l+2l^2)/(15(1+l)^3); 2(16-45l+58l^2-45l^3+16l^4)/(375(1+l)^3) = 0
_G_YB = (_F(0), -_F(1) / 4, -_F(1) / 8)  # -l(4+l)/(5(1+l)^2), -(32-33l+83l^2+43l^3)/(250(1+l)^2)
_G_Y11C = (_F(0), _F(1) / 5, _F(47) / 250)  # 2l/(5(1+l)), (8+6l+33l^2)/(125(1+l))
_G_Y12C = (_F(0), _F(1) / 20, _F(31) / 500)  # l^2/(10(1+l)), l(43-24l+43l^2)/(500(1+l))


def _negated(g):
    return tuple(-x for x in g)


# name: (series key, parity, sign factor, near-contact coefficients)
RESISTANCE_SERIES = {
    "X11A": ("X", 0, 1, _G_XA),
    "X12A": ("X", 1, -1, _negated(_G_XA)),
    "Y11A": ("Y", 0, 1, _G_YA),
    "Y12A": ("Y", 1, -1, _negated(_G_YA)),
    "Y11B": ("YQ", 1, 2, _G_YB),
    "Y12B": ("YQ", 0, -2, _negated(_G_YB)),
    "Y11C": ("CQ", 0, 1, _G_Y11C),
    "Y12C": ("CQ", 1, 1, _G_Y12C),
}
MOBILITY_SERIES = {"x11a": ("x", 0, 1), "x12a": ("x", 1, -1), "y11a": ("y", 0, 1), "y12a": ("y", 1, -1)}


def _coefficients_at(dps, problem, order, mobility):
    mp.mp.dps = dps
    return twin_multipole.coefficients(problem, order, mobility)


class TwinMultipole:
    """The twin-multipole series of every function, computed once to `order` (powers of 1/s), the
    five recurrences in `processes` worker processes (1: in this one)."""

    def __init__(self, order, processes=1):
        self.order = order
        problems = (("X", False), ("Y", False), ("C", False), ("X", True), ("Y", True))
        if processes > 1:
            with ProcessPoolExecutor(processes) as pool:
                futures = [pool.submit(_coefficients_at, mp.mp.dps, p, order, m) for p, m in problems]
                results = [f.result() for f in futures]
        else:
            results = [twin_multipole.coefficients(p, order, m) for p, m in problems]
        (x_force, _), (y_force, y_torque), (c_force, c_torque), (x_velocity, _), (y_velocity, _) = results
        self.series = {"X": x_force, "Y": y_force, "YQ": y_torque, "CP": c_force, "CQ": c_torque,
                       "x": x_velocity, "y": y_velocity}

    def resistance(self, s, order=None):
        """{name: (value, error bound)} for X11A ... Y12C."""
        order = order or self.order
        out = {}
        for name, (key, parity, sign, singular) in RESISTANCE_SERIES.items():
            out[name] = _floored(*series.singular_subtracted_sum(self.series[key], parity, sign, singular, s, order))
        return out

    def mobility(self, s, order=None):
        """{name: (value, error bound)} for x11a ... y12a from the mobility recurrences (no singular
        part subtracted: the bound assumes only |coefficient| <= E m^-1, so it is loose)."""
        order = order or self.order
        none = (_F(0), _F(0), _F(0))
        return {name: _floored(*series.singular_subtracted_sum(self.series[key], parity, sign, none, s, order,
                                                               power=1))
                for name, (key, parity, sign) in MOBILITY_SERIES.items()}


def axisymmetric(s, relative_tolerance=_F(10) ** -32):
    """{name: (value, error)} from the bispherical solutions: the two drag factors, X11A, X12A,
    x11a, x12a (errors: the series' truncation bounds, propagated)."""
    co, co_err = bispherical.co_moving_drag_factor(s, relative_tolerance)
    ap, ap_err = bispherical.approaching_drag_factor(s, relative_tolerance)
    out = {
        "lambda_co_moving": (co, co_err),
        "lambda_approaching": (ap, ap_err),
        "X11A": ((co + ap) / 2, (co_err + ap_err) / 2),
        "X12A": ((co - ap) / 2, (co_err + ap_err) / 2),
        "x11a": ((1 / co + 1 / ap) / 2, (co_err / co ** 2 + ap_err / ap ** 2) / 2),
        "x12a": ((1 / co - 1 / ap) / 2, (co_err / co ** 2 + ap_err / ap ** 2) / 2),
    }
    return {name: _floored(*value_err) for name, value_err in out.items()}


def y_resistance_matrix(f):
    """The symmetric 4x4 resistance of the Y problem, rows (F1, F2, L1, L2) / (6 pi mu a, ., 6 pi mu a^2,
    .), columns (U1, U2, a Omega1, a Omega2); U along x, Omega along y, d along z (eps_yxz = -1)."""
    b1, b2 = 2 * f["Y11B"] / 3, 2 * f["Y12B"] / 3
    c1, c2 = 4 * f["Y11C"] / 3, 4 * f["Y12C"] / 3
    return mp.matrix([[f["Y11A"], f["Y12A"], -b1, b2],
                      [f["Y12A"], f["Y11A"], -b2, b1],
                      [-b1, -b2, c1, c2],
                      [b2, b1, c2, c1]])


def _torque_free_y(f):
    mobility = mp.inverse(y_resistance_matrix(f))
    return mobility[0, 0], mobility[0, 1]


def torque_free_y_mobility(resistance):
    """{y11a, y12a: (value, error)} from {name: (value, error)} of the six Y resistance functions.

    Error: sum over the inputs of |change| when each is moved by its own error (first order)."""
    values = {name: v for name, (v, _) in resistance.items()}
    y11a, y12a = _torque_free_y(values)
    err11 = err12 = _F(0)
    for name in ("Y11A", "Y12A", "Y11B", "Y12B", "Y11C", "Y12C"):
        moved = dict(values)
        moved[name] = values[name] + resistance[name][1]
        m11, m12 = _torque_free_y(moved)
        err11 += abs(m11 - y11a)
        err12 += abs(m12 - y12a)
    return {"y11a": _floored(y11a, err11), "y12a": _floored(y12a, err12)}


def row(s, twin, order=None, resistance=None, relative_tolerance=_F(10) ** -32):
    """Every tabulated quantity at s: {name: (value, error)} (see the module docstring for routes);
    resistance: twin.resistance(s, order) if already at hand; relative_tolerance: the bispherical
    sums'."""
    out = axisymmetric(s, relative_tolerance)
    resistance = resistance or twin.resistance(s, order)
    for name in ("Y11A", "Y12A", "Y11B", "Y12B", "Y11C", "Y12C"):
        out[name] = resistance[name]
    out.update(torque_free_y_mobility(resistance))
    y11a, e11 = out["y11a"]
    y12a, e12 = out["y12a"]
    out["lambda_perpendicular"] = _floored(1 / (y11a + y12a), (e11 + e12) / (y11a + y12a) ** 2)
    return out
