#!/usr/bin/env python3
"""Issue 12's check on the default experiment, read from the report the gate has just run
(`make test`: .build/gate/metrics.csv) instead of replaying the 504 jobs a second time in a
debug unit test: at most a quarter of the guidance configurations share an identical result
vector (every metric of the run, values as written, NaN equal to NaN) with another configuration
on the same navigation session — over the sessions of Datasets/venue (the building venue) and
over every session of the run.

    check_configuration_collapse.py METRICS_CSV VENUE_FOLDER [--max-fraction 0.25]

Exit 0 when both fractions are at most the limit and every session has the same number of
configurations, 1 otherwise (one line each).
"""
import argparse
import csv
import glob
import os
import sys
from collections import defaultdict


def shared_fraction(vectors, sessions):
    jobs = shared = 0
    for s in sessions:
        counts = defaultdict(int)
        for v in vectors[s].values():
            counts[v] += 1
        jobs += len(vectors[s])
        shared += sum(c for c in counts.values() if c > 1)
    return shared, jobs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("metrics")
    ap.add_argument("venue")
    ap.add_argument("--max-fraction", type=float, default=0.25)
    a = ap.parse_args()
    rows = defaultdict(lambda: defaultdict(list))  # session → configuration → [(metric, value)]
    with open(a.metrics, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows[r["session"]][r["configuration"]].append((r["metric"], r["value"]))
    vectors = {s: {c: ";".join(f"{m}={v}" for m, v in sorted(ms)) for c, ms in cs.items()} for s, cs in rows.items()}
    problems = []
    sizes = {len(cs) for cs in vectors.values()}
    if len(sizes) != 1:
        problems.append(f"{a.metrics}: sessions have {sorted(sizes)} configurations, expected the same number (a failed job?)")
    venue = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(a.venue, "*_nav*.h5"))}
    building = sorted(s for s in vectors if s in venue)
    if not building:
        problems.append(f"{a.metrics}: no session of {a.venue} in the run")
    for label, sessions in (("building venue", building), ("every session", sorted(vectors))):
        shared, jobs = shared_fraction(vectors, sessions)
        fraction = shared / jobs if jobs else 1.0
        print(f"collapse: {label}: {shared} of {jobs} runs ({len(sessions)} sessions) share a result vector with another configuration on the same session")
        if fraction > a.max_fraction:
            problems.append(f"{a.metrics}: {label}: {shared} of {jobs} runs ({100 * fraction:.1f} %) share a result vector, at most {100 * a.max_fraction:g} % allowed")
    for p in problems:
        print(f"collapse: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
