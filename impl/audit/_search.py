"""Finding the neighbouring pair that leaks most: StatDP's input patterns and a Hypothesis
search steered by ``hypothesis.target``.

Both only *choose* a pair, on screening draws that the final audit does not reuse, so the
final bound keeps its confidence statement (:func:`dpspec.audit.loop.audit_pairs`).

* :func:`statdp_patterns` — the query-vector patterns of StatDP (Ding et al., CCS 2018): one
  query above / below, one above and the rest below, half–half, all above / below, X-shape
  (defined with the other candidate pairs in :mod:`dpspec.audit._candidates`, which the pair
  search shares, and importable from here).
* :func:`hypothesis_search` — Hypothesis generates neighbouring pairs from a strategy and
  ``target(score)`` steers generation toward pairs with a large screening bound (Hypothesis's
  targeted phase hill-climbs on the reported score).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import given, target
from hypothesis import strategies as st

from dpspec.audit._budget import BLOCK, audit_plan, check_budget, screening_plan
from dpspec.audit._candidates import MAX_QUERIES as MAX_QUERIES
from dpspec.audit._candidates import query_vector_pairs as query_vector_pairs
from dpspec.audit._candidates import statdp_patterns as statdp_patterns
from dpspec.audit._candidates import targeted_search as targeted_search
from dpspec.audit._domains import MAX_SELECTION
from dpspec.audit._selection import _screen_bound
from dpspec.audit._targets import as_mechanism
from dpspec.audit.loop import AuditResult, _check_samples, audit, default_selection
from dpspec.validation import (
    check_confidence,
    check_count,
    check_delta,
    check_positive,
    check_seed,
)

#: largest number of Hypothesis examples of one search (each costs 2·screen draws)
MAX_EXAMPLES = 10_000


@dataclass
class SearchResult:
    """The pair Hypothesis found, its screening score and the final audit on fresh draws."""

    pair: tuple[Any, Any]
    score: float
    examples: int
    audit: AuditResult
    history: list[float] = field(default_factory=list)


def hypothesis_search(
    mechanism: Any,
    pairs: st.SearchStrategy[tuple[Any, Any]],
    epsilon: float,
    delta: float = 0.0,
    samples: int = 10**6,
    confidence: float = 0.95,
    seed: int = 0,
    screen: int = 20_000,
    max_examples: int = 60,
    score: Callable[[tuple[Any, Any]], float] | None = None,
    max_seconds: float | None = None,
) -> SearchResult:
    """Search ``pairs`` with Hypothesis for the pair with the largest screening bound (each
    candidate: ``screen`` draws per side, the selection-stage ε bound as the score, reported
    through ``hypothesis.target``), then audit the best pair with ``samples`` fresh draws.
    The plan's draws (``max_examples`` × 2·``screen`` and the final audit's) are checked
    before any draw against the unattended caps of :mod:`dpspec.audit._budget` (none apply
    with ``max_seconds``, which the final audit's pilot checks)."""
    mech = as_mechanism(mechanism)
    rng = np.random.default_rng(check_seed(seed))
    alpha = 1.0 - check_confidence(confidence)
    _check_samples(samples)
    check_delta(delta)
    check_count(screen, "screen")
    if screen > MAX_SELECTION:
        raise ValueError(f"screen: at most {MAX_SELECTION} draws per side, got {screen}")
    max_examples = check_count(max_examples, "max_examples")
    if max_examples > MAX_EXAMPLES:
        raise ValueError(f"max_examples: at most {MAX_EXAMPLES}, got {max_examples}")
    if max_seconds is not None:
        max_seconds = check_positive(max_seconds, "max_seconds")
    final = audit_plan(samples, default_selection(samples), 1, BLOCK)
    check_budget(mech, None, screening_plan(max_examples, screen, final), max_seconds, "screen")
    best: list[Any] = [None, -np.inf]
    history: list[float] = []

    def screen_score(pair: tuple[Any, Any]) -> float:
        return _screen_bound(mech, pair, screen, rng, delta, alpha)

    scorer = score or screen_score

    @targeted_search(max_examples)
    @given(pairs)
    def probe(pair: tuple[Any, Any]) -> None:
        value = scorer(pair)
        finite = value if np.isfinite(value) else (1e6 if value > 0 else -1e6)
        target(finite, label="screening epsilon bound")
        history.append(value)
        if value > best[1]:
            best[0], best[1] = pair, value

    probe()
    if best[0] is None:
        raise ValueError("pairs: the strategy produced no pair")
    result = audit(
        mech, best[0], epsilon, delta, samples=samples, confidence=confidence, seed=rng,
        max_seconds=max_seconds,
    )  # fmt: skip
    return SearchResult(best[0], float(best[1]), len(history), result, history)
