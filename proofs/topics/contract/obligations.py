"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from pathlib import Path

import dpspec
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation

#: The modules of the command line (``impl/cli/``, read from the folder: one per command
#: group): every command they add is reached by ``cli.options`` through the parser.
COMMAND_MODULES = tuple(
    f"dpspec.cli.{path.stem}"
    for path in sorted(Path(dpspec.__file__).parent.joinpath("cli").glob("*.py"))
    if not path.stem.startswith("_")
)

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="contract.discovery",
        source="dpspec standard: one contract for every public class and function, by discovery",
        claim=(
            "every public class and function found by walking dpspec enforces its declared "
            "parameter domains, declares every parameter, keeps the mechanism / learner / "
            "privacy contract, is exported and registered, and the hostile sweep reaches it"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.validation.checked",
            "dpspec.validation.domains",
            "dpspec.contract",
        ),
        checks=("surface:public_surface",),
        tests=("tests/test_contract.py::test_a_new_class_without_the_contract_is_reported",),
    ),
    Obligation(
        id="contract.privacy-coverage",
        source="dpspec standard: every object stating a privacy level is checked against it",
        claim=(
            "every public class whose constructor takes epsilon, found by walking dpspec, is "
            "run by a privacy obligation and has its report checked against its theorem with "
            "idealised False and True"
        ),
        method=Method.PROPERTY,
        impls=("dpspec.proofs.engine.reports",),
        checks=("surface:privacy_coverage",),
    ),
    Obligation(
        id="contract.declared-maximum",
        source="dpspec standard: a public entry refuses, before any work, what it cannot finish",
        claim=(
            "every capped parameter (draws, cells, outcomes, ...) of every public callable, set "
            "to its declared maximum, finishes or is refused naming it within the CPU budget; "
            "at 2^40 it is refused within 0.1 s"
        ),
        method=Method.PROPERTY,
        impls=("dpspec.validation.domains.Integer", "dpspec.validation.checks.LIMITS"),
        checks=("limits:declared_maximum",),
        bug_controls=(
            BugControl(
                "dpspec.validation.domains.Integer.convert",
                "if v < self.lo or (top is not None and v > top):",
                "if v < self.lo:",
                "the caps of integer domains not enforced",
            ),
        ),
    ),
    Obligation(
        id="cli.options",
        source="dpspec standard: CLI errors are one line, exit 2, before any work",
        claim=(
            "every option of every dpspec command declares its domain (or choices), and every "
            "text its domain refuses ends with exit code 2 and one line on stderr"
        ),
        method=Method.PROPERTY,
        impls=("dpspec.proofs.engine.options", "dpspec.cli.build_parser", *COMMAND_MODULES),
        checks=("surface:cli_options",),
        entry_points=("dpspec.cli.main",),
    ),
    Obligation(
        id="contract.hostile-sweep",
        source="dpspec standard: bad input gets a ValueError/TypeError naming the parameter",
        claim=(
            "every declared parameter of every public callable refuses each value its domain "
            "refuses, naming the parameter, and gives the clean result for each equivalent "
            "value (numpy scalars, Fractions); no other exception, no warning, bounded CPU time"
        ),
        method=Method.PROPERTY,
        impls=("dpspec.validation.checks", "dpspec.validation.domains"),
        checks=("surface:hostile_sweep",),
        tests=("tests/test_contract.py::test_the_sweep_catches_bypassed_validation",),
    ),
    Obligation(
        id="cli.exit-codes",
        source="dpspec standard: exit codes 0 holds, 1 violation, 2 usage error, 3 internal error",
        claim="hostile command lines get their exit code and one line on stderr, no traceback",
        method=Method.PROPERTY,
        impls=(
            "dpspec.cli.main",
            "dpspec.proofs.engine.errors.check_writable",
        ),
        checks=("cli:cli_hostile_argv",),
        tests=("tests/test_contract_cli.py::test_usage_errors",),
        entry_points=("dpspec.cli.main",),
        bug_controls=(
            BugControl(
                "dpspec.proofs.engine.errors.one_line_errors",
                "parser.exit(EXIT_USAGE,",
                "parser.exit(1,",
                "argparse's usage errors exiting 1 (a violation) instead of 2",
            ),
        ),
    ),
    Obligation(
        id="inputs.exact-integer-bounds",
        source="dpspec standard: exact samplers use integer arithmetic that cannot wrap",
        claim=(
            "the exact samplers' and laws' integer arithmetic is overflow-safe: exponents split "
            "exactly into int64 parts, |f|, |Z| < 2^62, larger values refused naming the argument"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.noise.ExpNegExponents",
            "dpspec.noise.exp_neg_exponents",
            "dpspec.noise.bernoulli_exp_neg_exponents",
            "dpspec.noise.categorical_exp_gap",
            "dpspec.validation.bounded_int_array",
        ),
        checks=("integer_bounds:exact_integer_bounds",),
        entry_points=(
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism.sample",
            "dpspec.mechanisms.exponential.ExponentialMechanism.sample",
            "dpspec.mechanisms.exponential.ExponentialMechanism.pmf",
        ),
        bug_controls=(
            BugControl(
                "dpspec.validation.checks.bounded_int_array",
                "if arr.size and (int(arr.max()) >= INT_BOUND or int(arr.min()) <= -INT_BOUND):",
                "if arr.size and (int(arr.max()) > INT_BOUND or int(arr.min()) < -INT_BOUND):",
                "|v| = 2^62 accepted (the bound off by one)",
            ),
        ),
    ),
)
