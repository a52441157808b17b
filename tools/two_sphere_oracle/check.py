#!/usr/bin/python3
"""The oracle's quick self-check (CTest TwoSphereOracle.SelfCheck, label quick, about 10 s): the
committed table against a recomputation at a lower order, the literature values it must reproduce,
and the relations between its independent routes. Skipped (exit 77) with a message without mpmath
(Debian: python3-mpmath)."""
import pathlib
import sys
import unittest

TOOLS = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

try:
    import mpmath as mp
except ImportError:
    print("skipped: missing mpmath (Debian package python3-mpmath)")
    sys.exit(77)

from two_sphere_oracle import bispherical, pair, series, table  # noqa: E402

LOW_ORDER = 60
TABLE = TOOLS.parent / table.PATH_IN_REPOSITORY
ROUNDING = mp.mpf(10) ** -19  # relative: the table prints 20 significant digits
F = mp.mpf


def setUpModule():
    global METADATA, ROWS, TWIN
    mp.mp.dps = 40
    METADATA, ROWS = table.read(TABLE)
    TWIN = pair.TwinMultipole(LOW_ORDER)


def _row_at(distance):
    matches = [r for r in ROWS if mp.mpf(r["r_over_a"]) == mp.mpf(distance)]
    if len(matches) != 1:
        raise AssertionError(f"{TABLE}: no single row at r/a = {distance}")
    return matches[0]


def _value(row, name):
    return mp.mpf(row[name]), mp.mpf(row[name + "_err"])


class TableIsReproduced(unittest.TestCase):
    def test_rows_recomputed_at_a_lower_order_agree_within_the_stated_errors(self):
        """Every quantity of every row, recomputed at twin-multipole order 60 (the bispherical sums to
        1e-20), lies within the sum of both truncation errors and the table's rounding."""
        for row in ROWS:
            again = pair.row(mp.mpf(row["r_over_a"]), TWIN, relative_tolerance=mp.mpf(10) ** -20)
            for name, _ in table.QUANTITIES:
                value, err = _value(row, name)
                low, low_err = again[name]
                allowed = err + low_err + ROUNDING * abs(value)
                with self.subTest(r_over_a=row["r_over_a"], quantity=name):
                    self.assertLessEqual(abs(value - low), allowed,
                                         f"{name}({row['r_over_a']}): table {value}, order {LOW_ORDER} {low}")

    def test_rows_obey_the_relations_between_their_columns(self):
        """To the rounding of the file, at every row: X11A +- X12A are the two bispherical lambdas and
        x11a +- x12a their inverses; y11a, y12a the inverted Y resistance of the same row;
        lambda_perpendicular = 1/(y11a + y12a). A value edited alone breaks one of these, where the
        recomputation at order 60 is too coarse to see it (Y functions near contact)."""
        tolerance = 100 * ROUNDING
        for r in ROWS:
            v = {name: _value(r, name)[0] for name, _ in table.QUANTITIES}
            y = pair.torque_free_y_mobility({name: (v[name], 0) for name in
                                             ("Y11A", "Y12A", "Y11B", "Y12B", "Y11C", "Y12C")})
            y_scale = max(abs(v[name]) for name in ("Y11A", "Y12A", "Y11B", "Y12B", "Y11C", "Y12C"))
            relations = (  # (left, right, the size of the rounded terms that enter)
                (v["X11A"] + v["X12A"], v["lambda_co_moving"], abs(v["X11A"]) + abs(v["X12A"])),
                (v["X11A"] - v["X12A"], v["lambda_approaching"], abs(v["X11A"]) + abs(v["X12A"])),
                (v["x11a"] + v["x12a"], 1 / v["lambda_co_moving"], abs(v["x11a"]) + abs(v["x12a"])),
                (v["x11a"] - v["x12a"], 1 / v["lambda_approaching"], abs(v["x11a"]) + abs(v["x12a"])),
                (y["y11a"][0], v["y11a"], 100 * y_scale),  # the inversion amplifies input rounding
                (y["y12a"][0], v["y12a"], 100 * y_scale),
                (1 / (v["y11a"] + v["y12a"]), v["lambda_perpendicular"], v["lambda_perpendicular"]),
            )
            for i, (left, right, size) in enumerate(relations):
                with self.subTest(r_over_a=r["r_over_a"], relation=i):
                    self.assertLessEqual(abs(left - right), tolerance * (size + abs(right)))

    def test_metadata_names_the_method_and_the_order(self):
        text = " ".join(METADATA)
        self.assertIn("twin-multipole order", text)
        self.assertIn("mp.dps", text)
        self.assertEqual(len(ROWS), len(table.grid()))
        self.assertEqual([r["r_over_a"] for r in ROWS], [d for d, _ in table.grid()])


class LiteratureValues(unittest.TestCase):
    def test_stimson_jeffery_drag_factor_at_r_2001a(self):
        """Issue #30: lambda(2.001a) = 0.6451995, U = 1.5499081 mu0 F for equal forces along the line."""
        for value in (bispherical.co_moving_drag_factor(mp.mpf("2.001"))[0],
                      _value(_row_at("2.001"), "lambda_co_moving")[0]):
            self.assertEqual(round(float(value), 7), 0.6451995)
            self.assertEqual(round(float(1 / value), 7), 1.5499081)
        row = _row_at("2.001")
        self.assertAlmostEqual(float(_value(row, "x11a")[0] + _value(row, "x12a")[0]), 1.5499081, places=7)

    def test_far_field_series_coefficients_are_the_exact_ones(self):
        """The first coefficients of s^-m. Mobility: x11a = 1 - 15/(4 s^4) + ..., y11a = 1 - 17/(16 s^6),
        x12a = 3/(2s) - 1/s^3 + ..., y12a = 3/(4s) + 1/(2 s^3) (Batchelor 1976, J. Fluid Mech. 74, 1,
        at lambda = 1; the s^-1, s^-3 terms are the Rotne-Prager tensor) and J&O's 11/(2 s^6), 75/(4 s^7).
        Resistance: J&O's f_k at lambda = 1 (X^A: 1, 3, 9, 19, 93, 387, 1197 over 2^k); Y12B = 3/(2 s^2)
        and Y11B = -9/(8 s^3) from the vorticity of the Stokeslet and of its reflection, Y12C = 1/(2 s^3)
        and Y11C = 1 + 3/(4 s^4) from the rotlet and the Stokeslet it induces (4 pi mu a^3 omega on a
        held sphere)."""
        expected = {
            "x11a": {0: 1, 2: 0, 4: F(-15) / 4, 6: F(11) / 2},
            "x12a": {1: F(3) / 2, 3: -1, 5: 0, 7: F(75) / 4},
            "y11a": {0: 1, 2: 0, 4: 0, 6: F(-17) / 16},
            "y12a": {1: F(3) / 4, 3: F(1) / 2, 5: 0},
            "X11A": {0: 1, 2: F(9) / 4, 4: F(93) / 16, 6: F(1197) / 64},
            "X12A": {1: F(-3) / 2, 3: F(-19) / 8, 5: F(-387) / 32},
            "Y11A": {0: 1, 2: F(9) / 16, 4: F(465) / 256},
            "Y12A": {1: F(-3) / 4, 3: F(-59) / 64},
            "Y11B": {1: 0, 3: F(-9) / 8},
            "Y12B": {0: 0, 2: F(3) / 2},
            "Y11C": {0: 1, 2: 0, 4: F(3) / 4},
            "Y12C": {1: 0, 3: F(1) / 2},
        }
        keys = dict(pair.MOBILITY_SERIES)
        keys.update({name: (key, parity, sign) for name, (key, parity, sign, _) in pair.RESISTANCE_SERIES.items()})
        for name, coefficients in expected.items():
            key, parity, sign = keys[name]
            for m, want in coefficients.items():
                with self.subTest(function=name, power=m):
                    self.assertEqual(m % 2, parity)
                    self.assertLess(abs(sign * TWIN.series[key][m] - want), F(10) ** -30)

    def test_table_at_r_20a_matches_the_far_field_expansions(self):
        """Within the size of the first neglected term (s^-8 for x11a, s^-9 x12a, y12a; s^-8 y11a)."""
        s = mp.mpf(20)
        row = _row_at("20.0")
        far = {"x11a": (1 - F(15) / 4 / s ** 4 + F(11) / 2 / s ** 6, 20 / s ** 8),
               "x12a": (F(3) / 2 / s - 1 / s ** 3 + F(75) / 4 / s ** 7, 200 / s ** 9),
               "y11a": (1 - F(17) / 16 / s ** 6, 20 / s ** 8),
               "y12a": (F(3) / 4 / s + F(1) / 2 / s ** 3, 20 / s ** 7)}
        for name, (expansion, next_term) in far.items():
            with self.subTest(quantity=name):
                self.assertLess(abs(_value(row, name)[0] - expansion), next_term)

    def test_near_contact_forms_with_townsends_coefficients(self):
        """Townsend 2018 / J&O 1984: R = F - (h1/xi + h2 log(1/xi) + h3 xi log(1/xi)) = A + O(xi) over
        the 17 rows with 1e-4 <= xi <= 1e-3. X11A, X12A (exact there): R fits A + A1 xi
        + A2 xi^2 log(1/xi) + A3 xi^2 to 1e-12 (5e-15 with Townsend's h; an h3 off by 1e-4 leaves
        4e-10). Y functions: R is a straight line in xi to twice the table's error plus 50 xi^2
        log(1/xi) (an h2 off by 1e-3 bends it beyond that)."""
        rows = [r for r in ROWS if mp.mpf(r["gap"]) <= mp.mpf("0.001")]
        self.assertEqual(len(rows), 17)
        for name, (_, _, _, (h1, h2, h3)) in pair.RESISTANCE_SERIES.items():
            xs, ys, errs = [], [], []
            for r in rows:
                xi = mp.mpf(r["gap"])
                value, err = _value(r, name)
                xs.append(xi)
                ys.append(value - (h1 / xi + h2 * mp.log(1 / xi) + h3 * xi * mp.log(1 / xi)))
                errs.append(err)
            if name.startswith("X"):
                basis = [[1, x, x * x * mp.log(1 / x), x * x] for x in xs]
                tolerances = [mp.mpf(10) ** -12] * len(xs)
            else:
                basis = [[1, x] for x in xs]
                tolerances = [2 * max(errs) + 50 * x * x * mp.log(1 / x) for x in xs]
            coefficients = mp.qr_solve(mp.matrix(basis), mp.matrix(ys))[0]
            for x, y, terms, tolerance in zip(xs, ys, basis, tolerances):
                with self.subTest(function=name, xi=float(x)):
                    fitted = sum(c * b for c, b in zip(coefficients, terms))
                    self.assertLess(abs(y - fitted), tolerance)

    def test_townsends_near_field_values_at_gap_1e_4(self):
        """Townsend's own evaluation of the corrected near-field forms at lambda = 1, r/a - 2 = 1e-4
        (github.com/Pecnut/stokesian-dynamics, find_resistance_scalars/
        scalars_general_resistance_nearfield_mathematica_for_python.txt; B there is made dimensionless
        with 6 pi mu a^2 and C with 6 pi mu a^3, hence the factors 3/2 and 3/4): the forms neglect
        O(xi), so they agree to 2 xi."""
        townsend = {"X11A": 2503.0677704149275, "X12A": -2502.422504740131,
                    "Y11A": 2.533373841662552, "Y12A": -1.8087087413191307,
                    "Y11B": 1.5 * -1.3758537652629372, "Y12B": 1.5 * 1.5340516937251742,
                    "Y11C": 0.75 * 3.3934339285184985, "Y12C": 0.75 * 0.5774802085760841}
        row = _row_at("2.0001")
        for name, value in townsend.items():
            with self.subTest(function=name):
                self.assertLess(abs(_value(row, name)[0] - mp.mpf(value)), 2e-4)

    def test_residual_coefficients_confirm_the_singular_coefficients(self):
        """Independently of lubrication theory: with the near-contact model subtracted, the series'
        coefficients fall off at least like m^-2 (a wrong h1 leaves a constant, a wrong h2 a 1/m)."""
        for name, (key, parity, sign, singular) in pair.RESISTANCE_SERIES.items():
            rows = series.residuals(TWIN.series[key], parity, sign, singular)
            worst = max(abs(r) * m * m for m, r in rows if m > LOW_ORDER // 2)
            with self.subTest(function=name):
                self.assertLess(worst, 1)


class RoutesAgree(unittest.TestCase):
    def test_twin_multipole_x_functions_match_the_bispherical_ones(self):
        for distance in ("2.001", "2.1", "2.5", "4"):
            s = mp.mpf(distance)
            exact = pair.axisymmetric(s)
            twin = TWIN.resistance(s)
            for name in ("X11A", "X12A"):
                with self.subTest(r_over_a=distance, quantity=name):
                    self.assertLessEqual(abs(twin[name][0] - exact[name][0]), twin[name][1] + exact[name][1])

    def test_mobility_recurrences_match_the_inverted_resistance(self):
        """x from the bispherical lambdas, y from the inverted Y resistance matrix, against J&O's
        mobility recurrences (twin_multipole.py, mobility=True)."""
        for distance in ("2.3", "3", "5", "20"):
            s = mp.mpf(distance)
            full = pair.row(s, TWIN)
            twin = TWIN.mobility(s)
            for name in ("x11a", "x12a", "y11a", "y12a"):
                with self.subTest(r_over_a=distance, quantity=name):
                    self.assertLessEqual(abs(twin[name][0] - full[name][0]), twin[name][1] + full[name][1])

    def test_reciprocal_coupling_coefficients(self):
        """The force due to rotation (Y^C problem) and the torque due to translation (Y^A problem) come
        from different recurrences; the reciprocal theorem makes them equal: P_1 = (4/3) Q_1."""
        for m in range(LOW_ORDER + 1):
            with self.subTest(power=m):
                self.assertLess(abs(TWIN.series["CP"][m] - 4 * TWIN.series["YQ"][m] / 3),
                                F(10) ** -28 * (1 + abs(TWIN.series["CP"][m])))

    def test_resistance_and_mobility_are_positive_definite_at_every_row(self):
        for r in ROWS:
            values = {name: _value(r, name)[0] for name, _ in table.QUANTITIES}
            with self.subTest(r_over_a=r["r_over_a"]):
                self.assertGreater(values["X11A"] - abs(values["X12A"]), 0)
                self.assertGreater(values["x11a"] - abs(values["x12a"]), 0)
                self.assertGreater(values["y11a"] - abs(values["y12a"]), 0)
                eigenvalues, _ = mp.eigsy(pair.y_resistance_matrix(values))
                self.assertGreater(min(eigenvalues), 0)


if __name__ == "__main__":
    result = unittest.TextTestRunner(verbosity=2).run(unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__]))
    sys.exit(0 if result.wasSuccessful() else 1)
