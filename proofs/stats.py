"""Goodness-of-fit of a sampler against an exact law, with a stated false-alarm probability.

The chi-square test here compares integer-valued samples with a pmf given on a finite set of
outcomes plus the remaining mass (merged into one "other" cell); cells with expected count
below 5 are merged so that the chi-square approximation is sound. Under H0 (the sampler has
exactly that law) the test rejects with probability ≈ ``alpha``; dpspec uses α = 1e-6, so a
suite of a few dozen such tests has a family-wise false-alarm rate below 1e-4 (union bound).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import stats

ALPHA = 1e-6


@dataclass(frozen=True)
class GofResult:
    statistic: float
    pvalue: float
    cells: int
    alpha: float

    @property
    def rejected(self) -> bool:
        return self.pvalue < self.alpha


def chisquare_gof(
    samples: NDArray[np.int64], pmf: Mapping[int, float], alpha: float = ALPHA
) -> GofResult:
    """Chi-square test of integer samples against ``pmf`` (mass outside it is one cell)."""
    n = samples.size
    if n == 0:
        raise ValueError("samples: is empty")
    keys = sorted(pmf)
    probs = np.array([float(pmf[k]) for k in keys])
    rest = max(0.0, 1.0 - float(probs.sum()))
    values, counts = np.unique(samples, return_counts=True)
    lookup = dict(zip(values.tolist(), counts.tolist(), strict=True))
    observed = np.array([lookup.get(k, 0) for k in keys], dtype=np.float64)
    other_observed = n - observed.sum()
    # merge adjacent cells (in key order) until each expected count is >= 5
    obs_cells: list[float] = []
    exp_cells: list[float] = []
    acc_o = acc_e = 0.0
    for o, p in zip(observed, probs, strict=True):
        acc_o += o
        acc_e += p * n
        if acc_e >= 5:
            obs_cells.append(acc_o)
            exp_cells.append(acc_e)
            acc_o = acc_e = 0.0
    acc_o += other_observed
    acc_e += rest * n
    if acc_e > 0 or acc_o > 0:
        if acc_e >= 5 or not exp_cells:
            obs_cells.append(acc_o)
            exp_cells.append(acc_e)
        else:
            obs_cells[-1] += acc_o
            exp_cells[-1] += acc_e
    if len(exp_cells) < 2:
        raise ValueError("pmf: too few cells with expected count >= 5 for a chi-square test")
    if any(e == 0 and o > 0 for o, e in zip(obs_cells, exp_cells, strict=True)):
        return GofResult(float("inf"), 0.0, len(exp_cells), alpha)
    f_exp = np.array(exp_cells)
    f_obs = np.array(obs_cells)
    f_exp *= f_obs.sum() / f_exp.sum()
    statistic, pvalue = stats.chisquare(f_obs, f_exp)
    return GofResult(float(statistic), float(pvalue), len(exp_cells), alpha)
