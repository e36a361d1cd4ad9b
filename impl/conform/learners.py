"""Learners in the catalogue: PCL's noisy cell decisions (seed 000 Alg 2).

A classifier claiming to be PCL is fitted on a small labelled sample on [0, 1] (n = 16, so the
spec's grid has m = ⌈n^{1/(2d)}⌉ = 4 cells) and asked for its decisions at the m cell centres;
one fit is one draw, its output the vector of m bits. The exact law of that vector is the
product over the cells of Bernoulli(P(h_C = 1)), from ``PrivateHistogramClassifier.release_law``
(P(Z ≥ 1 − m_C) with the exact discrete noise, P(Lap(1/ε) > −m_C/2) with ``idealised=true``).
The alternatives whose power is stated are the three bugs found in review, as exact laws: noise at
2ε, cells taken from the data range instead of [0, 1], and the ½ dropped from the vote
(h = 1[Σy + w > |C|]). The other guarantee is consistency (Thm 3.2, L208): the exact excess
risk on the registered distribution ``threshold`` falls along n = 10²…10⁵ (Jonckheere–Terpstra,
``dpspec.spec.consistency.consistency_trend``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.conform.adapters import Sampler, _learner_factory
from dpspec.conform.base import (
    EPSILON_FACTOR,
    SEED_000,
    Algorithm,
    Instance,
    Param,
    _scaled,
)
from dpspec.conform.gof import Law
from dpspec.conform.laws import _bernoulli_law, _product_law
from dpspec.consistency import Threshold1D
from dpspec.learners import PrivateHistogramClassifier
from dpspec.learners.pcl import cells_per_axis_for
from dpspec.noise import discrete_laplace_sf, laplace_sf
from dpspec.spec.consistency import consistency_trend
from dpspec.spec.privacy import max_likelihood_ratio

#: sample sizes and repetitions of the consistency trend
TREND_SIZES = (100, 1000, 10_000, 100_000)
TREND_REPS = 3
#: the threshold of the registered distribution ``threshold`` used for the trend: 1/e, which
#: no grid of the trend aligns with (an aligned grid has excess risk 0 and breaks the trend)
TREND_THRESHOLD = 1 / math.e


def _instances_data() -> list[tuple[str, NDArray[np.float64], NDArray[np.int64]]]:
    """Two samples of n = 16 on [0, 1]: four points per cell with margins (−4, −2, 2, 4), and
    sixteen points on [0.1, 0.6] (where cells taken from the data range differ from [0, 1]'s)."""
    j = np.arange(16)
    x_even = ((j // 4) + ((j % 4) + 0.5) / 4) / 4
    y_even = np.array([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1])
    x_left = np.linspace(0.1, 0.6, 16)
    y_left = (x_left > 0.3).astype(np.int64)
    y_left[[2, 9]] = 1 - y_left[[2, 9]]
    return [
        ("4 points per cell, margins (-4, -2, 2, 4)", x_even[:, None], y_even),
        ("16 points on [0.1, 0.6]", x_left[:, None], y_left),
    ]


def _cell_centres(n: int) -> NDArray[np.float64]:
    m = cells_per_axis_for(n, 1)
    return ((np.arange(m) + 0.5) / m)[:, None]


class _PCL(Algorithm):
    name = "pcl"
    aliases = ("private-histogram-classifier",)
    summary = (
        "PCL's decisions h(x) = 1[Σ_{C(x)} y + w > |C(x)|/2] on cubes of side ⌈n^{1/(2d)}⌉⁻¹ of "
        "[0,1]^d; w exact discrete Laplace (P ∝ e^{−ε|z|/2} on the doubled vote) or Lap(1/ε) "
        "with idealised=true: ε-DP, universally consistent"
    )
    source = f"{SEED_000}:L193-208 (Alg 2, Thm 3.1, Thm 3.2)"
    convention = (
        "a classifier: a class taking epsilon and random_state, an unfitted estimator "
        "(cloned per fit), or a factory seed -> estimator; one draw = fit(X, y) on n = 16 "
        "points of [0, 1] then predict at the m = 4 cell centres"
    )
    params = (
        Param("epsilon", "epsilon", None, "privacy parameter ε"),
        Param("idealised", "bool", False, "the paper's continuous Lap(1/ε) noise"),
        Param("trend", "bool", True, "also check the consistency trend (fits up to n = 10^5)"),
    )
    learner = True

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["epsilon"] is None:
            raise ValueError("epsilon: required")
        return params

    def _probabilities(
        self, params: dict[str, Any], X: NDArray[np.float64], y: NDArray[np.int64], factor: float
    ) -> list[float]:
        m = cells_per_axis_for(X.shape[0], 1)
        model = PrivateHistogramClassifier(
            epsilon=_scaled(params, factor), idealised=params["idealised"], cells_per_axis=m
        )
        return [float(p) for p in model.release_law(X, y)]

    def _half_dropped(
        self, params: dict[str, Any], X: NDArray[np.float64], y: NDArray[np.int64]
    ) -> list[float]:
        """h = 1[Σy + w > |C|]: P(Z ≥ 1 − (m_C − |C|)) exact, or P(Lap(1/ε) > |C| − Σy)."""
        m = cells_per_axis_for(X.shape[0], 1)
        cell = np.minimum((X[:, 0] * m).astype(np.int64), m - 1)
        size = np.bincount(cell, minlength=m)
        ones = np.bincount(cell, weights=y, minlength=m).astype(np.int64)
        eps = float(params["epsilon"])
        if params["idealised"]:
            return [laplace_sf(float(c - s), 1.0 / eps) for c, s in zip(size, ones, strict=True)]
        q = math.exp(-eps / 2)
        return [
            float(discrete_laplace_sf(int(1 - (2 * s - c - c)), q))
            for c, s in zip(size, ones, strict=True)
        ]

    def _law(self, probabilities: list[float], note: str = "") -> Law:
        return _product_law([_bernoulli_law(p) for p in probabilities], note=note)

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        out = []
        for label, X, y in _instances_data():
            p = self._probabilities(params, X, y, 1.0)
            law = self._law(p)
            worst, worst_ratio = None, -1.0
            for i in range(y.size):  # the spec's worst neighbour: one label flipped
                y2 = y.copy()
                y2[i] = 1 - y2[i]
                other = self._law(self._probabilities(params, X, y2, 1.0))
                ratio = max(
                    float(max_likelihood_ratio(_dict(law), _dict(other))),
                    float(max_likelihood_ratio(_dict(other), _dict(law))),
                )
                if ratio > worst_ratio:
                    worst, worst_ratio = (y2, other), ratio
            assert worst is not None
            lo, hi = float(X.min()), float(X.max())
            ranged = (X - lo) / (hi - lo)
            out.append(
                Instance(
                    label,
                    (X, y),
                    law,
                    self._law(
                        self._probabilities(params, X, y, factor), self._deviation_text(factor)
                    ),
                    (X, worst[0]),
                    worst[1],
                    [
                        self._law(self._probabilities(params, X, y, 2.0), "noise at 2ε"),
                        self._law(
                            self._probabilities(params, ranged, y, 1.0), "cells from the data range"
                        ),
                        self._law(self._half_dropped(params, X, y), "the ½ dropped"),
                    ],
                )
            )
        return out

    def _variants(self, params: dict[str, Any], factor: float) -> list[list[Law]]:
        """The laws at ε × ``factor`` alone (no neighbour search)."""
        return [
            [self._law(self._probabilities(params, X, y, factor), self._deviation_text(factor))]
            for _, X, y in _instances_data()
        ]

    def _sampler(self, target: Any, params: dict[str, Any]) -> Sampler:
        """A learner target as a :class:`Sampler`: one draw = one fit + predict at the centres."""
        if isinstance(target, Sampler):
            return target
        make, description, seeded = _learner_factory(target, float(params["epsilon"]))

        def call(data: Any, k: int, rng: np.random.Generator) -> Any:
            X, y = data
            centres = _cell_centres(X.shape[0])
            seeds = rng.integers(0, 2**62, size=k)
            return np.array([np.asarray(make(int(s)).fit(X, y).predict(centres)) for s in seeds])

        return Sampler(call, "fit(X, y).predict(centres)", seeded, False, description)

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        eps, idealised = _scaled(params, factor), params["idealised"]

        def make(seed: int) -> PrivateHistogramClassifier:
            return PrivateHistogramClassifier(epsilon=eps, idealised=idealised, random_state=seed)

        return replace(
            self._sampler(make, params),
            description=f"dpspec PrivateHistogramClassifier(epsilon={eps:g})",
        )

    def _fast_reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        """dpspec's PCL through ``repeated_predictions`` (the law of repeated fit + predict,
        bound to them by ``audit.learner-repeated-fits``): for replicate studies."""
        eps, idealised = _scaled(params, factor), params["idealised"]

        def call(data: Any, k: int, rng: np.random.Generator) -> Any:
            X, y = data
            model = PrivateHistogramClassifier(epsilon=eps, idealised=idealised)
            return model.repeated_predictions(X, y, _cell_centres(X.shape[0]), k, rng)

        return Sampler(
            call,
            "repeated_predictions",
            True,
            True,
            f"dpspec PCL repeated_predictions(epsilon={eps:g})",
        )

    def _guarantees(
        self,
        params: dict[str, Any],
        instance: Instance,
        outputs: NDArray[Any],
        *,
        sampler: Sampler | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[dict[str, Any]]:
        """Thm 3.2 (L208): the exact excess risk on ``threshold`` falls along n (once per run,
        on the first instance)."""
        if sampler is None or rng is None or not params["trend"]:
            return []
        return [_consistency(sampler, rng)]


def _consistency(sampler: Sampler, rng: np.random.Generator) -> dict[str, Any]:
    """Fit the target on fresh samples of ``threshold`` for each n of TREND_SIZES (TREND_REPS
    times), read its decisions at the spec grid's cell centres and compute the exact excess
    risk of that grid classifier; the trend is decided by ``consistency_trend`` (α = 1e-3,
    final mean ≤ 0.05)."""
    problem = Threshold1D(t=TREND_THRESHOLD)
    values: list[list[float]] = []
    for n in TREND_SIZES:
        row = []
        for _ in range(TREND_REPS):
            X, y = problem.draw(n, rng)
            bits = np.asarray(sampler.draw((X, y), 1, rng))[0]
            labels = (np.asarray(bits, dtype=np.float64) > 0.5).astype(np.int64)
            row.append(problem.excess_risk(labels))
        values.append(row)
    trend = consistency_trend(values)
    return {
        "guarantee": "consistency (Thm 3.2): exact excess risk on 'threshold' falls along n",
        "holds": bool(trend.holds),
        "measured": {
            "sizes": list(TREND_SIZES),
            "mean_excess_risk": [float(v) for v in trend.means],
            "pvalue": float(trend.pvalue),
            "alpha": float(trend.alpha),
        },
    }


def _dict(law: Law) -> dict[Any, float]:
    return {label: float(p) for label, p in zip(law.labels, law.probs, strict=True)}


#: the catalogue's learners
LEARNERS: tuple[Algorithm, ...] = (_PCL(),)
