#!/usr/bin/python3
"""Prints reference_data/checks.toml as the Markdown table of reference_data/README.md ("Tolerances"),
so the README and the rules cannot drift apart: reference_data/spread/rules_table.py > rules.md, then compare."""
import pathlib
import sys

try:
    import tomllib  # Python >= 3.11
except ImportError:  # pragma: no cover
    import tomli as tomllib

RULES = pathlib.Path(__file__).resolve().parents[1] / "checks.toml"


def selector(rule):
    parts = []
    for key in ("case", "precision", "dt", "backend_class"):
        if key in rule:
            parts.append(", ".join(str(v).replace("hi=", "").replace(",int=", "/") for v in rule[key]))
    return "; ".join(parts) or "all others"


def tolerance(rule):
    kind = rule["kind"]
    if kind == "exact":
        text = "exact"
    elif kind == "expected_failure_window":
        text = f"fails in [{rule['window'][0]:g}, {rule['window'][1]:g}]"
    elif kind == "not_before":
        text = f"never or >= {rule['tolerance']:g}"
    elif kind == "band":
        text = f"factor {rule['tolerance']:g}"
    elif kind == "ci_overlap":
        text = "95% CIs overlap" + (f" + {rule['tolerance']:g}" if rule["tolerance"] else "")
    else:
        text = f"{kind} {rule['tolerance']:g}"
    extras = []
    if "until" in rule:
        extras.append(f"windows by {rule['until']:g}")
    if rule.get("before_loss"):
        extras.append("before the loss")
    if "against" in rule:
        extras.append(f"vs {rule['against']}")
    return text + (f" ({', '.join(extras)})" if extras else "")


def main():
    rules = tomllib.loads(RULES.read_text())["rule"]
    print("| scenario | observable | applies to | tolerance | measured |")
    print("|---|---|---|---|---|")
    for r in rules:
        measured = r.get("measured_spread", "").replace("|", "/").replace("\n", " ")
        print(f"| {r['scenario']} | `{r['observable']}` | {selector(r)} | {tolerance(r)} | {measured} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
