"""Replay auditing: an ε upper bound from the target's own draws.

The statistical audit bounds ε from below. This module bounds it from above on the audited
pair, by looking at the randomness the target draws through the Generator the audit hands it
(:class:`~dpspec.audit._recording.RecordingGenerator`):

1. **Record.** Run the target once on D, recording every draw: method, parameters, shape, call
   site. Replay the same draws on D (with a freshly seeded bit generator): the release must be
   the same, or the target draws randomness from elsewhere (a Generator of its own, the global
   generators, the bit generator directly) and nothing can be coupled.
2. **Couple.** Find the shift t (per draw of a location family, in units of its scale) with
   M(D'; e + t) = M(D; e): first from what each noise draw was added to (``x + noise``,
   ``rng.laplace(x, b)``, ``argmax(scores + gumbel)``: t = (x − x')/b), else from the
   release's response to each draw (finite differences, affine releases: ``x + b·z``). Every
   other draw is replayed identically. The shift is accepted only when replaying D' with
   e + t gives D's release (to 1e-9 relative). On D' the target must ask for the same draws:
   another count, family, scale, or an uncoupled draw with other arguments is reported with
   its site, and the upper side then gives no number.
3. **Bound.** With the release a function of noise whose law on D' is the law on D shifted by
   t, the pair's privacy curve is at most that of the shifted noise
   (:mod:`dpspec.accounting.pld`: pure sums, Gaussian μ-composition, or a privacy loss
   distribution rounded both ways). When the release also determines the shifted noise (its
   derivative in those draws has full column rank), the curve is the pair's own: the
   optimistic value is then a lower bound too, and exceeding the claim is a violation.

Over ``runs`` independent runs the shift must be the same (a fixed coupling); the bound holds
for the audited pair, under what the replay rests on: randomness through the given Generator,
shifts seen on the replayed runs, idealised real arithmetic (float attacks stay the
statistical side's job).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.accounting.pld import epsilon_of, logpdf, pure_epsilon
from dpspec.audit._domains import ClaimArg, MechanismArg, SeedArg, _Datasets
from dpspec.audit._recording import Call, RecordingGenerator, ReplayMismatch
from dpspec.audit._targets import CallableMechanism, Mechanism, MechanismError, as_mechanism
from dpspec.validation import DeltaArg, Integer, checked, example

#: largest ``runs``
MAX_RUNS = 1000
#: most noise elements whose effect on the release is probed one by one
MAX_PROBE = 256
#: releases are the same when every number agrees to this relative tolerance
TOLERANCE = 1e-9
#: finite-difference step (in units of a draw's scale)
STEP = 1e-6


@dataclass(frozen=True)
class ReplayCall:
    """One draw site of the coupled run: ``site`` (file:line), numpy ``method`` and the
    location ``family``, ``size`` elements, ``scale`` (one value, or None when it varies
    across the elements), the shift seen in the release's units (``sensitivity_l1``,
    ``sensitivity_l2``) and the pure ε of the call alone (∞ for Gaussian and Gumbel draws that
    move)."""

    __dpspec_declarative__ = "one draw site of a replay (a record the replay returns)"

    site: str
    method: str
    family: str
    size: int
    scale: float | None
    sensitivity_l1: float
    sensitivity_l2: float
    epsilon: float

    def to_json(self) -> dict[str, Any]:
        return {
            "site": self.site,
            "method": self.method,
            "family": self.family,
            "size": self.size,
            "scale": self.scale,
            "sensitivity_l1": self.sensitivity_l1,
            "sensitivity_l2": self.sensitivity_l2,
            "epsilon": _number(self.epsilon),
        }


@dataclass
class ReplayResult:
    """What a replay found on the pair.

    ``finding``: ``"coupled"`` (a fixed shift makes D' release what D releases on every run:
    ``epsilon_upper`` is a bound of the pair's ε(δ)), ``"deterministic"`` (no draw at all:
    0 when both releases are equal, ∞ when they differ), or why nothing was coupled:
    ``"outside randomness"``, ``"draw count"``, ``"draw family"``, ``"data-dependent scale"``,
    ``"data-dependent draw"``, ``"no shift"``, ``"shift varies"``, ``"global generators"``
    (then ``epsilon_upper`` is None and ``site`` / ``detail`` say where). ``exact``: the
    release determines the shifted noise, so ``epsilon_exact`` (the optimistic value of the
    same curve) is a lower bound as well. ``calls`` is the per-site table; ``loss`` the
    largest privacy loss Σ log p(e)/p(e + t) over the replayed runs (D → D')."""

    __dpspec_declarative__ = "what a replay found (a record the replay returns)"

    epsilon_claimed: float
    delta: float
    finding: str
    epsilon_upper: float | None
    epsilon_exact: float | None
    exact: bool
    runs: int
    detail: str
    site: str | None = None
    method: str = ""
    loss: float | None = None
    calls: list[ReplayCall] = field(default_factory=list)
    rests_on: str = (
        "randomness drawn through the given Generator; shifts seen on the replayed runs of "
        "this pair; idealised real arithmetic (float attacks are the statistical side's job)"
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "epsilon_claimed": self.epsilon_claimed,
            "delta": self.delta,
            "finding": self.finding,
            "epsilon_upper": _number(self.epsilon_upper),
            "epsilon_exact": _number(self.epsilon_exact),
            "exact": self.exact,
            "runs": self.runs,
            "detail": self.detail,
            "site": self.site,
            "method": self.method,
            "loss": _number(self.loss),
            "calls": [c.to_json() for c in self.calls],
            "rests_on": self.rests_on,
        }


def _number(value: float | None) -> Any:
    if value is None or math.isfinite(value):
        return value
    return "inf" if value > 0 else "-inf"


# --- releases ----------------------------------------------------------------------------------


def _leaves(value: Any, path: str = "output") -> list[tuple[str, Any]]:
    """The release as (path, leaf) pairs: numbers as floats, text as it is, containers walked
    (dict keys in sorted order)."""
    if isinstance(value, dict):
        out: list[tuple[str, Any]] = [(f"{path}.keys", tuple(sorted(map(repr, value))))]
        for key in sorted(value, key=repr):
            out.extend(_leaves(value[key], f"{path}[{key!r}]"))
        return out
    if isinstance(value, list | tuple):
        out = [(f"{path}.len", len(value))]
        for i, v in enumerate(value):
            out.extend(_leaves(v, f"{path}[{i}]"))
        return out
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        arr = np.asarray(value, dtype=np.float64)
        return [(f"{path}.shape", arr.shape)] + [
            (f"{path}[{', '.join(map(str, idx))}]" if arr.ndim else path, float(v))
            for idx, v in np.ndenumerate(arr)
        ]
    if isinstance(value, np.ndarray):
        return [(f"{path}.shape", value.shape)] + [
            (f"{path}[{', '.join(map(str, idx))}]", v) for idx, v in np.ndenumerate(value)
        ]
    if isinstance(value, bool | np.bool_ | int | float | np.integer | np.floating):
        return [(path, float(value))]
    return [(path, value)]


def _differ(a: Any, b: Any) -> list[str]:
    """The paths where releases ``a`` and ``b`` differ (numbers beyond TOLERANCE relative)."""
    la, lb = _leaves(a), _leaves(b)
    if [p for p, _ in la] != [p for p, _ in lb]:
        return ["output (its structure)"]
    out = []
    for (path, x), (_, y) in zip(la, lb, strict=True):
        if isinstance(x, float) and isinstance(y, float):
            if math.isnan(x) and math.isnan(y):
                continue
            if not abs(x - y) <= TOLERANCE * (1 + abs(x) + abs(y)):
                out.append(path)
        elif not _same_leaf(x, y):
            out.append(path)
    return out


def _same_leaf(x: Any, y: Any) -> bool:
    try:
        return bool(x == y)
    except Exception:  # an object whose comparison raises: compare what it shows
        return repr(x) == repr(y)


def _numeric(value: Any) -> NDArray[np.float64] | None:
    """The release's numbers as one vector, or None when it holds other leaves."""
    numbers = [v for p, v in _leaves(value) if not p.endswith((".shape", ".len", ".keys"))]
    if not all(isinstance(v, float) for v in numbers):
        return None
    return np.asarray(numbers, dtype=np.float64)


# --- one run -----------------------------------------------------------------------------------


class _Stop(Exception):
    """No coupling: the finding, its detail and site."""

    def __init__(self, finding: str, detail: str, site: str | None = None) -> None:
        super().__init__(detail)
        self.finding, self.detail, self.site = finding, detail, site


Runner = Callable[[Any, np.random.Generator], Any]


def _runner(mech: Mechanism) -> Runner:
    """One release of ``mech`` on a dataset from a Generator, or _Stop for a target that draws
    from the global generators."""
    if isinstance(mech, CallableMechanism):
        fn = mech.fn
        if mech.arity == 3:
            return lambda data, rng: fn(data, 1, rng)
        if mech.arity == 2:
            return lambda data, rng: fn(data, rng)
        raise _Stop(
            "global generators",
            "f(data) draws from numpy's and Python's global generators, which a replay cannot "
            "record; give the target an rng parameter (f(data, rng) or f(data, n, rng))",
        )
    return lambda data, rng: mech.sample(data, 1, rng)


def _call(run: Runner, data: Any, rng: RecordingGenerator) -> Any:
    try:
        return run(data, rng)
    except ReplayMismatch:
        raise
    except Exception as exc:
        raise MechanismError(f"mechanism: raised {type(exc).__name__}: {exc}") from exc


def _noise(calls: list[Call], shift: NDArray[np.float64] | None = None) -> list[Any]:
    """The standardised draws of ``calls`` as a replay hands them out, shifted by ``shift``
    (flat, over the location draws in order)."""
    out: list[Any] = []
    at = 0
    for c in calls:
        if c.family is None:
            out.append(None)
            continue
        e = c.standard
        if shift is not None:
            e = e + shift[at : at + e.size]
        at += c.standard.size
        out.append(e)
    return out


def _replay(
    run: Runner,
    data: Any,
    calls: list[Call],
    seed: int,
    shift: NDArray[np.float64] | None = None,
) -> tuple[Any, list[Call]]:
    """The release on ``data`` with ``calls``' draws (shifted); a replay that asks for other
    draws raises ReplayMismatch, one that makes fewer draws is a "draw count" mismatch."""
    rng = RecordingGenerator(seed, replaying=calls, noise=_noise(calls, shift))
    out = _call(run, data, rng)
    if len(rng.calls) < len(calls):
        missing = calls[len(rng.calls)]
        raise ReplayMismatch(
            "draw count",
            missing.site,
            f"the replay made {len(rng.calls)} draws; the recorded "
            f"run made {len(calls)} (the next at this site)",
        )
    return out, rng.calls


def _location(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.family is not None]


def _tracked_shift(d: list[Call], p: list[Call]) -> NDArray[np.float64] | None:
    """The shift read from what each draw was added to, or None when some draw was used
    otherwise (or with another sign) on either side."""
    parts = []
    for a, b in zip(_location(d), _location(p), strict=True):
        if a.transformed.any() or b.transformed.any():
            return None
        if not np.array_equal(np.isnan(a.offset), np.isnan(b.offset)):
            return None
        if not np.array_equal(a.sign, b.sign):
            return None
        ca = np.nan_to_num(a.offset, nan=0.0)
        cb = np.nan_to_num(b.offset, nan=0.0)
        parts.append((a.sign * (ca - cb) + (a.loc - b.loc)) / a.scale)
    return np.concatenate(parts) if parts else np.zeros(0)


def _jacobian(
    run: Runner,
    data: Any,
    calls: list[Call],
    seed: int,
    base: NDArray[np.float64],
    columns: NDArray[np.int64],
) -> NDArray[np.float64] | None:
    """∂ release / ∂ e_j for the location draws ``columns`` (finite differences of STEP), or
    None when a probe changes the release's structure or draws."""
    total = sum(c.standard.size for c in _location(calls))
    out = np.zeros((base.size, columns.size))
    for k, j in enumerate(columns.tolist()):
        unit = np.zeros(total)
        unit[j] = STEP
        try:
            release, _ = _replay(run, data, calls, seed, unit)
        except ReplayMismatch:
            return None
        vec = _numeric(release)
        if vec is None or vec.shape != base.shape:
            return None
        out[:, k] = (vec - base) / STEP
    return out


@dataclass
class _Run:
    shift: NDArray[np.float64]
    families: list[str]
    calls: list[Call]
    exact: bool
    loss: float


def _one_run(run: Runner, pair: tuple[Any, Any], seeds: list[int]) -> _Run | tuple[str, Any]:
    """One coupled run, or ("deterministic", equal) for a target that draws nothing."""
    d, dp = pair
    rec = RecordingGenerator(seeds[0])
    out_d = _call(run, d, rec)
    calls = rec.calls
    try:
        again, _ = _replay(run, d, calls, seeds[1])
    except ReplayMismatch as exc:
        raise _Stop(
            "outside randomness",
            f"replaying D's own draws asked for other draws ({exc}): "
            "the target draws from randomness other than the given Generator",
            exc.site,
        ) from exc
    diff = _differ(out_d, again)
    if diff:
        raise _Stop(
            "outside randomness",
            f"replaying D's own draws changed {diff[0]}: the release "
            "depends on randomness other than the given Generator (a Generator of its own, the "
            "global generators, or the bit generator directly)",
        )
    try:
        out_p, calls_p = _replay(run, dp, calls, seeds[2])
    except ReplayMismatch as exc:
        raise _Stop(exc.kind, f"on D': {exc}", exc.site) from exc
    location = _location(calls)
    if not location:
        return ("deterministic", not _differ(out_d, out_p))
    tracked = _tracked_shift(calls, calls_p)
    shift = tracked
    if shift is None or not _holds(run, dp, calls, seeds[3], shift, out_d):
        shift = _probed_shift(run, dp, calls, seeds[3], out_d, out_p)
    if shift is None:
        differs = _differ(out_d, _closest(run, dp, calls, seeds[3], tracked, out_p))
        raise _Stop(
            "no shift",
            "no shift of the noise makes D' release what D releases (differing: "
            f"{', '.join(differs[:3])}{' ...' if len(differs) > 3 else ''}): the release "
            "depends on the data beyond its noisy values",
            differs[0] if differs else None,
        )
    families = [str(c.family) for c in location for _ in range(c.standard.size)]
    e = np.concatenate([c.standard for c in location])
    fam = np.asarray(families)
    loss = 0.0
    for f in set(families):
        sel = fam == f
        loss += float(np.sum(logpdf(f, e[sel]) - logpdf(f, e[sel] + shift[sel])))
    moved = np.flatnonzero(shift != 0).astype(np.int64)
    exact = _determines(run, d, calls, seeds[4], out_d, moved)
    return _Run(shift, [str(f) for f in families], calls, exact, loss)


def _closest(run: Runner, dp: Any, calls: list[Call], seed: int, tracked: Any, out_p: Any) -> Any:
    """D''s release under the shift read from the additions (the one nearest to coupling),
    or with the draws unshifted when there is none: what still differs from D's release is
    what no shift of the noise reaches."""
    if tracked is None:
        return out_p
    try:
        return _replay(run, dp, calls, seed, tracked)[0]
    except ReplayMismatch:
        return out_p


def _holds(
    run: Runner, dp: Any, calls: list[Call], seed: int, shift: NDArray[np.float64], out_d: Any
) -> bool:
    """Does D' with the draws shifted by ``shift`` release what D released?"""
    try:
        out, _ = _replay(run, dp, calls, seed, shift)
    except ReplayMismatch:
        return False
    return not _differ(out_d, out)


def _probed_shift(
    run: Runner, dp: Any, calls: list[Call], seed: int, out_d: Any, out_p: Any
) -> NDArray[np.float64] | None:
    """The shift from the release's response to each draw on D' (an affine release: solve
    J t = M(D; e) − M(D'; e)), checked by replaying; None when it does not hold."""
    base, target = _numeric(out_p), _numeric(out_d)
    total = sum(c.standard.size for c in _location(calls))
    if base is None or target is None or base.shape != target.shape or total > MAX_PROBE:
        return None
    jac = _jacobian(run, dp, calls, seed, base, np.arange(total, dtype=np.int64))
    if jac is None:
        return None
    solved = np.linalg.lstsq(jac, target - base, rcond=None)[0]
    shift = np.where(np.abs(solved) < 1e-12, 0.0, solved).astype(np.float64)
    return shift if _holds(run, dp, calls, seed, shift, out_d) else None


def _determines(
    run: Runner, d: Any, calls: list[Call], seed: int, out_d: Any, moved: NDArray[np.int64]
) -> bool:
    """Does the release determine the moved draws (its derivative in them of full column
    rank)? False when it is not numeric or more than MAX_PROBE draws moved."""
    if moved.size == 0:
        return True
    base = _numeric(out_d)
    if base is None or moved.size > MAX_PROBE:
        return False
    jac = _jacobian(run, d, calls, seed, base, moved)
    if jac is None:
        return False
    return int(np.linalg.matrix_rank(jac, tol=1e-6)) == moved.size


# --- the replay --------------------------------------------------------------------------------


@checked
@example(__call__={"pair": (0.0, 1.0), "epsilon": 1.0, "runs": 4})
def replay(
    mechanism: MechanismArg,
    pair: Annotated[Any, _Datasets()],
    epsilon: ClaimArg,
    delta: DeltaArg = 0.0,
    *,
    runs: Annotated[int, Integer(1, hi=MAX_RUNS, clean=32)] = 32,
    seed: SeedArg = 0,
) -> ReplayResult:
    """An upper bound of ε(δ) of ``mechanism`` on ``pair`` = (D, D') from its own draws (see
    the module docstring): ``runs`` independent recorded runs, each replayed on D (the draws
    must reproduce the release) and on D' with the coupled shift (which must reproduce D's
    release and be the same on every run). The result's ``epsilon_upper`` is the pessimistic
    ε(δ) of the shifted noise over both directions; ``epsilon_exact`` its optimistic value
    when the release determines the shifted draws (then a lower bound of the pair's ε(δ) as
    well); ``calls`` the per-site table. A target that cannot be coupled gets
    ``epsilon_upper`` None and the reason with its site."""
    mech = as_mechanism(mechanism)
    if epsilon is None:
        raise ValueError("epsilon: required, the claimed epsilon")
    return _replay_pair(mech, (pair[0], pair[1]), float(epsilon), delta, runs, seed)


def _replay_pair(
    mech: Mechanism, pair: tuple[Any, Any], eps: float, delta: float, runs: int, seed: int
) -> ReplayResult:
    """The kernel of :func:`replay` (the audit calls it on checked arguments)."""
    seeds = np.random.SeedSequence(seed).generate_state(5 * runs, dtype=np.uint64).tolist()
    found: list[_Run] = []
    deterministic: list[bool] = []
    try:
        run = _runner(mech)
        for r in range(runs):
            one = _one_run(run, pair, [int(s) for s in seeds[5 * r : 5 * r + 5]])
            if isinstance(one, tuple):
                deterministic.append(bool(one[1]))
            else:
                found.append(one)
        if found and deterministic:
            raise _Stop("draw count", "some runs drew location noise and others none")
    except _Stop as stop:
        return ReplayResult(
            eps, delta, stop.finding, None, None, False, runs, stop.detail, stop.site
        )
    if deterministic:
        equal = all(deterministic)
        value = 0.0 if equal else math.inf
        detail = (
            "no draw from the given Generator and the same release on D and D': the pair is "
            "not distinguished"
            if equal
            else "no draw from the given Generator, and the "
            "release differs between D and D': a deterministic function of the data"
        )
        return ReplayResult(
            eps, delta, "deterministic", value, value, True, runs, detail, method="no randomness"
        )
    first = found[0]
    for other in found[1:]:
        same = (
            other.families == first.families
            and other.shift.shape == first.shift.shape
            and np.allclose(other.shift, first.shift, rtol=1e-6, atol=1e-9)
        )
        if not same:
            return ReplayResult(
                eps,
                delta,
                "shift varies",
                None,
                None,
                False,
                runs,
                "the coupling shift differs between runs (it depends on the noise, or the "
                "draws do): no fixed shift couples the pair",
            )
    fam = np.asarray(first.families)
    shifts = {str(f): first.shift[fam == f] for f in set(first.families)}
    curve = epsilon_of(shifts, delta)
    exact = all(r.exact for r in found)
    detail = f"{len(found)} runs coupled by one shift ({curve.method}); " + (
        "the release determines the shifted draws: the value is the pair's own"
        if exact
        else "the release does not determine the shifted draws: an upper bound"
    )
    return ReplayResult(
        eps,
        delta,
        "coupled",
        curve.upper,
        curve.lower if exact else None,
        exact,
        runs,
        detail,
        method=curve.method,
        loss=max(r.loss for r in found),
        calls=_table(first),
    )


def _table(run: _Run) -> list[ReplayCall]:
    """The per-site table of one coupled run."""
    out = []
    at = 0
    for c in _location(run.calls):
        t = run.shift[at : at + c.standard.size]
        at += c.standard.size
        moved = t * c.scale
        scales = np.unique(c.scale)
        assert c.family is not None
        eps = sum((pure_epsilon(c.family, float(x)) for x in t), 0.0)
        out.append(
            ReplayCall(
                c.site,
                c.method,
                c.family,
                int(t.size),
                float(scales[0]) if scales.size == 1 else None,
                float(np.sum(np.abs(moved))),
                float(np.linalg.norm(moved)),
                eps,
            )
        )
    return out
