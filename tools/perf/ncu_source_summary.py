#!/usr/bin/env python3
"""Summarise ncu's per-instruction export (`ncu --import R.ncu-rep --page source --csv --print-source
sass > S.csv`, gzip allowed): the warp stall samples by reason, and by how often an instruction ran
per block and step, which tells apart the phases of a persistent kernel (once a step, once a chunk,
once a pair term).

    tools/perf/ncu_source_summary.py S.csv[.gz] --blocks B --steps S [--top K]
"""
import argparse
import csv
import gzip
from collections import defaultdict

SAMPLES = "Warp Stall Sampling (All Samples)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--blocks", type=int, required=True, help="blocks of the launch")
    parser.add_argument("--steps", type=int, required=True, help="steps of the launch")
    parser.add_argument("--top", type=int, default=12, help="instructions listed (default 12)")
    args = parser.parse_args()
    opener = gzip.open if args.csv.endswith(".gz") else open
    with opener(args.csv, "rt") as f:
        reader = csv.reader(f)
        next(reader)  # the kernel's name
        header = next(reader)
        rows = [r for r in reader if len(r) == len(header)]
    col = {name: i for i, name in enumerate(header)}
    reasons = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
    count = lambda r, name: int(r[col[name]] or 0)
    total = sum(count(r, SAMPLES) for r in rows)
    print(f"{total} samples over {len(rows)} instructions")
    by_reason = defaultdict(int)
    for r in rows:
        for reason in reasons:
            by_reason[reason[6:]] += count(r, reason)
    print("by reason: " + ", ".join(f"{k} {100 * v / total:.1f} %" for k, v in
                                    sorted(by_reason.items(), key=lambda kv: -kv[1])[:8]))
    per = defaultdict(lambda: [0, 0])
    for r in rows:
        runs = count(r, "Instructions Executed")
        per[runs][0] += 1
        per[runs][1] += count(r, SAMPLES)
    print("by executions per block and step (instructions, share of the samples):")
    for runs, (n, s) in sorted(per.items(), key=lambda kv: -kv[1][1])[:10]:
        print(f"  {runs / (args.blocks * args.steps):8.2f}  {n:4d} instructions  {100 * s / total:5.1f} %")
    print(f"the {args.top} instructions with the most samples (index, executions per block and step, share, "
          "two largest reasons):")
    for i in sorted(range(len(rows)), key=lambda i: -count(rows[i], SAMPLES))[:args.top]:
        r = rows[i]
        top = sorted(((count(r, reason), reason[6:]) for reason in reasons), reverse=True)[:2]
        print(f"  {i:5d} {count(r, 'Instructions Executed') / (args.blocks * args.steps):8.2f} "
              f"{100 * count(r, SAMPLES) / total:5.1f} %  {r[col['Source']].strip()[:44]:44s} "
              + ", ".join(f"{name} {n}" for n, name in top))


if __name__ == "__main__":
    main()
