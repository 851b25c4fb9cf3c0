#!/bin/sh
# Checks the library documentation against the example package that uses navbench as a
# dependency (docs/library.md, examples/library-user/), then builds and runs that package:
#
#  1. every `<!-- file: PATH -->` line of docs/library.md is followed by a fenced code block
#     whose text is the file PATH byte for byte, and every .swift file under
#     examples/library-user/Sources is shown by such a block (stops here on a mismatch);
#  2. builds the example package in the main scratch path .build with the project's build flags
#     (make print-build-flags), so navbench's modules, already built by `make build`, are reused
#     rather than compiled a second time (seconds, not minutes), and runs each program on the
#     bundled Datasets/; a program that exits non-zero fails the check.
#
# Ends with one line 'library-example: N passed, N failed'. Run from anywhere; SWIFT names the
# swift binary (default: swift on PATH), BUILD_FLAGS the build flags (default: the Makefile's).
set -eu
cd "$(dirname "$0")/.."
DOC=docs/library.md
PKG=examples/library-user
SCRATCH=.build
SWIFT=${SWIFT:-swift}
BUILD_FLAGS=${BUILD_FLAGS:-$(make -s print-build-flags)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The programs and their arguments (paths from the repository root), one a line.
RUNS='InMemoryAPE
FilterSignal
ReadTrace Datasets/R3-stairs_nav1.h5
GuidanceReplay Datasets/R3-stairs_recording.h5 Datasets/R3-stairs_nav1.h5
ClosedLoopWalk Datasets/venue/B1-offices_recording.h5'

# 1. Code blocks: write each block to $T/LINE.block and list "LINE PATH" in $T/blocks.
awk -v dir="$T" -v doc="$DOC" '
    function bad(msg) { print doc ":" NR ": " msg > "/dev/stderr"; failed = 1; exit 1 }
    state == 1 { if ($0 !~ /^```/) bad("<!-- file: " path " --> is not followed by a code fence"); state = 2; next }
    state == 2 && $0 == "```" { close(dir "/" start ".block"); state = 0; next }
    state == 2 { printf "%s\n", $0 > (dir "/" start ".block"); next }
    /^<!-- file: .* -->$/ {
        path = $0; sub(/^<!-- file: /, "", path); sub(/ -->$/, "", path)
        start = NR; state = 1; printf "" > (dir "/" start ".block")
        print start " " path > (dir "/blocks"); next
    }
    END { if (!failed && state != 0) bad("the code block of " path " (line " start ") is not closed") }
' "$DOC"
: >> "$T/blocks"
problems=0
while read -r line path; do
    if [ ! -f "$path" ]; then
        echo "$DOC:$line: $path: no such file" >&2; problems=$((problems + 1))
    elif ! cmp -s "$T/$line.block" "$path"; then
        echo "$DOC:$line: the code block differs from $path (paste the file whole between the fences)" >&2; problems=$((problems + 1))
    fi
done < "$T/blocks"
cut -d' ' -f2- "$T/blocks" > "$T/shown"
for f in $(find "$PKG/Sources" -name '*.swift' | sort); do
    if ! grep -Fqx "$f" "$T/shown"; then
        echo "$DOC: $f is not shown (add a '<!-- file: $f -->' line and the file in a code block)" >&2; problems=$((problems + 1))
    fi
done
for d in $(find "$PKG/Sources" -mindepth 1 -maxdepth 1 -type d | sort); do
    name=${d##*/}
    if ! printf '%s\n' "$RUNS" | cut -d' ' -f1 | grep -Fqx "$name"; then
        echo "$0: $d is never run (add it to RUNS)" >&2; problems=$((problems + 1))
    fi
done
if [ "$problems" -gt 0 ]; then
    echo "library-example: FAILED: $problems problem(s) in $DOC (above); nothing built" >&2
    exit 1
fi
echo "$DOC: $(wc -l < "$T/blocks" | tr -d ' ') file blocks match their files"

# 2. Build, then run each program.
# shellcheck disable=SC2086
if ! "$SWIFT" build --package-path "$PKG" --scratch-path "$SCRATCH" $BUILD_FLAGS > "$T/build.log" 2>&1; then
    tail -n 40 "$T/build.log" >&2
    echo "library-example: FAILED: swift build --package-path $PKG (last lines above)" >&2
    exit 1
fi
BIN=$("$SWIFT" build --package-path "$PKG" --scratch-path "$SCRATCH" $BUILD_FLAGS --show-bin-path)
passed=0 failed=0
printf '%s\n' "$RUNS" > "$T/runs"
while read -r name args; do
    echo "== $name${args:+ $args}"
    # $args is split on purpose: the arguments are paths without spaces.
    # shellcheck disable=SC2086
    if "$BIN/$name" $args < /dev/null; then
        passed=$((passed + 1))
    else
        status=$?
        echo "library-example: $name $args exited $status" >&2
        failed=$((failed + 1))
    fi
done < "$T/runs"
echo "library-example: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
