#!/usr/bin/env python3
"""Prints `fma` when this process's libm takes glibc's FMA code paths of sin and exp (the ones
the committed byte-for-byte references were written with), `other` otherwise. The two arguments
round differently on glibc's FMA and SSE2 paths (docs/reproducibility.md, "The libm probe"); the
Swift tests ask the same question with the same arguments (`libmTakesGlibcFMAPath`,
Tests/NavTestSupport/TestSupport.swift)."""
import math

PROBES = ((math.sin, 0.7227612016480904, "0x1.52aaa0ebe1262p-1"), (math.exp, 6.751559513251458, "0x1.abb223cd583c1p+9"))
print("fma" if all(f(x).hex() == expected for f, x, expected in PROBES) else "other")
