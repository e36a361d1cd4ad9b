"""Whole learners as audit targets: fit on D, fit on D', compare what is released.

A :class:`LearnerMechanism` turns an estimator factory and a *release* into a
:class:`~dpspec.audit.core.Mechanism` the auditor samples. One draw is one fit on the pair's
dataset with a fresh ``random_state`` drawn from the auditor's generator, followed by the
release:

* ``"predict"`` (default), ``"predict_proba"``, ``"decision_function"``, ``"pdf"``,
  ``"score_samples"``: that method on a fixed **probe** set (the points whose predictions are
  released: put the canary's location there);
* a callable ``release(model)``: any function of the fitted model — fitted parameters
  (``coef_``, ``theta_``), released counts, a threshold.

A dataset is ``(X, y)`` for supervised estimators or ``X`` alone (``y`` = None); ``(X, y,
probe)`` carries the probe points of its pair (the canary's location), used instead of the
mechanism's own ``probe``. Discrete
releases (prediction bit vectors) reach the auditor's atom family; real releases its threshold
and score families.

Repeated fits are vectorised when the estimator allows: an estimator with a method
``repeated_predictions(X, y, probe, repetitions, rng)`` (PCL has it; it counts once and draws
the noise of every repetition in one call, bound to ``fit`` by a conformance check) is used
for the ``"predict"`` release unless ``vectorised=False``. Otherwise each draw is a real fit;
pass ``jobs`` to :func:`~dpspec.audit.core.audit` to spread the estimation fits over cores.

The audit is only as sound as the pair is neighbouring under the relation the learner claims:
substitution for PCL, PCDE, A1 (replace one record), label change for A2 (same x's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit.core import MechanismError

#: The releases named by a string: the estimator method called on the probe set.
RELEASE_METHODS = ("predict", "predict_proba", "decision_function", "pdf", "score_samples")

Factory = Callable[[int], Any]
Release = str | Callable[[Any], Any]


def _split(data: Any) -> tuple[Any, Any, Any]:
    """(X, y, probe) from a dataset given as (X, y) with X 2-D and y 1-D, as (X, y, probe)
    (the probe points of this pair: see :func:`dpspec.audit.learner_search.canary_pairs`), as
    (X, None), or as X alone (a 2-D array: y = None); probe None when not given."""
    if isinstance(data, tuple | list) and len(data) == 3:
        X, y, probe = data
        return np.asarray(X), None if y is None else np.asarray(y), np.asarray(probe)
    if isinstance(data, tuple | list) and len(data) == 2:
        X, y = data
        if y is None:
            return np.asarray(X), None, None
        if np.ndim(X) == 2 and np.ndim(y) == 1:
            return np.asarray(X), np.asarray(y), None
    return np.asarray(data), None, None


def legacy_random_state(seed: int) -> np.random.RandomState:
    """A ``RandomState`` seeded with the whole 62-bit ``seed`` (through a SeedSequence), for
    scikit-learn-style estimators whose ``random_state`` must be an int below 2^32 or a
    RandomState: 2^32 seeds would repeat fits (≈ 100 identical pairs among 10^6 draws)."""
    return np.random.RandomState(np.random.MT19937(np.random.SeedSequence(seed)))


class LearnerMechanism:
    """A learner as an audit target (see the module docstring).

    ``factory(seed)`` returns a fresh unfitted estimator with ``random_state = seed``
    (:meth:`of` builds one from a class and its parameters); ``release`` names what is
    compared; ``probe`` is the (k, d) array the named releases are evaluated on.
    """

    def __init__(
        self,
        factory: Factory,
        release: Release = "predict",
        probe: Any = None,
        vectorised: bool = True,
        name: str | None = None,
    ) -> None:
        if not callable(factory):
            raise TypeError(f"factory: expected a callable seed -> estimator, got {factory!r}")
        if isinstance(release, str):
            if release not in RELEASE_METHODS:
                raise ValueError(
                    f"release: expected one of {', '.join(RELEASE_METHODS)} or a callable "
                    f"model -> array, got {release!r}"
                )
        elif not callable(release):
            raise TypeError(f"release: expected a method name or a callable, got {release!r}")
        self.factory = factory
        self.release = release
        self.probe = None if probe is None else np.asarray(probe, dtype=np.float64)
        if self.probe is not None and self.probe.ndim != 2:
            raise ValueError(f"probe: expected a 2-D array (k points), got {self.probe.shape}")
        self.vectorised = bool(vectorised)
        self.name = name or getattr(factory, "__name__", "learner")

    @classmethod
    def of(
        cls, estimator: type, release: Release = "predict", probe: Any = None, **params: Any
    ) -> LearnerMechanism:
        """The target fitting ``estimator(**params, random_state=seed)``."""

        def factory(seed: int) -> Any:
            return estimator(**params, random_state=seed)

        return cls(factory, release, probe, name=estimator.__name__)

    def _released(self, model: Any, probe: Any) -> NDArray[Any]:
        if callable(self.release):
            return np.asarray(self.release(model))
        return np.asarray(getattr(model, self.release)(probe))

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[Any]:
        X, y, probe = _split(data)
        probe = self.probe if probe is None else probe
        if isinstance(self.release, str) and probe is None:
            raise ValueError(
                f"probe: release {self.release!r} needs the points it is made on (give probe= "
                "or datasets (X, y, probe))"
            )
        if self.vectorised and self.release == "predict":
            estimator = self.factory(0)
            if hasattr(estimator, "repeated_predictions"):
                bits = estimator.repeated_predictions(X, y, probe, n, rng)
                return np.asarray(bits, dtype=np.int8)
        seeds = rng.integers(0, 2**62, size=n)
        rows = []
        for seed in seeds.tolist():
            model = self.factory(seed)
            model = model.fit(X) if y is None else model.fit(X, y)
            rows.append(self._released(model, probe))
        try:
            return np.stack(rows)
        except ValueError as exc:
            raise MechanismError(
                f"release: the releases of two fits differ in shape ({exc})"
            ) from exc

    def __repr__(self) -> str:
        return f"LearnerMechanism({self.name!r}, release={self.release!r})"
