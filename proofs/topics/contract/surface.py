"""Checks of the public surface, derived from what the package contains.

* ``public_surface`` (``contract.discovery``): every public class and function found by walking
  ``dpspec`` keeps the contract (:func:`~dpspec.proofs.topics.contract.discovery.
  contract_problems`); control: a scratch class and a scratch function written the way the
  newest families were (no enforced validation, no ``idealised``, undeclared parameters) must
  be reported.
* ``hostile_sweep`` (``contract.hostile-sweep``): every declared parameter of every public
  callable gets the values its domain refuses and the values equal to a clean one in another
  type (:mod:`dpspec.proofs.engine.sweep`); control: the real discrete Laplace mechanism with
  its validation bypassed (``sample`` unwrapped) must fail the sweep.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

import dpspec.contract
import dpspec.proofs.engine.options
import dpspec.proofs.engine.reports
import dpspec.validation.checks
import dpspec.validation.domains
from dpspec.cli import build_parser, command_modules, main
from dpspec.mechanisms import DiscreteLaplaceMechanism
from dpspec.proofs.engine.discovery import PublicObject, declarative_kind, public_objects
from dpspec.proofs.engine.registry import (
    CONTRACT,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.sweep import REFUSAL_CPU_SECONDS, Tally, entries, sweep
from dpspec.proofs.topics.contract.cli_surface import sweep_cli
from dpspec.proofs.topics.contract.discovery import (
    claims_no_privacy,
    contract_problems,
    declared_parameters,
    kinds,
)


class ScratchMechanism:
    """A control: a new public mechanism written without the contract (no ``Checked`` base,
    undeclared parameters, no ``idealised``, ``n`` for ``size``)."""

    def __init__(self, epsilon: float) -> None:
        self.epsilon = epsilon

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> Any:
        return np.asarray(data).sum() + rng.laplace(0, 1 / self.epsilon, n)


def scratch_function(x: float) -> float:
    """A control: a new public function without ``checked`` and without a declared domain."""
    return 2 * x


def _scratch_objects() -> tuple[PublicObject, ...]:
    return (
        PublicObject("dpspec.mechanisms.scratch", "ScratchMechanism", ScratchMechanism),
        PublicObject("dpspec.mechanisms.scratch", "scratch_function", scratch_function),
    )


@Obligation(
    id="contract.discovery",
    source="dpspec standard: one contract for every public class and function, by discovery",
    claim=(
        "every public class and function found by walking dpspec enforces its declared "
        "parameter domains, declares every parameter, keeps the mechanism / learner / "
        "privacy contract, is exported and registered, and the hostile sweep reaches it"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{CONTRACT}: every public object keeps the declared contract",
    impls=("dpspec.validation.checked", dpspec.validation.domains, dpspec.contract),
    tests=("tests/test_contract.py::test_a_new_class_without_the_contract_is_reported",),
)
def public_surface(config: VerifyConfig) -> CheckOutcome:
    """Every public object of the package keeps the contract; the scratch control does not."""
    objects = public_objects()
    problems = contract_problems(objects)
    control = contract_problems(_scratch_objects())
    swept = entries(objects)
    caught = len(control) >= 4
    classes = sum(inspect.isclass(o.obj) for o in objects)
    return CheckOutcome(
        not problems and caught,
        f"{len(objects)} public objects ({classes} classes, {len(objects) - classes} "
        f"functions) in {len({o.module for o in objects})} modules, {len(swept)} callables, "
        f"{declared_parameters(swept)} declared parameters; contract problems: {len(problems)}"
        + (f" (first: {problems[:8]})" if problems else "")
        + f"; control (a scratch mechanism and function without the contract): "
        f"{len(control)} problems reported",
        {
            "objects": len(objects),
            "classes": classes,
            "callables": len(swept),
            "declared_parameters": declared_parameters(swept),
            "problems": problems,
            "control_problems": control,
        },
        [
            Control(
                "a new public mechanism and function without validation, domains or idealised",
                caught,
                f"{len(control)} problems: {control[:3]}",
            )
        ],
    )


class UncheckedDiscreteLaplace(DiscreteLaplaceMechanism):
    """The control of the sweep: the real mechanism whose ``sample`` bypasses validation (its
    checked wrapper removed after the class was made)."""


UncheckedDiscreteLaplace.sample = inspect.unwrap(DiscreteLaplaceMechanism.sample)  # type: ignore[method-assign]


def _family_rows(tally: Tally) -> str:
    return ", ".join(
        f"{family.removeprefix('dpspec.')}: {row['calls']}/{row['failures']}"
        for family, row in sorted(tally.by_family.items())
    )


@Obligation(
    id="contract.hostile-sweep",
    source="dpspec standard: bad input gets a ValueError/TypeError naming the parameter",
    claim=(
        "every declared parameter of every public callable refuses each value its domain "
        "refuses, naming the parameter, and gives the clean result for each equivalent "
        "value (numpy scalars, Fractions); no other exception, no warning, bounded CPU "
        "time"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{CONTRACT}: every refused value refused naming the parameter",
    impls=(dpspec.validation.checks, dpspec.validation.domains),
    tests=("tests/test_contract.py::test_the_sweep_catches_bypassed_validation",),
)
def hostile_sweep(config: VerifyConfig) -> CheckOutcome:
    """The derived sweep over every public callable; its control must fail it."""
    tally = sweep()
    control_object = PublicObject(
        "dpspec.mechanisms.discrete_laplace", "DiscreteLaplaceMechanism", UncheckedDiscreteLaplace
    )
    control = sweep([e for e in entries((control_object,)) if e.method == "sample"])
    caught = bool(control.failures)
    ok = not tally.failures and caught
    return CheckOutcome(
        ok,
        f"{tally.calls} hostile calls: {tally.refused} refused naming the parameter, "
        f"{tally.equivalent} equivalent values with the clean result, {len(tally.failures)} "
        f"failures; slowest call {tally.slowest_cpu:.3f} s CPU, slowest refusal "
        f"{tally.slowest_refusal_cpu:.4f} s CPU (limit {REFUSAL_CPU_SECONDS} s, the least of up to "
        "three runs); per family (calls/failures): "
        f"{_family_rows(tally)}"
        + (f"; first failures: {tally.failures[:6]}" if tally.failures else "")
        + f"; control (sample with validation bypassed): {len(control.failures)} failures",
        {
            "calls": tally.calls,
            "refused": tally.refused,
            "equivalent": tally.equivalent,
            "failures": tally.failures,
            "by_family": tally.by_family,
            "slowest_cpu_seconds": tally.slowest_cpu,
        },
        [
            Control(
                "DiscreteLaplaceMechanism.sample with its validation bypassed",
                caught,
                f"{len(control.failures)} failures, e.g. {control.failures[:2]}",
            )
        ],
        [
            Slack(
                "CPU seconds of the slowest refusal", REFUSAL_CPU_SECONDS, tally.slowest_refusal_cpu
            )
        ],
    )


@Obligation(
    id="contract.cli.options",
    source="dpspec standard: CLI errors are one line, exit 2, before any work",
    claim=(
        "every option of every dpspec command declares its domain (or choices), and "
        "every text its domain refuses ends with exit code 2 and one line on stderr"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{CONTRACT}: every option declares its domain, refusals exit 2",
    impls=(
        dpspec.proofs.engine.options,
        build_parser,
        *command_modules(),  # every module of dpspec.cli, read from the package
    ),
    entry_points=(main,),
)
def cli_options(config: VerifyConfig) -> CheckOutcome:
    """Every option of every command declares its domain and refuses what it refuses as a
    usage error; control: an option declared without a domain (``type=float``) is reported."""
    tally = sweep_cli()
    control = _undeclared_option_control()
    ok = not tally.failures and control
    return CheckOutcome(
        ok,
        f"{tally.commands} commands, {tally.options} options with a value, {tally.texts} refused "
        f"texts sent: {len(tally.failures)} failures"
        + (f" (first: {tally.failures[:6]})" if tally.failures else "")
        + f"; control (an option with type=float and no domain) reported: {control}",
        {
            "commands": tally.commands,
            "options": tally.options,
            "texts": tally.texts,
            "failures": tally.failures,
        },
        [Control("a new command option declared with type=float, no domain", control)],
    )


def _undeclared_option_control() -> bool:
    """A scratch parser with an option of plain ``type=float`` must be reported."""
    import argparse

    from dpspec.proofs.topics.contract import cli_surface

    parser = argparse.ArgumentParser(prog="dpspec")
    sub = parser.add_subparsers(dest="command")
    scratch = sub.add_parser("scratch")
    scratch.add_argument("--epsilon", type=float, default=1.0)
    original = cli_surface._parser
    cli_surface._parser = lambda: parser
    try:
        found = cli_surface.sweep_cli(("scratch",)).failures
    finally:
        cli_surface._parser = original
    return any("no declared domain" in f for f in found)


@Obligation(
    id="contract.privacy-coverage",
    source="dpspec standard: every object stating a privacy level is checked against it",
    claim=(
        "every public class whose constructor takes epsilon, found by walking dpspec, is "
        "run by a privacy obligation and has its report checked against its theorem with "
        "idealised False and True"
    ),
    method=Method.PROPERTY,
    no_predicate=(
        f"{CONTRACT}: every privacy-stating class has a privacy obligation and report cases"
    ),
    impls=(dpspec.proofs.engine.reports,),
)
def privacy_coverage(config: VerifyConfig) -> CheckOutcome:
    """Every privacy-stating public class (a constructor taking ``epsilon``), found by walking
    the package, is an entry point of a privacy obligation and has report cases with
    ``idealised`` False and True; control: a scratch privacy-stating class is reported."""
    missing = coverage_problems(public_objects())
    control = coverage_problems(
        (PublicObject("dpspec.mechanisms.scratch", "ScratchMechanism", ScratchMechanism),)
    )
    private = [o for o in public_objects() if _states_privacy(o)]
    uncovered = len({m.split(":")[0] for m in missing})
    return CheckOutcome(
        not missing and bool(control),
        f"{len(private)} privacy-stating classes: {len(private) - uncovered} covered by a "
        "privacy obligation and report cases for both values of idealised"
        + (f"; missing: {missing}" if missing else "")
        + f"; control (a scratch privacy-stating class) reported: {bool(control)}",
        {"classes": len(private), "missing": missing},
        [
            Control(
                "a new privacy-stating class with no privacy obligation or report", bool(control)
            )
        ],
    )


def _states_privacy(public: PublicObject) -> bool:
    """A computing class whose constructor takes ``epsilon`` (a record or a declaration that
    only carries an ε is not one, nor a class that claims no privacy of its own: a fixture of the
    auditor's zoo built broken on purpose, or an adapter of the auditor,
    :func:`~dpspec.proofs.topics.contract.discovery.claims_no_privacy`)."""
    obj = public.obj
    if not inspect.isclass(obj) or declarative_kind(obj) is not None:
        return False
    return "private" in kinds(obj) and not claims_no_privacy(obj)


def coverage_problems(objects: tuple[PublicObject, ...]) -> list[str]:
    """What each privacy-stating class of ``objects`` lacks: a privacy obligation naming it
    among its entry points, report cases with idealised False and True."""
    from dpspec.proofs.engine.registry import obligations
    from dpspec.proofs.engine.reports import report_cases

    entry_points = [e for ob in obligations() if ob.privacy for e in ob.entry_points]
    reported = {(case.subject, case.idealised) for case in report_cases()}
    out = []
    for public in objects:
        if not _states_privacy(public):
            continue
        dotted = public.dotted
        if not any(e == dotted or e.startswith(dotted + ".") for e in entry_points):
            out.append(f"{dotted}: no privacy obligation runs it (entry_points)")
        for ideal in (False, True):
            if (public.obj, ideal) not in reported:
                out.append(f"{dotted}: no report case with idealised={ideal}")
    return out
