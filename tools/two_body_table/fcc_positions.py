#!/usr/bin/python3
"""Writes the positions of the paper's benchmark lattice (fcc, n = 0.1 a^-3, 4 cells^3 spheres,
centred on the origin) as an (N, 3) float64 .npy file, for an open box: the input of
tools/two_body_table/fcc_lubrication_cost.toml ([particles.lattice] fills periodic boxes only).

  tools/two_body_table/fcc_positions.py out/fcc_4000_open.npy [--cells 10] [--density 0.1]
"""
import argparse
import sys

import numpy as np


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--cells", type=int, default=10)
    parser.add_argument("--density", type=float, default=0.1)
    args = parser.parse_args(argv)
    b = (4 / args.density) ** (1 / 3)  # four spheres per cubic cell of edge b
    basis = np.array([[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]])
    cells = np.array([[i, j, k] for i in range(args.cells) for j in range(args.cells) for k in range(args.cells)])
    positions = ((cells[:, None, :] + basis[None, :, :]).reshape(-1, 3) - (args.cells - 0.5) / 2) * b
    np.save(args.output, positions.astype("<f8"))
    print(f"wrote {args.output}: {len(positions)} spheres, cell edge {b:.6f} a")
    return 0


if __name__ == "__main__":
    sys.exit(main())
