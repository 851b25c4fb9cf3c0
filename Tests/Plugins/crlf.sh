#!/bin/sh
# An exec: test plugin: echoes its input back with CRLF line ends (as Windows tools write).
while IFS= read -r line; do printf '%s\r\n' "$line"; done
