#!/usr/bin/python3
"""A copy of a reference directory with chosen reference values moved so that the check of an
unchanged run sees a chosen margin |observed - reference| / tolerance: a drift creeping towards its
tolerance (margin < 1) or a regression (margin > 1), without touching the runs. Used by the browser
test of the nightly report (browser_test.py) and to draw the screenshots in ci/screenshots/.

  perturb_references.py SRC DST FILE:ENTRY:OBSERVABLE:MARGIN ...

e.g. tetrahedron.h5:hi=ds,int=ds/dt=0.01/euler/cpu:cycle.first_period:1.4. Only absolute and
relative tolerances can be set to a margin; the value moves up by MARGIN x the allowed deviation.
"""
import pathlib
import shutil
import sys

import h5py


def perturb(src, dst, changes):
    dst = pathlib.Path(dst)
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    for change in changes:
        file, entry, observable, margin = change.split(":")
        with h5py.File(dst / file, "r+") as f:
            d = f[entry][observable]
            kind, tolerance = d.attrs["tolerance_kind"], float(d.attrs["tolerance"])
            if isinstance(kind, bytes):
                kind = kind.decode()
            value = float(d[()])
            if kind == "absolute":
                allowed = tolerance
            elif kind == "relative":
                allowed = tolerance * abs(value)
            else:
                raise SystemExit(f"{change}: tolerance kind {kind}: only absolute and relative move by a margin")
            d[()] = value + float(margin) * allowed
    return dst


if __name__ == "__main__":
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    perturb(sys.argv[1], sys.argv[2], sys.argv[3:])
