#!/usr/bin/env bash
# Installs what navbench needs and is missing: Debian packages (HDF5, FFTW, pkg-config)
# and, with --python, the pip packages the interop checks use. Idempotent; quiet when
# everything is already there.
set -euo pipefail
need=()
for pkg in libhdf5-dev libfftw3-dev zlib1g-dev pkg-config; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ "${1:-}" = "--python" ]; then
  PY=${PYTHON:-python3}
  missing=()
  "$PY" -c "import numpy" 2>/dev/null || missing+=("numpy")
  "$PY" -c "import h5py" 2>/dev/null || missing+=("h5py")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing pip packages: ${missing[*]}"
    "$PY" -m pip install -q --disable-pip-version-check "${missing[@]}"
  fi
fi
