"""The Gaussian and continuous-Laplace entries of ``dpspec conform``'s catalogue.

* ``discrete-gaussian``: v + Z with P(Z = z) = exp(−z²/(2σ²)) / Σ_{y∈ℤ} exp(−y²/(2σ²)) on the
  integers, or γ·(round(v/γ) + Z) on the lattice γℤ (Canonne, Kamath, Steinke 2020, "The
  Discrete Gaussian for Differential Privacy", Def 1); its law is exact, and so is dpspec's
  reference: their Algorithm 3 on dpspec's exact discrete Laplace and Bernoulli(exp(−γ))
  (:func:`_discrete_gaussian`).
* ``gaussian`` and ``laplace``: v + σ·N(0, 1) and v + b·Laplace(0, 1) as floats. Their law is
  continuous, so it is judged on intervals (cells of width σ/8 over ±8σ, b/4 over ±30b, and the
  two tails), each cell's probability from the normal / Laplace distribution function
  (:func:`dpspec.conform.laws._binned_law`). A float sampler is not exactly this law
  (:data:`FLOAT_CAVEAT`): these entries judge the distribution at the binning's resolution,
  not floating-point privacy.

Privacy: the (discrete) Gaussian is ρ-zCDP with ρ = Δ²/(2σ²) (CKS 2020 Thm 4; Bun, Steinke
2016, "Concentrated Differential Privacy", Prop 1.6), hence (ρ + 2√(ρ ln(1/δ)), δ)-DP for
every δ > 0 (Bun–Steinke Prop 1.3): the (ε, δ) form is what the audit tests (a pure-ε claim
does not hold for a Gaussian); ρ itself is a property of the law, which the law test checks.
The Laplace mechanism with b = Δ/ε is ε-DP (Dwork, McSherry, Nissim, Smith 2006).
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
    Algorithm,
    Instance,
    Param,
    _input_sweep,
    _one_of_scale_epsilon,
    _own,
)
from dpspec.conform.gof import Law
from dpspec.conform.laws import _binned_law, _discrete_gaussian_law, _shifted, _truncated
from dpspec.conform.mechanisms import INTEGER_INPUTS, _snap
from dpspec.noise import ExpNegExponents, bernoulli_exp_neg_exponents, discrete_laplace
from dpspec.validation import INT_BOUND, check_epsilon

#: what a pass of a float sampler does not say (stated in the description and every report)
FLOAT_CAVEAT = (
    "a float sampler's output is not exactly this law (Mironov 2012: the low bits leak); this "
    "check judges the distribution at the binning's resolution, not floating-point privacy — "
    "use lattice-laplace / discrete-gaussian for that"
)
#: σ² is kept as a rational with at most this denominator (dpspec's exact sampler needs it)
SIGMA2_DENOMINATOR = 10**4
#: largest σ/γ (in lattice units) the discrete Gaussian's tables are computed for
MAX_SIGMA_UNITS = 10**5
#: the cells of the binned laws: (width in units of the noise scale, cells on each side)
GAUSSIAN_CELLS = (1 / 8, 64)
LAPLACE_CELLS = (1 / 4, 120)


def _zcdp_epsilon(rho: float, delta: float) -> float:
    """ε = ρ + 2√(ρ ln(1/δ)): ρ-zCDP implies (ε, δ)-DP (Bun, Steinke 2016, Prop 1.3)."""
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def _zcdp_rho(epsilon: float, delta: float) -> float:
    """The largest ρ with :func:`_zcdp_epsilon` (ρ, δ) ≤ ε: √ρ = √(L + ε) − √L, L = ln(1/δ)."""
    big = math.log(1.0 / delta)
    return (math.sqrt(big + epsilon) - math.sqrt(big)) ** 2


def _sigma_squared(sigma: float) -> Fraction:
    """σ² as the rational with denominator ≤ :data:`SIGMA2_DENOMINATOR` nearest to σ²; a
    ValueError naming ``sigma`` when that is not σ² (to 1e-12 relative)."""
    s2 = sigma * sigma
    frac = Fraction(s2).limit_denominator(SIGMA2_DENOMINATOR)
    if abs(float(frac) - s2) > 1e-12 * s2:
        raise ValueError(
            f"sigma: dpspec's exact sampler needs σ² rational with denominator <= "
            f"{SIGMA2_DENOMINATOR}, got σ = {sigma!r}"
        )
    return frac


def _discrete_gaussian(sigma2: Fraction, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """``size`` exact draws of the discrete Gaussian N_ℤ(0, σ²), σ² = a/b rational
    (Canonne, Kamath, Steinke 2020, Algorithm 3): Y discrete Laplace of scale t = ⌊σ⌋ + 1
    (:func:`dpspec.noise.discrete_laplace`), kept with probability
    exp(−(|Y| − σ²/t)²/(2σ²)) = exp(−(|Y|·b·t − a)²/(2abt²)) (:mod:`dpspec.noise`'s exact
    Bernoulli(exp(−γ)) for rational γ); the kept values are N_ℤ(0, σ²) because
    exp(−|y|/t)·exp(−(|y| − σ²/t)²/(2σ²)) = exp(−y²/(2σ²))·exp(−σ²/(2t²)). Each round draws
    as many candidates as draws are missing (the rejected ones are drawn again). A ValueError
    naming ``sigma`` when 2abt² exceeds 2^62."""
    if sigma2 <= 0:
        raise ValueError(f"sigma: σ² must be > 0, got {sigma2}")
    a, b = sigma2.numerator, sigma2.denominator
    t = math.isqrt(a // b) + 1
    den = 2 * a * b * t * t
    if den > INT_BOUND:
        raise ValueError(f"sigma: σ² = {sigma2} needs 2abt² = {den} > 2^62 (exact sampler)")
    out = np.empty(size, dtype=np.int64)
    filled = 0
    while filled < size:  # each round keeps every candidate with a positive probability
        m = size - filled
        y = discrete_laplace(Fraction(t), m, rng)
        keep = bernoulli_exp_neg_exponents(_exponents(np.abs(y), a, b * t, den), rng)
        kept = y[keep]
        out[filled : filled + kept.size] = kept
        filled += kept.size
    return out


def _exponents(mag: NDArray[np.int64], a: int, bt: int, den: int) -> ExpNegExponents:
    """γ_i = (mag_i·bt − a)²/den split into int64 parts (:class:`dpspec.noise.ExpNegExponents`):
    in int64 when every square stays below 2^62, else with Python integers, the whole parts
    capped at 2^62 and the rest carried in ``excess`` (a draw that far out is kept with
    probability below e^{-2^31})."""
    top = int(mag.max()) if mag.size else 0
    if top * bt + a < 2**31:
        whole, rest = np.divmod((mag * bt - a) ** 2, den)
        return ExpNegExponents(whole.astype(np.int64), rest.astype(np.int64), den)
    gap = (mag.astype(object) * bt - a) ** 2
    whole_obj, rest_obj = gap // den, gap % den
    capped = np.where(whole_obj > INT_BOUND, INT_BOUND, whole_obj)
    excess = whole_obj - capped
    return ExpNegExponents(
        capped.astype(np.int64),
        rest_obj.astype(np.int64),
        den,
        excess if bool(np.any(excess > 0)) else None,
    )


def _sigma_or_epsilon(params: dict[str, Any], sensitivity: float, rational: bool) -> None:
    """Fill ``sigma`` from ``epsilon`` (and δ) or ``epsilon`` from ``sigma``:
    σ = Δ/√(2ρ) with ρ = :func:`_zcdp_rho` (ε, δ) — σ² rounded up to a multiple of 1/1000 when
    ``rational`` (a larger σ keeps the claim) — or ε = :func:`_zcdp_epsilon` (Δ²/(2σ²), δ)."""
    if (params.get("sigma") is None) == (params.get("epsilon") is None):
        raise ValueError("sigma: give exactly one of sigma or epsilon")
    delta = float(params["delta"])
    if params.get("sigma") is None:
        s2 = sensitivity**2 / (2.0 * _zcdp_rho(float(params["epsilon"]), delta))
        if rational:
            s2 = math.ceil(s2 * 1000) / 1000
        params["sigma"] = math.sqrt(s2)
    else:
        rho = sensitivity**2 / (2.0 * float(params["sigma"]) ** 2)
        params["epsilon"] = check_epsilon(_zcdp_epsilon(rho, delta), "sigma")


def _real_inputs(d: float) -> list[tuple[float, str]]:
    """The real inputs a real-valued query is judged on (Δ = ``d``): 0, 0.3Δ, a negative one,
    a large one and one drawn at random (seed :data:`DRAWN_INPUT_SEED`)."""
    drawn = float(np.random.default_rng(DRAWN_INPUT_SEED).uniform(-1e9, 1e9)) * d
    return [(0.0, "zero"), (0.3 * d, ""), (-12.7 * d, "negative"), (1e9 * d + 0.3 * d, "large"),
            (drawn, "drawn at random")]  # fmt: skip


def _factor_fraction(factor: float) -> Fraction:
    return Fraction(factor).limit_denominator(1000)


def _zcdp_guarantee(params: dict[str, Any], d: float) -> list[dict[str, Any]]:
    rho = d**2 / (2.0 * float(params["sigma"]) ** 2)
    return [
        {
            "guarantee": (
                "ρ-zCDP, ρ = Δ²/(2σ²) (CKS 2020 Thm 4; Bun–Steinke 2016 Prop 1.6): a property "
                "of the law, which the law test checks; the audit tests its (ε, δ) form "
                "ε = ρ + 2√(ρ ln(1/δ)) (Prop 1.3)"
            ),
            "holds": True,
            "measured": {"rho": rho, "epsilon": params["epsilon"], "delta": params["delta"]},
        }
    ]


# --- discrete Gaussian ----------------------------------------------------------------------


class _DiscreteGaussian(Algorithm):
    name = "discrete-gaussian"
    aliases = ("gaussian-discrete",)
    summary = (
        "v + Z, P(Z = z) ∝ exp(−z²/(2σ²)) on the integers (granularity γ ≠ 1: "
        "γ·(round(v/γ) + Z), σ in output units): ρ-zCDP, ρ = Δ²/(2σ²) ((Δ + γ)² on a "
        "lattice), audited as (ρ + 2√(ρ ln(1/δ)), δ)-DP"
    )
    source = (
        "Canonne, Kamath, Steinke 2020, Def 1, Thm 4, Alg 3; Bun, Steinke 2016, Prop 1.3 "
        "(dpspec.conform.gaussian._discrete_gaussian)"
    )
    convention = (
        "receives the integer query value v (granularity 1) or a real v (γ a power of 2); "
        "returns v + Z, an integer (or a multiple of γ)"
    )
    params = (
        Param("sigma", "positive", None, "noise σ in output units; or give epsilon (and delta)"),
        Param("epsilon", "epsilon", None, "privacy ε at delta: σ = Δ/√(2ρ(ε, δ))"),
        Param("delta", "delta", 1e-6, "privacy δ of the (ε, δ) form the audit tests"),
        Param("sensitivity", "positive", 1.0, "sensitivity Δ (an integer when granularity is 1)"),
        Param("granularity", "positive", 1.0, "lattice spacing γ: 1 (integers) or a power of 2"),
    )
    deviation = ("sigma", -1)

    def _effective(self, params: dict[str, Any]) -> float:
        """Δ in output units after snapping: Δ on the integers, Δ + γ on a lattice."""
        g, d = float(params["granularity"]), float(params["sensitivity"])
        return d if g == 1.0 else d + g

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        g, d = float(params["granularity"]), float(params["sensitivity"])
        if 2.0 ** round(math.log2(g)) != g or not 2.0**-30 <= g <= 2.0**30:
            raise ValueError(f"granularity: must be 1 or a power of 2 in [2^-30, 2^30], got {g!r}")
        if g == 1.0 and not d.is_integer():
            raise ValueError(f"sensitivity: an integer query's Δ is an integer, got {d!r}")
        _sigma_or_epsilon(params, self._effective(params), rational=True)
        if params["sigma"] / g > MAX_SIGMA_UNITS:
            raise ValueError(f"sigma: σ/granularity must be <= {MAX_SIGMA_UNITS}")
        return params

    def _claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return (float(params["epsilon"]), float(params["delta"]))

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        g, d = float(params["granularity"]), float(params["sensitivity"])
        s = float(params["sigma"]) / g
        w = math.ceil(8 * s) + math.ceil(d / g) + 1
        note = self._deviation_text(factor)
        out = []
        if g == 1.0:
            step = int(d)
            edge = INTEGER_INPUTS - w - step
            inputs: list[tuple[Any, str]] = list(_input_sweep(-edge, edge, (0, 1000)))
        else:
            inputs = list(_real_inputs(d))
        for v, why in inputs:
            if g == 1.0:
                c = int(v)
                other: Any = c + step if c <= 0 else c - step
                c2 = int(other)
            else:
                other = v + d
                c, c2 = _snap(v, g), _snap(other, g)
                if abs(c) + w > 2**52:
                    raise ValueError(
                        f"granularity: the lattice points near {v:.6g} are not exact floats"
                    )
            law = _discrete_gaussian_law(c, s, c - w, c + w, unit=g)
            out.append(
                Instance(
                    f"value {v:.12g}" + (f" ({why})" if why else ""),
                    v,
                    law,
                    _discrete_gaussian_law(c, s / factor, c - w, c + w, unit=g, note=note),
                    other,
                    _discrete_gaussian_law(c2, s, c - w, c + w, unit=g),
                    [_shifted(law), _truncated(law)],
                    {} if g == 1.0 else {"lattice_value": c, "granularity": g},
                )
            )
        return out

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        g = float(params["granularity"])
        s2 = _sigma_squared(float(params["sigma"])) / Fraction(g) ** 2
        s2 = s2 / _factor_fraction(factor) ** 2

        def call(v: Any, k: int, rng: np.random.Generator) -> Any:
            z = _discrete_gaussian(s2, k, rng)
            if g == 1.0:
                return int(v) + z
            return (_snap(float(v), g) + z).astype(np.float64) * g

        return _own(
            call, f"dpspec.conform.gaussian._discrete_gaussian(sigma^2 = {s2} lattice units)"
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
        """ρ-zCDP (CKS 2020 Thm 4), stated with the (ε, δ) form the audit tests."""
        return _zcdp_guarantee(params, self._effective(params))


# --- continuous Gaussian and Laplace (floats, judged on intervals) ---------------------------


class _Continuous(Algorithm):
    """A float mechanism v + scale·T judged on the cells of :func:`_binned_law`."""

    kind = "normal"
    cells: tuple[float, int] = GAUSSIAN_CELLS
    spread = "sigma"
    caveat = FLOAT_CAVEAT

    def _check_resolution(self, params: dict[str, Any]) -> None:
        """The cells must be far wider than a float's spacing at the largest input (1e9·Δ)."""
        unit = float(params[self.spread]) * self.cells[0]
        top = 1e9 * float(params["sensitivity"]) * 1.01
        if unit < 2**10 * math.ulp(top):
            raise ValueError(
                f"{self.spread}: cells of width {unit:.3g} are within 2^10 float spacings of "
                f"the inputs near {top:.3g}; use a larger {self.spread} or sensitivity"
            )

    def _law(self, params: dict[str, Any], v: float, loc: float, factor: float, note: str) -> Law:
        s = float(params[self.spread])
        width, cells = self.cells
        return _binned_law(self.kind, v, s * width, cells, loc, s / factor, note)

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        d = float(params["sensitivity"])
        out = []
        for v, why in _real_inputs(d):
            law = self._law(params, v, 0.0, 1.0, "")
            out.append(
                Instance(
                    f"value {v:.12g}" + (f" ({why})" if why else ""),
                    v,
                    law,
                    self._law(params, v, 0.0, factor, self._deviation_text(factor)),
                    v + d,
                    self._law(params, v, d, 1.0, ""),
                    [_shifted(law), _truncated(law)],
                    {"binning": f"cells of width {self.cells[0]:g}·{self.spread}"},
                )
            )
        return out

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        s = float(params[self.spread]) / factor
        normal = self.kind == "normal"

        def call(v: Any, k: int, rng: np.random.Generator) -> Any:
            noise = rng.normal(0.0, s, k) if normal else rng.laplace(0.0, s, k)
            return float(v) + noise

        what = "normal" if normal else "laplace"
        return _own(call, f"v + numpy Generator.{what}(0, {s:g}) (a float sampler)")


class _Gaussian(_Continuous):
    name = "gaussian"
    aliases = ("gaussian-float", "normal")
    summary = (
        "v + N(0, σ²) as a float, judged on cells of width σ/8 over ±8σ: ρ-zCDP, "
        "ρ = Δ²/(2σ²), audited as (ρ + 2√(ρ ln(1/δ)), δ)-DP. Caveat: " + FLOAT_CAVEAT
    )
    source = "Bun, Steinke 2016, Prop 1.3, 1.6 (the Gaussian mechanism); Mironov 2012 (floats)"
    convention = "receives a real query value v; returns v + σ·N(0, 1), a float"
    params = (
        Param("sigma", "positive", None, "noise σ; or give epsilon (and delta)"),
        Param("epsilon", "epsilon", None, "privacy ε at delta: σ = Δ/√(2ρ(ε, δ))"),
        Param("delta", "delta", 1e-6, "privacy δ of the (ε, δ) form the audit tests"),
        Param("sensitivity", "positive", 1.0, "L2 sensitivity Δ of the query"),
    )
    deviation = ("sigma", -1)

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        _sigma_or_epsilon(params, float(params["sensitivity"]), rational=False)
        self._check_resolution(params)
        return params

    def _claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return (float(params["epsilon"]), float(params["delta"]))

    def _guarantees(
        self,
        params: dict[str, Any],
        instance: Instance,
        outputs: NDArray[Any],
        *,
        sampler: Sampler | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[dict[str, Any]]:
        """ρ-zCDP (Bun–Steinke 2016 Prop 1.6), stated with the (ε, δ) form the audit tests."""
        return _zcdp_guarantee(params, float(params["sensitivity"]))


class _Laplace(_Continuous):
    name = "laplace"
    aliases = ("laplace-float", "continuous-laplace")
    summary = (
        "v + Laplace(0, b) as a float, density ∝ exp(−|x − v|/b), judged on cells of width "
        "b/4 over ±30b: ε-DP with ε = Δ/b. Caveat: " + FLOAT_CAVEAT
    )
    source = f"{SEED_000}:L119-121 (Def 2.2, Thm 2.3, continuous form); Mironov 2012 (floats)"
    convention = "receives a real query value v; returns v + b·Laplace(0, 1), a float"
    params = (
        Param("scale", "positive", None, "noise scale b (density ∝ e^{-|z|/b}); or give epsilon"),
        Param("epsilon", "epsilon", None, "privacy parameter: b = sensitivity/epsilon"),
        Param("sensitivity", "positive", 1.0, "L1 sensitivity Δ of the query"),
    )
    kind = "laplace"
    cells = LAPLACE_CELLS
    spread = "scale"
    deviation = ("scale", -1)

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        _one_of_scale_epsilon(params, float(params["sensitivity"]))
        if params["scale"] > 1e12:
            raise ValueError(f"scale: at most 1e12 here, got {params['scale']!r}")
        self._check_resolution(params)
        return params


#: the catalogue's Gaussian and continuous-Laplace entries, in ``dpspec conform --list`` order
NOISE: tuple[Algorithm, ...] = (_DiscreteGaussian(), _Gaussian(), _Laplace())
