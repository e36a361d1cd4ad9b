"""Hostile-input checks over the public API of ``dpspec.mechanisms`` / ``.learners``.

Standard of the project (bad input gets a ValueError naming the parameter), applied to every
public constructor and ``fit`` / ``predict`` / ``sample`` / ``randomise`` / ``pmf`` / ``sf`` /
``pdf`` / ``score``: one argument at a time is replaced by a hostile value (NaN, ±inf, huge,
tiny, negative, zero, wrong type, wrong shape, object, complex, numpy scalars) while the others
stay clean. The outcome must be one of

* a ``ValueError`` / ``TypeError`` whose message names the replaced argument (or the value it
  feeds: a query's or a score function's output is named ``query`` / ``scores``);
* a result satisfying the same predicates as a clean input's result (shape, dtype, range,
  finiteness; a law that sums to 1);

never another exception (``OverflowError``, ``IndexError``, ``AxisError``, ``MemoryError``,
``ZeroDivisionError`` …) and never a warning: every call runs with warnings as errors, so a
``RuntimeWarning`` (overflow, invalid cast) counts as a failure. Each call is timed; a call
over ``CASE_SECONDS`` fails.

Counts (n, cells, k, cells_per_axis …) are drawn either small or beyond the limits of
``dpspec.validation.LIMITS``: a count inside the limits is a legitimate request whose
cost grows with it (documented there), not a hostile one.
"""

from __future__ import annotations

import math
import signal
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.ldp.estimators import LDPPartitionClassifier, LDPPartitionRegressor
from dpspec.ldp.mechanism import LocalRandomiser
from dpspec.ldp.partition import CubicPartition
from dpspec.learners import (
    PrivateHistogramClassifier,
    PrivateHistogramDensity,
    PrivatePackingClassifier,
    PrivateSemiSupervisedClassifier,
    PrivateUnboundedClassifier,
)
from dpspec.learners.estimator import DataConversionWarning
from dpspec.learners.histogram import HistogramRuleClassifier
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
    stability_histogram,
)
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig
from dpspec.validation import LIMITS, MAX_EPSILON

#: Wall-clock bound of one hostile call (seconds).
CASE_SECONDS = 3.0


#: Exceptions that count as a clean refusal (when their message names the argument).
REFUSALS = (ValueError, TypeError)


Params = dict[str, Any]


class CaseTimeout(BaseException):
    """Raised by the alarm when one call exceeds its time bound."""


_GEN = np.random.default_rng(20240611)


_X2 = _GEN.random((40, 2))


_Y2 = (_X2[:, 0] > 0.5).astype(np.int64)


_X1 = np.sort(_GEN.random((300, 1)), axis=0)


_Y1 = (_X1[:, 0] > 0.4).astype(np.int64)


_D = np.array([0, 1, 1, 0, 1])


_NONE: Any = None


def _count(d: Any) -> int:
    """Number of non-zero entries (cannot overflow whatever the data)."""
    return int(np.count_nonzero(d))


def _mean(d: Any) -> float:
    """Fraction of non-zero entries."""
    return float(np.count_nonzero(d)) / max(1, int(np.size(d)))


def _scores(d: Any) -> Any:
    return np.array([0, int(np.count_nonzero(d)), 2])


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def _finite_array(r: Any, shape: tuple[int, ...]) -> str | None:
    if not isinstance(r, np.ndarray):
        return f"expected an ndarray, got {type(r).__name__}"
    if r.shape != shape:
        return f"shape {r.shape} != {shape}"
    if not (np.issubdtype(r.dtype, np.number) or r.dtype == np.bool_):
        return f"dtype {r.dtype}"
    if np.issubdtype(r.dtype, np.floating) and not np.all(np.isfinite(r)):
        return "non-finite values"
    return None


def _in_range(r: Any, shape: tuple[int, ...], lo: int, hi: int) -> str | None:
    bad = _finite_array(r, shape)
    if bad:
        return bad
    if r.size and (int(r.min()) < lo or int(r.max()) >= hi):
        return f"values outside [{lo}, {hi})"
    return None


def _law(r: Any) -> str | None:
    if not isinstance(r, dict) or not r:
        return "pmf: expected a non-empty dict"
    values = list(r.values())
    if any(not (0 <= float(v) <= 1) or math.isnan(float(v)) for v in values):
        return "pmf: a probability outside [0, 1]"
    total = sum(values)
    if abs(float(total) - 1.0) > 1e-9:
        return f"pmf: total {float(total)} != 1"
    return None


def _probability(r: Any) -> str | None:
    v = float(r)
    return None if 0.0 <= v <= 1.0 else f"probability {v} outside [0, 1]"


def _labels(r: Any, n: int, classes: Any) -> str | None:
    if not isinstance(r, np.ndarray) or r.shape != (n,):
        return f"predict: expected shape ({n},)"
    if not np.all(np.isin(r, np.asarray(classes))):
        return "predict: labels outside classes_"
    return None


@dataclass(frozen=True)
class Target:
    """One public call: its clean arguments, how to run it, and the clean-result predicate.

    ``aliases`` maps an argument to other names an error may use for it (e.g. the query's
    output for ``data``).
    """

    name: str
    clean: Params
    run: Callable[[Params], Any]
    check: Callable[[Any, Params], str | None]
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _dl_sample(p: Params) -> Any:
    m = DiscreteLaplaceMechanism(p["query"], p["sensitivity"], p["epsilon"])
    return m.sample(p["data"], p["n"], p["rng"])


def _dl_pmf(p: Params) -> Any:
    m = DiscreteLaplaceMechanism(p["query"], p["sensitivity"], base=p["base"])
    return m.pmf(p["data"], p["window"])


def _lap_sample(p: Params) -> Any:
    m = LaplaceMechanism(p["query"], p["sensitivity"], p["epsilon"], dimension=p["dimension"])
    return m.sample(p["data"], p["n"], p["rng"])


def _lap_sf(p: Params) -> Any:
    return LaplaceMechanism(p["query"], p["sensitivity"], p["epsilon"]).sf(p["data"], p["t"])


def _exp_sample(p: Params) -> Any:
    m = ExponentialMechanism(p["scores"], p["sensitivity"], p["epsilon"])
    return m.sample(p["data"], p["n"], p["rng"])


def _exp_pmf(p: Params) -> Any:
    return ExponentialMechanism(p["scores"], p["sensitivity"], base=p["base"]).pmf(p["data"])


def _exp_pmf_eps(p: Params) -> Any:
    return ExponentialMechanism(p["scores"], p["sensitivity"], p["epsilon"]).pmf(p["data"])


def _nmv_sample(p: Params) -> Any:
    return NoisyMajorityVote(p["cells"], p["epsilon"]).sample(p["data"], p["n"], p["rng"])


def _nmv_pmf(p: Params) -> Any:
    return NoisyMajorityVote(p["cells"], base=p["base"]).pmf(p["data"])


def _rr_randomise(p: Params) -> Any:
    return RandomizedResponse(p["k"], p["epsilon"]).randomise(p["x"], p["rng"])


def _rr_base(p: Params) -> Any:
    return RandomizedResponse(p["k"], base=p["base"]).sample(p["data"], p["n"], p["rng"])


def _sh_sample(p: Params) -> Any:
    return StabilityHistogram(p["bins"], p["epsilon"], p["delta"]).sample(
        p["data"], p["n"], p["rng"]
    )


def _sh_pmf(p: Params) -> Any:
    hist = StabilityHistogram(p["bins"], base=p["base"], delta=p["delta"])
    return hist.pmf(p["data"], (0, p["cap"]))


def _sh_function(p: Params) -> Any:
    return stability_histogram(p["cells"], p["epsilon"], p["delta"], p["rng"])


def _learner(cls: Any, fixed: Params, names: tuple[str, ...]) -> Callable[[Params], Any]:
    """fit(X, y) then predict / score on X_test (the constructor takes the ``names``)."""

    def run(p: Params) -> Any:
        model = cls(**{k: p[k] for k in names}, **fixed).fit(p["X"], p["y"])
        return model, model.predict(p["X_test"]), model.score(p["X_test"], p["y_test"])

    return run


def _learner_check(r: Any, p: Params) -> str | None:
    model, pred, acc = r
    return _labels(pred, np.asarray(p["X_test"]).shape[0], model.classes_) or _probability(acc)


def _pcde(p: Params) -> Any:
    model = PrivateHistogramDensity(
        p["epsilon"], p["delta"], side=p["side"], random_state=p["random_state"]
    ).fit(p["X"])
    return model, model.pdf(p["X_test"]), model.sample(p["n_samples"], p["sample_state"])


def _pcde_check(r: Any, p: Params) -> str | None:
    model, dens, draws = r
    bad = _finite_array(dens, (np.asarray(p["X_test"]).shape[0],))
    if bad or np.any(dens < 0):
        return bad or "negative density"
    return _finite_array(draws, (p["n_samples"], model.n_features_in_))


def _ssl(p: Params) -> Any:
    model = PrivateSemiSupervisedClassifier(
        "threshold",
        p["epsilon"],
        p["delta"],
        p["label_epsilon"],
        n_synthetic=p["n_synthetic"],
        side=p["side"],
        random_state=p["random_state"],
    ).fit(p["X_labeled"], p["y"], p["X_unlabeled"])
    return model, model.predict(p["X_test"]), model.score(p["X_test"], p["y_test"])


_LEARN_DATA: Params = {"X": _X2, "y": _Y2, "X_test": _X2[:7], "y_test": _Y2[:7]}


_LDP_PARAMS = ("epsilon", "bandwidth_constant", "h", "radius", "offset", "random_state")


_LDP_REG_PARAMS = (*_LDP_PARAMS, "truncation", "threshold", "batch_size", "simulate", "idealised")


_LDP_REG_DATA: Params = {
    "X": _X2,
    "y": _X2[:, 0] - 0.5,
    "X_test": _X2[:7],
    "y_test": _X2[:7, 0] - 0.5,
}


def _ldp_regressor(p: Params) -> Any:
    model = LDPPartitionRegressor(**{k: p[k] for k in _LDP_REG_PARAMS}).fit(p["X"], p["y"])
    return model, model.predict(p["X_test"]), model.score(p["X_test"], p["y_test"])


def _ldp_regressor_check(r: Any, p: Params) -> str | None:
    _, pred, r2 = r
    bad = _finite_array(pred, (np.asarray(p["X_test"]).shape[0],))
    return bad or (None if math.isfinite(r2) else f"score {r2} not finite")


def _ldp_randomise(p: Params) -> Any:
    partition = CubicPartition(p["h"], p["radius"], 2, p["offset"])
    randomiser = LocalRandomiser(
        partition, p["epsilon"], p["truncation"], p["z_only"], idealised=p["idealised"]
    )
    return partition.n_cells, randomiser.randomise(p["x"], p["y"], p["rng"])


def _ldp_randomise_check(r: Any, p: Params) -> str | None:
    cells, (w, z) = r
    shape = (np.asarray(p["x"]).shape[0], cells)
    return _finite_array(w, shape) or _finite_array(z, shape)


TARGETS: tuple[Target, ...] = (
    Target(
        "DiscreteLaplaceMechanism.sample",
        {"query": _count, "sensitivity": 1, "epsilon": 1.0, "data": _D, "n": 5, "rng": _rng()},
        _dl_sample,
        lambda r, p: _finite_array(r, (p["n"],)),
        {"data": ("query",), "sensitivity": ("scale",), "epsilon": ("scale",)},
    ),
    Target(
        "DiscreteLaplaceMechanism.pmf",
        {
            "query": _count,
            "sensitivity": 1,
            "base": Fraction(1, 2),
            "data": _D,
            "window": (0, 6),
        },
        _dl_pmf,
        lambda r, p: _law(r),
        {"data": ("query",)},
    ),
    Target(
        "LaplaceMechanism.sample",
        {
            "query": _mean,
            "sensitivity": 1.0,
            "epsilon": 1.0,
            "dimension": 1,
            "data": _D,
            "n": 5,
            "rng": _rng(),
        },
        _lap_sample,
        lambda r, p: _finite_array(r, (p["n"],) if p["dimension"] == 1 else (p["n"], 1)),
        {
            "data": ("query",),
            "sensitivity": ("scale", "query"),
            "epsilon": ("scale",),
            "dimension": ("query", "n"),
        },
    ),
    Target(
        "LaplaceMechanism.sf",
        {"query": _mean, "sensitivity": 1.0, "epsilon": 1.0, "data": _D, "t": 0.5},
        _lap_sf,
        lambda r, p: _probability(r),
        {"data": ("query",), "sensitivity": ("scale", "query"), "epsilon": ("scale",)},
    ),
    Target(
        "ExponentialMechanism.sample",
        {"scores": _scores, "sensitivity": 1, "epsilon": 1.0, "data": _D, "n": 5, "rng": _rng()},
        _exp_sample,
        lambda r, p: _in_range(r, (p["n"],), 0, 3),
        {"data": ("scores",)},
    ),
    Target(
        "ExponentialMechanism.pmf",
        {"scores": _scores, "sensitivity": 1, "base": Fraction(1, 2), "data": _D},
        _exp_pmf,
        lambda r, p: _law(r),
        {"data": ("scores",)},
    ),
    Target(
        "ExponentialMechanism.pmf(epsilon)",
        {"scores": _scores, "sensitivity": 1, "epsilon": 0.1, "data": _D},
        _exp_pmf_eps,
        lambda r, p: _law(r),
        {"data": ("scores",)},
    ),
    Target(
        "NoisyMajorityVote.sample",
        {
            "cells": 3,
            "epsilon": 1.0,
            "data": np.array([[0, 1], [2, 0], [2, 1]]),
            "n": 4,
            "rng": _rng(),
        },
        _nmv_sample,
        lambda r, p: _finite_array(r, (p["n"], p["cells"])),
        {"cells": ("data",)},
    ),
    Target(
        "NoisyMajorityVote.pmf",
        {"cells": 3, "base": Fraction(1, 3), "data": np.array([[0, 1], [2, 0]])},
        _nmv_pmf,
        lambda r, p: _law(r),
        {"cells": ("data",)},
    ),
    Target(
        "RandomizedResponse.randomise",
        {"k": 3, "epsilon": 1.0, "x": np.array([0, 2, 1, 1]), "rng": _rng()},
        _rr_randomise,
        lambda r, p: _in_range(r, np.asarray(p["x"]).shape, 0, p["k"]),
        {"k": ("x",)},
    ),
    Target(
        "RandomizedResponse.sample",
        {"k": 2, "base": Fraction(1, 3), "data": np.array([0, 1, 1]), "n": 3, "rng": _rng()},
        _rr_base,
        lambda r, p: _in_range(r, (p["n"], int(np.size(p["data"]))), 0, p["k"]),
        {"k": ("data",)},
    ),
    Target(
        "StabilityHistogram.sample",
        {
            "bins": 4,
            "epsilon": 1.0,
            "delta": 1e-3,
            "data": np.array([0, 1, 1, 3]),
            "n": 3,
            "rng": _rng(),
        },
        _sh_sample,
        lambda r, p: _finite_array(r, (p["n"], p["bins"])),
        {"bins": ("data",)},
    ),
    Target(
        "StabilityHistogram.pmf",
        {"bins": 2, "base": Fraction(1, 2), "delta": Fraction(1, 10), "data": [0, 1], "cap": 9},
        _sh_pmf,
        lambda r, p: _law(r),
        {
            "bins": ("data",),
            "base": ("delta", "window"),
            "delta": ("base", "window"),
            "cap": ("window",),
        },
    ),
    Target(
        "stability_histogram",
        {"cells": np.array([5, 5, 5, -2]), "epsilon": 1.0, "delta": 1e-3, "rng": _rng()},
        _sh_function,
        lambda r, p: _finite_array(r[1], r[0].shape),
    ),
    Target(
        "PrivateHistogramClassifier",
        {"epsilon": 1.0, "cells_per_axis": None, "random_state": 0, **_LEARN_DATA},
        _learner(PrivateHistogramClassifier, {}, ("epsilon", "cells_per_axis", "random_state")),
        _learner_check,
        {"X_test": ("X",), "y_test": ("y",)},
    ),
    Target(
        "HistogramRuleClassifier",
        {"cells_per_axis": 3, **_LEARN_DATA},
        _learner(HistogramRuleClassifier, {}, ("cells_per_axis",)),
        _learner_check,
        {"X_test": ("X",), "y_test": ("y",)},
    ),
    Target(
        "PrivatePackingClassifier",
        {"epsilon": 1.0, "cells_per_axis": None, "random_state": 0, **_LEARN_DATA},
        _learner(PrivatePackingClassifier, {}, ("epsilon", "cells_per_axis", "random_state")),
        _learner_check,
        {"X_test": ("X",), "y_test": ("y",)},
    ),
    Target(
        "PrivateUnboundedClassifier",
        {
            "epsilon": 2.0,
            "delta": 1e-3,
            "radius": 0.5,
            "random_state": 0,
            "X": _X1,
            "y": _Y1,
            "X_test": _X1[:9],
            "y_test": _Y1[:9],
        },
        _learner(PrivateUnboundedClassifier, {}, ("epsilon", "delta", "radius", "random_state")),
        _learner_check,
        {"X_test": ("X",), "y_test": ("y",)},
    ),
    Target(
        "PrivateHistogramDensity",
        {
            "epsilon": 2.0,
            "delta": 1e-3,
            "side": 0.5,
            "random_state": 0,
            "X": _X1,
            "X_test": _X1[:5],
            "n_samples": 6,
            "sample_state": _rng(),
        },
        _pcde,
        _pcde_check,
        {"X_test": ("X",), "sample_state": ("random_state",)},
    ),
    Target(
        "PrivateSemiSupervisedClassifier",
        {
            "epsilon": 2.0,
            "delta": 1e-3,
            "label_epsilon": 1.0,
            "n_synthetic": 40,
            "side": 0.5,
            "random_state": 0,
            "X_labeled": _X1[::10],
            "y": _Y1[::10],
            "X_unlabeled": _X1,
            "X_test": _X1[:6],
            "y_test": _Y1[:6],
        },
        _ssl,
        _learner_check,
        {"X_test": ("X",), "y_test": ("y",)},
    ),
    Target(
        "LDPPartitionRegressor",
        {
            "epsilon": 1.0,
            "bandwidth_constant": 1.0,
            "h": None,
            "radius": None,
            "offset": 0.0,
            "truncation": None,
            "threshold": None,
            "batch_size": 16,
            "simulate": "users",
            "idealised": False,
            "random_state": 0,
            **_LDP_REG_DATA,
        },
        _ldp_regressor,
        _ldp_regressor_check,
        {"X_test": ("X",), "y_test": ("y",), "bandwidth_constant": ("h",)},
    ),
    Target(
        "LDPPartitionClassifier",
        {
            "epsilon": 1.0,
            "bandwidth_constant": 1.0,
            "h": None,
            "radius": None,
            "offset": 0.0,
            "random_state": 0,
            **_LEARN_DATA,
        },
        _learner(LDPPartitionClassifier, {}, _LDP_PARAMS),
        _learner_check,
        {"X_test": ("X",), "y_test": ("y",), "bandwidth_constant": ("h",)},
    ),
    Target(
        "LocalRandomiser.randomise",
        {
            "h": 0.5,
            "radius": 1.0,
            "offset": 0.0,
            "epsilon": 1.0,
            "truncation": 1.0,
            "z_only": False,
            "idealised": False,
            "x": _X2[:9],
            "y": _X2[:9, 1] - 0.5,
            "rng": _rng(),
        },
        _ldp_randomise,
        _ldp_randomise_check,
        {"x": ("X",)},
    ),
)


_NAN, _INF = float("nan"), float("inf")


#: Hostile scalars for any numeric parameter (the explicit list; Hypothesis adds more).
HOSTILE_SCALARS: tuple[Any, ...] = (
    _NAN,
    _INF,
    -_INF,
    0,
    0.0,
    -0.0,
    -1,
    -1.5,
    1e-300,
    5e-324,
    1e300,
    1.7976931348623157e308,
    709.8,
    710,
    1000,
    MAX_EPSILON,
    2**62,
    2**63 - 1,
    2**63,
    2**64,
    2**128,
    -(2**63),
    10**30,
    True,
    False,
    None,
    "1",
    "x",
    b"1",
    1 + 0j,
    complex(_NAN, 0),
    [],
    [1.0],
    (),
    {},
    object(),
    Fraction(1, 10**30),
    Fraction(10**30),
    Fraction(-1, 2),
    np.float16(0.5),
    np.float32(0.5),
    np.longdouble(0.5),
    np.float32(_NAN),
    np.float64(_INF),
    np.int8(3),
    np.uint64(2**63),
    np.int64(-1),
    np.bool_(True),
    np.complex64(1),
    np.array(0.5),
    np.array([0.5]),
    np.float32(1e-40),
    2.5,
)


#: Hostile counts: small or beyond the limits (not huge-but-allowed requests).
HOSTILE_COUNTS: tuple[Any, ...] = (
    0,
    -1,
    -(2**63),
    1,
    2,
    2.0,
    2.5,
    True,
    None,
    "3",
    np.int32(2),
    np.uint8(3),
    np.float64(2.0),
    10**9,
    10**12,
    2**63,
    2**64,
    2**128,
    _NAN,
    _INF,
    1 + 0j,
)


#: The first value beyond each count's limit.
_BEYOND = {
    "n": LIMITS["draws"] + 1,
    "n_samples": LIMITS["draws"] + 1,
    "cells": LIMITS["cells"] + 1,
    "bins": LIMITS["cells"] + 1,
    "k": LIMITS["categories"] + 1,
    "n_synthetic": LIMITS["synthetic"] + 1,
}


#: Hostile arrays for data / X / y / cells.
HOSTILE_ARRAYS: tuple[Any, ...] = (
    None,
    [],
    [[]],
    np.empty((0, 2)),
    np.empty((3, 0)),
    [_NAN],
    [[_NAN, 0.5]],
    [[_INF, 0.5]],
    np.full((3, 2), 1e300),
    np.full((3, 1), -1e300),
    np.full((3, 2), 1.7e308),
    np.array([[1e300, -1e300], [0.5, 0.5]]),
    np.full((4, 1), 5e-324),
    np.array(["a", "b"]),
    np.array([["a", "b"]]),
    np.array([1, "a"], dtype=object),
    np.array([[1, "a"]], dtype=object),
    np.array([1 + 1j, 2]),
    np.array([[1 + 1j, 0.5]]),
    np.zeros((2, 2, 2)),
    [[1.0], [1.0, 2.0]],
    np.array([True, False]),
    np.array([[True, False]]),
    np.array([2**63 - 1, 0]),
    np.array([2**64 - 1], dtype=np.uint64),
    np.array([-(2**63)]),
    np.array([[0.5, 0.25]], dtype=np.float16),
    np.array([[2**62, 1]]),
    np.array([10**30, 1], dtype=object),
    3.0,
    "data",
    {"a": 1},
    np.array(["a", 1, "a", 1], dtype=object),
    np.array([1.5, 2.5, 3.5]),
    np.ones((1, 1)),
    np.ones((40, 3)),
    np.ones(40),
    np.ones((40, 1)) * 0.5,
    np.arange(10),
    np.zeros(40),
)


HOSTILE_RNG: tuple[Any, ...] = (None, 42, "0", np.random.RandomState(0), np.random.PCG64(0))


#: Return values of a hostile query / score function.
HOSTILE_OUTPUTS: tuple[Any, ...] = (
    _NAN,
    _INF,
    2**63 - 1,
    2**63,
    -(2**63),
    10**30,
    1e300,
    1 + 0j,
    None,
    "x",
    [],
    [[1, 2]],
    {"a": 1},
    np.array([1, "a"], dtype=object),
    np.array([2**64 - 1], dtype=np.uint64),
    np.array([0.5, 1.5]),
    np.array([0, 2**62]),
    np.array([_NAN, 0.0]),
    True,
)


_ARRAY_PARAMS = frozenset(
    {"data", "X", "y", "x", "X_test", "y_test", "cells_data", "X_labeled", "X_unlabeled"}
)


_COUNT_PARAMS = frozenset(
    {"n", "n_samples", "cells", "k", "bins", "cells_per_axis", "dimension", "n_synthetic", "cap"}
)


def _values_for(param: str, target: Target) -> tuple[Any, ...]:
    if param == "rng":
        return HOSTILE_RNG
    if param == "sample_state":  # a random_state that may also be a Generator
        return (-1, 2**128, 1.5, "0", _NAN, object())
    if param in ("query", "scores"):
        return (*tuple(_constant(v) for v in HOSTILE_OUTPUTS), None, 3, "f")
    if param == "cells" and target.name == "stability_histogram":
        return HOSTILE_ARRAYS
    if param in _ARRAY_PARAMS:
        return HOSTILE_ARRAYS
    if param in _COUNT_PARAMS:
        return HOSTILE_COUNTS + ((_BEYOND[param],) if param in _BEYOND else ())
    if param == "window":
        return ((0.5, 2.5), (0, 10**8), (5, 0), (-(2**70), 2**70), (0,), None, "ab", (_NAN, 1))
    return HOSTILE_SCALARS


def _constant(value: Any) -> Callable[[Any], Any]:
    def query(d: Any) -> Any:
        return value

    query.__qualname__ = f"returns {value!r}"[:60]
    return query


@dataclass
class Tally:
    """Cases run, refused with a named error, accepted with a clean result, and failures."""

    cases: int = 0
    refused: int = 0
    accepted: int = 0
    slowest: float = 0.0
    failures: list[str] = field(default_factory=list)


def _alarm_available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _on_alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout(f"over {CASE_SECONDS} s")


def run_case(
    target: Target, param: str, value: Any, tally: Tally, names: tuple[str, ...] | None = None
) -> str | None:
    """Run ``target`` with ``param`` replaced by ``value``; the failure text, or None.

    A refusal must name ``param`` or one of its aliases (or ``names`` when given).
    """
    args = dict(target.clean)
    if param in args:
        args[param] = value
    if "rng" in args and param != "rng":
        args["rng"] = np.random.default_rng(0)
    if names is None:
        names = (param, *target.aliases.get(param, ()))
    label = f"{target.name}[{param}={_short(value)}]"
    use_alarm = _alarm_available()
    previous: Any = None
    if use_alarm:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    start = time.perf_counter()
    outcome: str | None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            # the one deliberate warning: scikit-learn's convention for a column-vector y
            warnings.filterwarnings("ignore", category=DataConversionWarning)
            result = target.run(args)
            problem = target.check(result, args)
        outcome = None if problem is None else f"{label}: accepted but {problem}"
        if outcome is None:
            tally.accepted += 1
    except REFUSALS as exc:
        message = str(exc)
        if not any(n in message for n in names):
            outcome = f"{label}: {type(exc).__name__} not naming {param}: {message[:120]}"
        else:
            tally.refused += 1
            outcome = None
    except CaseTimeout:
        outcome = f"{label}: over {CASE_SECONDS} s"
    except Exception as exc:  # every other exception is a failure
        outcome = f"{label}: {type(exc).__name__}: {str(exc)[:120]}"
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start
    tally.slowest = max(tally.slowest, elapsed)
    if outcome is None and elapsed > CASE_SECONDS:
        outcome = f"{label}: took {elapsed:.2f} s"
    tally.cases += 1
    if outcome is not None:
        tally.failures.append(outcome)
    return outcome


def _short(value: Any) -> str:
    if callable(value) and not isinstance(value, type):
        return getattr(value, "__qualname__", "callable")
    text = repr(value).replace("\n", " ")
    return text if len(text) <= 40 else text[:37] + "..."


_G = 21474836511  # ε = 0.1: gap·numerator just above 2^63 (the int64 overflow found in review)


def _reported_cases() -> list[tuple[str, Callable[[], Any], Callable[[Any], str | None] | None]]:
    """(names the error may use, call, predicate on an accepted result) for every listed case.

    A case with predicate None must be refused with a named error.
    """
    rng = np.random.default_rng
    two = np.array([0, 1])

    def exp_opposite() -> Any:
        m = ExponentialMechanism(lambda d: np.array([0, int(d[0])]), 1, 0.1)
        return (
            m.pmf(np.array([_G])),
            m.pmf(np.array([_G - 1])),
            m.sample(np.array([_G]), 50, rng(0)),
            m.sample(np.array([_G - 1]), 50, rng(0)),
        )

    def exp_ok(r: Any) -> str | None:
        p, q, a, b = r
        if float(p[1]) != 1.0 or float(q[1]) != 1.0:
            return f"pmf {p} / {q}: the top-scored candidate must get all the mass"
        if not (np.all(a == 1) and np.all(b == 1)):
            return "samples differ between neighbours with a 1e9 score gap"
        return None

    fit_pcde = PrivateHistogramDensity(0.1, 1e-9, random_state=0)
    ssl = PrivateSemiSupervisedClassifier(epsilon=0.1, delta=1e-9, random_state=0)
    pcl = PrivateHistogramClassifier(1.0, random_state=0).fit(_X2, _Y2)
    cases: list[tuple[str, Callable[[], Any], Callable[[Any], str | None] | None]] = [
        ("scores", exp_opposite, exp_ok),
        (
            "query",
            lambda: DiscreteLaplaceMechanism(lambda d: 2**63 - 1, 1, 1.0).sample(_D, 5, rng(0)),
            None,
        ),
        ("X:", lambda: fit_pcde.fit(_X2[:5]), None),
        ("X_unlabeled", lambda: ssl.fit(_X1[:2], [0, 1], _X1[:2]), None),
        ("epsilon", lambda: DiscreteLaplaceMechanism(_count, 1, 710).sample(_D, 2, rng(0)), None),
        ("epsilon", lambda: PrivateHistogramClassifier(710.0).fit(_X2, _Y2), None),
        ("epsilon", lambda: LaplaceMechanism(_mean, 1.0, 1e6), None),
        ("epsilon", lambda: RandomizedResponse(2, 710), None),
        ("epsilon", lambda: StabilityHistogram(3, 710.0), None),
        ("epsilon", lambda: DiscreteLaplaceMechanism(_count, 1, 1 + 0j), None),  # type: ignore[arg-type]
        ("epsilon", lambda: DiscreteLaplaceMechanism(_count, 1, "0.5"), None),  # type: ignore[arg-type]
        ("epsilon", lambda: DiscreteLaplaceMechanism(_count, 1, True), None),
        ("base", lambda: DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 10**30)), None),
        ("sensitivity", lambda: LaplaceMechanism(_mean, 1e-300, 1.0).sample(_D, 2, rng(0)), None),
        ("t", lambda: LaplaceMechanism(_mean, 1.0, 1.0).sf(_D, _NAN), None),
        (
            "window",
            lambda: DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 2)).pmf(
                _D,
                (0.5, 2.5),  # type: ignore[arg-type]
            ),
            None,
        ),
        ("data", lambda: DiscreteLaplaceMechanism(_count, 1, 1.0).sample(_NONE, 3, rng(0)), None),
        (
            "y",
            lambda: PrivateHistogramClassifier(1.0, random_state=0).fit(
                _X2[:4], np.array(["a", 1, "a", 1], dtype=object)
            ),
            None,
        ),
        ("y", lambda: pcl.score(_X2, _Y2[:10]), None),
        (
            "random_state",
            lambda: PrivateHistogramClassifier(1.0, random_state=2**128).fit(_X2, _Y2),
            None,
        ),
        ("X", lambda: PrivateHistogramDensity(1.0, side=1e-10).fit(np.full((5, 2), 1e300)), None),
        ("x", lambda: RandomizedResponse(2, 1.0).randomise(np.array([1e300]), rng(0)), None),
        (
            "window",
            lambda: DiscreteLaplaceMechanism(_count, 1, base=Fraction(1, 2)).pmf(_D, (0, 10**8)),
            None,
        ),
        ("n", lambda: DiscreteLaplaceMechanism(_count, 1, 1.0).sample(_D, 10**12, rng(0)), None),
        ("cells", lambda: NoisyMajorityVote(10**12, 1.0), None),
        (
            "n_synthetic",
            lambda: PrivateSemiSupervisedClassifier(n_synthetic=10**9).fit(
                _X1[:4], [0, 1, 0, 1], _X1
            ),
            None,
        ),
        (
            "scores",
            lambda: ExponentialMechanism(lambda d: np.array([2**63 - 1, 0]), 1, 1.0).sample(
                two, 2, rng(0)
            ),
            None,
        ),
    ]
    return cases


def _run_explicit(tally: Tally) -> None:
    for names, call, predicate in _reported_cases():

        def check(r: Any, p: Params, predicate: Any = predicate) -> str | None:
            if predicate is None:
                return "accepted, but this case must be refused with a named error"
            result: str | None = predicate(r)
            return result

        def run(p: Params, call: Callable[[], Any] = call) -> Any:
            return call()

        target = Target(f"reported-case[{names}]", {}, run, check)
        run_case(target, names, None, tally, names=(names,))


def _int64_exponential_pmf(top: int) -> dict[int, float]:
    """The exponential mechanism's weights as computed before the fix: the exponent
    gap·numerator in int64, which wraps for the reported scores (ε = 0.1, gap ≈ 2.1e10)."""
    num, den = 429496729, 2**33
    with np.errstate(over="ignore"):
        a = (np.array([top, 0], dtype=np.int64) * np.int64(num)).astype(np.int64)
    w = [math.exp(-min(max(int(x) / den, -700.0), 700.0)) for x in a]
    return {i: wi / sum(w) for i, wi in enumerate(w)}


def _controls() -> list[str]:
    """Broken targets the harness must report; the names of those it missed."""
    tally = Tally()
    clean = {"epsilon": 1.0}
    broken = [
        ("overflow", Target("c1", clean, lambda p: math.exp(710), lambda r, p: None)),
        (
            "unnamed",
            Target("c2", clean, lambda p: (_ for _ in ()).throw(ValueError("bad")), _no_check),
        ),
        ("warning", Target("c3", clean, lambda p: np.array([1e308]) * 10, _no_check)),
        (
            "index",
            Target("c4", clean, lambda p: np.arange(3)[int(p["epsilon"]) + 5], _no_check),
        ),
        ("shape", Target("c5", clean, lambda p: np.zeros(4), lambda r, p: _finite_array(r, (5,)))),
        (
            "int64 exponential",
            Target(
                "c6",
                clean,
                lambda p: (_int64_exponential_pmf(_G), _int64_exponential_pmf(_G - 1)),
                lambda r, p: None if float(r[0][0]) == float(r[1][0]) else "opposite outputs",
            ),
        ),
    ]
    missed = []
    for name, target in broken:
        if run_case(target, "epsilon", 2.0, tally) is None:
            missed.append(name)
    return missed


def _no_check(r: Any, p: Params) -> str | None:
    return None


def hostile_inputs(config: VerifyConfig) -> CheckOutcome:
    """Every listed case, every (entry point, argument, explicit hostile value), and
    Hypothesis-generated hostile values: a named refusal or a clean result, never anything else.

    Deterministic: the explicit lists in a fixed order, then Hypothesis with
    ``derandomize=True`` and a fixed ``max_examples``.
    """
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    tally = Tally()
    _run_explicit(tally)
    explicit = tally.cases
    for target in TARGETS:
        for param in target.clean:
            for value in _values_for(param, target):
                run_case(target, param, value, tally)
    listed = tally.cases

    scalars = st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(width=16) | st.floats(width=32),
        st.integers(-(2**130), 2**130),
        st.fractions(),
        st.complex_numbers(),
        st.text(max_size=3),
        st.booleans(),
        st.none(),
    )
    counts = st.one_of(
        st.integers(-(2**70), 8), st.integers(LIMITS["draws"] + 1, 2**70), st.floats(), st.none()
    )
    arrays = st.one_of(
        st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=6).map(np.array),
        st.lists(
            st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=2, max_size=2),
            max_size=6,
        ).map(lambda rows: np.array(rows, dtype=np.float64).reshape(-1, 2)),
        st.lists(st.integers(-(2**64), 2**64), max_size=5).map(lambda v: np.array(v, dtype=object)),
        st.lists(st.one_of(st.integers(0, 3), st.text(max_size=1)), max_size=5).map(
            lambda v: np.array(v, dtype=object)
        ),
    )

    @st.composite
    def case(draw: Any) -> tuple[Target, str, Any]:
        target = draw(st.sampled_from(TARGETS))
        param = draw(st.sampled_from(sorted(target.clean)))
        if param in ("rng", "query", "scores", "window"):
            value = draw(st.sampled_from(_values_for(param, target)))
        elif param in _ARRAY_PARAMS or (param == "cells" and target.name == "stability_histogram"):
            value = draw(arrays)
        elif param in _COUNT_PARAMS:
            value = draw(counts)
        else:
            value = draw(scalars)
        return target, param, value

    examples = 2000 if config.thorough else 600

    @settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case())
    def fuzz(c: tuple[Target, str, Any]) -> None:
        run_case(*c, tally)

    start = time.perf_counter()
    fuzz()
    fuzz_seconds = time.perf_counter() - start
    missed = _controls()
    ok = not tally.failures and not missed
    return CheckOutcome(
        ok,
        f"{tally.cases} hostile calls ({explicit} reported in review, {listed - explicit} "
        f"explicit per argument, {tally.cases - listed} Hypothesis): {tally.refused} refused "
        f"naming the argument, {tally.accepted} accepted with a clean-input result, "
        f"{len(tally.failures)} failures; slowest {tally.slowest:.2f} s"
        + (f"; first failures: {tally.failures[:5]}" if tally.failures else "")
        + (
            f"; negative controls NOT flagged: {missed}"
            if missed
            else "; 6/6 negative "
            "controls (overflow, unnamed error, RuntimeWarning, IndexError, wrong shape, the "
            "int64 exponential mechanism) flagged"
        ),
        {
            "cases": tally.cases,
            "refused": tally.refused,
            "accepted": tally.accepted,
            "failures": tally.failures,
            "slowest_seconds": tally.slowest,
            "fuzz_seconds": fuzz_seconds,
            "entry_points": len(TARGETS),
            "controls_missed": missed,
        },
    )


def exact_integer_bounds(config: VerifyConfig) -> CheckOutcome:
    """Exhaustive check, on the boundary grid, that the exact samplers' integer arithmetic is
    overflow-safe: the exponent split is exact, the bounds refuse with named errors, and values
    at ±(2^62 − 1) come out unwrapped.

    * ``exp_neg_exponents(gap, num, den)``: whole + excess + rest/den == gap·num/den exactly
      (Python Fractions), 0 ≤ rest < den, whole ≤ 2^62, for every gap in {0, 1, 2, B − 1, B,
      B + 1, 2^62, 2^63 − 1} (B = ⌊(2^62 − 1)/num⌋, the fast-path edge) × num × den on a grid
      of 5 × 5 boundary values — both the int64 fast path and the Python-int path;
    * ``bounded_int_array``: ±(2^62 − 1) accepted, ±2^62, uint64 2^63, 10^30 refused naming it;
    * ``discrete_laplace``: x = u + t·V ≤ (t − 1) + t·v_max < 2^62 for the scale numerators t at
      the coarsening edge (and v_max ≥ 63: P(V > v_max) < e^−63);
    * ``DiscreteLaplaceMechanism.sample`` at f = ±(2^62 − 1): every output within 200 of f as a
      Python int (no wrap-around), and f = 2^63 − 1 refused naming ``query``;
    * ``ExponentialMechanism`` at the reported scores (ε = 0.1, [0, g] vs [0, g − 1], g =
      21474836511) and at the widest gap 2^63 − 2: the top candidate has all the mass in pmf and
      in 200 samples, for both neighbours;
    * ``categorical_exp_gap`` draws exactly what ``categorical_exp_neg`` draws on the fast path
      (gap·num = 2^62 − 1, same seed);
    * the excess trials (beyond 2^62 whole factors) draw Bernoulli(e^{−excess}): 20,000 trials
      with excess 1 land within 6 standard deviations of e^{−1} (false alarm < 2·10^−9); a
      control that skips the excess (P = 1) is rejected.
    """
    from dpspec.noise import (
        _INT64_SAFE,
        ExpNegExponents,
        bernoulli_exp_neg_exponents,
        categorical_exp_gap,
        categorical_exp_neg,
        exp_neg_exponents,
    )
    from dpspec.validation import INT_BOUND, bounded_int_array

    problems: list[str] = []
    checked = 0
    nums = [1, 3, 429496729, 2**32 - 1, 700 * 2**32]
    dens = [1, 2, 2**33, 2**61 - 1, 2**62]
    for num in nums:
        edge = (INT_BOUND - 1) // num
        gaps = sorted({0, 1, 2, edge - 1, edge, edge + 1, 2**62, 2**63 - 1})
        for den in dens:
            e = exp_neg_exponents(np.array(gaps, dtype=np.int64), num, den)
            for i, g in enumerate(gaps):
                checked += 1
                whole, rest = int(e.whole[i]), int(e.rest[i])
                excess = 0 if e.excess is None else int(e.excess[i])
                if not (0 <= rest < den and 0 <= whole <= INT_BOUND and excess >= 0):
                    problems.append(f"parts out of range at gap={g}, num={num}, den={den}")
                if whole + excess + Fraction(rest, den) != Fraction(g * num, den):
                    problems.append(f"split inexact at gap={g}, num={num}, den={den}")
    for ok_value in (INT_BOUND - 1, -(INT_BOUND - 1)):
        checked += 1
        if int(bounded_int_array([ok_value], "query")[0]) != ok_value:
            problems.append(f"bounded_int_array changed {ok_value}")
    for bad in ([INT_BOUND], [-INT_BOUND], np.array([2**63], dtype=np.uint64), [10**30]):
        checked += 1
        try:
            bounded_int_array(bad, "query")
            problems.append(f"bounded_int_array accepted {bad!r}")
        except ValueError as exc:
            if "query" not in str(exc):
                problems.append(f"bounded_int_array did not name the argument: {exc}")
    for t in (1, 2, _INT64_SAFE - 1):
        checked += 1
        v_max = (INT_BOUND - t) // t
        if (t - 1) + t * v_max >= INT_BOUND or v_max < 63:  # x = u + t·V, u < t
            problems.append(f"discrete_laplace bound at t={t}: v_max={v_max}")
    for f in (INT_BOUND - 1, -(INT_BOUND - 1)):
        checked += 1
        dl = DiscreteLaplaceMechanism(_constant(f), 1, 1.0)
        out = dl.sample(_D, 500, np.random.default_rng(1))
        if any(abs(int(o) - f) > 200 for o in out.tolist()):
            problems.append(f"DiscreteLaplaceMechanism wrapped at f={f}")
    try:
        DiscreteLaplaceMechanism(lambda d: 2**63 - 1, 1, 1.0).sample(_D, 5, _rng())
        problems.append("DiscreteLaplaceMechanism accepted f = 2^63 - 1")
    except ValueError as exc:
        if "query" not in str(exc):
            problems.append(f"f = 2^63 - 1 refused without naming query: {exc}")
    for scores in (
        [np.array([0, _G]), np.array([0, _G - 1])],
        [np.array([-(INT_BOUND - 1), INT_BOUND - 1]), np.array([-(INT_BOUND - 2), INT_BOUND - 1])],
    ):
        for s in scores:
            checked += 1
            mech = ExponentialMechanism(_constant(s), 1, 0.1)
            law = mech.pmf(_D)
            draws = mech.sample(_D, 200, np.random.default_rng(2))
            if float(law[1]) != 1.0 or not np.all(draws == 1):
                problems.append(f"exponential mechanism at scores {s.tolist()}: {law}")
    wide = np.array([-(INT_BOUND - 1), INT_BOUND - 1, INT_BOUND - 6])  # gaps up to 2^63 − 2
    checked += 1
    base_draws = ExponentialMechanism(_constant(wide), 1, base=Fraction(1, 2)).sample(
        _D, 200, np.random.default_rng(2)
    )
    if not set(np.unique(base_draws).tolist()) <= {1, 2}:
        problems.append("exponential mechanism (base) drew the candidate 2^63 - 2 below the top")
    num, den = 429496729, 2**33
    gap = np.array([0, (INT_BOUND - 1) // num, 5])
    a = categorical_exp_gap(gap, num, den, 300, np.random.default_rng(3))
    b = categorical_exp_neg(gap * num, den, 300, np.random.default_rng(3))
    checked += 1
    if not np.array_equal(a, b):
        problems.append("categorical_exp_gap differs from categorical_exp_neg on the fast path")
    trials = 20_000
    excess_one = np.ones(trials, dtype=object)
    zeros = np.zeros(trials, dtype=np.int64)
    hits = bernoulli_exp_neg_exponents(
        ExpNegExponents(zeros, zeros, 1, excess_one), np.random.default_rng(4)
    )
    control = bernoulli_exp_neg_exponents(
        ExpNegExponents(zeros, zeros, 1, None), np.random.default_rng(4)
    )
    sd = math.sqrt(math.exp(-1) * (1 - math.exp(-1)) / trials)
    rate, control_rate = float(hits.mean()), float(control.mean())
    checked += 2
    if abs(rate - math.exp(-1)) > 6 * sd:
        problems.append(f"excess trials: rate {rate:.4f} vs e^-1 = {math.exp(-1):.4f}")
    if abs(control_rate - math.exp(-1)) <= 6 * sd:
        problems.append("control (excess skipped) not rejected")
    return CheckOutcome(
        not problems,
        f"{checked} boundary cases: exponent split exact on {len(nums)}×{len(dens)}×8 "
        f"boundary (num, den, gap), ±(2^62−1) unwrapped, 2^62 / 2^63 refused naming the "
        f"argument, the reported exponential-mechanism neighbours agree; excess trials rate "
        f"{rate:.4f} (e^-1 = {math.exp(-1):.4f}, control {control_rate:.3f} rejected)"
        + (f"; problems: {problems[:5]}" if problems else ""),
        {"checked": checked, "problems": problems, "excess_rate": rate},
    )
