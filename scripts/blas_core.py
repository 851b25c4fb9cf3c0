#!/usr/bin/env python3
"""Runs numpy's and scipy's OpenBLAS once (a matrix product and an SVD) under this process's
OPENBLAS_CORETYPE and prints the kernel each library took (`openblas_get_corename`), e.g.
`numpy SkylakeX, scipy SkylakeX`. A kernel this CPU cannot run ends the process with an
illegal instruction before it prints: scripts/check_fixtures.sh asks this before it forces
a kernel, and names the kernels in its failure lines."""
import ctypes

import numpy as np
import scipy.linalg

a = np.arange(1.0, 65.0).reshape(8, 8) % 7
(a @ a.T).sum()
scipy.linalg.svd(a)
cores = []
for path in sorted({line.split()[-1] for line in open("/proc/self/maps") if "openblas" in line.lower() and ".so" in line}):
    lib = ctypes.CDLL(path)
    for name in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename64_", "openblas_get_corename"):
        f = getattr(lib, name, None)
        if f is not None:
            f.restype = ctypes.c_char_p
            # numpy's wheels carry the 64-bit-integer build, scipy's the 32-bit one.
            cores.append(("numpy" if "openblas64" in path else "scipy") + " " + f().decode())
            break
print(", ".join(cores) or "no OpenBLAS found")
