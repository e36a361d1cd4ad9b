"""Targets for ``dpspec audit``: your own code and the mechanisms of other DP libraries.

``load_target(spec, epsilon, delta)`` resolves

* ``module:callable`` or ``path/to/file.py:callable`` — an object with ``sample(data, size, rng)``
  or a function ``f(data, n, rng)`` (vectorised), ``f(data, rng)`` or ``f(data)`` (called once
  per draw: slow, see :class:`~dpspec.audit._targets.CallableMechanism`);
* ``opendp:laplace | gaussian | geometric`` — OpenDP's measurements on a vector domain (n copies
  of the input in one call give n independent releases; OpenDP samples exactly, ~5·10⁴ draws/s
  for Laplace on this machine);
* ``pydp:laplace`` — PyDP's ``BoundedSum`` over values in [0, 1] (sensitivity 1), Laplace noise;
  ``pydp:count`` — PyDP's ``Count``;
* ``diffprivlib:laplace | gaussian | geometric`` — diffprivlib's mechanisms (``randomise`` one
  value at a time); ``diffprivlib:GaussianNB | LogisticRegression | LinearRegression |
  RandomForestClassifier`` — its models as whole learners (:func:`_diffprivlib_model`: fitted at
  the claimed ε with public bounds on a fixed 60-point dataset, with and without one canary).
  diffprivlib 0.6.x cannot be imported next to scikit-learn ≥ 1.8 (its models import private
  scikit-learn symbols); the error says so.

Every library target is calibrated to the claimed (ε, δ) with sensitivity 1 on a scalar: the
data of a pair is that scalar (a number, or a list summed by PyDP), so the natural pair is
(0, 1). Library randomness cannot be seeded from dpspec's generator: library audits are not
reproducible draw for draw (the confidence statement does not need that).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit._targets import Mechanism, MechanismError, as_mechanism
from dpspec.audit.zoo import gaussian_epsilon
from dpspec.validation import Delta, DeltaArg, Instance, Real, checked

LIBRARIES = {
    "opendp": ("laplace", "gaussian", "geometric"),
    "pydp": ("laplace", "count"),
    "diffprivlib": (
        "laplace",
        "gaussian",
        "geometric",
        "GaussianNB",
        "LogisticRegression",
        "LinearRegression",
        "RandomForestClassifier",
    ),
}
#: diffprivlib's models, audited as whole learners (:func:`_diffprivlib_model`).
DIFFPRIVLIB_MODELS = (
    "GaussianNB",
    "LogisticRegression",
    "LinearRegression",
    "RandomForestClassifier",
)


class _LibraryMechanism:
    """A library's mechanism as a :class:`~dpspec.audit._targets.Mechanism`: ``draw(value, n)``
    returns n releases on the scalar ``value``."""

    def __init__(self, name: str, draw: Callable[[Any, int], Any], note: str) -> None:
        self.name = name
        self.draw = draw
        self.note = note

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[Any]:
        del rng  # the library draws from its own generator
        return np.asarray(self.draw(data, n))

    def __repr__(self) -> str:
        return f"_LibraryMechanism({self.name!r})"


def _gaussian_sigma(epsilon: float, delta: float, sensitivity: float = 1.0) -> float:
    """The smallest σ whose exact (Balle–Wang) privacy at δ is ε (bisection, rel. 1e-10)."""
    if not 0 < delta < 1:
        raise ValueError(f"delta: the Gaussian mechanism needs 0 < delta < 1, got {delta!r}")
    lo, hi = 1e-6, 1.0
    while gaussian_epsilon(hi, delta, sensitivity) > epsilon:
        hi *= 2
    while (hi - lo) / hi > 1e-10:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gaussian_epsilon(mid, delta, sensitivity) > epsilon else (lo, mid)
    return hi


def _opendp(name: str, epsilon: float, delta: float) -> _LibraryMechanism:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    if name == "laplace":
        space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
        meas = dp.m.make_laplace(*space, scale=1.0 / epsilon)
        return _LibraryMechanism(
            "opendp:laplace",
            lambda v, n: meas([float(v)] * n),
            f"make_laplace(scale=1/eps={1 / epsilon:g}) on a float vector",
        )
    if name == "geometric":
        space = dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int)
        meas = dp.m.make_geometric(*space, scale=1.0 / epsilon)
        return _LibraryMechanism(
            "opendp:geometric",
            lambda v, n: meas([int(v)] * n),
            f"make_geometric(scale=1/eps={1 / epsilon:g}) on an int vector",
        )
    sigma = _gaussian_sigma(epsilon, delta)
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
    meas = dp.m.make_gaussian(*space, scale=sigma)
    return _LibraryMechanism(
        "opendp:gaussian",
        lambda v, n: meas([float(v)] * n),
        f"make_gaussian(scale={sigma:.6g}) = the exact (eps, delta) calibration (OpenDP "
        "itself accounts it in zCDP)",
    )


def _pydp(name: str, epsilon: float, delta: float) -> _LibraryMechanism:
    from pydp.algorithms.laplacian import BoundedSum, Count

    if name == "laplace":
        algo = BoundedSum(epsilon=epsilon, lower_bound=0, upper_bound=1, dtype="float")

        def draw_sum(v: Any, n: int) -> list[float]:
            values = [float(x) for x in np.atleast_1d(v)]
            return [algo.quick_result(values) for _ in range(n)]

        return _LibraryMechanism("pydp:laplace", draw_sum, "BoundedSum over [0, 1], Laplace")
    count = Count(epsilon=epsilon, dtype="int")

    def draw_count(v: Any, n: int) -> list[int]:
        records = [0] * int(v)
        return [count.quick_result(records) for _ in range(n)]

    return _LibraryMechanism("pydp:count", draw_count, "Count of int(data) records")


def _import_diffprivlib(part: str) -> Any:
    """``diffprivlib.<part>``, or a ValueError naming ``target`` when it cannot be imported."""
    try:
        return importlib.import_module(f"diffprivlib.{part}")
    except ImportError as exc:
        raise ValueError(
            f"target: diffprivlib cannot be imported here ({exc}); diffprivlib 0.6.x needs "
            "scikit-learn < 1.8 — audit it from an environment that has one"
        ) from exc


def _model_canary_pair(seed: int = 7) -> tuple[Any, Any, NDArray[np.float64]]:
    """(D, D', probe) for auditing a model under add/remove: D' is 60 points on [0, 1]² with
    labels 1[x₁ + x₂ > 1] (targets x₁ + x₂ for regression), D adds the canary (1, 0) with
    label 1 (target 2: an outlier), and the probe is the canary's location."""
    rng = np.random.default_rng(seed)
    X = rng.random((60, 2))
    y = (X[:, 0] + X[:, 1] > 1).astype(np.int64)
    canary = np.array([[1.0, 0.0]])
    return (np.vstack([X, canary]), np.append(y, 1)), (X, y), canary


def _diffprivlib_model(name: str, epsilon: float, public_bounds: bool = True) -> Mechanism:
    """diffprivlib's model ``name`` at ``epsilon`` as a learner target on
    :func:`_model_canary_pair`: classifiers release P(label 1) at the canary
    (``predict_proba``), LinearRegression its prediction there. ``public_bounds``: pass the
    data bounds ([0, 1]², labels {0, 1}, targets [0, 2], norm √2) as diffprivlib asks; False
    lets diffprivlib take them from the data (it warns PrivacyLeakWarning: the bounds then
    leak the canary)."""
    from dpspec.audit.learners import LearnerMechanism, _legacy_random_state

    models = _import_diffprivlib("models")
    if name not in DIFFPRIVLIB_MODELS:
        raise ValueError(f"target: diffprivlib models are {', '.join(DIFFPRIVLIB_MODELS)}")
    cls = getattr(models, name)
    bounds: dict[str, Any] = {}
    if public_bounds:
        box = ([0.0, 0.0], [1.0, 1.0])
        table: dict[str, dict[str, Any]] = {
            "GaussianNB": {"bounds": box},
            "LogisticRegression": {"data_norm": math.sqrt(2.0)},
            "LinearRegression": {"bounds_X": box, "bounds_y": (0.0, 2.0)},
            "RandomForestClassifier": {"bounds": box, "classes": [0, 1]},
        }
        bounds = table[name]
    _, _, probe = _model_canary_pair()
    release: Any = "predict"
    if name != "LinearRegression":

        def release(model: Any) -> Any:
            return model.predict_proba(probe)[:, 1]  # P(label 1) at the canary

    def factory(seed: int) -> Any:
        return cls(epsilon=epsilon, random_state=_legacy_random_state(seed), **bounds)

    return LearnerMechanism(factory, release, probe, name=f"diffprivlib:{name}")


def _diffprivlib(name: str, epsilon: float, delta: float) -> Mechanism:
    if name in DIFFPRIVLIB_MODELS:
        return _diffprivlib_model(name, epsilon)
    mechanisms = _import_diffprivlib("mechanisms")
    if name == "laplace":
        mech: Any = mechanisms.Laplace(epsilon=epsilon, delta=0.0, sensitivity=1.0)
    elif name == "geometric":
        mech = mechanisms.Geometric(epsilon=epsilon, sensitivity=1)
    else:
        mech = mechanisms.GaussianAnalytic(epsilon=epsilon, delta=delta, sensitivity=1.0)
    cast = int if name == "geometric" else float
    return _LibraryMechanism(
        f"diffprivlib:{name}",
        lambda v, n: [mech.randomise(cast(v)) for _ in range(n)],
        f"diffprivlib.mechanisms.{type(mech).__name__}.randomise, one value per call",
    )


_LOADERS: dict[str, Callable[[str, float, float], Mechanism]] = {
    "opendp": _opendp,
    "pydp": _pydp,
    "diffprivlib": _diffprivlib,
}
_PACKAGES = {"opendp": "opendp", "pydp": "python-dp", "diffprivlib": "diffprivlib"}


def _load_callable(spec: str) -> Any:
    """The object named ``module:attribute`` (imported with the working directory on the path,
    as ``python -c`` would) or ``path/to/file.py:attribute`` (the file's folder is put on the
    path first, so that it can import its siblings, and stays there for calls made later)."""
    where, _, attr = spec.rpartition(":")
    if not where or not attr:
        raise ValueError(f"target: expected module:callable or path/file.py:callable, got {spec!r}")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise ValueError(f"target: no file {where!r}")
        folder = str(path.resolve().parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        module_spec = importlib.util.spec_from_file_location(path.stem, path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"target: cannot load {where!r}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[path.stem] = module
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:
            raise MechanismError(
                f"target: running {where!r} raised {type(exc).__name__}: {exc}"
            ) from exc
    else:
        cwd = str(Path.cwd())
        if cwd not in sys.path and "" not in sys.path:
            sys.path.insert(0, cwd)
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise ValueError(f"target: cannot import {where!r} ({exc})") from exc
        except Exception as exc:
            raise MechanismError(
                f"target: importing {where!r} raised {type(exc).__name__}: {exc}"
            ) from exc
    if not hasattr(module, attr):
        raise ValueError(f"target: {where!r} has no attribute {attr!r}")
    return getattr(module, attr)


#: A target named ``LIBRARY:NAME``, ``module:callable`` or ``path/file.py:callable``.
SpecArg = Annotated[str, Instance(types=(str,), clean="dpspec.audit._domains:_example_laplace")]
#: A learner factory or estimator class named ``module:callable`` or ``path/file.py:callable``.
FactorySpecArg = Annotated[
    str, Instance(types=(str,), clean="dpspec.audit._domains:_example_classifier")
]
#: The level a target is built at: a finite ε > 0.
LevelArg = Annotated[float, Real(0.0, lo_open=True, clean=1.0)]


@checked
def load_factory(
    spec: FactorySpecArg,
    epsilon: Annotated[float | None, Real(0.0, lo_open=True, optional=True)] = None,
    delta: Annotated[float | None, Delta(optional=True)] = None,
) -> Any:
    """The callable named ``module:callable`` or ``path/file.py:callable``: a learner factory
    ``seed -> unfitted estimator`` as it is, or an estimator class, built for every fit as
    ``cls(epsilon=epsilon[, delta=delta], random_state=…)`` — the claim audited is the level
    the class is built at (dpspec's classes and their subclasses get the seed, others a
    RandomState seeded with it, as scikit-learn accepts). A class without an ``epsilon``
    parameter, or a class given no ``epsilon``, is refused: it would be audited at a level
    nobody chose."""
    factory = _load_callable(spec)
    if not callable(factory):
        raise ValueError(f"target: {spec!r} is not callable")
    if not isinstance(factory, type):
        return factory
    from dpspec.audit.learners import _legacy_random_state

    cls = factory
    try:
        accepted = set(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        accepted = set()
    if "epsilon" not in accepted:
        raise ValueError(
            f"target: {spec!r} is a class without an epsilon parameter; give a factory "
            "seed -> estimator built at the claimed level"
        )
    if epsilon is None:
        raise ValueError("epsilon: required to build the class target at the claimed level")
    params: dict[str, Any] = {"epsilon": epsilon}
    if "delta" in accepted and delta is not None:
        params["delta"] = delta
    # dpspec's classes and their subclasses validate random_state as dpspec does (an integer
    # seed of any size); other classes get a RandomState, as scikit-learn accepts
    ours = any(base.__module__.startswith("dpspec.") for base in cls.__mro__)

    def make(seed: int) -> Any:
        return cls(**params, random_state=seed if ours else _legacy_random_state(seed))

    make.__qualname__ = f"{cls.__qualname__}({', '.join(f'{k}={v!r}' for k, v in params.items())})"
    return make


@checked
def load_target(spec: SpecArg, epsilon: LevelArg, delta: DeltaArg = 0.0) -> Mechanism:
    """The :class:`~dpspec.audit._targets.Mechanism` named by ``spec`` (see the module docstring),
    calibrated to (``epsilon``, ``delta``) for library targets."""
    if ":" not in spec:
        raise ValueError(f"target: expected LIBRARY:NAME or module:callable, got {spec!r}")
    library, _, name = spec.partition(":")
    if library in LIBRARIES:
        if name not in LIBRARIES[library]:
            raise ValueError(
                f"target: {library} offers {', '.join(LIBRARIES[library])}, not {name!r}"
            )
        if name == "gaussian" and not 0 < delta < 1:
            raise ValueError("delta: the Gaussian mechanism needs --delta in (0, 1)")
        if importlib.util.find_spec(library) is None:
            raise ValueError(
                f"target: {library} is not installed; pip install {_PACKAGES[library]}"
            )
        return _LOADERS[library](name, float(epsilon), float(delta))
    return as_mechanism(_load_callable(spec))
