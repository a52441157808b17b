"""Four spheres sedimenting on a stretched tetrahedron come back to their shape every T ~ 517 tau_s
(paper Sec. 5): run scenarios/tetrahedron.toml for two cycles and print the period; with matplotlib,
plot x1(t) into tetrahedron_x1.png.

    python examples/tetrahedron_period.py [OUTPUT_FOLDER]
"""
import pathlib
import sys

import stokesian

root = pathlib.Path(__file__).resolve().parents[1]
folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")

scenario = stokesian.load_scenario(root / "scenarios" / "tetrahedron.toml")
# Two cycles instead of ten (110 000 steps, well under a second on one core).
scenario.override(time=1100.0)
path = scenario.run(folder / "tetrahedron_two_cycles.h5", force=True)
print(f"wrote {path}: {scenario.last_run['steps']} steps in {scenario.last_run['wall_seconds']:.2f} s")

result = stokesian.Result(path)
print("period of x1(t), cycle by cycle:", result.analysis["cycle/period"], "tau_s")
print("positions:", result.positions.shape, "(samples, spheres, xyz)")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("(no matplotlib: no plot)")
else:
    plt.plot(result.time, result.positions[:, 0, 0])
    plt.xlabel("t / tau_s")
    plt.ylabel("x1 / a")
    plt.savefig(folder / "tetrahedron_x1.png")
    print("plotted", folder / "tetrahedron_x1.png")
