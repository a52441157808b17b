#!/usr/bin/python3
"""Writes the positions of the paper's benchmark lattice (fcc, n = 0.1 a^-3, 4 cells^3 spheres,
centred on the origin) as an (N, 3) float64 .npy file, for an open box: the input of
tools/two_body_table/fcc_lubrication_cost.toml ([particles.lattice] fills periodic boxes only).

  tools/two_body_table/fcc_positions.py out/fcc_4000_open.npy [--cells 10] [--density 0.1]
"""
import argparse
import sys


def lattice(cells, density):
    """The cells^3 fcc cells' 4 cells^3 sphere centres (tuples), centred on the origin."""
    b = (4 / density) ** (1 / 3)  # four spheres per cubic cell of edge b
    basis = ((0, 0, 0), (0, 0.5, 0.5), (0.5, 0, 0.5), (0.5, 0.5, 0))
    shift = (cells - 0.5) / 2
    return [tuple((c + o - shift) * b for c, o in zip((i, j, k), offset))
            for i in range(cells) for j in range(cells) for k in range(cells) for offset in basis]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--cells", type=int, default=10)
    parser.add_argument("--density", type=float, default=0.1)
    args = parser.parse_args(argv)
    import numpy as np  # here only: comparison.py takes lattice() on a Python without NumPy

    positions = np.array(lattice(args.cells, args.density), dtype="<f8")
    np.save(args.output, positions)
    print(f"wrote {args.output}: {len(positions)} spheres, cell edge {(4 / args.density) ** (1 / 3):.6f} a")
    return 0


if __name__ == "__main__":
    sys.exit(main())
