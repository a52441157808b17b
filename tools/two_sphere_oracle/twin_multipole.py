"""Twin-multipole recurrences of Jeffrey & Onishi (1984) for two EQUAL spheres.

Jeffrey, D. J. & Onishi, Y. 1984 "Calculation of the resistance and mobility functions for two
unequal rigid spheres in low-Reynolds-number flow", J. Fluid Mech. 139, 261-290 (J&O below), with
the misprints corrected by Townsend, A. K. 2018/2023, arXiv:1802.08226 (eqs. (5)-(8) there for X^A).

J&O expand the flow in singular solutions centred on both spheres with coefficients P_npq (Lamb's
pressure harmonics), V_npq (potential harmonics) and Q_npq (toroidal harmonics); p and q count
powers of a1/r and a2/r. For equal radii (lambda = 1) a1/r = a2/r = 1/s, so only the sums
G_n(m) = sum_{p+q=m} P_npq are needed, and the recurrences close on them: in every term the source
coefficient's index sum (p'+q') depends on m, n and the summation index only. The recurrences below
are J&O's with that sum carried out. The series coefficients returned are those of s^-m (the
f_k(lambda) of J&O (3.15) at lambda = 1 divided by 2^k, with Townsend's normalisations):

  X^A (Townsend (5)-(9)):              X11A = sum_{m even} c_m s^-m,   X12A = -sum_{m odd} c_m s^-m
  Y^A (J&O (4.6)-(4.8), (4.10)-(4.11)): Y11A = sum_{m even} c_m s^-m,   Y12A = -sum_{m odd} c_m s^-m
  Y^B (Townsend (21)-(23): the Q of the Y^A problem; B made dimensionless with pi mu (a1+a2)^2):
                                       Y11B = 2 sum_{m odd} q_m s^-m,  Y12B = -2 sum_{m even} q_m s^-m
  Y^C (J&O (7.3)-(7.5): the Y^A recurrences started by a rotation, Q_100 = 1; Townsend (29)-(32)):
                                       Y11C = sum_{m even} q_m s^-m,   Y12C = sum_{m odd} q_m s^-m
(q_m: the sums of Q_1pq, the torques.)

The MOBILITY problem (given forces, zero torques) is the same expansion with the n = 1 reflections
changed: a freely moving sphere carries no reflected Stokeslet (P_1 = 0) and no reflected rotlet
(Q_1 = 0); the sphere's rigid motion absorbs them. Rigid translation adds equally to P_1 and V_1
(J&O's initial condition P_100 = V_100 = 1), so V_1 - P_1 keeps its resistance-problem value. The
velocity increment of order m is minus the Stokeslet the held sphere would have had (Faxen's law).
That gives, for equal spheres with the force 6 pi mu a U0 on sphere 1 and none on sphere 2,
  x11a = sum_{m even} u_m s^-m,  x12a = -sum_{m odd} u_m s^-m  (and y11a, y12a alike),
checked against the far-field mobility series (Batchelor 1976; J&O) and, to 1e-25 at r/a >= 3,
against the inverted resistance matrix and the exact bispherical x functions (check.py).

Everything is exact rational arithmetic carried in mpmath floating point: no cancellation was found
(coefficients at mp.dps = 30 and 50 agree to 1e-30 relative), so mp.dps = 30-40 suffices.
"""
from math import comb

import mpmath as mp


def _factor(num, den):
    return mp.mpf(num) / den


class _Rows:
    """The recurrence factors of one problem family, cached per (n, s)."""

    def __init__(self, family, order):
        size = order + 2
        self.family = family
        self.first = [[None] * size for _ in range(size)]  # multiplies P_s at index sum m-n-s+1
        self.second = [[None] * size for _ in range(size)]  # multiplies P_s at m-n-s-1
        self.third = [[None] * size for _ in range(size)]  # multiplies V_s at m-n-s-1
        self.fourth = [[None] * size for _ in range(size)]  # multiplies Q_s at m-n-s (Y only)
        self.v_sum = [[None] * size for _ in range(size)]  # V_n - P_n: multiplies P_s at m-n-s-1
        self.q_from_q = [[None] * size for _ in range(size)]  # Q_n: multiplies Q_s at m-n-s-1
        self.q_from_p = [[None] * size for _ in range(size)]  # Q_n: multiplies P_s at m-n-s
        for n in range(1, size):
            for s in range(1, size):
                if family == "X":
                    # Townsend (2018) eqs. (5)-(8), J&O's X^A recurrences corrected.
                    c = comb(n + s, n)
                    self.first[n][s] = c * _factor(n * (2 * n + 1) * (2 * n * s - n - s + 2),
                                                   2 * (n + 1) * (2 * s - 1) * (n + s))
                    self.second[n][s] = -c * _factor(n * (2 * n - 1), 2 * (n + 1))
                    self.third[n][s] = -c * _factor(n * (4 * n * n - 1), 2 * (n + 1) * (2 * s + 1))
                    self.v_sum[n][s] = -c * _factor(2 * n, (n + 1) * (2 * n + 3))
                else:
                    # J&O (4.6)-(4.8) with (4.10)-(4.11) (Townsend (18)), for Y^A, Y^B and Y^C.
                    c = comb(n + s, n + 1)
                    self.first[n][s] = c * _factor(
                        (2 * n + 1) * (3 * (n + s) - (n * s + 1) * (2 * n * s - s - n + 2)),
                        2 * (n + 1) * s * (n + s) * (2 * s - 1))
                    self.second[n][s] = c * _factor(n * (2 * n - 1), 2 * (n + 1))
                    self.third[n][s] = c * _factor(n * (4 * n * n - 1), 2 * (n + 1) * (2 * s + 1))
                    self.fourth[n][s] = -c * _factor(2 * (4 * n * n - 1), 3 * (n + 1))
                    self.v_sum[n][s] = c * _factor(2 * n, (n + 1) * (2 * n + 3))
                    self.q_from_q[n][s] = c * _factor(s, n + 1)
                    self.q_from_p[n][s] = -c * _factor(3, 2 * n * s * (n + 1))


def coefficients(problem, order, mobility=False):
    """Series coefficients c_0..c_order of s^-m for two equal spheres.

    problem: "X" (axisymmetric translation), "Y" (translation normal to the line of centres) or
    "C" (rotation about an axis normal to the line of centres; resistance only).
    Returns (c, q): resistance: c = the P_1 sums (forces), q = the Q_1 sums (torques);
    mobility: c = the velocity increments, q = the angular-velocity increments (torque-free).
    """
    if problem not in ("X", "Y", "C"):
        raise ValueError(f"problem {problem!r}: X, Y or C")
    if mobility and problem == "C":
        raise ValueError("the mobility recurrence starts from a given force (X or Y)")
    rows = _Rows("X" if problem == "X" else "Y", order)
    zero = mp.mpf(0)
    size = order + 2
    P = [[zero] * (order + 1) for _ in range(size)]
    V = [[zero] * (order + 1) for _ in range(size)]
    Q = [[zero] * (order + 1) for _ in range(size)]
    force = [zero] * (order + 1)
    torque = [zero] * (order + 1)
    if problem == "C":
        Q[1][0] = mp.mpf(1)
        torque[0] = mp.mpf(1)
    else:
        P[1][0] = V[1][0] = mp.mpf(1)
        force[0] = mp.mpf(1)
    with_q = problem != "X"
    dot = mp.fdot
    for m in range(1, order + 1):
        for n in range(1, m + 2):
            top = m - n + 1  # s runs 1..top; the sources sit at index sums k+1, k, k-1, k = m-n-s
            acc_p = dot(rows.first[n][1:top + 1], [P[s][top - s] for s in range(1, top + 1)])
            acc_v = zero
            acc_q = zero
            if top >= 3:  # k >= 1 for s <= top-2
                lower_p = [P[s][top - 2 - s] for s in range(1, top - 1)]
                acc_p += dot(rows.second[n][1:top - 1], lower_p)
                acc_p += dot(rows.third[n][1:top - 1], [V[s][top - 2 - s] for s in range(1, top - 1)])
                acc_v = dot(rows.v_sum[n][1:top - 1], lower_p)
            if with_q and top >= 2:  # k >= 0 for s <= top-1
                acc_p += dot(rows.fourth[n][1:top], [Q[s][top - 1 - s] for s in range(1, top)])
                acc_q = dot(rows.q_from_p[n][1:top], [P[s][top - 1 - s] for s in range(1, top)])
                if top >= 3:
                    acc_q += dot(rows.q_from_q[n][1:top - 1], [Q[s][top - 2 - s] for s in range(1, top - 1)])
            if n == 1 and mobility:
                # Free sphere: no reflected Stokeslet or rotlet; its velocity takes them up.
                force[m] = -acc_p
                torque[m] = -acc_q
                acc_p = zero
                acc_q = zero
            elif n == 1:
                force[m] = acc_p
                torque[m] = acc_q
            P[n][m] = acc_p
            Q[n][m] = acc_q
            V[n][m] = acc_p + acc_v
    return force, torque
