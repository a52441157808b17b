"""The negative control's verdict (ci/nightly --negative-control; reference_data/suites/
negative_control.toml): every run noted "NEGATIVE CONTROL" must fail a check (the perturbation was
caught), every other run none (the unperturbed control accepted). A run whose reference did not
apply (check.json's reference_mismatch: another run length) or that did not complete (its suite
summary's state) was not checked: its failures caught nothing, and the verdict cannot pass; nor can
a check of no run.

One rule for both of its readers: ci/nightly runs this file as a script (it needs Python's json
alone, not the renderer's packages): `negative_control.py CHECK_JSON [SUITE_SUMMARY_JSON]` prints the
lines of verdict.txt and exits 0 (pass) or 1; the nightly report puts the verdict in its headline."""
import json
import sys

PASS = "PASS (every perturbation caught, the control accepted)"


def _plural(count, word):
    return f"{count} {word}{'' if count == 1 else 's'}"


def verdict(check, suite=None):
    """{"passed", "lines" (verdict.txt, the verdict line last), "summary" (one line for a headline)}
    of a negative control's check.json (and its suite-summary.json, where there is one)."""
    lines, rejected, accepted, wrong = [], 0, 0, []
    for run in (suite or {}).get("runs", []):
        if run.get("state", "completed") != "completed":
            lines.append(f"NOT CHECKED   {run['name']}: the run did not complete ({run.get('state')})")
            wrong.append(f"NOT CHECKED: {run['name']}")
    for run in check.get("runs", []):
        failed = [c["observable"] for c in run.get("checks", []) if c.get("verdict") == "fail"]
        perturbed = run.get("note", "").startswith("NEGATIVE CONTROL")
        if run.get("reference_mismatch"):
            lines.append(f"NOT CHECKED   {run['run']}: {run['reference_mismatch']}")
            wrong.append(f"NOT CHECKED: {run['run']}")
        elif perturbed and not failed:
            lines.append(f"NOT REJECTED  {run['run']}: {run['note']}")
            wrong.append(f"NOT REJECTED: {run['run']}")
        elif perturbed:
            lines.append(f"rejected      {run['run']}: {run['note']}\n              failing: {', '.join(failed)}")
            rejected += 1
        elif failed:
            lines.append(f"FALSE ALARM   {run['run']} (unperturbed): {', '.join(failed)}")
            wrong.append(f"FALSE ALARM: {run['run']}")
        else:
            lines.append(f"accepted      {run['run']} (unperturbed control)")
            accepted += 1
    if not check.get("runs"):
        wrong.append("no run checked")
    passed = not wrong
    lines.append("negative control: " + (PASS if passed else "FAIL"))
    summary = (f"{_plural(rejected, 'perturbed run')} rejected, {_plural(accepted, 'unperturbed control')} accepted"
               if passed else "; ".join(wrong))
    return dict(passed=passed, lines=lines, summary=summary)


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: negative_control.py CHECK_JSON [SUITE_SUMMARY_JSON]", file=sys.stderr)
        return 2
    try:
        documents = [json.load(open(path, encoding="utf-8")) for path in argv[1:]]
        v = verdict(*documents)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        print(f"negative_control.py: {e}", file=sys.stderr)
        return 2
    print("\n".join(v["lines"]))
    return 0 if v["passed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
