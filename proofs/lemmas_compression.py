"""CrossHair layer of seed 002 ch. 4: the order of the weighted quantiles of L693–703.

Three values with small integer weights (the definitions only compare weight shares, so
integer weights lose nothing; three values already exercise ties and every order).
"""

from __future__ import annotations

from fractions import Fraction

from dpspec.spec.compression import quantile_minus, quantile_plus, weighted_median


def quantile_order(
    a: int, b: int, c: int, wa: int, wb: int, wc: int, g_num: int
) -> tuple[int, int, int]:
    """(Q⁻_γ, Median, Q⁺_γ) with γ = g_num/8 ∈ [0, ½): Q⁻_γ ≤ Median ≤ Q⁺_γ, all three are
    among the values. (γ enters as the Fraction g_num/8; the spec compares weight shares by
    cross-multiplying, so no Fraction arithmetic happens on the symbolic weights.)

    pre: 0 <= wa <= 3 and 0 <= wb <= 3 and 0 <= wc <= 3
    pre: wa + wb + wc > 0
    pre: 0 <= g_num <= 3
    pre: -4 <= a <= 4 and -4 <= b <= 4 and -4 <= c <= 4
    post: __return__[0] <= __return__[1] <= __return__[2]
    post: all(v in (a, b, c) for v in __return__)
    """
    values, weights, gamma = (a, b, c), (wa, wb, wc), Fraction(g_num, 8)
    return (
        quantile_minus(values, weights, gamma),
        weighted_median(values, weights),
        quantile_plus(values, weights, gamma),
    )


def median_lipschitz(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    """The unweighted median of three values is 1-Lipschitz in the sup norm:
    |Med(a, b, c) − Med(d, e, f)| ≤ max(|a − d|, |b − e|, |c − f|).

    pre: -4 <= a <= 4 and -4 <= b <= 4 and -4 <= c <= 4
    pre: -4 <= d <= 4 and -4 <= e <= 4 and -4 <= f <= 4
    post: __return__ <= max(abs(a - d), abs(b - e), abs(c - f))
    """
    return int(abs(weighted_median((a, b, c), (1, 1, 1)) - weighted_median((d, e, f), (1, 1, 1))))
