"""The contract every mechanism and learner of dpspec follows.

* **Privacy report.** A mechanism has ``privacy``, a fitted learner ``privacy_``: one
  :class:`PrivacyLevel` stating the guarantee for one neighbouring pair of its
  :class:`~dpspec.spec.neighbours.Relation` — the theorem's level for the arguments the caller
  passed (``dpspec.proofs`` checks the report against the theorem separately from the privacy
  of the law, so a wrong report is caught on its own).
* **Privacy parameters.** ``epsilon`` (and ``delta`` where the guarantee is approximate) in every
  constructor, as the caller's target; the seeds' names (α in seeds 003 and 004) are mapped in the
  docstrings.
* **Exact or idealised.** ``idealised=False`` (default) draws every random bit with exact
  integer samplers (:mod:`dpspec.noise`); ``idealised=True`` is the paper's continuous-noise
  version, which assumes ideal real arithmetic, and its report says ``exact_sampler=False``.
* **Randomness.** Mechanisms take a ``numpy.random.Generator`` per call
  (``sample(data, size, rng)``); estimators take ``random_state`` (scikit-learn's convention).
* **Exact law.** A mechanism with a discrete output has ``pmf(data, window=None)``: the exact
  probability of each outcome (``Fraction`` when built from a rational base), restricted to
  ``window`` (an inclusive pair of outcomes) when the support is infinite. A learner whose
  release has a closed-form law has ``release_law(X, y=None, ...)`` in the factorised form of
  its release.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Protocol, runtime_checkable

import numpy as np

from dpspec.spec.neighbours import Relation
from dpspec.validation import Anything, Instance, Pair, checked, example

__all__ = ["ExactMechanism", "Mechanism", "PrivacyLevel", "PrivateEstimator", "restrict"]


@dataclass(frozen=True)
class PrivacyLevel:
    """The guarantee a mechanism or fitted learner gives for one neighbouring pair.

    ``epsilon`` and ``delta`` are the level of the theorem for the caller's arguments (after
    the exact samplers' rounding, which only lowers ε: ``epsilon`` is then the effective level).
    ``ratio`` is e^ε: a ``Fraction`` when the noise was built from a rational base (every output
    probability is then rational and the exact verifiers compare without rounding), else a
    float. ``exact_sampler`` is False when the guarantee assumes ideal real arithmetic
    (continuous noise drawn in floating point, open to Mironov's attack). ``relation`` is the
    neighbouring relation the guarantee is stated for.
    """

    epsilon: float
    ratio: Fraction | float
    delta: float | Fraction
    exact_sampler: bool
    relation: Relation = Relation.SUBSTITUTE

    #: A report the mechanisms and learners return (compared with the theorem by the
    #: registry's ``privacy.privacy-report.theorem-levels``), not an entry point of its own.
    __dpspec_declarative__ = "a privacy report returned by mechanisms and learners"


@example(__call__={"law": {0: 0.5, 1: 0.25, 2: 0.25}, "window": (0, 1)})
@checked
def restrict(
    law: Annotated[dict[Any, Any], Instance(types=(dict,))],
    window: Annotated[
        tuple[Any, Any] | None, Pair(Anything(why="outcomes, compared as they are"), optional=True)
    ],
) -> dict[Any, Any]:
    """The outcomes of a finite law inside ``window`` = (lo, hi), inclusive, compared as the
    outcomes are (integers, or tuples lexicographically); ``None`` keeps the whole law."""
    if window is None:
        return law
    lo, hi = window
    try:
        return {o: p for o, p in law.items() if lo <= o <= hi}
    except TypeError as exc:
        raise ValueError(f"window: ends not comparable with the outcomes, got {window!r}") from exc


@runtime_checkable
class Mechanism(Protocol):
    """A randomised algorithm on a dataset: its privacy report and a vectorised sampler."""

    @property
    def privacy(self) -> PrivacyLevel: ...

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> Any:
        """``size`` independent runs on ``data``, randomness only from ``rng``."""


@runtime_checkable
class ExactMechanism(Mechanism, Protocol):
    """A mechanism whose output law is computable exactly."""

    def pmf(self, data: Any, window: tuple[Any, Any] | None = None) -> dict[Any, Any]:
        """Probability of each outcome on ``data`` (restricted to ``window`` when given)."""


@runtime_checkable
class PrivateEstimator(Protocol):
    """A private learner with scikit-learn's conventions; ``privacy_`` after ``fit``."""

    epsilon: float
    idealised: bool
    random_state: Any

    def fit(self, X: Any, y: Any = None) -> Any: ...

    def get_params(self, deep: bool = True) -> dict[str, Any]: ...

    def set_params(self, **params: Any) -> Any: ...
