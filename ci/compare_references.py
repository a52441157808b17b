#!/usr/bin/python3
"""Compare two reference directories (reference_data/ layout) value by value.

    /usr/bin/python3 ci/compare_references.py OLD_DIR NEW_DIR [--accept ATTRIBUTE]...

Every entry of every OLD_DIR/*.h5 must be in the NEW_DIR file of the same name with every dataset
bit for bit equal (values and attributes: tolerances, rules, windows) and the same run length,
sampling and status. Provenance and digests (final_state_digest, scenario_fingerprint,
digest_algorithm, who, when, where, with what) may differ: a re-recording changes them. Entries,
datasets or files only in NEW_DIR are listed, not counted as differences. --accept NAME lists a
change of the dataset attribute NAME (e.g. ci95_half_width after a change of the interval's method)
as accepted instead of a difference; values are never accepted. Exit status 0 when nothing
observable differs, 1 otherwise, 2 for bad arguments.
"""

import sys
from pathlib import Path

import h5py
import numpy as np

# Entry attributes that are observations of the run, compared like the datasets.
RUN_ATTRIBUTES = ("planned_steps", "sample_interval_steps", "planned_time", "status")


def entries(f):
    """{path: group} of the entries of a reference file: groups holding final_state_digest."""
    found = {}

    def visit(name, obj):
        if isinstance(obj, h5py.Group) and "final_state_digest" in obj.attrs:
            found[name] = obj

    f.visititems(visit)
    return found


def datasets(group):
    """{relative path: dataset} under an entry, at any depth."""
    found = {}

    def visit(name, obj):  # returns None: visititems stops at the first other value
        if isinstance(obj, h5py.Dataset):
            found[name] = obj

    group.visititems(visit)
    return found


def same(a, b):
    """Bit for bit: the same type, shape and bytes (NaN equals NaN of the same bits)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "OSU" or b.dtype.kind in "OSU":
        return a.shape == b.shape and a.tolist() == b.tolist()
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def compare_entry(where, old, new, problems, accept, accepted):
    for key in RUN_ATTRIBUTES:
        if (key in old.attrs) != (key in new.attrs) or (key in old.attrs and not same(old.attrs[key], new.attrs[key])):
            problems.append(f"{where}: attribute {key} {old.attrs.get(key)!r} -> {new.attrs.get(key)!r}")
    old_sets, new_sets = datasets(old), datasets(new)
    added = sorted(set(new_sets) - set(old_sets))
    for name, dataset in sorted(old_sets.items()):
        if name not in new_sets:
            problems.append(f"{where}/{name}: missing in the new entry")
            continue
        other = new_sets[name]
        if not same(dataset[()], other[()]):
            problems.append(f"{where}/{name}: value {dataset[()]!r} -> {other[()]!r}")
        for key in sorted(set(dataset.attrs) | set(other.attrs)):
            if key not in other.attrs or key not in dataset.attrs or not same(dataset.attrs[key], other.attrs[key]):
                line = f"{where}/{name}: attribute {key} {dataset.attrs.get(key)!r} -> {other.attrs.get(key)!r}"
                (accepted if key in accept else problems).append(line)
    return len(old_sets), added


def main(argv):
    args, accept = [], set()
    rest = iter(argv[1:])
    for a in rest:
        if a == "--accept":
            accept.add(next(rest, ""))
        else:
            args.append(a)
    if len(args) != 2 or not all(Path(a).is_dir() for a in args) or "" in accept:
        print("usage: ci/compare_references.py OLD_DIR NEW_DIR [--accept ATTRIBUTE]... (two reference directories)",
              file=sys.stderr)
        return 2
    old_dir, new_dir = Path(args[0]), Path(args[1])
    problems, accepted, compared, values, added = [], [], 0, 0, []
    for old_path in sorted(old_dir.glob("*.h5")):
        new_path = new_dir / old_path.name
        if not new_path.exists():
            problems.append(f"{old_path.name}: not in {new_dir}")
            continue
        with h5py.File(old_path, "r") as old_file, h5py.File(new_path, "r") as new_file:
            old_entries, new_entries = entries(old_file), entries(new_file)
            added += [f"{old_path.name}:/{e}" for e in sorted(set(new_entries) - set(old_entries))]
            for name, old in sorted(old_entries.items()):
                where = f"{old_path.name}:/{name}"
                if name not in new_entries:
                    problems.append(f"{where}: missing in the new file")
                    continue
                count, new_sets = compare_entry(where, old, new_entries[name], problems, accept, accepted)
                compared += 1
                values += count
                added += [f"{where}/{d}" for d in new_sets]
    added += [f"{p.name}: new file" for p in sorted(new_dir.glob("*.h5")) if not (old_dir / p.name).exists()]
    for line in problems:
        print("DIFFERS " + line)
    for line in accepted:
        print("accepted " + line)
    for line in added:
        print("added   " + line)
    verdict = "unchanged" if not problems else f"{len(problems)} difference(s)"
    print(f"{old_dir} -> {new_dir}: {compared} entries, {values} observables compared bit for bit: {verdict}"
          f" ({len(accepted)} accepted changes of {', '.join(sorted(accept)) or 'nothing'}, {len(added)} added)")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
