"""Synthetic data of the shapes the C++ tools write (check.json, suite-summary.json, report.json), for
the renderer's tests: small, with a pass, a skipped and a failed check."""


def check(date="2026-11-27T02:30:00Z", margin=0.25, fail=False, commit="abc1234"):
    """A check.json of two runs: a tetrahedron run (one row at `margin`, one skipped, and with
    `fail` a failing row whose ratio is infinite, stored as null) and an fcc run that passes exactly."""
    prov = {"git_commit": commit, "device_name": "NVIDIA H100 80GB HBM3", "driver_version": "580.159.04",
            "runtime_version": "13.0", "host": "gpu1", "date": date, "backend": "cuda",
            "compiler": "GNU 12.2.0", "host_fp_flags": "-ffp-contract=off", "build_type": "Release",
            "cuda_fp_flags": "--fmad=false", "cuda_architectures": "90", "wall_seconds": "12.5"}
    tetra_checks = [
        {"observable": "run.status", "kind": "exact", "observed": "completed", "reference": "completed",
         "tolerance": "exact", "verdict": "pass", "ratio": None, "detail": ""},
        {"observable": "cycle.first_period", "kind": "absolute", "observed": "517.3", "reference": "517.3",
         "tolerance": "+- 0.00046", "verdict": "pass", "ratio": margin, "detail": ""},
        {"observable": "cycle.window_period", "kind": "relative", "observed": "0 values", "reference": "0 values",
         "tolerance": "+- 1e-6 rel", "verdict": "skip", "ratio": None,
         "detail": "nothing to compare: no complete window in either run"},
    ]
    if fail:
        tetra_checks.append({"observable": "symmetry.max_abs_y1", "kind": "exact", "observed": "1e-3",
                             "reference": "0", "tolerance": "exact", "verdict": "fail", "ratio": None,
                             "detail": "off by 0.001 (allowed 0)"})
    runs = [
        {"run": "tetrahedron_ds-ds_dt0.01", "result_file": "results/tetrahedron_ds-ds_dt0.01.h5",
         "reference_file": "reference_data/tetrahedron.h5", "entry": "/hi=ds,int=ds/dt=0.01/euler/gpu",
         "note": "", "bitwise_identical": not fail, "passed": not fail, "provenance": prov,
         "reference_provenance": {"recorded_with": "6fa6d42", "recorded_at": "2026-11-26T05:54:23Z"},
         "checks": tetra_checks},
        {"run": "fcc_sedimentation_f64-f64", "result_file": "results/fcc_sedimentation_f64-f64.h5",
         "reference_file": "reference_data/fcc_sedimentation.h5", "entry": "/hi=f64,int=f64/dt=0.001/euler/gpu",
         "note": "", "bitwise_identical": True, "passed": True, "provenance": prov,
         "reference_provenance": {"recorded_with": "6fa6d42"},
         "checks": [{"observable": "centre_of_mass.mean_velocity_z", "kind": "relative", "observed": "-277.7",
                     "reference": "-277.7", "tolerance": "+- 1e-9 rel", "verdict": "pass", "ratio": 0.0,
                     "detail": ""}]},
    ]
    checks = sum(len(r["checks"]) for r in runs)
    failed = sum(c["verdict"] == "fail" for r in runs for c in r["checks"])
    skipped = sum(c["verdict"] == "skip" for r in runs for c in r["checks"])
    return {"runs": runs, "checks": checks, "failed": failed, "skipped": skipped, "passed": failed == 0,
            "provenance": {"version": commit, "date": date, "host": "gpu1", "reference_dir": "reference_data",
                           "reference_files": [{"file": "reference_data/tetrahedron.h5", "bytes": 1,
                                                "digest": "0123456789abcdef", "digest_algorithm": "fnv1a64"}]}}


def suite(scale=1.0):
    return {"suite": "nightly", "manifest": "reference_data/suites/nightly.toml", "scale": scale,
            "wall_seconds": 470.0,
            "runs": [{"name": "tetrahedron_ds-ds_dt0.01", "file": "", "backend": "cuda", "state": "completed",
                      "message": "", "steps": 51700000, "wall_seconds": 299.0},
                     {"name": "fcc_sedimentation_f64-f64", "file": "", "backend": "cuda", "state": "completed",
                      "message": "", "steps": 100, "wall_seconds": 24.0}]}


def negative_check(caught=True, mismatch=""):
    """The negative control's check.json: a perturbed run (failing a check when `caught`; with
    `mismatch`, its reference did not apply) and the unperturbed control, which passes."""
    perturbed_checks = [{"observable": "cycle.first_period", "kind": "absolute", "observed": "522.5",
                         "reference": "517.3", "tolerance": "+- 0.00046", "verdict": "fail" if caught else "pass",
                         "ratio": 11000.0 if caught else 0.5, "detail": ""}]
    runs = [{"run": "tetrahedron_f64-f64_dt0.01", "result_file": "results/tetrahedron_f64-f64_dt0.01.h5",
             "note": "NEGATIVE CONTROL: every step 1% longer than the recorded dt", "reference_mismatch": mismatch,
             "checks": perturbed_checks},
            {"run": "tetrahedron_f32-f32_dt0.01", "result_file": "results/tetrahedron_f32-f32_dt0.01.h5",
             "note": "", "reference_mismatch": "",
             "checks": [{"observable": "cycle.first_period", "kind": "absolute", "observed": "517.3",
                         "reference": "517.3", "tolerance": "+- 0.00046", "verdict": "pass", "ratio": 0.0,
                         "detail": ""}]}]
    failed = sum(c["verdict"] == "fail" for r in runs for c in r["checks"])
    return {"runs": runs, "checks": 2, "failed": failed, "skipped": 0, "passed": failed == 0}
