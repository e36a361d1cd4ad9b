"""Whole learners as audit targets: fit on D, fit on D', compare what is released.

A :class:`LearnerMechanism` turns an estimator factory and a *release* into a
:class:`~dpspec.audit._targets.Mechanism` the auditor samples. One draw is one fit on the pair's
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

Each draw is a real ``fit`` and release of the object the factory returns, with one exception
that changes nothing but speed: for the ``"predict"`` release, an estimator whose class is
*exactly* one of :data:`VECTORISED_CLASSES` — classes whose ``repeated_predictions(X, y,
probe, repetitions, rng)`` (margins counted once, the noise of every repetition drawn in one
call) is bound to ``fit`` + ``predict`` by a registered conformance obligation — is sampled
through that method. A subclass, an instance with a method replaced, or a wrapper takes the
real path (its own ``fit`` and ``predict`` may differ from the bound class's: a subclass whose
``predict`` leaks a training label must be audited as written), and so does every estimator
when ``vectorised=False`` (CLI ``--real-fits``). :meth:`LearnerMechanism.sampling` says which
path runs; the audit result carries it (``AuditResult.sampling``). Pass ``jobs`` to
:func:`~dpspec.audit.audit` to spread real fits over cores.

The audit is only as sound as the pair is neighbouring under the relation the learner claims:
substitution for PCL, PCDE, A1 (replace one record), label change for A2 (same x's).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit._domains import _EXAMPLE_XY, _Datasets, _example_classifier
from dpspec.audit._targets import MechanismError
from dpspec.validation import (
    Array,
    Checked,
    Domain,
    FlagArg,
    Function,
    GeneratorArg,
    InputTypeError,
    Instance,
    SizeArg,
    example,
)

#: The releases named by a string: the estimator method called on the probe set.
RELEASE_METHODS = ("predict", "predict_proba", "decision_function", "pdf", "score_samples")

#: Classes (by qualified name) whose ``repeated_predictions`` is bound to ``fit`` + ``predict``
#: by a conformance obligation (its id): the only classes sampled through that shortcut, and
#: only when an estimator's class is exactly one of them. ``audit.learner-repeated-fits`` runs
#: the conformance of each and checks that every class of dpspec defining
#: ``repeated_predictions`` is listed here with an obligation that names it.
VECTORISED_CLASSES: dict[str, str] = {
    "dpspec.learners.pcl.PrivateHistogramClassifier": "audit.learner-repeated-fits",
    "dpspec.audit.learner_zoo.HalvedNoiseHistogramClassifier": "audit.learner-repeated-fits",
}

#: the methods a shortcut relies on: an instance attribute of one of these names (a method
#: replaced on the object) sends the estimator down the real path
_SHORTCUT_METHODS = ("fit", "predict", "repeated_predictions")

Factory = Callable[[int], Any]
Release = str | Callable[[Any], Any]


def _split(data: Any) -> tuple[Any, Any, Any]:
    """(X, y, probe) from a dataset given as (X, y) with X 2-D and y 1-D, as (X, y, probe)
    (the probe points of this pair: see :func:`dpspec.audit._learner_search.canary_pairs`), as
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


def _legacy_random_state(seed: int) -> np.random.RandomState:
    """A ``RandomState`` seeded with the whole 62-bit ``seed`` (through a SeedSequence), for
    scikit-learn-style estimators whose ``random_state`` must be an int below 2^32 or a
    RandomState: 2^32 seeds would repeat fits (≈ 100 identical pairs among 10^6 draws)."""
    return np.random.RandomState(np.random.MT19937(np.random.SeedSequence(seed)))


@dataclass(frozen=True)
class _Release(Domain):
    """What a learner target releases: one of :data:`RELEASE_METHODS` (a method called on the
    probe points) or a callable ``model -> array``."""

    def convert(self, value: Any, name: str) -> Any:
        if isinstance(value, str):
            if value not in RELEASE_METHODS:
                raise ValueError(
                    f"{name}: expected one of {', '.join(RELEASE_METHODS)} or a callable "
                    f"model -> array, got {value!r}"
                )
            return value
        if not callable(value):
            raise InputTypeError(f"{name}: expected a method name or a callable, got {value!r}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (None, "fit", "", 3, [len], object())

    @property
    def example(self) -> Any:
        return "predict"

    def describe(self) -> str:
        return f"one of {list(RELEASE_METHODS)} or a callable"


@dataclass(frozen=True)
class _Dataset(Domain):
    """One side of a learner pair: (X, y), (X, y, probe) or X, with X a non-empty (n, d) array
    of finite numbers."""

    clean: Any = _EXAMPLE_XY

    def convert(self, value: Any, name: str) -> Any:
        try:
            X, _, probe = _split(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name}: expected (X, y), (X, y, probe) or X ({exc})") from exc
        _points(X, name)
        if probe is not None:
            _points(probe, "probe")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (None, 3, "ab", [[math.nan, 0.5]], (np.zeros((0, 2)), np.zeros(0)), [1.0, 2.0])

    @property
    def example(self) -> Any:
        return self.clean

    def describe(self) -> str:
        return "a dataset (X, y), (X, y, probe) or X"


#: A factory ``seed -> unfitted estimator``.
FactoryArg = Annotated[Factory, Function(clean=_example_classifier)]
#: What is released.
ReleaseArg = Annotated[Release, _Release()]
#: Probe points: a (k, d) array, or None.
ProbeArg = Annotated[Any, Array(ndim=2, optional=True)]
#: A pair of learner datasets.
LearnerPairArg = Annotated[
    tuple[Any, Any], _Datasets(clean=(_EXAMPLE_XY, (_EXAMPLE_XY[0], 1 - _EXAMPLE_XY[1])))
]


@example(
    __init__={"factory": _example_classifier, "probe": [[0.3, 0.3], [0.7, 0.7]]},
    of={"estimator": _example_classifier},
    sample={"data": _EXAMPLE_XY, "size": 3},
)
class LearnerMechanism(Checked):
    """A learner as an audit target (see the module docstring).

    ``factory(seed)`` returns a fresh unfitted estimator with ``random_state = seed``
    (:meth:`of` builds one from a class and its parameters); ``release`` names what is
    compared; ``probe`` is the (k, d) array the named releases are evaluated on.
    """

    __dpspec_audit_adapter__ = (
        "presents a learner to the auditor; its privacy is what the audit measures"
    )

    def __init__(
        self,
        factory: FactoryArg,
        release: ReleaseArg = "predict",
        probe: ProbeArg = None,
        vectorised: FlagArg = True,
        name: Annotated[str | None, Instance(types=(str,), optional=True)] = None,
    ) -> None:
        self.factory = factory
        self.release = release
        self.probe = probe
        self.vectorised = vectorised
        self.name = name or getattr(factory, "__name__", "learner")

    @classmethod
    def of(
        cls,
        estimator: Annotated[Callable[..., Any], Function(clean=_example_classifier)],
        release: ReleaseArg = "predict",
        probe: ProbeArg = None,
        **params: Any,
    ) -> LearnerMechanism:
        """The target fitting ``estimator(**params, random_state=seed)``."""

        def factory(seed: int) -> Any:
            return estimator(**params, random_state=seed)

        return cls(factory, release, probe, name=estimator.__name__)

    def check_pair(self, pair: LearnerPairArg) -> None:
        """Refuse, before any fit, a pair this target cannot be audited on: datasets that are
        not (X, y) / (X, y, probe) / X with X of shape (n, d) and y of length n, the two sides
        of different dimension d, a named release without probe points or with probe points of
        another dimension, or an estimator without the named release method. Each error names
        ``pair``, ``probe`` or ``release``."""
        dims = []
        for side, data in zip(("D", "D'"), pair, strict=True):
            try:
                X, y, probe = _split(data)
                X = _points(X, "X")
            except ValueError as exc:
                raise ValueError(
                    f"pair: {side} must be (X, y), (X, y, probe) or X with X of shape (n, d) "
                    f"({exc})"
                ) from exc
            if y is not None and (y.ndim != 1 or y.shape[0] != X.shape[0]):
                raise ValueError(
                    f"pair: {side}'s y must have one label per row of X ({X.shape[0]}), got "
                    f"shape {y.shape}"
                )
            dims.append(X.shape[1])
            probe = self.probe if probe is None else _points(probe, "probe")
            if isinstance(self.release, str):
                if probe is None:
                    raise ValueError(
                        f"probe: release {self.release!r} needs the points it is made on (give "
                        "probe= or --probe, or datasets (X, y, probe))"
                    )
                if probe.shape[1] != X.shape[1]:
                    raise ValueError(
                        f"probe: points of dimension {probe.shape[1]}, the data has "
                        f"{X.shape[1]} features"
                    )
        if dims[0] != dims[1]:
            raise ValueError(f"pair: D has {dims[0]} features and D' {dims[1]}")
        if isinstance(self.release, str):
            estimator = self.factory(0)
            if not callable(getattr(estimator, self.release, None)):
                raise ValueError(
                    f"release: {_qualified_class(estimator)} has no method {self.release!r}"
                )

    def _released(self, model: Any, probe: Any) -> NDArray[Any]:
        if callable(self.release):
            return np.asarray(self.release(model))
        return np.asarray(getattr(model, self.release)(probe))

    def sample(
        self, data: Annotated[Any, _Dataset()], size: SizeArg, rng: GeneratorArg
    ) -> NDArray[Any]:
        """``size`` releases on ``data``: each a fit with a seed drawn from ``rng`` and the
        release (or the conformance-bound vectorised shortcut: see the module docstring)."""
        n = size
        X, y, probe = _split(data)
        probe = self.probe if probe is None else probe
        if isinstance(self.release, str) and probe is None:
            raise ValueError(
                f"probe: release {self.release!r} needs the points it is made on (give probe= "
                "or datasets (X, y, probe))"
            )
        estimator = self.factory(0) if self.vectorised and self.release == "predict" else None
        if estimator is not None and _shortcut_of(estimator) is not None:
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

    def draw_kind(self) -> str:
        """ "vectorised" when the conformance-bound shortcut runs, else "per-fit" (one real fit
        per draw): what the audit's budget counts (:mod:`dpspec.audit._budget`)."""
        if not self.vectorised or self.release != "predict":
            return "per-fit"
        return "vectorised" if _shortcut_of(self.factory(0)) is not None else "per-fit"

    def sampling(self) -> str:
        """Which path a draw takes: the real ``fit`` and release, or the conformance-bound
        vectorised shortcut of the estimator's exact class (and why not, when not)."""
        release = self.release if isinstance(self.release, str) else "a callable release"
        if not self.vectorised:
            return f"real fit + {release} per draw (vectorised=False)"
        if self.release != "predict":
            return f"real fit + {release} per draw"
        estimator = self.factory(0)
        bound = _shortcut_of(estimator)
        if bound is None:
            return f"real fit + predict per draw ({_shortcut_refusal(estimator)})"
        return (
            f"vectorised {_qualified_class(estimator)}.repeated_predictions, bound to fit + "
            f"predict by {bound}"
        )

    def __repr__(self) -> str:
        return f"LearnerMechanism({self.name!r}, release={self.release!r})"


def _points(values: Any, name: str) -> NDArray[np.float64]:
    """A (k, d) array of finite numbers, else a ValueError naming ``name``."""
    try:
        if np.iscomplexobj(values):
            raise ValueError("complex values")
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: expected numbers, an array of shape (k, d) ({exc})") from exc
    if arr.ndim != 2 or 0 in arr.shape:
        raise ValueError(f"{name}: expected a non-empty 2-D array (k points), got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: expected finite numbers")
    return arr


def _qualified_class(obj: Any) -> str:
    """``module.qualname`` of ``obj``'s class."""
    cls = type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


def _listed_class(name: str) -> type | None:
    """The class a :data:`VECTORISED_CLASSES` name resolves to (None when it does not)."""
    module, _, attr = name.rpartition(".")
    try:
        found = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None
    return found if isinstance(found, type) else None


def _shortcut_of(estimator: Any) -> str | None:
    """The conformance obligation binding ``estimator``'s vectorised shortcut to its ``fit``,
    or None when the estimator must be sampled through real fits: its class is not exactly a
    listed class (subclasses and wrappers are not), or the instance replaces a method."""
    name = _qualified_class(estimator)
    bound = VECTORISED_CLASSES.get(name)
    if bound is None or _listed_class(name) is not type(estimator):
        return None
    own = getattr(estimator, "__dict__", {})
    if any(method in own for method in _SHORTCUT_METHODS):
        return None
    return bound


def _shortcut_refusal(estimator: Any) -> str:
    """Why :func:`_shortcut_of` sends ``estimator`` down the real path."""
    name = _qualified_class(estimator)
    if name not in VECTORISED_CLASSES or _listed_class(name) is not type(estimator):
        listed = [c for c in VECTORISED_CLASSES if isinstance(estimator, _listed_class(c) or ())]
        if listed:
            return f"{name} subclasses {listed[0]}: its own fit/predict run"
        return f"{name} has no conformance-bound vectorised shortcut"
    return "a method is replaced on the instance"
