"""The worst-case-style pair DP-SGD is audited on, the fits it runs and their 1-D statistic.

**The pair** (d = 1, squared loss, no intercept, clip norm C = 1): D' holds n − 1 *others*
(x, y) = (1, +Y) and one *blank* (0, 0); D holds the same others and the *canary* (1, −Y) in
the blank's place (index 0). They differ in one record: substitution neighbours, n = |D| =
|D'|, which both samplers need (the shuffled batches and q = b/n depend on n only). With
Y = 10^6 the gradients are fixed while |θ| < Y − C: the canary's (θ + Y)·1 clips to +C, an
other's (θ − Y)·1 to −C, the blank's is 0 for every θ. A step moves θ by at most
η/b·(bC + σC|z|), so |θ_T| ≥ Y − C needs Σ_t |z_t| ≥ ((Y − C)/(ηC) − T)·b/σ ≈ 10^6 standard
normal draws' worth (probability below e^{-10^9} for the parameters here): the pair is one of
fixed gradient vectors (+1, −1, 0), the construction of the DP-SGD lower bounds of Nasr,
Song, Thakurta, Papernot & Carlini 2021 ("Adversary Instantiation", arXiv:2101.04535) and of
Chua et al. 2024 (arXiv:2403.17673, for shuffled batches).

What a step releases: s_t = −(b/η)(θ_{t+1} − θ_t)/C = (the batch's clipped sum) + σ z_t. With
shuffled batches of b = 1 every step holds one record: s_t + 1 is 2 at the canary's step of
each epoch and 0 elsewhere on D, 1 at the blank's step on D' — so D' also reveals where its
differing record sits, and the shuffled pair is P = mix_j N(2e_j, σ²I) against
Q = mix_j N(e_j, σ²I) per epoch of k = n steps. Poisson batches instead hold every record
with probability q at every step: by the blank's zero gradient, D' is D without the canary in
law, the *remove* pair of the add/remove accountant.

**The statistic** of a path: the log-likelihood ratio of that shuffled pair,
Σ_epochs [logsumexp_j (2u_j − 2)/σ² − logsumexp_j (u_j − ½)/σ²] with u = s + 1 — a function
of the release (post-processing: no bound on its law is a bound the release escapes), the
Neyman–Pearson statistic of the shuffled pair (for b = 1), and for Poisson batches a valid if
not optimal one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import special

from dpspec.learners.dpsgd import DPSGDRegressor

#: the response of the canary (−Y) and of the others (+Y)
RESPONSE = 1e6

Data = tuple[NDArray[np.float64], NDArray[np.float64]]


def canary_pair(n: int) -> tuple[Data, Data]:
    """(D, D') of the module docstring: canary or blank at index 0, n − 1 others."""
    X = np.ones((n, 1))
    y = np.full(n, RESPONSE)
    y[0] = -RESPONSE
    blank_X, blank_y = X.copy(), y.copy()
    blank_X[0, 0], blank_y[0] = 0.0, 0.0
    return (X, y), (blank_X, blank_y)


def fit(data: Data, params: dict[str, Any], rng: np.random.Generator) -> DPSGDRegressor:
    """One real fit of ``DPSGDRegressor(**params)`` drawing from ``rng``."""
    return DPSGDRegressor(**params, random_state=rng).fit(*data)


def path_release(params: dict[str, Any]) -> Callable[[Data, np.random.Generator], Any]:
    """The target f(data, rng) = the fitted path θ_0..θ_T (what the replay couples)."""

    def release(data: Data, rng: np.random.Generator) -> NDArray[np.float64]:
        return fit(data, params, rng).coef_path_

    release.__name__ = f"dpsgd_path_{params['batch_sampler']}"
    return release


def steps_of(path: NDArray[np.float64], params: dict[str, Any]) -> NDArray[np.float64]:
    """s_t = −(b/η)(θ_{t+1} − θ_t)/C of each step (rows: paths, columns: steps)."""
    scale = params["batch_size"] / params["learning_rate"] / params.get("clip_norm", 1.0)
    return np.asarray(-np.diff(path[..., 0], axis=-1) * scale)


def statistic(paths: NDArray[np.float64], params: dict[str, Any], n: int) -> NDArray[np.float64]:
    """The shuffled pair's log-likelihood ratio of each path (the module docstring), for
    batches of b = 1 of n records (epochs of n steps; a last partial epoch is its own block)."""
    u = steps_of(paths, params) + 1.0
    sigma2 = params["noise_multiplier"] ** 2
    total = np.zeros(u.shape[0])
    for start in range(0, u.shape[1], n):
        block = u[:, start : start + n]
        total += special.logsumexp((2 * block - 2) / sigma2, axis=1)
        total -= special.logsumexp((block - 0.5) / sigma2, axis=1)
    return total


def statistic_release(
    params: dict[str, Any], n: int
) -> Callable[[Data, int, np.random.Generator], NDArray[np.float64]]:
    """The target f(data, m, rng): m real fits, each released as its statistic."""

    def release(data: Data, m: int, rng: np.random.Generator) -> NDArray[np.float64]:
        paths = np.stack([fit(data, params, rng).coef_path_ for _ in range(m)])
        return statistic(paths, params, n)

    release.__name__ = f"dpsgd_statistic_{params['batch_sampler']}"
    return release
