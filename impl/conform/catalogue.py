"""The algorithms ``dpspec conform`` can judge an implementation against.

Each :class:`Algorithm` states what a target receives and returns, its parameters (validated,
one ``ValueError``/``TypeError`` naming the parameter), its privacy guarantee as the spec states
it, and its **instances**: small inputs on which its output law is exact (from dpspec's own
laws: ``dpspec.noise``'s pmf functions, the mechanisms' ``pmf``, the learners' ``release_law``),
each with the spec's worst neighbouring input for the privacy audit, the law of the same
algorithm at ε × 1.1 (the alternative the draw budget is sized against) and the other
alternatives whose power is stated (a shifted support, a truncated tail). ``reference(params,
factor)`` is dpspec's own implementation at ε × factor, run through its public entry point.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.conform.adapters import Sampler, as_sampler
from dpspec.conform.gof import Law
from dpspec.conform.laws import (
    bernoulli_law,
    categorical_law,
    integer_law,
    noisy_max_law,
    product_law,
    shifted,
    tail_half_width,
    truncated,
)
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    RandomizedResponse,
    StabilityHistogram,
)
from dpspec.mechanisms.stability_histogram import TAIL
from dpspec.noise import bernoulli_exp_neg, discrete_laplace
from dpspec.validation import (
    LIMITS,
    check_count,
    check_delta,
    check_epsilon,
    check_flag,
    check_positive,
    rational_at_least,
    rational_at_most,
)

#: the factor of the alternative every draw budget is sized against: the same algorithm at ε × 1.1
EPSILON_FACTOR = 1.1
#: seed 000 (Bousquet et al.), the thesis (seed 002)
SEED_000 = "000_dff3c4dc97cf0e21.txt"
SEED_002 = "002_9f3104e4a0d86722.txt"


@dataclass(frozen=True)
class Param:
    """One parameter: ``kind`` is positive | epsilon | int | delta | bool | fraction."""

    name: str
    kind: str
    default: Any
    help: str
    minimum: int = 1
    maximum: int | None = None

    def parse(self, value: Any) -> Any:
        """The checked value (a TypeError or ValueError naming the parameter)."""
        if self.kind == "positive":
            return check_positive(value, self.name)
        if self.kind == "epsilon":
            return check_epsilon(value, self.name)
        if self.kind == "int":
            return check_count(value, self.name, self.minimum, self.maximum)
        if self.kind == "delta":
            return check_delta(value, self.name, allow_zero=False)
        if self.kind == "bool":
            return check_flag(value, self.name)
        if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
            raise TypeError(f"{self.name}: expected a rational number >= 0, got {value!r}")
        frac = (
            Fraction(value) if not isinstance(value, float) else rational_at_most(value, self.name)
        )
        if frac < 0 or frac > 600:
            raise ValueError(f"{self.name}: must be in [0, 600], got {value!r}")
        return frac

    def from_text(self, text: str) -> Any:
        """The value written on the command line, converted to the parameter's kind."""
        try:
            if self.kind == "bool":
                low = text.strip().lower()
                if low not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                return low in ("true", "1", "yes")
            if self.kind == "int":
                return int(text)
            if self.kind == "fraction":
                return Fraction(text.strip())
            return float(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{self.name}: cannot read {text!r} as {self.kind}") from None


@dataclass
class Instance:
    """One small input with its exact law. ``neighbour`` is the spec's worst neighbouring input
    (None: the algorithm makes no privacy claim); ``variant`` is the law at ε × 1.1;
    ``alternatives`` the other deviations whose power is stated."""

    label: str
    data: Any
    law: Law
    variant: Law
    neighbour: Any = None
    neighbour_law: Law | None = None
    alternatives: list[Law] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)
    #: laws the budget must also reach the power against (a harder form of the ε × 1.1 bug)
    sized: list[Law] = field(default_factory=list)


class Algorithm(ABC):
    """One algorithm of the spec with an exact law on small instances."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    summary: str = ""
    source: str = ""
    convention: str = ""
    params: tuple[Param, ...] = ()
    learner: bool = False

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        """Parameters checked and completed with defaults (unknown names refused)."""
        known = {p.name: p for p in self.params}
        for key in given:
            if key not in known:
                raise ValueError(
                    f"{key}: not a parameter of {self.name} (parameters: "
                    f"{', '.join(known) or 'none'})"
                )
        out = {
            p.name: (p.parse(given[p.name]) if given.get(p.name) is not None else p.default)
            for p in self.params
        }
        return self.complete(out)

    def complete(self, params: dict[str, Any]) -> dict[str, Any]:
        """Derived parameters and cross-checks (e.g. scale from ε)."""
        return params

    def from_text(self, given: dict[str, str]) -> dict[str, Any]:
        """Command-line ``NAME=VALUE`` texts converted to the parameters' kinds (unknown names
        refused); :meth:`resolve` then checks the values."""
        known = {p.name: p for p in self.params}
        out = {}
        for key, text in given.items():
            if key not in known:
                raise ValueError(
                    f"{key}: not a parameter of {self.name} (parameters: "
                    f"{', '.join(known) or 'none'})"
                )
            out[key] = known[key].from_text(text)
        return out

    def claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        """(ε, δ) the spec guarantees for these parameters; None: no privacy claim."""
        return (float(params["epsilon"]), 0.0)

    @abstractmethod
    def instances(self, params: dict[str, Any]) -> list[Instance]:
        """The spec's small instances with their exact laws."""

    @abstractmethod
    def reference(self, params: dict[str, Any], factor: float = 1.0) -> Any:
        """dpspec's own implementation at ε × factor, as a target."""

    def sampler(self, target: Any, params: dict[str, Any]) -> Sampler:
        """The target in this algorithm's calling convention."""
        return as_sampler(target)

    def guarantees(
        self,
        params: dict[str, Any],
        instance: Instance,
        outputs: NDArray[Any],
        *,
        sampler: Sampler | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[dict[str, Any]]:
        """The algorithm's other guarantees, checked on the instance's draws (``sampler`` and
        ``rng`` for guarantees that need draws of their own)."""
        return []

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "aliases": list(self.aliases),
            "summary": self.summary,
            "source": self.source,
            "target": self.convention,
            "params": [
                {"name": p.name, "kind": p.kind, "default": _plain(p.default), "help": p.help}
                for p in self.params
            ],
        }


def _plain(v: Any) -> Any:
    return str(v) if isinstance(v, Fraction) else v


def _scaled(params: dict[str, Any], factor: float) -> float:
    return float(params["epsilon"]) * factor


def _one_of_scale_epsilon(params: dict[str, Any], sensitivity: float, extra: float = 0.0) -> None:
    """Fill ``scale`` from ``epsilon`` or the other way: scale = (Δ + extra)/ε."""
    if (params.get("scale") is None) == (params.get("epsilon") is None):
        raise ValueError("scale: give exactly one of scale or epsilon")
    if params.get("scale") is None:
        params["scale"] = (sensitivity + extra) / params["epsilon"]
    else:
        params["epsilon"] = check_epsilon((sensitivity + extra) / params["scale"], "scale")


def _own(
    call: Callable[[Any, int, np.random.Generator], Any],
    description: str,
    pmf: Callable[[Any], Any] | None = None,
) -> Sampler:
    return Sampler(call, "sample(data, size, rng)", True, True, description, pmf)


# --- discrete Laplace ----------------------------------------------------------------------


class DiscreteLaplace(Algorithm):
    name = "discrete-laplace"
    aliases = ("two-sided-geometric", "geometric")
    summary = "v + Z with P(Z = z) ∝ exp(−|z|/scale) on the integers (ε = Δ/scale)"
    source = f"{SEED_000}:L119-121 (Def 2.2, Thm 2.3, on integer queries)"
    convention = "receives the exact integer query value v; returns v + Z, an integer"
    params = (
        Param("scale", "positive", None, "noise scale b (P(z) ∝ e^{-|z|/b}); or give epsilon"),
        Param("epsilon", "epsilon", None, "privacy parameter: scale = sensitivity/epsilon"),
        Param("sensitivity", "int", 1, "L1 sensitivity Δ of the integer query"),
    )

    def complete(self, params: dict[str, Any]) -> dict[str, Any]:
        _one_of_scale_epsilon(params, params["sensitivity"])
        if params["scale"] > 1e6:
            raise ValueError(f"scale: at most 1e6 here, got {params['scale']!r}")
        return params

    def instances(self, params: dict[str, Any]) -> list[Instance]:
        b, d = float(params["scale"]), int(params["sensitivity"])
        q = math.exp(-1.0 / b)
        w = tail_half_width(q) + d
        out = []
        for v, v2 in ((0, d), (1000, 1000 - d)):
            law = integer_law(v, q, v - w, v + w)
            out.append(
                Instance(
                    f"value {v}",
                    v,
                    law,
                    integer_law(v, q**EPSILON_FACTOR, v - w, v + w, note="scale / 1.1"),
                    v2,
                    integer_law(v2, q, v - w, v + w),
                    [shifted(law), truncated(law)],
                )
            )
        return out

    def reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        mech = DiscreteLaplaceMechanism(
            lambda a: int(a[0]), params["sensitivity"], _scaled(params, factor)
        )

        def call(v: Any, k: int, rng: np.random.Generator) -> Any:
            return mech.sample(np.array([v]), k, rng)

        def pmf(v: Any) -> Any:
            w = tail_half_width(math.exp(-1.0 / float(params["scale"])))
            return mech.pmf(np.array([v]), (int(v) - w, int(v) + w))

        return _own(
            call, f"dpspec DiscreteLaplaceMechanism(epsilon={_scaled(params, factor):g})", pmf
        )


# --- lattice Laplace ------------------------------------------------------------------------


class LatticeLaplace(Algorithm):
    name = "lattice-laplace"
    aliases = ("integer-lattice-laplace",)
    summary = (
        "γ·(round(v/γ) + Z), Z discrete Laplace of scale b/γ: Laplace on the lattice γℤ "
        "(ε = (Δ + γ)/b: snapping adds γ to the sensitivity)"
    )
    source = (
        f"{SEED_000}:L119-121 (Def 2.2, Thm 2.3; exact lattice form, impl/mechanisms/laplace.py)"
    )
    convention = "receives a real query value v; returns a multiple of the granularity γ"
    params = (
        Param("scale", "positive", None, "noise scale b in output units; or give epsilon"),
        Param("epsilon", "epsilon", None, "privacy parameter: b = (sensitivity + γ)/epsilon"),
        Param("sensitivity", "positive", 1.0, "L1 sensitivity Δ of the query"),
        Param("granularity", "positive", None, "lattice spacing γ (default 2^(⌊log2 Δ⌋−20))"),
    )

    def complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["granularity"] is None:
            params["granularity"] = 2.0 ** (math.floor(math.log2(params["sensitivity"])) - 20)
        _one_of_scale_epsilon(params, params["sensitivity"], params["granularity"])
        if params["scale"] / params["granularity"] > 2.0**40:
            raise ValueError("granularity: scale/granularity must be <= 2^40")
        return params

    def instances(self, params: dict[str, Any]) -> list[Instance]:
        b, g, d = float(params["scale"]), float(params["granularity"]), params["sensitivity"]
        q = math.exp(-g / b)
        w = tail_half_width(q) + math.ceil(d / g) + 1
        out = []
        for v in (0.3 * d, -12.7 * d):
            c, c2 = _snap(v, g), _snap(v + d, g)
            law = integer_law(c, q, c - w, c + w, unit=g)
            out.append(
                Instance(
                    f"value {v:g}",
                    v,
                    law,
                    integer_law(c, q**EPSILON_FACTOR, c - w, c + w, unit=g, note="scale / 1.1"),
                    v + d,
                    integer_law(c2, q, c - w, c + w, unit=g),
                    [shifted(law), truncated(law)],
                    {"lattice_value": c, "granularity": g},
                )
            )
        return out

    def reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        d = float(params["sensitivity"])
        default = 2.0 ** (math.floor(math.log2(d)) - 20)
        if params["granularity"] != default:
            raise ValueError(
                f"granularity: dpspec's LaplaceMechanism uses 2^(⌊log2 Δ⌋−20) = {default:g}"
            )
        mech = LaplaceMechanism(lambda a: float(a[0]), d, _scaled(params, factor))

        def call(v: Any, k: int, rng: np.random.Generator) -> Any:
            return mech.sample(np.array([v]), k, rng)

        return _own(call, f"dpspec LaplaceMechanism(epsilon={_scaled(params, factor):g})")


def _snap(v: float, g: float) -> int:
    """round(v/γ) as dpspec's lattice Laplace does (the instances avoid half-way values)."""
    return int(np.rint(v / g))


# --- Bernoulli(exp(-γ)) ---------------------------------------------------------------------


class BernoulliExp(Algorithm):
    name = "bernoulli-exp"
    aliases = ("bernoulli-exp-neg",)
    summary = "a coin with P(True) = exp(−γ) for rational γ ≥ 0 (Canonne–Kamath–Steinke Alg 1)"
    source = "Canonne, Kamath, Steinke 2020, Alg 1 (dpspec.noise.bernoulli_exp_neg)"
    convention = "receives γ as a Fraction; returns a bool, True with probability exp(−γ)"
    params = (Param("gamma", "fraction", None, "one γ (default: the instances 1/3, 1, 7/2)"),)

    def claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return None

    def instances(self, params: dict[str, Any]) -> list[Instance]:
        gammas = [Fraction(1, 3), Fraction(1), Fraction(7, 2)]
        if params["gamma"] is not None:
            if params["gamma"] == 0:
                raise ValueError("gamma: must be > 0 (exp(0) = 1 leaves nothing to test)")
            gammas = [params["gamma"]]
        return [
            Instance(
                f"gamma {g}",
                g,
                bernoulli_law(math.exp(-g)),
                bernoulli_law(math.exp(-g * EPSILON_FACTOR), note="gamma × 1.1"),
            )
            for g in gammas
        ]

    def reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        scale = Fraction(factor).limit_denominator(1000)

        def call(g: Any, k: int, rng: np.random.Generator) -> Any:
            gamma = Fraction(g) * scale
            return bernoulli_exp_neg(np.full(k, gamma.numerator), gamma.denominator, rng)

        return _own(call, f"dpspec.noise.bernoulli_exp_neg (gamma × {float(scale):g})")


# --- exponential mechanism ------------------------------------------------------------------


def _raise_lowest(scores: tuple[int, ...], d: int) -> tuple[int, ...]:
    """The spec's worst neighbour of a score vector: the lowest candidate up by Δ, every other
    down by Δ (both moves allowed by per-candidate sensitivity Δ)."""
    low = int(np.argmin(scores))
    return tuple(s + d if i == low else s - d for i, s in enumerate(scores))


class Exponential(Algorithm):
    name = "exponential-mechanism"
    aliases = ("exponential",)
    summary = (
        "index i with P(i) ∝ exp(ε·s_i/(2Δ)) (half=true; ε-DP) or exp(ε·s_i/Δ) (half=false, "
        "as printed in the thesis: 2ε-DP)"
    )
    source = (
        f"{SEED_002}:L655 (McSherry–Talwar; the ½ restored: erratum.thesis-L655-exponential-half)"
    )
    convention = "receives the integer score vector s; returns the chosen index"
    params: tuple[Param, ...] = (
        Param("epsilon", "epsilon", None, "privacy parameter ε"),
        Param("sensitivity", "int", 1, "per-candidate sensitivity Δ of the scores"),
        Param("half", "bool", True, "weights exp(ε s/(2Δ)) (true) or exp(ε s/Δ) (false)"),
    )
    score_sets: tuple[tuple[int, ...], ...] = ((0, 1, 2, 4), (3, 3, 0))

    def complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["epsilon"] is None:
            raise ValueError("epsilon: required")
        return params

    def claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return (float(params["epsilon"]) * (1 if params["half"] else 2), 0.0)

    def _mech(self, params: dict[str, Any], factor: float) -> ExponentialMechanism:
        return ExponentialMechanism(
            lambda a: np.asarray(a, dtype=np.int64),
            params["sensitivity"],
            _scaled(params, factor),
            half=params["half"],
        )

    def _law(self, params: dict[str, Any], scores: tuple[int, ...], factor: float) -> Law:
        pmf = self._mech(params, factor).pmf(np.array(scores))
        return categorical_law([pmf[i] for i in range(len(scores))])

    def instances(self, params: dict[str, Any]) -> list[Instance]:
        d = params["sensitivity"]
        out = []
        for base in self.score_sets:
            scores = tuple(s * d for s in base)
            law = self._law(params, scores, 1.0)
            other = _raise_lowest(scores, d)
            out.append(
                Instance(
                    f"scores {scores}",
                    scores,
                    law,
                    self._law(params, scores, EPSILON_FACTOR),
                    other,
                    self._law(params, other, 1.0),
                    [shifted(law), truncated(law, 0.05)],
                )
            )
        return out

    def reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        mech = self._mech(params, factor)

        def call(s: Any, k: int, rng: np.random.Generator) -> Any:
            return mech.sample(np.asarray(s), k, rng)

        def pmf(s: Any) -> Any:
            return mech.pmf(np.asarray(s))

        return _own(
            call,
            f"dpspec ExponentialMechanism(epsilon={_scaled(params, factor):g}, "
            f"half={params['half']})",
            pmf,
        )


# --- report noisy max -----------------------------------------------------------------------


class ReportNoisyMax(Exponential):
    name = "report-noisy-max"
    aliases = ("noisy-max",)
    summary = (
        "argmax_i (s_i + Z_i), Z_i i.i.d. discrete Laplace of scale 2Δ/ε (dpspec's noise), "
        "ties to the smallest index: ε-DP"
    )
    source = "Dwork–Roth Claim 3.9 with dpspec's exact discrete Laplace noise (dpspec.noise)"
    convention = "receives the integer score vector s; returns the index of the noisy maximum"
    params: tuple[Param, ...] = (
        Param("epsilon", "epsilon", None, "privacy parameter ε"),
        Param("sensitivity", "int", 1, "per-candidate sensitivity Δ of the scores"),
    )
    score_sets = ((0, 1, 2, 4), (3, 3, 0))

    def claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return (float(params["epsilon"]), 0.0)

    def _law(self, params: dict[str, Any], scores: tuple[int, ...], factor: float) -> Law:
        q = math.exp(-_scaled(params, factor) / (2 * params["sensitivity"]))
        return categorical_law(noisy_max_law(scores, q), note="float sum, error < 1e-15")

    def reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        scale = rational_at_least(
            Fraction(2 * params["sensitivity"])
            / rational_at_most(_scaled(params, factor), "epsilon"),
            "scale",
        )

        def call(s: Any, k: int, rng: np.random.Generator) -> Any:
            scores = np.asarray(s, dtype=np.int64)
            noise = discrete_laplace(scale, k * scores.size, rng).reshape(k, scores.size)
            return np.argmax(scores[None, :] + noise, axis=1)

        return _own(call, f"dpspec.noise.discrete_laplace(scale={float(scale):g}) + argmax")


# --- randomized response --------------------------------------------------------------------


class KaryRandomizedResponse(Algorithm):
    name = "randomized-response"
    aliases = ("k-ary-randomized-response", "rr")
    summary = "report x w.p. e^ε/(e^ε + k − 1), each other value w.p. 1/(e^ε + k − 1): ε-LDP"
    source = f"{SEED_002}:L429 (Warner 1965; k-ary form, impl/mechanisms/randomized_response.py)"
    convention = "receives one user's true value x in 0..k−1; returns the report (an int)"
    params = (
        Param("epsilon", "epsilon", None, "privacy parameter ε"),
        Param("k", "int", 2, "number of categories", minimum=2, maximum=LIMITS["categories"]),
    )

    def complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["epsilon"] is None:
            raise ValueError("epsilon: required")
        if params["k"] > 64:
            raise ValueError(f"k: at most 64 categories here, got {params['k']}")
        return params

    def _law(self, params: dict[str, Any], x: int, factor: float) -> Law:
        local = RandomizedResponse(params["k"], _scaled(params, factor)).local_pmf(x)
        return categorical_law([local[i] for i in range(params["k"])])

    def instances(self, params: dict[str, Any]) -> list[Instance]:
        k = params["k"]
        out = []
        for x in sorted({0, k - 1}):
            law = self._law(params, x, 1.0)
            other = 1 if x == 0 else 0
            out.append(
                Instance(
                    f"x = {x}",
                    x,
                    law,
                    self._law(params, x, EPSILON_FACTOR),
                    other,
                    self._law(params, other, 1.0),
                    [shifted(law)],
                )
            )
        return out

    def reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        mech = RandomizedResponse(params["k"], _scaled(params, factor))

        def call(x: Any, k: int, rng: np.random.Generator) -> Any:
            return mech.randomise(np.full(k, int(x)), rng)

        def pmf(x: Any) -> Any:
            return mech.local_pmf(int(x))

        return _own(
            call, f"dpspec RandomizedResponse.randomise(epsilon={_scaled(params, factor):g})", pmf
        )


# --- stability histogram --------------------------------------------------------------------


class Histogram(Algorithm):
    name = "stability-histogram"
    aliases = ("histogram",)
    summary = (
        "occupied cells get count + Z (discrete Laplace, P ∝ e^{−ε|z|/2}), released when ≥ τ "
        "(the smallest τ with (1 + e^ε)P(Z ≥ τ) ≤ δ), else 0; empty cells stay 0: (ε, δ)-DP"
    )
    source = f"{SEED_000}:L125-147 (Alg 1, Thm 2.4; exact discrete form)"
    convention = (
        "receives a dataset of cell ids in 0..bins−1; returns the released counts as a vector "
        "over the bins (0 = not released)"
    )
    params = (
        Param("epsilon", "epsilon", None, "privacy parameter ε"),
        Param("delta", "delta", 1e-6, "privacy parameter δ"),
        Param("bins", "int", 3, "number of public cells (3 to 8)", minimum=3, maximum=8),
    )

    def complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["epsilon"] is None:
            raise ValueError("epsilon: required")
        return params

    def claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return (float(params["epsilon"]), float(params["delta"]))

    def _mech(self, params: dict[str, Any], factor: float) -> StabilityHistogram:
        return StabilityHistogram(params["bins"], _scaled(params, factor), params["delta"])

    def _law(
        self,
        params: dict[str, Any],
        data: tuple[int, ...],
        factor: float,
        cap: int,
        w: int,
        same_threshold: bool = False,
    ) -> Law:
        """The product of the cells' laws (``cell_pmf``); the table of each cell is fixed by
        the ε-law's threshold so that the ε × 1.1 law lives on the same outcomes.
        ``same_threshold``: the noise at ε × factor with the threshold of ε (a noise scale
        bug alone, the harder alternative: the budget is sized against it too)."""
        claimed = self._mech(params, 1.0)
        tau = int(claimed.threshold)
        mech = self._mech(params, factor)
        if same_threshold:
            mech.threshold = tau
        counts = mech.counts(np.array(data, dtype=np.int64))
        cells = [_cell_law(mech.cell_pmf(int(c), cap), int(c), tau, w) for c in counts]
        return product_law(cells, note="noise at ε × 1.1, threshold of ε" if same_threshold else "")

    def instances(self, params: dict[str, Any]) -> list[Instance]:
        mech = self._mech(params, 1.0)
        tau = int(mech.threshold)
        q = float(mech.noise.q)
        w = tail_half_width(q, 1e-7)
        # cell 0 far above τ, cell 1 exactly at τ (released w.p. P(Z ≥ 0)), the rest empty
        data = tuple([0] * (tau + w) + [1] * tau)
        other = tuple([0] * (tau + w) + [1] * (tau - 1) + [2])
        cap = tau + 2 * w + 1
        law = self._law(params, data, 1.0, cap, w)
        return [
            Instance(
                f"counts ({tau + w}, {tau}, 0, …), τ = {tau}",
                data,
                law,
                self._law(params, data, EPSILON_FACTOR, cap, w),
                other,
                self._law(params, other, 1.0, cap, w),
                [truncated(law)],
                {"threshold": tau},
                [self._law(params, data, EPSILON_FACTOR, cap, w, same_threshold=True)],
            )
        ]

    def reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        mech = self._mech(params, factor)

        def call(data: Any, k: int, rng: np.random.Generator) -> Any:
            return mech.sample(np.asarray(data, dtype=np.int64), k, rng)

        return _own(call, f"dpspec StabilityHistogram(epsilon={_scaled(params, factor):g})")

    def guarantees(
        self,
        params: dict[str, Any],
        instance: Instance,
        outputs: NDArray[Any],
        *,
        sampler: Sampler | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[dict[str, Any]]:
        """Thm 2.4 (L147): an empty cell is released as 0 on every draw; the mean error
        E|ĉ − c| of each occupied cell (reported beside its exact value from the spec's law;
        the theorem's O(·) has no constant to check against)."""
        bins = params["bins"]
        counts = np.bincount(np.asarray(instance.data), minlength=bins)
        arr = np.asarray(outputs, dtype=np.float64).reshape(-1, bins)
        empty = counts == 0
        nonzero = int(np.count_nonzero(arr[:, empty]))
        errors = np.abs(arr - counts[None, :]).mean(axis=0)
        return [
            {
                "guarantee": "empty cells are released as 0 (Thm 2.4)",
                "holds": nonzero == 0,
                "measured": f"{nonzero} non-zero releases of empty cells in {arr.shape[0]} draws",
            },
            {
                "guarantee": "mean error E|ĉ − c| per occupied cell (Thm 2.4: O(·), no constant)",
                "holds": True,
                "measured": {int(i): float(errors[i]) for i in np.flatnonzero(~empty)},
            },
        ]


def _cell_law(pmf: dict[Any, Any], count: int, tau: int, half_width: int) -> Law:
    """One cell of the stability histogram on a table fixed by the count and the threshold τ of
    the claimed ε (so that the law at ε × 1.1, whose threshold is lower, lives on it too):
    0, the values 1 … τ − 1 (probability 0 at ε: a release below the threshold is impossible),
    τ … a − 1 lumped, atoms a … b around the count, and everything above b lumped. An empty
    cell has the single outcome 0."""
    if count == 0:
        only = float(pmf.get(0, 0))

        def encode_empty(values_out: Any) -> NDArray[np.int64]:
            x = np.asarray(values_out, dtype=np.float64).ravel()
            return np.where(x == 0, 0, -1).astype(np.int64)

        return Law((0,), np.array([only]) / only, "ordered", encode_empty)
    a, b = max(tau, count - half_width), count + half_width
    labels: list[Any] = [0, f"[1, {tau - 1}]", f"[{tau}, {a - 1}]", *range(a, b + 1), f"> {b}"]
    probs = np.zeros(len(labels))
    for v, pv in pmf.items():
        if v == 0:
            probs[0] += float(pv)
        elif v == TAIL or v > b:
            probs[-1] += float(pv)
        elif v < tau:
            probs[1] += float(pv)
        elif v < a:
            probs[2] += float(pv)
        else:
            probs[3 + v - a] += float(pv)

    def encode(values_out: Any) -> NDArray[np.int64]:
        x = np.asarray(values_out, dtype=np.float64).ravel()
        whole = np.isfinite(x) & (x == np.floor(x)) & (x >= 0)
        y = np.where(whole, x, 0.0)
        idx = np.where(
            y == 0,
            0,
            np.where(y < tau, 1, np.where(y < a, 2, np.where(y > b, len(labels) - 1, 3 + y - a))),
        ).astype(np.int64)
        return np.where(whole, idx, -1)

    return Law(tuple(labels), probs / probs.sum(), "ordered", encode)


def catalogue() -> dict[str, Algorithm]:
    """Every algorithm by name (learners from :mod:`dpspec.conform.learners`)."""
    from dpspec.conform.learners import PCL

    algorithms: list[Algorithm] = [
        DiscreteLaplace(),
        LatticeLaplace(),
        BernoulliExp(),
        Exponential(),
        KaryRandomizedResponse(),
        Histogram(),
        ReportNoisyMax(),
        PCL(),
    ]
    return {a.name: a for a in algorithms}


def algorithm(name: str) -> Algorithm:
    """The algorithm named ``name`` or one of its aliases."""
    if not isinstance(name, str):
        raise TypeError(f"algorithm: expected a name, got {name!r}")
    found = catalogue()
    for a in found.values():
        if name == a.name or name in a.aliases:
            return a
    raise ValueError(f"algorithm: unknown {name!r}; choose from {', '.join(found)}")
