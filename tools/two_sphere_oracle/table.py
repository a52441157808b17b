"""The committed table: its grid of centre distances, its columns, and reading it back.

File: reference_data/two_sphere/exact_two_sphere.csv. Lines starting with '#' are metadata
(method, order, precision, date); the first other line names the columns; every row holds r/a,
r/a - 2 (both exact decimals: the values were computed at exactly these) and, for each quantity,
its value and its truncation error estimate (column <name>_err, an absolute error).
"""
import csv

import mpmath as mp

PATH_IN_REPOSITORY = "reference_data/two_sphere/exact_two_sphere.csv"

# (column, meaning) in the order of the file.
QUANTITIES = (
    ("x11a", "mobility along the line of centres, self (units 1/(6 pi mu a)), torque-free"),
    ("x12a", "mobility along the line of centres, pair"),
    ("y11a", "mobility normal to the line of centres, self, torque-free spheres"),
    ("y12a", "mobility normal to the line of centres, pair, torque-free spheres"),
    ("X11A", "resistance along the line of centres, self (units 6 pi mu a)"),
    ("X12A", "resistance along the line of centres, pair"),
    ("Y11A", "resistance normal to the line of centres, self"),
    ("Y12A", "resistance normal to the line of centres, pair"),
    ("Y11B", "translation-rotation coupling, self (units pi mu (2a)^2 = 4 pi mu a^2)"),
    ("Y12B", "translation-rotation coupling, pair"),
    ("Y11C", "rotation normal to the line of centres, self (units 8 pi mu a^3)"),
    ("Y12C", "rotation normal to the line of centres, pair"),
    ("lambda_co_moving", "Stimson-Jeffery drag factor, equal forces along the line: U = mu0 F / lambda"),
    ("lambda_approaching", "Brenner free-surface drag factor, opposite forces along the line"),
    ("lambda_perpendicular", "drag factor for equal forces normal to the line, torque-free spheres"),
)
COLUMNS = ("r_over_a", "gap") + tuple(c for name, _ in QUANTITIES for c in (name, name + "_err"))


def grid():
    """[(r/a, r/a - 2)] as exact decimal strings: r/a - 2 = 10^(-4 + k/16), k = 0..64 (six significant
    digits; r/a from 2.0001 to 3), then r/a from 3 to 20 in 40 equal ratios (six digits)."""
    out = []
    for k in range(65):
        gap = mp.nstr(mp.power(10, mp.mpf(-4) + mp.mpf(k) / 16), 6, strip_zeros=True)
        out.append((_decimal(2 + mp.mpf(gap)), gap))
    ratio = mp.power(mp.mpf(20) / 3, mp.mpf(1) / 40)
    for k in range(1, 41):
        distance = mp.nstr(3 * ratio ** k, 6, strip_zeros=True)
        out.append((distance, _decimal(mp.mpf(distance) - 2)))
    return out


def _decimal(x):
    """A short exact decimal for a sum of two short decimals (mp.dps must exceed their digits)."""
    text = mp.nstr(x, 30, strip_zeros=True)
    if "e" in text:
        text = mp.nstr(x, 30, min_fixed=-mp.inf, max_fixed=mp.inf, strip_zeros=True)
    return text


def read(path):
    """(metadata lines, rows as {column: text})."""
    metadata = []
    rows = []
    with open(path, newline="") as stream:
        lines = [line for line in stream]
    body = []
    for line in lines:
        if line.startswith("#"):
            metadata.append(line[1:].strip())
        elif line.strip():
            body.append(line)
    reader = csv.DictReader(body)
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise ValueError(f"{path}: columns {reader.fieldnames} are not {COLUMNS}")
    for row in reader:
        rows.append(row)
    return metadata, rows
