"""What an entry of ``dpspec conform``'s catalogue is: an algorithm with an exact law.

An :class:`Algorithm` states what a target receives and returns, its parameters
(:class:`Param`: validated, one ``ValueError``/``TypeError`` naming the parameter), its privacy
guarantee as the spec states it, and its **instances** (:class:`Instance`): small inputs on
which its output law is exact (from dpspec's own laws: ``dpspec.noise``'s pmf functions, the
mechanisms' ``pmf``, the learners' ``release_law``), each with the spec's worst neighbouring
input for the privacy audit, the law of the same algorithm at ε × 1.1 (the alternative the draw
budget is sized against) and the other alternatives whose power is stated (a shifted support, a
truncated tail). The entries themselves are in :mod:`dpspec.conform.mechanisms`,
:mod:`dpspec.conform.gaussian` and :mod:`dpspec.conform.learners`; users reach them by name through
:func:`dpspec.conform.catalogue.algorithm`, :func:`~dpspec.conform.catalogue.reference`,
:func:`~dpspec.conform.core.plan` and :func:`~dpspec.conform.core.conform`, which check their
arguments. An entry's methods are the machinery behind those functions (private: they take
parameters already resolved).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.conform.adapters import Sampler, as_sampler
from dpspec.conform.gof import Law
from dpspec.validation import (
    check_count,
    check_delta,
    check_epsilon,
    check_flag,
    check_positive,
    rational_at_most,
)

#: the factor of the alternative every draw budget is sized against by default: the same
#: algorithm at ε × 1.1 (``resolution=r`` sizes it against ε × (1 + r) and ε / (1 + r) instead)
EPSILON_FACTOR = 1.1
#: seed 000 (Bousquet et al.), the thesis (seed 002)
SEED_000 = "000_dff3c4dc97cf0e21.txt"
SEED_002 = "002_9f3104e4a0d86722.txt"

#: the seed of the input drawn at random among each algorithm's instances (stated in its label)
DRAWN_INPUT_SEED = 20261202

#: the kinds of algorithm parameter and the text ``dpspec conform --list`` gives each
PARAM_KINDS = ("positive", "epsilon", "int", "delta", "bool", "fraction")


@dataclass(frozen=True)
class Param:
    """One parameter of an algorithm: ``kind`` is one of :data:`PARAM_KINDS` (a positive real,
    a privacy ε, an integer in [``minimum``, ``maximum``], a δ in (0, 1), a bool, a rational in
    [0, 600] kept exact); ``default`` None means "required, or derived from another"."""

    __dpspec_declarative__ = "the description of one algorithm parameter (a record)"

    name: str
    kind: str
    default: Any
    help: str
    minimum: int = 1
    maximum: int | None = None

    def _parse(self, value: Any) -> Any:
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

    def _from_text(self, text: str) -> Any:
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
    ``alternatives`` the other deviations whose power is stated; ``sized`` the laws the budget
    must also reach the power against (a harder form of the ε × 1.1 bug)."""

    __dpspec_declarative__ = "one instance of an algorithm with its exact laws (a record)"

    label: str
    data: Any
    law: Law
    variant: Law
    neighbour: Any = None
    neighbour_law: Law | None = None
    alternatives: list[Law] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)
    sized: list[Law] = field(default_factory=list)


class Algorithm(ABC):
    """One algorithm of the spec with an exact law on small instances: its description (what
    ``dpspec conform --list`` prints) and, in private methods, the machinery the public
    functions run on parameters they have resolved."""

    __dpspec_declarative__ = (
        "a catalogue entry: the description of an algorithm (its laws and its reference "
        "implementation are reached through plan() and reference(), which check their arguments)"
    )

    name: str = ""
    aliases: tuple[str, ...] = ()
    summary: str = ""
    source: str = ""
    convention: str = ""
    params: tuple[Param, ...] = ()
    learner: bool = False
    #: the parameter a deviation of ε is stated in, and its power in ε: ("scale", -1) means
    #: the algorithm at ε × f is the one at scale / f
    deviation: tuple[str, int] = ("ε", 1)
    #: what a pass does not say (a float sampler judged against a continuous law): stated in
    #: the description and in every report's notes
    caveat: str = ""

    def describe(self) -> dict[str, Any]:
        """The description as plain data (``dpspec conform --list --json``)."""
        return {
            "name": self.name,
            "aliases": list(self.aliases),
            "summary": self.summary,
            "source": self.source,
            "target": self.convention,
            "caveat": self.caveat,
            "params": [
                {"name": p.name, "kind": p.kind, "default": _plain(p.default), "help": p.help}
                for p in self.params
            ],
        }

    def _resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        """Parameters checked and completed with defaults (unknown names refused)."""
        known = {p.name: p for p in self.params}
        for key in given:
            if key not in known:
                raise ValueError(
                    f"{key}: not a parameter of {self.name} (parameters: "
                    f"{', '.join(known) or 'none'})"
                )
        out = {
            p.name: (p._parse(given[p.name]) if given.get(p.name) is not None else p.default)
            for p in self.params
        }
        return self._complete(out)

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        """Derived parameters and cross-checks (e.g. scale from ε)."""
        return params

    def _from_text(self, given: dict[str, str]) -> dict[str, Any]:
        """Command-line ``NAME=VALUE`` texts converted to the parameters' kinds (unknown names
        refused); :meth:`_resolve` then checks the values."""
        known = {p.name: p for p in self.params}
        out = {}
        for key, text in given.items():
            if key not in known:
                raise ValueError(
                    f"{key}: not a parameter of {self.name} (parameters: "
                    f"{', '.join(known) or 'none'})"
                )
            out[key] = known[key]._from_text(text)
        return out

    def _claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        """(ε, δ) the spec guarantees for these parameters; None: no privacy claim."""
        return (float(params["epsilon"]), 0.0)

    @abstractmethod
    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        """The spec's small instances with their exact laws; ``variant`` (and ``sized``) are
        the laws of the same algorithm at ε × ``factor``."""

    def _variants(self, params: dict[str, Any], factor: float) -> list[list[Law]]:
        """Per instance, the laws at ε × ``factor`` a budget is sized against (``variant``,
        then ``sized``), on the instance's table."""
        return [[inst.variant, *inst.sized] for inst in self._instances(params, factor)]

    def _deviation_text(self, factor: float) -> str:
        """The algorithm at ε × ``factor`` in its own parameter: "scale / 1.1", "γ × 1.05"."""
        name, power = self.deviation
        f = factor**power
        return f"{name} × {f:.4g}" if f >= 1 else f"{name} / {1 / f:.4g}"

    @abstractmethod
    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        """dpspec's own implementation at ε × factor, as a target."""

    def _sampler(self, target: Any, params: dict[str, Any]) -> Sampler:
        """The target in this algorithm's calling convention."""
        return as_sampler(target)

    def _guarantees(
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


def _input_sweep(lo: int, hi: int, body: tuple[int, ...]) -> list[tuple[int, str]]:
    """The inputs an integer-valued algorithm is judged on: ``body`` (its usual values), a
    negative one, the extremes of the declared domain [``lo``, ``hi``] that are not in the
    body, and one drawn uniformly from it (seed :data:`DRAWN_INPUT_SEED`), each labelled with
    why it is there."""
    drawn = int(np.random.default_rng(DRAWN_INPUT_SEED).integers(lo, hi, endpoint=True))
    out = [(v, "") for v in body]
    for v, why in ((-7, "negative"), (lo, "lowest"), (hi, "largest"), (drawn, "drawn at random")):
        if lo <= v <= hi and all(v != w for w, _ in out):
            out.append((v, why))
    return out


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
