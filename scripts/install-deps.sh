#!/usr/bin/env bash
# Installs what navbench needs and is missing: Debian packages (HDF5, FFTW, OpenSSL's libcrypto (SHA-256), bzip2, LZ4, libxml2 (FoundationXML reads WeAllWalk's XML),
# Zstandard, SQLite and its sqlite3 tool, pkg-config, python3-venv) and, with --python [REQUIREMENTS…], the pinned pip packages of
# scripts/requirements.txt (or the files given) into the project venv .venv (VENV=… to move
# it), never into the system Python. With --browser first, Debian's chromium (the page check drives it headless;
# no browser is ever downloaded) and rsvg-convert (librsvg2-bin: `navbench plot --out *.png`) as well. Idempotent; quiet when everything is already there.
set -euo pipefail
need=()
packages="libhdf5-dev libfftw3-dev zlib1g-dev libssl-dev libbz2-dev liblz4-dev libzstd-dev libsqlite3-dev sqlite3 pkg-config python3-venv libxml2"
if [ "${1:-}" = "--browser" ]; then
  shift
  packages="$packages chromium fonts-dejavu-core librsvg2-bin"
fi
for pkg in $packages; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ "${1:-}" = "--python" ]; then
  shift
  cd "$(dirname "$0")/.."
  VENV=${VENV:-.venv}
  [ -x "$VENV/bin/python" ] || { echo "creating the project venv $VENV"; python3 -m venv "$VENV"; }
  [ $# -gt 0 ] || set -- scripts/requirements.txt
  # Reinstall only when the pins changed (a stamp per requirements file holds its checksum). The
  # stale files go to one pip run (one resolution), without byte-compiling every installed module
  # (--no-compile: Python compiles what a check imports, when it first imports it, and keeps it;
  # the Makefile unexports PYTHONDONTWRITEBYTECODE so that it can): 37 s of CPU instead of 79 s
  # for the three files of make test, beside the build (docs/ci.md).
  stale=() names=() stamps=()
  for req in "$@"; do
    stamp="$VENV/.installed-$(basename "$req").sha256"
    sum=$(cat "$req" "$(dirname "$req")"/requirements.txt | sha256sum | cut -d' ' -f1)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then stale+=(-r "$req"); names+=("$req"); stamps+=("$stamp:$sum"); fi
  done
  if [ ${#stale[@]} -gt 0 ]; then
    echo "installing pip packages of ${names[*]} into $VENV"
    "$VENV/bin/python" -m pip install -q --no-compile --disable-pip-version-check "${stale[@]}"
    for s in "${stamps[@]}"; do echo "${s##*:}" > "${s%:*}"; done
  fi
fi
