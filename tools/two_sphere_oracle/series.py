"""Summing a twin-multipole series near contact: the singular part subtracted in closed form.

A function F(s) = sigma * sum_{m of one parity} c_m s^-m (twin_multipole.py) converges for s > 2
only, and ever more slowly as s -> 2. With u = 2/s its coefficients b_m = sigma c_m / 2^m follow
the singularities at contact (u = 1 and, mirrored by the parity, u = -1). Near contact
(xi = s - 2 = 2(1-u)/u)
    F = h1/xi + h2 log(1/xi) + A + h3 xi log(1/xi) + O(xi)          (J&O 1984 (3.17), (4.15), ...)
whose singular parts -- 1/(2(1-u)), -log(1-u), -2 (1-u) log(1-u)/u -- have the coefficients
1/2, 1/m and -2/(m(m+1)) at u = 1; with the mirror singularity at u = -1 the coefficients of the
parity class tend to
    b_m ~ h1 + 2 h2/m - 4 h3/(m(m+1))
(J&O section 3.3; Townsend 2018 eq. (14) uses -4 h3/(m(m+2)), equivalent to this order). This
model is summed over the whole class in closed form, and only the residual r_m = b_m - model_m is
summed term by term to the order M:
    F = [b_0] + sum_{m<=M} r_m u^m + h1 S0 + 2 h2 S1 - 4 h3 (S1 - S1')
with S0 = sum u^m, S1 = sum u^m/m, S1' = sum u^m/(m+1) over the class (atanh and log forms).

The residuals do NOT follow a power series in 1/m beyond this: they oscillate with a slowly
growing period (complex singularities of the resistance functions that accumulate at contact --
in bispherical coordinates, the complex zeros of 2 sinh(x) +- 2x divided by 2n+1), with an
envelope that decays like m^-3 (observed for every function: max |r_m| m^3 over (M/2, M] is
20 or less and decreases with m). Fitting further inverse powers of m therefore makes things
worse; instead the truncation error is BOUNDED by that envelope:
    |sum_{m>M} r_m u^m| <= E sum_{m>M} u^m m^-3,   E = max_{M/2 < m <= M} |r_m| m^3,
which, checked against the exact bispherical X functions (check.py), overestimates the actual
error by one to three orders of magnitude near contact and is the quoted truncation error.
"""
import mpmath as mp


def _class_sums(u, parity):
    """(S0, S1, S1'): sums over m >= 1 of the parity of u^m, u^m/m, u^m/(m+1)."""
    w = u * u
    t1_even = -mp.log(1 - w) / 2  # sum_{m even >= 2} u^m / m
    t1_odd = mp.atanh(u)  # sum_{m odd >= 1} u^m / m
    if parity == 0:
        return w / (1 - w), t1_even, (t1_odd - u) / u
    return u / (1 - w), t1_odd, t1_even / u


def _tail_weight(u, first, power):
    """sum_{j>=0} u^(first + 2j) (first + 2j)^-power, bounded from above in closed form."""
    geometric_bound = u ** first / (mp.mpf(first) ** power * (1 - u * u))
    if power <= 1:
        return geometric_bound
    zeta_bound = mp.zeta(power, mp.mpf(first) / 2) / mp.mpf(2) ** power
    return min(zeta_bound, geometric_bound)


def residuals(coefficients, parity, sigma, singular):
    """[(m, r_m)] for the class, r_m = sigma c_m / 2^m - (h1 + 2 h2/m - 4 h3/(m(m+1)))."""
    h1, h2, h3 = singular
    out = []
    for m in range(2 if parity == 0 else 1, len(coefficients), 2):
        b = sigma * coefficients[m] / mp.mpf(2) ** m
        out.append((m, b - (h1 + 2 * h2 / mp.mpf(m) - 4 * h3 / mp.mpf(m * (m + 1)))))
    return out


def envelope(coefficients, parity, sigma, singular, order, power=3):
    """E = max over M/2 < m <= M of |r_m| m^power (M = order)."""
    rows = residuals(coefficients[:order + 1], parity, sigma, singular)
    return max(abs(r) * mp.mpf(m) ** power for m, r in rows if 2 * m > order)


def singular_subtracted_sum(coefficients, parity, sigma, singular, s, order, power=3):
    """(F(s), truncation error bound) for F = sigma * sum_{m = parity mod 2} c_m s^-m.

    singular = (h1, h2, h3): the near-contact coefficients of 1/xi, log(1/xi), xi log(1/xi);
    power: the envelope's decay |r_m| <= E m^-power assumed by the bound (3 above; 1 for series
    whose singular behaviour is not subtracted, such as the mobility series).
    """
    h1, h2, h3 = singular
    u = 2 / mp.mpf(s)
    rows = residuals(coefficients[:order + 1], parity, sigma, singular)
    value = mp.fsum(r * u ** m for m, r in rows)
    if parity == 0:
        value += sigma * coefficients[0]
    s0, s1, s1_shifted = _class_sums(u, parity)
    value += h1 * s0 + 2 * h2 * s1 - 4 * h3 * (s1 - s1_shifted)
    last = rows[-1][0]
    bound = envelope(coefficients, parity, sigma, singular, order, power)
    bound *= _tail_weight(u, last + 2, power)
    return value, bound
