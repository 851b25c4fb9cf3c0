#!/usr/bin/env python3
"""Moving-median filter: a navbench `exec:` filter plugin (docs/extending.md, "Plugins").

    navbench filter data.csv --column rssi --time-column t --spec "exec:.venv/bin/python examples/plugins/median.py --window 5" --out out.csv
    sweep: {position_filter: ["exec:.venv/bin/python examples/plugins/median.py --window 5"]}

Protocol: CSV on stdin with a header, `t,value` (a scalar signal) or `t,x,y,z` (a vector signal,
each axis filtered on its own); the same header and one row per input row on stdout, t unchanged.
The median of the last `--window` samples (causal: what a phone could compute as it walks; the
first samples use the ones there are). Errors: a message on stderr and a non-zero exit status.
"""
import argparse
import sys

import numpy as np


def moving_median(x: np.ndarray, window: int) -> np.ndarray:
    """Median of x[max(0, i - window + 1) .. i] for every i (causal)."""
    out = np.empty_like(x)
    for i in range(min(window - 1, len(x))):
        out[i] = np.median(x[: i + 1])
    if len(x) >= window:
        out[window - 1:] = np.median(np.lib.stride_tricks.sliding_window_view(x, window), axis=1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=int, default=5, help="samples in the window (>= 1)")
    args = parser.parse_args()
    if args.window < 1:
        print(f"median.py: --window {args.window}: expected an integer >= 1", file=sys.stderr)
        return 2
    header = sys.stdin.readline().strip()
    columns = header.split(",")
    if columns not in (["t", "value"], ["t", "x", "y", "z"]):
        print(f"median.py: header '{header}': expected t,value or t,x,y,z", file=sys.stderr)
        return 2
    data = np.loadtxt(sys.stdin, delimiter=",", ndmin=2)
    if data.size == 0:
        data = np.empty((0, len(columns)))
    out = data.copy()
    for c in range(1, len(columns)):
        out[:, c] = moving_median(data[:, c], args.window)
    sys.stdout.write(header + "\n")
    np.savetxt(sys.stdout, out, delimiter=",", fmt="%.17g")
    return 0


if __name__ == "__main__":
    sys.exit(main())
