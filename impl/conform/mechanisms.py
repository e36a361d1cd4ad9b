"""The mechanisms of ``dpspec conform``'s catalogue, each with its exact law on small instances.

One private class per algorithm (reached by name through :mod:`dpspec.conform.catalogue`):
discrete Laplace, lattice Laplace, Bernoulli(exp(−γ)), the exponential mechanism (with and
without the ½), report-noisy-max with dpspec's noise, k-ary randomized response and the
stability histogram. Each states its instances (small inputs whose output law is exact, from
dpspec's own laws), the spec's worst neighbour of each, the law at ε × 1.1 and the other
alternatives whose power is stated; its reference is dpspec's own implementation, run through
its public entry point.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.conform.adapters import Sampler
from dpspec.conform.base import (
    DRAWN_INPUT_SEED,
    EPSILON_FACTOR,
    SEED_000,
    SEED_002,
    Algorithm,
    Instance,
    Param,
    _input_sweep,
    _one_of_scale_epsilon,
    _own,
    _scaled,
)
from dpspec.conform.gof import Law, _Encoder
from dpspec.conform.laws import (
    _bernoulli_law,
    _categorical_law,
    _integer_law,
    _noisy_max_law,
    _product_law,
    _shifted,
    _tail_half_width,
    _truncated,
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
from dpspec.validation import LIMITS, rational_at_least, rational_at_most

#: integer inputs of the discrete Laplace are judged up to the range of a 32-bit integer (which
#: libraries take): both ends, less the instance's table width so that every output of the
#: law stays representable, and one value drawn at random
INTEGER_INPUTS = 2**31 - 1

# --- discrete Laplace ----------------------------------------------------------------------


class _DiscreteLaplace(Algorithm):
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
    deviation = ("scale", -1)

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        _one_of_scale_epsilon(params, params["sensitivity"])
        if params["scale"] > 1e6:
            raise ValueError(f"scale: at most 1e6 here, got {params['scale']!r}")
        return params

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        b, d = float(params["scale"]), int(params["sensitivity"])
        q = math.exp(-1.0 / b)
        w = _tail_half_width(q) + d
        out = []
        edge = INTEGER_INPUTS - w - d  # the instance's whole table stays a 32-bit integer
        for v, why in _input_sweep(-edge, edge, (0, 1000)):
            v2 = v + d if v <= 0 else v - d
            law = _integer_law(v, q, v - w, v + w)
            out.append(
                Instance(
                    f"value {v}" + (f" ({why})" if why else ""),
                    v,
                    law,
                    _integer_law(v, q**factor, v - w, v + w, note=self._deviation_text(factor)),
                    v2,
                    _integer_law(v2, q, v - w, v + w),
                    [_shifted(law), _truncated(law)],
                )
            )
        return out

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        mech = DiscreteLaplaceMechanism(
            lambda a: int(a[0]), params["sensitivity"], _scaled(params, factor)
        )

        def call(v: Any, k: int, rng: np.random.Generator) -> Any:
            return mech.sample(np.array([v]), k, rng)

        def pmf(v: Any) -> Any:
            w = _tail_half_width(math.exp(-1.0 / float(params["scale"])))
            return mech.pmf(np.array([v]), (int(v) - w, int(v) + w))

        return _own(
            call, f"dpspec DiscreteLaplaceMechanism(epsilon={_scaled(params, factor):g})", pmf
        )


# --- lattice Laplace ------------------------------------------------------------------------


class _LatticeLaplace(Algorithm):
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
        Param(
            "granularity",
            "positive",
            None,
            "lattice spacing γ of the outputs (required; dpspec's is 2^(⌊log2 Δ⌋−20))",
        ),
    )
    deviation = ("scale", -1)

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["granularity"] is None:
            ours = 2.0 ** (math.floor(math.log2(params["sensitivity"])) - 20)
            raise ValueError(
                "granularity: required: the lattice spacing γ of the target's outputs "
                f"(dpspec's LaplaceMechanism uses 2^(⌊log2 Δ⌋−20) = {ours:g})"
            )
        _one_of_scale_epsilon(params, params["sensitivity"], params["granularity"])
        if params["scale"] / params["granularity"] > 2.0**40:
            raise ValueError("granularity: scale/granularity must be <= 2^40")
        return params

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        b, g, d = float(params["scale"]), float(params["granularity"]), params["sensitivity"]
        q = math.exp(-g / b)
        w = _tail_half_width(q) + math.ceil(d / g) + 1
        out = []
        drawn = float(np.random.default_rng(DRAWN_INPUT_SEED).uniform(-1e9, 1e9)) * d
        for v, why in ((0.3 * d, ""), (-12.7 * d, ""), (1e9 * d + 0.3 * d, "large"),
                       (drawn, "drawn at random")):  # fmt: skip
            c, c2 = _snap(v, g), _snap(v + d, g)
            law = _integer_law(c, q, c - w, c + w, unit=g)
            out.append(
                Instance(
                    f"value {v:.12g}" + (f" ({why})" if why else ""),
                    v,
                    law,
                    _integer_law(
                        c, q**factor, c - w, c + w, unit=g, note=self._deviation_text(factor)
                    ),
                    v + d,
                    _integer_law(c2, q, c - w, c + w, unit=g),
                    [_shifted(law), _truncated(law)],
                    {"lattice_value": c, "granularity": g},
                )
            )
        return out

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
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


class _BernoulliExp(Algorithm):
    name = "bernoulli-exp"
    aliases = ("bernoulli-exp-neg",)
    summary = "a coin with P(True) = exp(−γ) for rational γ ≥ 0 (Canonne–Kamath–Steinke Alg 1)"
    source = "Canonne, Kamath, Steinke 2020, Alg 1 (dpspec.noise.bernoulli_exp_neg)"
    convention = "receives γ as a Fraction; returns a bool, True with probability exp(−γ)"
    params = (Param("gamma", "fraction", None, "one γ (default: the instances 1/3, 1, 7/2)"),)
    deviation = ("γ", 1)

    def _claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return None

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        gammas = [Fraction(1, 3), Fraction(1), Fraction(7, 2)]
        if params["gamma"] is not None:
            if params["gamma"] == 0:
                raise ValueError("gamma: must be > 0 (exp(0) = 1 leaves nothing to test)")
            gammas = [params["gamma"]]
        return [
            Instance(
                f"gamma {g}",
                g,
                _bernoulli_law(math.exp(-g)),
                _bernoulli_law(math.exp(-g * factor), note=self._deviation_text(factor)),
            )
            for g in gammas
        ]

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
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


class _Exponential(Algorithm):
    name = "exponential-mechanism"
    aliases = ("exponential",)
    summary = (
        "index i with P(i) ∝ exp(ε·s_i/(2Δ)) (half=true; ε-DP) or exp(ε·s_i/Δ) (half=false, "
        "as printed in the thesis: 2ε-DP)"
    )
    source = (
        f"{SEED_002}:L655 (McSherry–Talwar; the ½ restored: "
        "mechanisms.erratum.thesis-L655-exponential-half)"
    )
    convention = "receives the integer score vector s; returns the chosen index"
    params: tuple[Param, ...] = (
        Param("epsilon", "epsilon", None, "privacy parameter ε"),
        Param("sensitivity", "int", 1, "per-candidate sensitivity Δ of the scores"),
        Param("half", "bool", True, "weights exp(ε s/(2Δ)) (true) or exp(ε s/Δ) (false)"),
    )
    #: usual scores, then negative and large ones (the domain: any integer scores)
    score_sets: tuple[tuple[int, ...], ...] = (
        (0, 1, 2, 4),
        (3, 3, 0),
        (-5, 0, -2),
        (10**9, 10**9 + 2, 10**9 - 1),
    )

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["epsilon"] is None:
            raise ValueError("epsilon: required")
        return params

    def _claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
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
        return _categorical_law([pmf[i] for i in range(len(scores))])

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
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
                    self._law(params, scores, factor),
                    other,
                    self._law(params, other, 1.0),
                    [_shifted(law), _truncated(law, 0.05)],
                )
            )
        return out

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
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


class _ReportNoisyMax(_Exponential):
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
    score_sets = _Exponential.score_sets

    def _claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return (float(params["epsilon"]), 0.0)

    def _law(self, params: dict[str, Any], scores: tuple[int, ...], factor: float) -> Law:
        q = math.exp(-_scaled(params, factor) / (2 * params["sensitivity"]))
        return _categorical_law(_noisy_max_law(scores, q), note="float sum, error < 1e-15")

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
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


class _RandomizedResponse(Algorithm):
    name = "randomized-response"
    aliases = ("k-ary-randomized-response", "rr")
    summary = "report x w.p. e^ε/(e^ε + k − 1), each other value w.p. 1/(e^ε + k − 1): ε-LDP"
    source = f"{SEED_002}:L429 (Warner 1965; k-ary form, impl/mechanisms/randomized_response.py)"
    convention = "receives one user's true value x in 0..k−1; returns the report (an int)"
    params = (
        Param("epsilon", "epsilon", None, "privacy parameter ε"),
        Param("k", "int", 2, "number of categories", minimum=2, maximum=LIMITS["categories"]),
    )

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["epsilon"] is None:
            raise ValueError("epsilon: required")
        if params["k"] > 64:
            raise ValueError(f"k: at most 64 categories here, got {params['k']}")
        return params

    def _law(self, params: dict[str, Any], x: int, factor: float) -> Law:
        local = RandomizedResponse(params["k"], _scaled(params, factor)).local_pmf(x)
        return _categorical_law([local[i] for i in range(params["k"])])

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        k = params["k"]
        out = []
        for x in sorted({0, k // 2, k - 1}):  # both ends and the middle of 0 … k − 1
            law = self._law(params, x, 1.0)
            other = 1 if x == 0 else 0
            out.append(
                Instance(
                    f"x = {x}",
                    x,
                    law,
                    self._law(params, x, factor),
                    other,
                    self._law(params, other, 1.0),
                    [_shifted(law)],
                )
            )
        return out

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        mech = RandomizedResponse(params["k"], _scaled(params, factor))

        def call(x: Any, k: int, rng: np.random.Generator) -> Any:
            return mech.randomise(np.full(k, int(x)), rng)

        def pmf(x: Any) -> Any:
            return mech.local_pmf(int(x))

        return _own(
            call, f"dpspec RandomizedResponse.randomise(epsilon={_scaled(params, factor):g})", pmf
        )


# --- stability histogram --------------------------------------------------------------------


class _StabilityHistogram(Algorithm):
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

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["epsilon"] is None:
            raise ValueError("epsilon: required")
        return params

    def _claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
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
        the ε-law's threshold so that the law at ε × factor lives on the same outcomes.
        ``same_threshold``: the noise at ε × factor with the threshold of ε (a noise scale
        bug alone, the harder alternative: the budget is sized against it too)."""
        claimed = self._mech(params, 1.0)
        tau = int(claimed.threshold)
        mech = self._mech(params, factor)
        if same_threshold:
            mech.threshold = tau
        counts = mech.counts(np.array(data, dtype=np.int64))
        cells = [_cell_law(mech.cell_pmf(int(c), cap), int(c), tau, w) for c in counts]
        return _product_law(
            cells, note=f"noise at ε × {factor:.4g}, threshold of ε" if same_threshold else ""
        )

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        mech = self._mech(params, 1.0)
        tau = int(mech.threshold)
        q = float(mech.noise.q)
        w = _tail_half_width(q, 1e-7)
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
                self._law(params, data, factor, cap, w),
                other,
                self._law(params, other, 1.0, cap, w),
                [_truncated(law)],
                {"threshold": tau},
                [self._law(params, data, factor, cap, w, same_threshold=True)],
            )
        ]

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        mech = self._mech(params, factor)

        def call(data: Any, k: int, rng: np.random.Generator) -> Any:
            return mech.sample(np.asarray(data, dtype=np.int64), k, rng)

        return _own(call, f"dpspec StabilityHistogram(epsilon={_scaled(params, factor):g})")

    def _guarantees(
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
    the claimed ε (so that the law at ε × f, whose threshold is lower for f > 1, lives on it):
    0, the values 1 … τ − 1 (probability 0 at ε: a release below the threshold is impossible),
    τ … a − 1 lumped, atoms a … b around the count, and everything above b lumped. An empty
    cell has the single outcome 0."""
    if count == 0:
        only = float(pmf.get(0, 0))
        return Law((0,), np.array([only]) / only, "ordered", _Encoder(_encode_empty_cell))
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
    encode = _Encoder(_encode_cell, (tau, a, b, len(labels)))
    return Law(tuple(labels), probs / probs.sum(), "ordered", encode)


def _encode_empty_cell(values_out: Any) -> NDArray[np.int64]:
    """An empty cell is released as 0; anything else is impossible."""
    x = np.asarray(values_out, dtype=np.float64).ravel()
    return np.where(x == 0, 0, -1).astype(np.int64)


def _encode_cell(values_out: Any, tau: int, a: int, b: int, size: int) -> NDArray[np.int64]:
    """A released count on the table of :func:`_cell_law` (a non-negative integer)."""
    x = np.asarray(values_out, dtype=np.float64).ravel()
    whole = np.isfinite(x) & (x == np.floor(x)) & (x >= 0)
    y = np.where(whole, x, 0.0)
    idx = np.where(
        y == 0,
        0,
        np.where(y < tau, 1, np.where(y < a, 2, np.where(y > b, size - 1, 3 + y - a))),
    ).astype(np.int64)
    return np.where(whole, idx, -1)


#: the catalogue's mechanisms, in the order ``dpspec conform --list`` shows them
MECHANISMS: tuple[Algorithm, ...] = (
    _DiscreteLaplace(),
    _LatticeLaplace(),
    _BernoulliExp(),
    _Exponential(),
    _RandomizedResponse(),
    _StabilityHistogram(),
    _ReportNoisyMax(),
)
