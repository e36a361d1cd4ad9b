"""The candidate pairs of the pair searches: StatDP's input patterns, neighbouring query
vectors as a Hypothesis strategy, and the Hypothesis settings every search runs under.

* :func:`statdp_patterns` — the query-vector patterns of StatDP (Ding et al., CCS 2018): one
  query above / below, one above and the rest below, half–half, all above / below, X-shape.
* :func:`query_vector_pairs` — neighbouring query vectors for a Hypothesis search.
* :func:`targeted_search` — the settings of a search steered by ``hypothesis.target``.

Nothing here draws from a mechanism: the searches that screen these candidates are
:mod:`dpspec.audit.pair_search` and :func:`dpspec.audit._search.hypothesis_search`.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from dpspec.validation import check_count

#: largest query dimension of the patterns and strategies (each pair holds 2·m integers)
MAX_QUERIES = 100_000


def _check_m(m: Any) -> int:
    count = check_count(m, "m")
    if count > MAX_QUERIES:
        raise ValueError(f"m: at most {MAX_QUERIES} queries, got {count}")
    return count


def statdp_patterns(m: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """StatDP's input patterns for m queries of sensitivity 1 (each answer moves by ≤ 1)."""
    m = check_count(m, "m", minimum=2)
    _check_m(m)
    half = m // 2
    ones = (1,) * m
    return [
        (ones, (2,) + (1,) * (m - 1)),  # one above
        (ones, (0,) + (1,) * (m - 1)),  # one below
        (ones, (2,) + (0,) * (m - 1)),  # one above, rest below
        (ones, (0,) + (2,) * (m - 1)),  # one below, rest above
        (ones, (2,) * half + (0,) * (m - half)),  # half above, half below
        (ones, (2,) * m),  # all above
        (ones, (0,) * m),  # all below
        ((1,) * half + (0,) * (m - half), (0,) * half + (1,) * (m - half)),  # X shape
    ]


def query_vector_pairs(m: int, top: int = 3) -> st.SearchStrategy[tuple[Any, Any]]:
    """Neighbouring query vectors: q ∈ {0..top}^m and q' = q + d with d ∈ {−1, 0, 1}^m."""
    m = _check_m(m)
    top = check_count(top, "top")

    def build(q: list[int], d: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return tuple(q), tuple(a + b for a, b in zip(q, d, strict=True))

    vec = st.lists(st.integers(0, top), min_size=m, max_size=m)
    step = st.lists(st.integers(-1, 1), min_size=m, max_size=m)
    return st.builds(build, vec, step)


def targeted_search(max_examples: int) -> settings:
    """Hypothesis settings of the auditor's pair searches: ``max_examples`` generated and
    targeted examples (steered by ``hypothesis.target``), derandomised, no example database,
    no deadline or health checks (a screening call may be slow)."""
    return settings(
        max_examples=max_examples,
        phases=[Phase.generate, Phase.target],
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
