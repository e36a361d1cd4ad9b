"""CrossHair layer of seed 002 ch. 4: the order of the weighted quantiles of L693–703
(``002_9f3104e4a0d86722.txt:L693-L703``) and the median's Lipschitz property (L1001).

Three values with small integer weights (the definitions only compare weight shares, so
integer weights lose nothing; three values already exercise ties and every order). The values
are taken sorted (w.l.o.g., see each lemma) and range over [VALUE_MIN, VALUE_MAX] = [−2, 2]
(five values: every order pattern of three values, with ties): the domains are finite, so the
registry settles them by exhaustive enumeration of these very contracts (``@over``,
:mod:`dpspec.proofs.engine.finite`); ``dpspec prove`` can still run CrossHair on them.
"""

from __future__ import annotations

from fractions import Fraction

from dpspec.proofs.engine.finite import over
from dpspec.spec.compression import quantile_minus, quantile_plus, weighted_median

#: The range of the lemmas' values (their preconditions).
VALUE_MIN = -2
VALUE_MAX = 2
_VALUES = range(VALUE_MIN, VALUE_MAX + 1)
_WEIGHTS = range(4)


@over(a=_VALUES, b=_VALUES, c=_VALUES, wa=_WEIGHTS, wb=_WEIGHTS, wc=_WEIGHTS, g_num=range(4))
def quantile_lower_order(
    a: int, b: int, c: int, wa: int, wb: int, wc: int, g_num: int
) -> tuple[int, int]:
    """(Q⁻_γ, Median) with γ = g_num/8 ∈ [0, ½): Q⁻_γ ≤ Median, both among the values.

    (γ enters as the Fraction g_num/8; the spec compares weight shares by cross-multiplying, so
    no Fraction arithmetic happens on the symbolic weights.) The values are sorted w.l.o.g.:
    the quantiles depend on the (value, weight) pairs as a multiset, so permuting the pairs
    changes nothing; ties stay possible.

    pre: 0 <= wa <= 3 and 0 <= wb <= 3 and 0 <= wc <= 3
    pre: wa + wb + wc > 0
    pre: 0 <= g_num <= 3
    pre: VALUE_MIN <= a <= b <= c <= VALUE_MAX
    post: __return__[0] <= __return__[1]
    post: all(v in (a, b, c) for v in __return__)
    """
    values, weights, gamma = (a, b, c), (wa, wb, wc), Fraction(g_num, 8)
    return quantile_minus(values, weights, gamma), weighted_median(values, weights)


@over(a=_VALUES, b=_VALUES, c=_VALUES, wa=_WEIGHTS, wb=_WEIGHTS, wc=_WEIGHTS, g_num=range(4))
def quantile_upper_order(
    a: int, b: int, c: int, wa: int, wb: int, wc: int, g_num: int
) -> tuple[int, int]:
    """(Median, Q⁺_γ) with γ = g_num/8 ∈ [0, ½): Median ≤ Q⁺_γ, both among the values
    (sorted values w.l.o.g., as in :func:`quantile_lower_order`). Together:
    Q⁻_γ ≤ Median ≤ Q⁺_γ.

    pre: 0 <= wa <= 3 and 0 <= wb <= 3 and 0 <= wc <= 3
    pre: wa + wb + wc > 0
    pre: 0 <= g_num <= 3
    pre: VALUE_MIN <= a <= b <= c <= VALUE_MAX
    post: __return__[0] <= __return__[1]
    post: all(v in (a, b, c) for v in __return__)
    """
    values, weights, gamma = (a, b, c), (wa, wb, wc), Fraction(g_num, 8)
    return weighted_median(values, weights), quantile_plus(values, weights, gamma)


def _median3(a: int, b: int, c: int) -> int:
    return int(weighted_median((a, b, c), (1, 1, 1)))


@over(a=_VALUES, b=_VALUES, c=_VALUES, d=_VALUES, e=_VALUES, f=_VALUES)
def median_lipschitz_d_mid(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    """The unweighted median of three values is 1-Lipschitz in the sup norm
    (``002_9f3104e4a0d86722.txt:L1001``): |Med(a, b, c) − Med(d, e, f)| ≤
    max(|a − d|, |b − e|, |c − f|) — here in the case where d lies between e and f.

    (a, b, c) is sorted w.l.o.g.: permuting the pairs (a, d), (b, e), (c, f) together changes
    neither median nor the maximum. The statement is split by which of d, e, f lies between the
    other two (:data:`MEDIAN_LIPSCHITZ_CASES`): the three cases cover every input, and each
    case is a part of the path search.

    pre: VALUE_MIN <= a <= b <= c <= VALUE_MAX
    pre: VALUE_MIN <= min(d, e, f) and max(d, e, f) <= VALUE_MAX
    pre: min(e, f) <= d <= max(e, f)
    post: __return__ <= max(abs(a - d), abs(b - e), abs(c - f))
    """
    return abs(_median3(a, b, c) - _median3(d, e, f))


@over(a=_VALUES, b=_VALUES, c=_VALUES, d=_VALUES, e=_VALUES, f=_VALUES)
def median_lipschitz_e_mid(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    """Median 1-Lipschitz (:func:`median_lipschitz_d_mid`), case e between d and f.

    pre: VALUE_MIN <= a <= b <= c <= VALUE_MAX
    pre: VALUE_MIN <= min(d, e, f) and max(d, e, f) <= VALUE_MAX
    pre: min(d, f) <= e <= max(d, f)
    post: __return__ <= max(abs(a - d), abs(b - e), abs(c - f))
    """
    return abs(_median3(a, b, c) - _median3(d, e, f))


@over(a=_VALUES, b=_VALUES, c=_VALUES, d=_VALUES, e=_VALUES, f=_VALUES)
def median_lipschitz_f_mid(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    """Median 1-Lipschitz (:func:`median_lipschitz_d_mid`), case f between d and e.

    pre: VALUE_MIN <= a <= b <= c <= VALUE_MAX
    pre: VALUE_MIN <= min(d, e, f) and max(d, e, f) <= VALUE_MAX
    pre: min(d, e) <= f <= max(d, e)
    post: __return__ <= max(abs(a - d), abs(b - e), abs(c - f))
    """
    return abs(_median3(a, b, c) - _median3(d, e, f))


#: The three cases of the median's Lipschitz property (together: every input).
MEDIAN_LIPSCHITZ_CASES: tuple[str, ...] = (
    "median_lipschitz_d_mid",
    "median_lipschitz_e_mid",
    "median_lipschitz_f_mid",
)
