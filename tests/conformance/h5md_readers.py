#!/usr/bin/env python3
"""H5MD 1.1 conformance of `stokesian run` output, as other programs read it (issue #17 item 4).

Writes a short tetrahedron run in an open box and one in its periodic box, then reads positions,
steps, times and the box with pyh5md and with MDAnalysis and compares them with h5py's reading of
the same datasets; checks the hard links (image and box/edges share position's step and time), the
fixed-length UTF-8 strings of /h5md and box/boundary, and that numeric /parameters are numbers.
MDAnalysis opens the result as users do: `MDAnalysis.Universe(path)` on an output named .h5md, with
no other argument (no copy, its default unit conversion), and an output named .h5 through
`topology_format="MINIMAL"` (MDAnalysis 2.4 guesses a topology's format from the extension only).

Usage: h5md_readers.py STOKESIAN_BINARY SOURCE_DIR
Exit status: 0 pass, 1 fail, 77 skipped (a reader is not installed; ci/setup installs them).
"""
import os
import re
import subprocess
import sys
import tempfile
import warnings

SKIPPED = 77

try:
    import h5py
    import numpy as np
    import pyh5md
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MDAnalysis's own DeprecationWarnings (xdrlib, ...)
        import MDAnalysis
except ImportError as missing:
    print(f"SKIPPED: {missing.name} is not installed (ci/setup installs python3-mdanalysis and pyh5md)")
    sys.exit(SKIPPED)

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}")


def run(stokesian, scenario, output, extra=(), env=None):
    """20 tau_s sampled every tau_s: 21 frames."""
    subprocess.run([stokesian, "run", scenario, "--time", "20", "--sample-every", "1", "--output", output, *extra],
                   check=True, stdout=subprocess.DEVNULL, env=env)


def is_fixed_utf8(obj, name):
    """Attribute `name` of an h5py object is a fixed-length UTF-8 string (or array of them)."""
    attribute = h5py.h5a.open(obj.id, name.encode())
    t = attribute.get_type()
    return isinstance(t, h5py.h5t.TypeStringID) and not t.is_variable_str() and t.get_cset() == h5py.h5t.CSET_UTF8


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def check_file(path, periodic, author):
    label = os.path.basename(path)
    with h5py.File(path, "r") as f:
        particles = f["particles/trajectory"]
        position = particles["position/value"][()]
        step = particles["position/step"][()]
        time = particles["position/time"][()]
        edges = particles["box/edges/value"][()]
        frames, n, _ = position.shape
        check(frames == 21 and n == 4, f"{label}: position/value has shape {position.shape}, expected (21, 4, 3)")
        check(edges.shape == (frames, 3, 3) and np.array_equal(edges, edges * np.eye(3)),
              f"{label}: box/edges/value has shape {edges.shape}, expected H5MD's matrix form (21, 3, 3), diagonal")
        check(list(f["h5md"].attrs["version"]) == [1, 1], f"{label}: h5md version {f['h5md'].attrs['version']}")

        # Fixed-length strings where H5MD 1.1 asks for them.
        for group, name in [("h5md/author", "name"), ("h5md/creator", "name"), ("h5md/creator", "version"),
                            ("particles/trajectory/box", "boundary")]:
            check(is_fixed_utf8(f[group], name), f"{label}: {group} attribute {name} is not a fixed-length UTF-8 string")
        check(text(f["h5md/author"].attrs["name"]) == author,
              f"{label}: author {f['h5md/author'].attrs['name']!r}, expected {author!r}")
        check(text(f["h5md/creator"].attrs["name"]) == "stokesian", f"{label}: creator name")
        boundary = [text(b) for b in particles["box"].attrs["boundary"]]
        check(boundary == ["periodic" if periodic else "none"] * 3, f"{label}: boundary {boundary}")

        # Hard links: one dataset under several names (h5py ids compare the objects).
        linked = ["box/edges"] + (["image"] if periodic else [])
        for element in linked:
            for dataset in ("step", "time"):
                check(particles[f"{element}/{dataset}"].id == particles[f"position/{dataset}"].id,
                      f"{label}: {element}/{dataset} is not a hard link to position/{dataset}")
        # image only in a periodic box.
        check(("image" in particles) == periodic, f"{label}: image present = {'image' in particles}")
        image = particles["image/value"][()] if periodic else None

    # pyh5md: the same values, bit for bit.
    with pyh5md.File(path, "r") as f:
        group = f.particles_group("trajectory")
        element = pyh5md.element(group, "position")
        check(np.array_equal(element.value[()], position), f"{label}: pyh5md position/value differs from h5py's")
        check(np.array_equal(element.step[()], step), f"{label}: pyh5md position/step differs")
        check(np.array_equal(element.time[()], time), f"{label}: pyh5md position/time differs")
        if periodic:
            image_element = pyh5md.element(group, "image")
            check(np.array_equal(image_element.value[()], image), f"{label}: pyh5md image/value differs")
            check(np.array_equal(image_element.step[()], step), f"{label}: pyh5md image/step differs")
        edges_element = pyh5md.element(group["box"], "edges")
        check(np.array_equal(edges_element.value[()], edges), f"{label}: pyh5md box/edges/value differs")

        observables = {name: f[f"observables/{name}/value"][()] for name in f["observables"]}
        numeric_parameters = {}
        for group in f["parameters"].values():
            numeric_parameters.update(group.attrs)

    # Numbers stored as numbers: the run's step count, time step and sample interval.
    run_parameters = numeric_parameters
    for name, kind in (("steps", np.integer), ("planned_steps", np.integer), ("sample_interval_steps", np.integer),
                       ("dt", np.floating)):
        check(isinstance(run_parameters.get(name), kind),
              f"{label}: /parameters attribute {name} = {run_parameters.get(name)!r} is not a number")
    check(run_parameters.get("dt") == 0.01, f"{label}: /parameters dt = {run_parameters.get('dt')!r}, expected 0.01")
    check(run_parameters.get("steps") == 2000, f"{label}: /parameters steps = {run_parameters.get('steps')!r}")

    # MDAnalysis as users open a file: Universe(path) and nothing else (its default unit conversion
    # on; the units the file names are its base units, so the numbers pass unchanged).
    check_mdanalysis(label, lambda: MDAnalysis.Universe(path), position, time, step, edges, observables, periodic)


def check_mdanalysis(label, open_universe, position, time, step, edges, observables, periodic):
    frames = position.shape[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MDAnalysis's own DeprecationWarnings (xdrlib, ...)
        try:
            u = open_universe()
        except Exception as error:  # what MDAnalysis raises varies: KeyError, ValueError, RuntimeError
            check(False, f"{label}: MDAnalysis cannot open it: {type(error).__name__}: {error}")
            return
        check(u.trajectory.n_frames == frames, f"{label}: MDAnalysis sees {u.trajectory.n_frames} frames")
        check(len(u.atoms) == position.shape[1], f"{label}: MDAnalysis sees {len(u.atoms)} atoms")
        for ts in u.trajectory:
            k = ts.frame
            # MDAnalysis keeps coordinates in float32; HDF5's conversion and numpy's astype both
            # round to nearest, so the comparison is exact.
            check(np.array_equal(ts.positions, position[k].astype(np.float32)), f"{label}: MDAnalysis frame {k} positions")
            check(ts.time == time[k], f"{label}: MDAnalysis frame {k} time {ts.time} vs {time[k]}")
            check(ts.data["step"] == step[k], f"{label}: MDAnalysis frame {k} step")
            if periodic:
                expected_box = np.array([*np.diagonal(edges[k]), 90.0, 90.0, 90.0], dtype=np.float32)
                check(ts.dimensions is not None and np.array_equal(ts.dimensions, expected_box),
                      f"{label}: MDAnalysis frame {k} box {ts.dimensions}, expected {expected_box}")
            else:
                check(ts.dimensions is None, f"{label}: MDAnalysis frame {k} box {ts.dimensions} in an open box")
            for name, value in observables.items():
                check(ts.data.get(name) == value[k], f"{label}: MDAnalysis frame {k} observable {name}")
        check(len(observables) > 0 and set(observables) <= set(u.trajectory.ts.data),
              f"{label}: MDAnalysis reads observables {sorted(u.trajectory.ts.data)}, the file has {sorted(observables)}")


def main():
    stokesian, source = sys.argv[1], sys.argv[2]
    scenario_text = open(os.path.join(source, "scenarios/tetrahedron.toml"), encoding="utf-8").read()
    with tempfile.TemporaryDirectory(prefix="stokesian_h5md_readers_") as directory:
        periodic_scenario = os.path.join(source, "scenarios/tetrahedron.toml")
        # The same four spheres in an open box: the periodic box's two lines replaced.
        open_text, replaced = re.subn(r'boundary = "periodic"\nedges = \[[^\]]*\][^\n]*\n', 'boundary = "open"\n',
                                      scenario_text)
        if replaced != 1:
            print("FAIL: scenarios/tetrahedron.toml no longer has the [box] lines this test replaces")
            return 1
        open_scenario = os.path.join(directory, "tetrahedron_open.toml")
        with open(open_scenario, "w", encoding="utf-8") as out:
            out.write(open_text)

        author = "Ada Lovelace \u03bc"
        periodic_path = os.path.join(directory, "periodic.h5md")
        open_path = os.path.join(directory, "open.h5md")
        run(stokesian, periodic_scenario, periodic_path, extra=("--author", author))
        run(stokesian, open_scenario, open_path, env=dict(os.environ, STOKESIAN_AUTHOR="CI"))
        check_file(periodic_path, periodic=True, author=author)
        check_file(open_path, periodic=False, author="CI")

        # The default name ends in .h5: MDAnalysis 2.4 guesses a topology's format from the extension
        # only (format="H5MD" names the trajectory's), so it is told to build a minimal one.
        h5_path = os.path.join(directory, "periodic.h5")
        run(stokesian, periodic_scenario, h5_path)
        with h5py.File(h5_path, "r") as f:
            particles = f["particles/trajectory"]
            position, time, step = (particles[f"position/{name}"][()] for name in ("value", "time", "step"))
            edges = particles["box/edges/value"][()]
            observables = {name: f[f"observables/{name}/value"][()] for name in f["observables"]}
        check_mdanalysis("periodic.h5", lambda: MDAnalysis.Universe(h5_path, format="H5MD", topology_format="MINIMAL",
                                                                    n_atoms=position.shape[1]),
                         position, time, step, edges, observables, periodic=True)
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("H5MD output reads alike with h5py, pyh5md and MDAnalysis")
    return 0


if __name__ == "__main__":
    sys.exit(main())
