"""sin, cos and acos of a float64, correctly rounded to float64, for fixture generators whose bytes
must not depend on the CPU: glibc picks its sin/cos/acos by CPU features (FMA or not), and those
paths differ in the last bit for some arguments (docs/reproducibility.md). Computed in Python's
decimal at 60 digits (Taylor series after reduction by 2π; acos by Newton's method on cos from libm's value), then
rounded once: float(Decimal) is correctly rounded, so every CPU writes the same bits.

Complexity: O(digits) decimal operations a call (about 35 series terms); about 20 µs.
"""

import math
from decimal import Decimal, localcontext

DIGITS = 60


def _machin_pi():
    """π = 16·atan(1/5) − 4·atan(1/239) (Machin), to DIGITS + 10 digits."""
    with localcontext() as c:
        c.prec = DIGITS + 10
        smallest = Decimal(10) ** -(c.prec + 2)

        def atan_inverse(n):
            x = Decimal(1) / n
            total, term, k = x, x, 1
            while True:
                term *= -x * x
                k += 2
                if abs(term / k) < smallest:
                    return total
                total += term / k

        return 16 * atan_inverse(5) - 4 * atan_inverse(239)


PI = _machin_pi()


def _sin_cos(x):
    """(sin x, cos x) as Decimals to DIGITS digits; x a Decimal."""
    with localcontext() as c:
        c.prec = DIGITS + 10
        r = x - (x / (2 * PI)).to_integral_value() * 2 * PI      # in [−π, π]
        r2, smallest = r * r, Decimal(10) ** -(DIGITS + 5)
        s, ts, co, tc, k = r, r, Decimal(1), Decimal(1), 0
        while abs(ts) > smallest or abs(tc) > smallest:
            k += 1
            tc = -tc * r2 / ((2 * k - 1) * (2 * k))
            ts = -ts * r2 / ((2 * k) * (2 * k + 1))
            co += tc
            s += ts
        return s, co


def sin(x):
    return float(_sin_cos(Decimal(x))[0])


def cos(x):
    return float(_sin_cos(Decimal(x))[1])


def acos(y):
    """acos of y clamped to [−1, 1]."""
    if y >= 1:
        return 0.0
    if y <= -1:
        return float(PI)
    with localcontext() as c:
        c.prec = DIGITS + 10
        target = Decimal(y)
        # Newton on cos θ = y from libm's acos (within a few ulps: the start only decides how many
        # steps; the root is the same to 60 digits whatever libm gave).
        theta = Decimal(math.acos(y))
        for _ in range(20):
            s, co = _sin_cos(theta)
            step = (co - target) / s
            theta += step
            if abs(step) <= abs(theta) * Decimal(10) ** -(DIGITS + 2):
                break
        return float(theta)
