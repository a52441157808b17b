"""Exact axisymmetric drag of two equal spheres in bispherical coordinates.

The spheres are the coordinate surfaces xi = +-alpha, cosh(alpha) = r / (2a) (r: centre distance).
Both solutions are series in the Legendre index n whose terms fall off like n^2 exp(-(2n+1) alpha);
every term is positive, so the truncated sum is a lower bound and the geometric bound on the rest
(ratio of successive terms, which decreases) gives the truncation error.

co_moving_drag_factor: Stimson, M. & Jeffery, G. B. 1926 "The motion of two spheres in a viscous
fluid", Proc. R. Soc. Lond. A 111, 110-116, eq. for the drag on each sphere when both move with the
same velocity U along their line of centres: F = 6 pi mu a U lambda with
  lambda = 4/3 sinh(alpha) sum_{n>=1} n(n+1)/((2n-1)(2n+3))
           * [1 - (4 sinh^2((n+1/2)alpha) - (2n+1)^2 sinh^2(alpha))
                  / (2 sinh((2n+1)alpha) + (2n+1) sinh(2 alpha))].
Equal forces F along the line of centres then give U = F / (6 pi mu a lambda) = (x11a + x12a) F/(6 pi mu a).

approaching_drag_factor: the two spheres approaching each other with velocities +-U along the line
of centres. By symmetry the mid-plane carries no normal velocity and no shear stress, so this is
Brenner's (1961) sphere moving normal to a FREE plane surface at the distance h = a cosh(alpha)
(Brenner, H. 1961 "The slow motion of a sphere through a viscous fluid towards a plane surface",
Chem. Eng. Sci. 16, 242-251, free-surface case):
  lambda = 4/3 sinh(alpha) sum_{n>=1} n(n+1)/((2n-1)(2n+3))
           * [(4 cosh^2((n+1/2)alpha) + (2n+1)^2 sinh^2(alpha))
              / (2 sinh((2n+1)alpha) - (2n+1) sinh(2 alpha)) - 1],
i.e. X11A - X12A = lambda and U = (x11a - x12a) F/(6 pi mu a) for opposite forces.

The brackets are evaluated as differences free of cancellation: with k = 2n+1, y = k alpha,
  Stimson-Jeffery: 1 - N/D = (D - N)/D, D = 2 sinh(y) + k sinh(2 alpha),
      D - N = 2 (1 - exp(-y)) + k sinh(2 alpha) + k^2 sinh^2(alpha);
  Brenner:         N'/D' - 1 = (N' - D')/D', D' = 2 sinh(y) - k sinh(2 alpha),
      N' - D' = 2 (1 + exp(-y)) + k sinh(2 alpha) + k^2 sinh^2(alpha)
(D' loses about log10(1/alpha^2) digits to cancellation at small n: mp.dps = 40 keeps 30 at
r/a = 2.0001).
"""
import mpmath as mp


def _sum(s, relative_tolerance, co_moving):
    """(lambda, truncation error bound) for centre distance s = r/a > 2."""
    alpha = mp.acosh(mp.mpf(s) / 2)
    sh = mp.sinh(alpha)
    sh2 = mp.sinh(2 * alpha)
    sh_sq = sh * sh
    e2a = mp.exp(2 * alpha)
    e_y = mp.exp(alpha)  # exp((2n+1) alpha), n = 0
    total = mp.mpf(0)
    previous = None
    n = 0
    while True:
        n += 1
        e_y *= e2a
        k = 2 * n + 1
        weight = mp.mpf(n * (n + 1)) / ((2 * n - 1) * (2 * n + 3))
        two_sinh_y = e_y - 1 / e_y
        common = k * sh2 + k * k * sh_sq
        if co_moving:
            term = weight * (2 * (1 - 1 / e_y) + common) / (two_sinh_y + k * sh2)
        else:
            term = weight * (2 * (1 + 1 / e_y) + common) / (two_sinh_y - k * sh2)
        total += term
        if previous is not None and n > 3:
            ratio = term / previous
            if ratio < 1:
                rest = term * ratio / (1 - ratio)
                if rest < relative_tolerance * total:
                    factor = 4 * sh / 3
                    return factor * total, factor * rest
        previous = term


def co_moving_drag_factor(s, relative_tolerance=mp.mpf(10) ** -32):
    """Stimson-Jeffery lambda (both spheres moving along the line of centres with U): (value, error)."""
    return _sum(s, relative_tolerance, True)


def approaching_drag_factor(s, relative_tolerance=mp.mpf(10) ** -32):
    """Brenner/Maude lambda (spheres approaching with +-U along the line of centres): (value, error)."""
    return _sum(s, relative_tolerance, False)
