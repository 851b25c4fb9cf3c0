"""The ending every structural check of scripts/ shares (check_layers.py, check_file_loops.py):
one line per problem on standard error, then a count; or one summary line on standard output.
Standard library only."""
import sys


def finish(prefix, problems, ok, hint=""):
    """Prints the problems (exit status 1) or `ok` (exit status 0); returns the status."""
    for p in problems:
        print(f"{prefix}: {p}", file=sys.stderr)
    if problems:
        print(f"{prefix}: {len(problems)} problem(s){hint}", file=sys.stderr)
        return 1
    print(f"{prefix}: {ok}")
    return 0
