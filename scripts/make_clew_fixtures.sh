#!/usr/bin/env bash
# Regenerates the Clew route fixtures (Tests/NavImportTests/Fixtures/import/clew/*.crd) with
# Foundation's NSKeyedArchiver. The template is run under three file names so the archived
# class names carry Clew's module prefixes (Clew., Clew_Dev., Clew_More.).
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/NavImportTests/Fixtures/import/clew
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for module in Clew Clew_Dev Clew_More; do cp scripts/clew-fixtures/ClewArchive.swift.in "$work/$module.swift"; done
export SWIFT_DETERMINISTIC_HASHING=1   # dictionary key order, hence the archive's bytes, stable
swift "$work/Clew.swift" "$out/route.crd" route
swift "$work/Clew_Dev.swift" "$out/route_old_anchor_key.crd" old-anchor-key
swift "$work/Clew_More.swift" "$out/route_no_anchors.crd" no-anchors
swift "$work/Clew.swift" "$out/bad_short_transform.crd" short-transform
swift "$work/Clew.swift" "$out/bad_wrong_root.crd" wrong-root
swift "$work/Clew.swift" "$out/bad_no_crumbs.crd" no-crumbs
swift "$work/Clew.swift" "$out/bad_not_rigid.crd" not-rigid
ls -l "$out"
