"""The float fast paths of the common checks decide exactly what the rational checks decide:
for every float (NaN, ±inf, subnormals, the ends of each interval) the value is accepted and
returned unchanged exactly when its rational value lies in the domain, else the same error."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dpspec.validation.checks import (
    LIMITS,
    MAX_EPSILON,
    as_finite_array,
    bounded_int_array,
    check_delta,
    check_epsilon,
    check_positive,
)
from dpspec.validation.domains import Integer, Real

FLOATS = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)
ENDS = (0.0, -0.0, 5e-324, 1.0, math.nextafter(1.0, 0.0), 700.0, math.nextafter(700.0, 800.0))


def _in(x: float, lo: Fraction | None, hi: Fraction | None, lo_open: bool, hi_open: bool) -> bool:
    if not math.isfinite(x):
        return False
    v = Fraction(x)
    above = lo is None or (v > lo if lo_open else v >= lo)
    below = hi is None or (v < hi if hi_open else v <= hi)
    return above and below


def _outcome(f: object, *args: object) -> object:
    try:
        return ("value", f(*args))  # type: ignore[operator]
    except (ValueError, TypeError) as exc:
        return ("refused", type(exc).__name__)


@given(FLOATS)
@example(math.nan)
@example(math.inf)
def test_epsilon(x: float) -> None:
    for end in ENDS:
        for v in (x, end):
            got = _outcome(check_epsilon, v, "epsilon")
            if _in(v, Fraction(0), Fraction(MAX_EPSILON), True, False):
                assert got == ("value", v) and type(got[1]) is float  # type: ignore[index]
            else:
                assert got[0] == "refused"  # type: ignore[index]


@given(FLOATS, st.sampled_from([None, 1.0, 0.5, 1e300]))
def test_positive(x: float, maximum: float | None) -> None:
    got = _outcome(check_positive, x, "x", maximum)
    top = Fraction(maximum) if maximum is not None else Fraction(1.7976931348623157e308)
    if _in(x, Fraction(0), top, True, False):
        assert got == ("value", x)
    else:
        assert got[0] == "refused"  # type: ignore[index]


@given(FLOATS, st.booleans())
@example(0.0, True)
@example(0.0, False)
@example(math.nextafter(1.0, 0.0), True)
def test_delta(x: float, allow_zero: bool) -> None:
    got = _outcome(check_delta, x, "delta", allow_zero)
    if _in(x, Fraction(0), Fraction(1), not allow_zero, True):
        assert got == ("value", x)
    else:
        assert got[0] == "refused"  # type: ignore[index]


@pytest.mark.parametrize(
    "domain",
    [Real(), Real(0.0, 1.0), Real(0.0, 1.0, lo_open=True, hi_open=True), Real(-2, 3, hi_open=True)],
)
@given(x=FLOATS)
def test_real(domain: Real, x: float) -> None:
    lo = Fraction(domain.lo) if math.isfinite(domain.lo) else None
    hi = Fraction(domain.hi) if math.isfinite(domain.hi) else None
    got = _outcome(domain.check, x, "x")
    if _in(x, lo, hi, domain.lo_open, domain.hi_open):
        assert got == ("value", x)
    else:
        assert got[0] == "refused"  # type: ignore[index]


@given(st.integers(-(2**1100), 2**1100), st.sampled_from([None, 1.0, 3.5, 1e300]))
@example(700, None)
@example(701, None)
@example(0, None)
@example(2**1024, None)
def test_integers(n: int, maximum: float | None) -> None:
    """ints: the same answer as their rational value (a huge one refused, not overflowed)."""
    eps = _outcome(check_epsilon, n, "epsilon")
    if 0 < n <= MAX_EPSILON:
        assert eps == ("value", float(n))
    else:
        assert eps[0] == "refused"  # type: ignore[index]
    pos = _outcome(check_positive, n, "x", maximum)
    top = Fraction(maximum) if maximum is not None else Fraction(1.7976931348623157e308)
    if 0 < n <= top:
        assert pos == ("value", float(Fraction(n)))
    else:
        assert pos[0] == "refused"  # type: ignore[index]


# --- dtype kinds and integer domains -----------------------------------------------------------

_DTYPES = [*np.typecodes["All"], "m8[s]", "M8[s]", "U3", "S3", "V4", "O"]


@pytest.mark.parametrize("code", _DTYPES)
def test_array_kinds(code: str) -> None:
    """``as_finite_array`` accepts the dtypes ``np.issubdtype`` places under real numbers or
    bool, and ``bounded_int_array`` those under signed or unsigned integers; timedelta64
    (which numpy counts as an integer) is refused by both with an error naming the parameter,
    and object arrays are read element by element."""
    dtype = np.dtype(code)
    timedelta = dtype.kind == "m"
    real = (np.issubdtype(dtype, np.number) or np.issubdtype(dtype, np.bool_)) and not (
        np.issubdtype(dtype, np.complexfloating) or timedelta
    )
    values = np.zeros(2, dtype=dtype)
    got = _outcome(as_finite_array, values, "x")
    assert (got[0] == "value") == (real or dtype.kind == "O"), got  # type: ignore[index]
    ints = _outcome(bounded_int_array, values, "x")
    integer = np.issubdtype(dtype, np.integer) and not timedelta
    assert (ints[0] == "value") == (integer or dtype.kind == "O"), ints  # type: ignore[index]
    if timedelta:
        for check in (as_finite_array, bounded_int_array):
            with pytest.raises(ValueError, match="x: expected"):
                check(values, "x")


def test_nonfinite_floats_are_refused_in_every_float_dtype() -> None:
    for code in np.typecodes["Float"]:
        for bad in ([0.0, np.nan], [np.inf], [-np.inf]):
            with pytest.raises(ValueError, match="x: contains NaN or infinite values"):
                as_finite_array(np.array(bad, dtype=code), "x")


@given(st.integers(-(2**70), 2**70), st.sampled_from(["int", "int64", "bool", "float"]))
def test_integer_domain(value: int, kind: str) -> None:
    """The ``int`` fast path of ``Integer.convert`` gives what the general path gives: the same
    int for an integer in [lo, top] (``top``: ``hi`` or the ``LIMITS`` entry, the smaller),
    else the same refusal."""
    domain = Integer(-5, hi=2**40, limit="draws")
    assert domain.top == min(2**40, LIMITS["draws"])
    given_value: object = value
    if kind == "int64":
        if abs(value) >= 2**63:
            return
        given_value = np.int64(value)
    elif kind == "bool":
        given_value = bool(value % 2)
    elif kind == "float":
        given_value = float(value)
    inside = kind in ("int", "int64") and -5 <= value <= LIMITS["draws"]
    if inside:
        got = domain.check(given_value, "n")
        assert got == value and type(got) is int
    else:
        with pytest.raises((ValueError, TypeError), match="n: "):
            domain.check(given_value, "n")
    assert Integer(0).top is None and Integer(0, hi=7).top == 7
