#!/bin/sh
# An exec: test plugin: 2 MB of log on stderr (more than navbench's 1 MiB of stderr), then
# its input back unchanged; with an argument, it fails after the log instead.
head -c 2000000 /dev/zero | tr '\0' 'x' >&2
echo >&2
echo "chatty.sh: last words" >&2
if [ -n "$1" ]; then exit 4; fi
cat
