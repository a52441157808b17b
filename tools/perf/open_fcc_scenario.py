#!/usr/bin/env python3
"""Write the open-box fcc benchmark scenario of issue #32 (the peers' bench: an fcc lattice at
n = 0.1 a^-3, F = (0, 0, -1), no box), with the positions listed, since [particles.lattice] builds
periodic lattices only.

    tools/perf/open_fcc_scenario.py CELLS [--lubrication] [--pair-force] > open-fcc.toml    # N = 4 CELLS^3

Sites (i + u + 1/4 - CELLS/2) b, i in 0 ... CELLS-1 per axis, u the four fcc basis vectors,
b = (4 / n)^(1/3): the lattice centred on the origin.
"""
import argparse

BASIS = ((0.0, 0.0, 0.0), (0.5, 0.5, 0.0), (0.5, 0.0, 0.5), (0.0, 0.5, 0.5))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cells", type=int, help="fcc cells per axis (N = 4 cells^3)")
    parser.add_argument("--density", type=float, default=0.1, help="n in a^-3 (default 0.1)")
    parser.add_argument("--lubrication", action="store_true", help="the paper's lubrication on")
    parser.add_argument("--pair-force", action="store_true",
                        help="the exponential repulsion of scenarios/random_suspension.toml (F0 = 10F, "
                        "lambda = 0.1a, cutoff 2.5a: 12 neighbours a particle in range) instead of none")
    args = parser.parse_args()
    b = (4.0 / args.density) ** (1.0 / 3.0)
    c = args.cells
    sites = []
    for i in range(c):
        for j in range(c):
            for k in range(c):
                for u in BASIS:
                    sites.append(tuple((n + du + 0.25 - c / 2) * b for n, du in zip((i, j, k), u)))
    lub = "true" if args.lubrication else "false"
    pair_force = ('kind = "exponential"\nstrength = 10.0\nrange = 0.1\ncutoff = 2.5' if args.pair_force
                  else 'kind = "none"')
    suffix = "-pairforce" if args.pair_force else ""
    print(f"""# Open-box fcc lattice, N = {len(sites)}, n = {args.density} a^-3 (tools/perf/open_fcc_scenario.py {c})
[scenario]
name = "open-fcc{c}-lub{lub}{suffix}"
description = "fcc lattice in an open box, F = (0, 0, -1)"

[physics]
radius = 1.0
self_mobility = 1.0
tensor = "rotne-prager"

[physics.lubrication]
enabled = {lub}

[physics.pair_force]
{pair_force}

[box]
boundary = "open"

[particles]
force = [0.0, 0.0, -1.0]
positions = [""")
    for s in sites:
        print(f"    [{s[0]!r}, {s[1]!r}, {s[2]!r}],")
    print("""]

[run]
dt = 0.001
steps = 100
precision = "hi=f32,int=f32"
integrator = "euler"
backend = "cuda"
write_trajectory = false""")


if __name__ == "__main__":
    main()
