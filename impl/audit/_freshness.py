"""Does the target draw fresh randomness from the Generator the audit hands it?

A target that ignores that Generator — a fixed internal seed,
``np.sum(d) + np.random.default_rng(0).laplace(0, 2, n)`` — releases a deterministic function of
the data: on a pair whose releases differ it is not private at any ε, yet its draws look like
the right law on each side, so the event bounds alone pass it. The probe calls the target
``PROBE`` times on each side with two independent Generators and compares the releases row by
row.

**The test.** When both calls on a side release the same ``PROBE`` rows, on both sides, and
on at least one side the rows of a call repeat rarely (the fraction of equal pairs of rows,
an unbiased estimate of c = Σ_x P(x)², is at most ``MAX_COLLISION``), the target is *not
fresh*. A target
with fresh draws gives two equal calls on a side with probability c^PROBE: at most
2^-64 ≈ 5.4·10⁻²⁰ when c ≤ 1/2 (a fair coin), 0.7^64 ≈ 1.2·10⁻¹⁰ when c ≤ 0.7; a target whose
rows repeat more often must also show ĉ ≤ 1/2 in its 64 rows (for a coin with c = 0.7, a
deviation of 6.7 standard deviations). The probe does not judge a target whose rows repeat
more often than that within a call (a near-constant release, audited by its events alone).
Not fresh and the two sides' releases differ: the release is a deterministic function of the
data that tells D from D' — a violation at ε = ∞.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from dpspec.audit._targets import Mechanism, _draw

#: releases per call of the probe (four calls in all: two Generators on each side)
PROBE = 64
#: the probe judges only targets whose rows repeat at most this often within a call
MAX_COLLISION = 0.5


@dataclass(frozen=True)
class Freshness:
    """What the probe found: ``fresh`` True (the calls differ), False (two Generators gave
    the same releases), None (not judged: outputs that are not numeric arrays, or rows that
    repeat too often); ``deterministic``: not fresh, and D's releases differ from D''s."""

    __dpspec_declarative__ = "what the freshness probe found (a record)"

    fresh: bool | None
    deterministic: bool
    detail: str


def _rows(out: Any) -> list[bytes] | None:
    """The releases of one call as comparable rows (None: not a numeric array)."""
    if not isinstance(out, np.ndarray) or out.dtype.kind not in "biufc" or len(out) != PROBE:
        return None
    flat = np.ascontiguousarray(out).reshape(PROBE, -1)
    return [row.tobytes() for row in flat]


def _collisions(rows: list[bytes]) -> float:
    """The fraction of pairs of rows that are equal (an unbiased estimate of Σ P(x)²)."""
    counts: dict[bytes, int] = {}
    for r in rows:
        counts[r] = counts.get(r, 0) + 1
    pairs = sum(k * (k - 1) // 2 for k in counts.values())
    return pairs / (PROBE * (PROBE - 1) // 2)


def probe(mechanism: Mechanism, pair: tuple[Any, Any], root: int) -> Freshness:
    """The probe on ``pair``, its Generators seeded from ``root`` (independent of every
    selection and estimation draw)."""
    sides = []
    for side, data in enumerate(pair):
        calls = [
            _rows(_draw(mechanism, data, PROBE, np.random.default_rng([root, 11, side, k])))
            for k in (0, 1)
        ]
        first, second = calls
        if first is None or second is None:
            return Freshness(None, False, "not probed: the releases are not numeric arrays")
        sides.append((first, first == second, _collisions(first) <= MAX_COLLISION))
    if not any(judged for _, _, judged in sides):
        return Freshness(None, False, "not probed: the releases repeat too often within a call")
    if not all(same for _, same, _ in sides):
        return Freshness(True, False, "fresh: two Generators gave different releases")
    differ = sides[0][0] != sides[1][0]
    detail = (
        f"the target ignores the Generator it is given: two Generators gave the same {PROBE} "
        "releases on each side (a fixed internal seed?), so the release is a deterministic "
        "function of the data"
        + (" that differs between D and D' (epsilon = inf)" if differ else "")
    )
    return Freshness(False, differ, detail)
