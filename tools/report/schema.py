"""The shape of every JSON document the renderer reads, checked once when it is loaded: check.json
(`stokesian reference check --json`), suite-summary.json (`stokesian suite run`), study.json
(`stokesian study`), report.json (`stokesian port-check compare --report`) and each line of a
history's nights.jsonl (history.night_record). A document of another shape is refused in one line,
"FILE: PLACE: expected WHAT, not VALUE" (BadDocument, a ValueError: exit status 2), before anything
is drawn or written, instead of failing somewhere inside the rendering. Keys beyond those listed
are allowed (a newer writer may add some). A path the renderer opens or links must stay inside the
document's folder, resolved with symbolic links followed."""
import json
import math
import pathlib


class BadDocument(ValueError):
    """One line naming the file (and the place in it) and what is wrong."""


class _Fault(Exception):
    def __init__(self, place, text):
        super().__init__(f"{place}: {text}" if place else text)


def _shown(value):
    """A value as a message shows it: short, on one line."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value)
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text)} characters)"


def _at(place, key):
    return f"{place}.{key}" if place else str(key)


class Kind:
    """A value that passes `test`, described as `what`."""

    def __init__(self, what, test):
        self.what, self.test = what, test

    def check(self, value, place, folder):
        if not self.test(value):
            raise _Fault(place, f"expected {self.what}, not {_shown(value)}")


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value):
    """A string that can be written as UTF-8 (a JSON escape can spell a lone surrogate, which cannot)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _number_text(value):
    try:
        return isinstance(value, str) and (value == "" or math.isfinite(float(value)))
    except ValueError:
        return False


TEXT = Kind("a string (of Unicode characters)", _text)
FLAG = Kind("true or false", lambda v: isinstance(v, bool))
NUMBER = Kind("a number", _number)
POSITIVE = Kind("a number > 0", lambda v: _number(v) and v > 0)
COUNT = Kind("a whole number >= 0", lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0)
NUMBER_TEXT = Kind("a number as a string", _number_text)


class Maybe:
    def __init__(self, spec):
        self.spec = spec

    def check(self, value, place, folder):
        if value is not None:
            self.spec.check(value, place, folder)


class OneOf:
    def __init__(self, *values):
        self.values = values

    def check(self, value, place, folder):
        if value not in self.values or isinstance(value, bool):
            raise _Fault(place, f"expected one of {', '.join(map(_shown, self.values))}, not {_shown(value)}")


class ListOf:
    def __init__(self, spec):
        self.spec = spec

    def check(self, value, place, folder):
        if not isinstance(value, list):
            raise _Fault(place, f"expected a list, not {_shown(value)}")
        for k, item in enumerate(value):
            self.spec.check(item, f"{place}[{k}]", folder)


class Pair:
    """A list of exactly two values."""

    def __init__(self, first, second):
        self.specs = (first, second)

    def check(self, value, place, folder):
        if not isinstance(value, list) or len(value) != 2:
            raise _Fault(place, f"expected a list of two values, not {_shown(value)}")
        for k, (spec, item) in enumerate(zip(self.specs, value)):
            spec.check(item, f"{place}[{k}]", folder)


class Record:
    """An object with the keys `required` and any of `optional` (each with its spec); every other
    key's value passes `others` (None: anything); `rule(value)` says what is wrong across keys."""

    def __init__(self, required, optional=None, others=None, rule=None):
        self.required, self.optional, self.others, self.rule = required, optional or {}, others, rule

    def check(self, value, place, folder):
        if not isinstance(value, dict):
            raise _Fault(place, f"expected an object, not {_shown(value)}")
        for key in self.required:
            if key not in value:
                raise _Fault(_at(place, key), "missing")
        for key, item in value.items():
            if not _text(key):
                raise _Fault(place, f"a key is not a string of Unicode characters: {_shown(key)}")
            spec = self.required.get(key) or self.optional.get(key) or self.others
            if spec is not None:
                spec.check(item, _at(place, key), folder)
        fault = self.rule(value) if self.rule else None
        if fault:
            raise _Fault(place, fault)


def MapOf(spec):  # noqa: N802 (a spec, spelled as the others)
    """An object whose every value passes spec."""
    return Record({}, others=spec)


class Inside:
    """A path relative to the document's folder that stays inside it (resolved, links followed)."""

    def check(self, value, place, folder):
        TEXT.check(value, place, folder)
        root = pathlib.Path(folder).resolve()
        try:
            inside = bool(value) and (root / value).resolve().is_relative_to(root)
        except (OSError, ValueError, RuntimeError) as e:  # a NUL byte, a loop of links
            raise _Fault(place, f"{_shown(value)} cannot be resolved ({e})") from None
        if not inside:
            raise _Fault(place, f"{_shown(value)} is outside the folder {root}")


INSIDE = Inside()


def _same_lengths(*groups):
    """A rule: the lists named in each group have one length."""
    def rule(value):
        for group in groups:
            lengths = {key: len(value[key]) for key in group if isinstance(value.get(key), list)}
            if len(set(lengths.values())) > 1:
                return "lists of different lengths: " + ", ".join(f"{k} {n}" for k, n in lengths.items())
        return None
    return rule


def _differences_between_dts(value):
    """convergence: one difference (and standard error) between each two neighbouring dts."""
    if len(value["differences"]) != max(len(value["dts"]) - 1, 0):
        return f"expected {max(len(value['dts']) - 1, 0)} differences for {len(value['dts'])} dts, " \
               f"not {len(value['differences'])}"
    return _same_lengths(("dts", "values", "bias"), ("differences", "difference_standard_errors"))(value)


PROVENANCE = MapOf(TEXT)  # io::json_object: every value a string
REAL = Maybe(NUMBER)  # a double: null where it is not finite or not applicable
VERDICT = OneOf("pass", "skip", "fail")

CHECK_ROW = Record({"observable": TEXT}, {"kind": TEXT, "observed": TEXT, "reference": TEXT, "tolerance": TEXT,
                                          "verdict": VERDICT, "ratio": REAL, "detail": TEXT})
CHECK_RUN = Record({"run": TEXT, "result_file": TEXT},
                   {"reference_file": TEXT, "entry": TEXT, "note": TEXT, "reference_mismatch": TEXT,
                    "bitwise_identical": FLAG, "passed": FLAG,
                    "provenance": Record({}, {"wall_seconds": NUMBER_TEXT}, others=TEXT),
                    "reference_provenance": PROVENANCE, "checks": ListOf(CHECK_ROW)})
CHECK = Record({}, {"runs": ListOf(CHECK_RUN), "passed": FLAG, "not_checked": COUNT,
                    "provenance": Record({}, {"date": TEXT, "host": TEXT, "version": TEXT, "reference_dir": TEXT,
                                              "reference_files": ListOf(Record({"file": TEXT, "digest": TEXT,
                                                                                "digest_algorithm": TEXT}))})})

SUITE = Record({}, {"suite": TEXT, "manifest": TEXT, "scale": NUMBER, "wall_seconds": REAL,
                    "runs": ListOf(Record({"name": TEXT}, {"state": TEXT, "steps": Maybe(COUNT),
                                                           "wall_seconds": REAL}))})

TREND = Record({"degree": Maybe(COUNT), "cycles": COUNT, "lack_of_fit_p": REAL, "residual_runs_p": REAL,
                "validity": TEXT})
STUDY_RUN = Record({"name": TEXT, "file": INSIDE, "mode": TEXT, "integrator": TEXT, "dt": POSITIVE, "status": TEXT,
                    "evaluations": NUMBER, "wall_seconds": NUMBER, "regular_cycles": Maybe(COUNT),
                    **{key: REAL for key in ("period_first", "period_first_ci95", "period_mean", "period_drift",
                                             "period_drift_ci95", "amplitude_drift", "amplitude_drift_ci95",
                                             "period_drift_mean", "period_drift_mean_ci95", "lost_periodicity_time",
                                             "max_abs_y1")},
                    "period_trend": Maybe(TREND), "amplitude_trend": Maybe(TREND)})
CONVERGENCE = Record({"quantity": TEXT, "mode": TEXT, "integrator": TEXT, "dts": ListOf(POSITIVE),
                      "values": ListOf(REAL), "differences": ListOf(REAL), "difference_standard_errors": ListOf(REAL),
                      "order": REAL, "order_ci95": REAL, "coefficient": REAL, "resolved": COUNT, "unresolved": COUNT,
                      "extrapolated": REAL, "bias": ListOf(REAL), "bias_reference": TEXT, "cycles": COUNT,
                      "note": TEXT}, rule=_differences_between_dts)
COST = Record({"mode": TEXT, "integrator": TEXT, "evaluations_per_step": NUMBER, "wall_per_evaluation": REAL,
               "drift_coefficient": REAL, "drift_order": REAL, "dt_needed": ListOf(REAL),
               "evaluations_per_tau": ListOf(REAL), "wall_per_tau": ListOf(REAL), "beyond_range": ListOf(FLAG),
               "note": TEXT},
              rule=_same_lengths(("dt_needed", "evaluations_per_tau", "wall_per_tau", "beyond_range")))
STUDY = Record({"kind": OneOf("precision", "timestep"), "scenario": TEXT, "backend": TEXT, "time": POSITIVE,
                "sample_every": NUMBER, "fit_cycles": COUNT, "wall_seconds": REAL, "modes": ListOf(TEXT),
                "dts": ListOf(POSITIVE), "integrators": ListOf(TEXT), "drift_targets": ListOf(NUMBER),
                "runs": ListOf(STUDY_RUN), "convergence": ListOf(CONVERGENCE), "cost": ListOf(COST)},
               {"case": TEXT, "provenance": PROVENANCE})

COMPARISON = Record({"configuration": TEXT, "mode": TEXT, "particles": COUNT, "verdict": TEXT,
                     "differing_components": COUNT, "max_ulp": REAL, "median_ulp": REAL, "max_relative": REAL,
                     "rms_relative": REAL, "max_bound_ratio": REAL, "worst_particle": COUNT, "worst_component": TEXT,
                     "ulp_histogram": ListOf(COUNT), "ulp_histogram_labels": ListOf(TEXT),
                     "relative_histogram": ListOf(COUNT), "relative_histogram_labels": ListOf(TEXT)},
                    {"run_bitwise": FLAG, "run_max_position_difference": REAL, "run_max_relative_velocity": REAL})
PORT_MODE = Record({"mode": TEXT, "verdict": Maybe(TEXT), "compared": FLAG, "worst_configuration": Maybe(TEXT),
                    "max_bound_ratio": REAL, "max_ulp": REAL, "max_relative": REAL, "bound_factor": REAL,
                    "long_runs_passed": COUNT, "long_runs_failed": COUNT})
LONG_RUN = Record({"run": TEXT, "mode": TEXT, "entry": TEXT, "passed": FLAG, "failed_checks": COUNT, "checks": COUNT,
                   "first_failure": TEXT})
RECORD_SIDE = Record({"file": TEXT, "build": PROVENANCE, "device": PROVENANCE, "run": PROVENANCE,
                      "settings": PROVENANCE})
PORT_CHECK = Record({"passed": FLAG, "a": TEXT, "b": TEXT, "comparisons": ListOf(COMPARISON),
                     "not_compared": ListOf(TEXT), "modes": ListOf(PORT_MODE), "long_run_checks": ListOf(LONG_RUN),
                     "reference_dir": TEXT, "term_allowances": MapOf(NUMBER),
                     "records": Record({"a": RECORD_SIDE, "b": RECORD_SIDE})})

NIGHT_RUN = Record({"run": TEXT, "passed": FLAG, "worst_margin": REAL, "worst_observable": TEXT,
                    "checks": MapOf(Pair(REAL, VERDICT))})
NIGHT = Record({"night": TEXT, "verdict": OneOf("PASS", "FAIL"),
                "counts": Record({k: COUNT for k in ("runs", "checks", "passed", "skipped", "failed")}),
                "provenance": Record({}, {"commit": Maybe(TEXT), "device": Maybe(TEXT)}),
                "runs": ListOf(NIGHT_RUN), "report": INSIDE},
               {"date": Maybe(TEXT), "suite": Maybe(Record({}, {"wall_seconds": REAL, "scale": Maybe(POSITIVE)})),
                "negative_control": Maybe(OneOf("PASS", "FAIL"))})


def _not_finite(text):
    raise ValueError(f"{text} is not JSON")


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is beyond a double")
    return value


def parse(data, spec, name, folder="."):
    """The JSON value of data (bytes of UTF-8), checked against spec; name (the file, "FILE:LINE")
    begins the message of BadDocument. Paths in it are taken relative to folder."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadDocument(f"{name}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        value = json.loads(text, parse_constant=_not_finite, parse_float=_finite)
    except RecursionError:
        raise BadDocument(f"{name}: not JSON of the expected shape (nested too deeply)") from None
    except ValueError as e:
        raise BadDocument(f"{name}: not JSON ({e})") from None
    try:
        spec.check(value, "", folder)
    except _Fault as e:
        raise BadDocument(f"{name}: {e}") from None
    return value


def load(path, spec, folder=None):
    """The JSON document at path (its paths relative to folder, by default its own folder), checked."""
    path = pathlib.Path(path)
    return parse(path.read_bytes(), spec, str(path), path.parent if folder is None else folder)
