"""Goodness-of-fit of a sampler against an exact law, with a stated false-alarm probability.

The chi-square test here compares samples with a pmf given on a finite set of outcomes plus
the remaining mass (one "other" cell); cells with expected count below 5 are merged (smallest
first, by the pmf alone) so that the chi-square approximation is sound. Under H0 (the sampler has
exactly that law) the test rejects with probability ≈ ``alpha``; dpspec uses α = 1e-6, so a
suite of a few dozen such tests has a family-wise false-alarm rate below 1e-4 (union bound).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

ALPHA = 1e-6


@dataclass(frozen=True)
class GofResult:
    pvalue: float
    cells: int
    alpha: float

    @property
    def rejected(self) -> bool:
        return self.pvalue < self.alpha


def merged_bins(
    observed: Mapping[Any, int], pmf: Mapping[Any, Any], n: int
) -> list[tuple[float, int]] | None:
    """(expected, observed) bins of ``observed`` against ``pmf``; ``None`` when an outcome of
    probability 0 was observed (the sample is impossible under the law).

    Outcomes not in ``pmf`` share one bin of mass 1 − Σ pmf; bins are merged, smallest
    expected count first, until every expected count is ≥ 5 (the binning depends on the pmf
    only, never on the data).
    """
    if n == 0:
        raise ValueError("observed: no samples")
    bins = [(float(p) * n, int(observed.get(o, 0))) for o, p in pmf.items()]
    rest_mass = max(0.0, float(1 - sum(float(p) for p in pmf.values())))
    bins.append((rest_mass * n, sum(c for o, c in observed.items() if o not in pmf)))
    if any(e == 0 and o > 0 for e, o in bins):
        return None
    heap = [(e, i, o) for i, (e, o) in enumerate(bins) if e > 0]
    heapq.heapify(heap)
    serial = len(bins)
    while len(heap) > 1 and heap[0][0] < 5:  # merge the two smallest expected counts
        e0, _, o0 = heapq.heappop(heap)
        e1, _, o1 = heapq.heappop(heap)
        heapq.heappush(heap, (e0 + e1, serial, o0 + o1))
        serial += 1
    if len(heap) < 2:
        raise ValueError("pmf: a single bin with expected count >= 5: nothing to test")
    return [(e, o) for e, _, o in sorted(heap)]


def chisquare_counts(observed: Mapping[Any, int], pmf: Mapping[Any, Any]) -> tuple[float, int]:
    """Pearson chi-square of counts against an exact pmf: (p-value, number of bins)."""
    n = sum(observed.values())
    bins = merged_bins(observed, pmf, n)
    if bins is None:
        return 0.0, len(pmf) + 1
    expected = np.array([e for e, _ in bins])
    obs = np.array([o for _, o in bins], dtype=np.float64)
    expected *= obs.sum() / expected.sum()
    return float(stats.chisquare(obs, expected).pvalue), len(bins)


def chisquare_pvalue(observed: Mapping[Any, int], pmf: Mapping[Any, Any]) -> float:
    """p-value of the chi-square test of ``observed`` against ``pmf`` (see chisquare_counts)."""
    return chisquare_counts(observed, pmf)[0]


def binomial_pvalue(successes: int, n: int, p: Any) -> float:
    """Exact two-sided binomial test of H0: success probability = p."""
    return float(stats.binomtest(int(successes), int(n), float(p)).pvalue)


def chisquare_gof(samples: NDArray[Any], pmf: Mapping[Any, Any], alpha: float = ALPHA) -> GofResult:
    """Chi-square test of samples (any hashable values) against ``pmf`` at level ``alpha``."""
    if samples.size == 0:
        raise ValueError("samples: is empty")
    values, counts = np.unique(samples, return_counts=True)
    observed = dict(zip(values.tolist(), counts.tolist(), strict=True))
    pvalue, cells = chisquare_counts(observed, pmf)
    return GofResult(pvalue, cells, alpha)
