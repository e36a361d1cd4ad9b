"""An independent re-implementation of PCL (seed 000 Alg 2) written for the conformance tests:
scikit-learn's ``KBinsDiscretizer`` for the cubes, numpy for the counts and the paper's
continuous Lap(1/ε) noise (so it claims ``pcl`` with ``idealised=true``), and three variants
with real bugs: noise drawn for 2ε, cells taken from the data range, the ½ dropped."""

from __future__ import annotations

import math
import warnings
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.preprocessing import KBinsDiscretizer

BUGS = ("noise-2eps", "data-range", "half-dropped")


@cache
def _public_grid(m: int) -> KBinsDiscretizer:
    """The public grid of m cells on [0, 1], fitted on the bounds alone."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return KBinsDiscretizer(n_bins=m, encode="ordinal", strategy="uniform").fit(
            np.array([[0.0], [1.0]])
        )


class KBinsPCL:
    """h(x) = 1[Σ_{C(x)} y + Lap(1/ε) > |C(x)|/2] on m = ⌈n^{1/2}⌉ cells of [0, 1]."""

    def __init__(self, epsilon: float = 1.0, random_state: Any = None, bug: str | None = None):
        self.epsilon = epsilon
        self.random_state = random_state
        self.bug = bug

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {"epsilon": self.epsilon, "random_state": self.random_state, "bug": self.bug}

    def set_params(self, **params: Any) -> KBinsPCL:
        for key, value in params.items():
            setattr(self, key, value)
        return self

    def _cells(self, X: NDArray[np.float64]) -> NDArray[np.int64]:
        return self.grid_.transform(np.asarray(X, dtype=np.float64)[:, :1]).astype(np.int64)[:, 0]

    def fit(self, X: Any, y: Any) -> KBinsPCL:
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        m = math.ceil(math.sqrt(X.shape[0]) - 1e-12)
        if self.bug == "data-range":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self.grid_ = KBinsDiscretizer(n_bins=m, encode="ordinal", strategy="uniform").fit(
                    X[:, :1]
                )
        else:
            self.grid_ = _public_grid(m)
        cells = self._cells(X)
        size = np.bincount(cells, minlength=m)
        ones = np.bincount(cells, weights=y, minlength=m)
        eps = 2 * self.epsilon if self.bug == "noise-2eps" else self.epsilon
        noise = np.random.default_rng(self.random_state).laplace(0.0, 1.0 / eps, m)
        threshold = size if self.bug == "half-dropped" else size / 2
        self.bits_ = (ones + noise > threshold).astype(np.int64)
        return self

    def predict(self, X: Any) -> NDArray[np.int64]:
        return self.bits_[self._cells(np.asarray(X, dtype=np.float64))]
