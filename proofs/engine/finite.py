"""Lemmas over finite domains, settled by exhaustive enumeration instead of CrossHair.

A lemma whose preconditions bound every argument to a finite set (bits of at most 8 records,
histograms of at most 4 records in 4 bins, …) is decided exactly by running it on every input:
cheaper than a symbolic search and exact. The lemma declares its domain beside it::

    @over(bits=tuples((False, True), 8), i=range(8), new=(False, True))
    def count_change_substitution(bits, i, new): ...

— a finite superset of what its ``pre:`` lines admit (the inputs failing a ``pre:`` line are
skipped and counted). :func:`enumerate_lemma` evaluates every ``post:`` line on every admitted
input (the same docstring contract CrossHair reads, through
:func:`dpspec.proofs.engine.crosshair.evaluate_contract`'s reading of it), and, as the check's
control, each ``post:`` line negated: a lemma whose negation holds nowhere would be vacuous
(no admitted input), and the control then fails.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

#: The attribute holding a lemma's declared finite domain.
DOMAIN_ATTRIBUTE = "__finite_domain__"

#: Largest number of argument combinations one lemma may enumerate.
MAX_INPUTS = 2_000_000


def over(**domains: Iterable[Any]) -> Callable[[F], F]:
    """Declare the finite domain of a lemma's arguments (each an iterable of values)."""

    def attach(fn: F) -> F:
        setattr(fn, DOMAIN_ATTRIBUTE, {name: tuple(values) for name, values in domains.items()})
        return fn

    return attach


def tuples(
    values: Sequence[Any], max_length: int, min_length: int = 0
) -> tuple[tuple[Any, ...], ...]:
    """Every tuple of ``values`` of length ``min_length`` … ``max_length``."""
    return tuple(
        combo
        for length in range(min_length, max_length + 1)
        for combo in itertools.product(values, repeat=length)
    )


def finite_domain(fn: Callable[..., Any]) -> dict[str, tuple[Any, ...]] | None:
    """The declared domain of a lemma, or None for one CrossHair must explore."""
    found = getattr(fn, DOMAIN_ATTRIBUTE, None)
    return found if isinstance(found, dict) else None


@dataclass
class FiniteReport:
    """One lemma enumerated: inputs tried and admitted, failures of each post line (first
    counterexamples kept), and how many inputs refute each negated post line."""

    function: str
    inputs: int = 0
    admitted: int = 0
    failures: dict[str, list[str]] = field(default_factory=dict)
    negation_refuted: dict[str, int] = field(default_factory=dict)

    @property
    def holds(self) -> bool:
        return self.admitted > 0 and not any(self.failures.values())

    @property
    def negations_refuted(self) -> bool:
        return all(n > 0 for n in self.negation_refuted.values())


def _contract(fn: Callable[..., Any]) -> tuple[list[str], list[str]]:
    from dpspec.proofs.engine.crosshair import contract_lines

    lines = contract_lines(inspect.getdoc(fn) or "")
    return [e for _, k, e in lines if k == "pre"], [e for _, k, e in lines if k == "post"]


def _inputs(domain: dict[str, tuple[Any, ...]]) -> Iterator[dict[str, Any]]:
    names = list(domain)
    for values in itertools.product(*(domain[n] for n in names)):
        yield dict(zip(names, values, strict=True))


def enumerate_lemma(fn: Callable[..., Any]) -> FiniteReport:
    """Every input of the declared domain: each post line must hold on every admitted input,
    each negated post line must fail on at least one."""
    domain = finite_domain(fn)
    if domain is None:
        raise ValueError(f"fn: {fn.__qualname__} declares no finite domain")
    size = 1
    for values in domain.values():
        size *= len(values)
    if size > MAX_INPUTS:
        raise ValueError(f"fn: {size} inputs to enumerate; the limit is {MAX_INPUTS}")
    pres, posts = _contract(fn)
    pre_code = [compile(p, "<pre>", "eval") for p in pres]
    post_code = [(p, compile(p, "<post>", "eval")) for p in posts]
    report = FiniteReport(f"{fn.__module__}.{fn.__qualname__}")
    report.failures = {p: [] for p in posts}
    report.negation_refuted = {p: 0 for p in posts}
    namespace: dict[str, Any] = dict(fn.__globals__)
    body = inspect.unwrap(fn)
    for args in _inputs(domain):
        report.inputs += 1
        namespace.update(args)
        if not all(eval(code, namespace) for code in pre_code):
            continue
        report.admitted += 1
        namespace["__return__"] = body(**args)
        for post, code in post_code:
            if eval(code, namespace):
                report.negation_refuted[post] += 1
            elif len(report.failures[post]) < 3:
                report.failures[post].append(repr(args))
    return report


def finite_check(functions: tuple[str, ...], module: str) -> Any:
    """The check of lemma obligations whose lemmas declare finite domains: every post line
    holds on every admitted input; the controls are the negated post lines, each of which
    must be refuted by some admitted input (else the lemma would hold vacuously)."""
    import importlib

    from dpspec.proofs.engine.registry import CheckOutcome, Control, VerifyConfig

    def run(config: VerifyConfig) -> CheckOutcome:
        mod = importlib.import_module(module)
        reports = [enumerate_lemma(getattr(mod, name)) for name in functions]
        controls = [
            Control(
                f"{r.function.rsplit('.', 1)[-1]}: post '{post}' negated (a vacuous lemma)",
                refuted > 0,
                f"refuted on {refuted} of {r.admitted} admitted inputs",
            )
            for r in reports
            for post, refuted in r.negation_refuted.items()
        ]
        failing = {r.function: {p: f for p, f in r.failures.items() if f} for r in reports}
        failing = {k: v for k, v in failing.items() if v}
        return CheckOutcome(
            all(r.holds for r in reports),
            "exact enumeration: "
            + "; ".join(
                f"{r.function.rsplit('.', 1)[-1]} on {r.admitted} admitted of {r.inputs} inputs"
                for r in reports
            )
            + (f"; counterexamples: {failing}" if failing else ""),
            {"inputs": {r.function: r.admitted for r in reports}, "failures": failing},
            controls,
        )

    run.__name__ = f"enumerate_{'_'.join(functions)}"
    return run
