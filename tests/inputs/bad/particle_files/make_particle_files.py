"""Writes the broken positions files of tests/inputs/bad/particles_*.toml (committed; rerun only to
change them): `python3 make_particle_files.py` in this folder, with numpy and h5py installed.

The .npy files come from numpy.save where numpy can write the fault, by hand otherwise; the H5MD
files are minimal H5MD 1.1 layouts (/h5md, /particles/trajectory/position/{step,time,value}, box) with one
fault each.
"""
import struct

import h5py
import numpy as np

GOOD = np.array([[-3.0, 0.0, 0.0], [0.0, 0.0, 0.0], [3.0, 0.0, 0.0]])


def npy_by_hand(name, header, data=b"", version=(1, 0)):
    text = header.encode("latin1")
    pad = 64 - (10 + len(text) + 1) % 64
    text += b" " * pad + b"\n"
    with open(name, "wb") as f:
        f.write(b"\x93NUMPY" + bytes(version) + struct.pack("<H", len(text)) + text + data)


def h5md(name, positions, boundary=None, edges=None, group="trajectory", h5md_group=True):
    with h5py.File(name, "w") as f:
        if h5md_group:
            f.create_group("h5md").attrs["version"] = np.array([1, 1], dtype=np.int32)
        g = f.create_group("particles/" + group)
        p = g.create_group("position")
        frames = positions.shape[0] if positions.ndim >= 1 else 0
        p["value"] = positions
        p["step"] = np.arange(frames, dtype=np.int64)
        p["time"] = np.arange(frames, dtype=np.float64)
        if boundary is not None:
            box = g.create_group("box")
            box.attrs["dimension"] = np.int32(3)
            box.attrs["boundary"] = np.array([b.encode() for b in boundary], dtype="S8")
            if edges is not None:
                box["edges"] = edges


# .npy
with open("not_npy.npy", "w") as f:
    f.write("-3 0 0\n0 0 0\n3 0 0\n")
np.save("one_dimensional.npy", np.array([0.0, 1.0, 2.0, 3.0]))
np.save("two_columns.npy", GOOD[:, :2].copy())
np.save("integers.npy", GOOD.astype(np.int64))
bad = GOOD.copy()
bad[1, 2] = np.nan
np.save("nan.npy", bad)
np.save("empty.npy", np.zeros((0, 3)))
np.save("overlap.npy", np.array([[0.0, 0.0, 0.0], [1.5, 0.0, 0.0]]))
np.save("outside_box.npy", np.array([[0.0, 0.0, 0.0], [12.0, 0.0, 0.0]]))
np.save("good.npy", GOOD)
with open("good.npy", "rb") as f:
    whole = f.read()
with open("truncated.npy", "wb") as f:
    f.write(whole[:-8])
npy_by_hand("too_many.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2000000, 3), }", GOOD.tobytes())
npy_by_hand("version_four.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }", GOOD.tobytes(),
            version=(4, 0))

# XYZ
xyz = {
    "count_not_number.xyz": "three\ncomment\nA -3 0 0\nA 0 0 0\nA 3 0 0\n",
    "zero_count.xyz": "0\ncomment\n",
    "short.xyz": "3\ncomment\nA -3 0 0\nA 0 0 0\n",
    "bad_number.xyz": "3\ncomment\nA -3 0 0\nA 0 0,5 0\nA 3 0 0\n",
    "infinite.xyz": "3\ncomment\nA -3 0 0\nA 0 inf 0\nA 3 0 0\n",
    "three_columns.xyz": "3\ncomment\nA -3 0\nA 0 0\nA 3 0\n",
    "two_frames.xyz": "2\nframe 0\nA -3 0 0\nA 3 0 0\n2\nframe 1\nA -4 0 0\nA 4 0 0\n",
    "empty.xyz": "\n\n",
    "too_many.xyz": "2000000\ncomment\nA 0 0 0\n",
    "overlap.xyz": "2\ncomment\nA 0 0 0\nA 0 1.5 0\n",
}
for name, text in xyz.items():
    with open(name, "w") as f:
        f.write(text)

# H5MD
one_frame = GOOD[np.newaxis]
with open("not_hdf5.h5md", "w") as f:
    f.write("not an HDF5 file\n")
h5md("no_h5md_group.h5md", one_frame, h5md_group=False)
h5md("other_group.h5md", one_frame, group="fluid")
h5md("two_components.h5md", one_frame[:, :, :2].copy())
h5md("no_frames.h5md", np.zeros((0, 3, 3)))
h5md("two_frames.h5md", np.concatenate([one_frame, one_frame]))
h5md("triclinic.h5md", one_frame, ["periodic"] * 3, np.array([[20.0, 0.0, 0.0], [5.0, 20.0, 0.0], [0.0, 0.0, 20.0]]))
h5md("partly_periodic.h5md", one_frame, ["periodic", "none", "periodic"], np.array([20.0, 20.0, 20.0]))
h5md("periodic.h5md", one_frame, ["periodic"] * 3, np.array([20.0, 20.0, 20.0]))
nan_frame = one_frame.copy()
nan_frame[0, 2, 0] = np.nan
h5md("nan.h5md", nan_frame)
with h5py.File("edges_frames.h5md", "w") as f:
    f.create_group("h5md").attrs["version"] = np.array([1, 1], dtype=np.int32)
    g = f.create_group("particles/trajectory")
    g["position/value"] = np.concatenate([one_frame, one_frame])
    box = g.create_group("box")
    box.attrs["boundary"] = np.array([b"periodic"] * 3, dtype="S8")
    box["edges/value"] = np.array([[20.0, 20.0, 20.0]])
