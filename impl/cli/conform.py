"""``dpspec conform TARGET --as ALGORITHM [--param k=v …]``: is TARGET the algorithm it claims?

``dpspec conform TARGET --as accountant [--looseness R] [--rows TEXT]``: TARGET is a privacy
accountant (``LIBRARY:NAME`` of :mod:`dpspec.conform.accountant_libraries`, ``dpspec`` or
``module:fn`` with ``fn(composition, delta) -> ε``) asked ε(δ) over the grid of
:mod:`dpspec.conform.accountants`; exit 0 conforms or loose, 1 unsafe or nothing judged.

TARGET is ``module:callable`` or ``path/file.py:callable`` (your implementation: the working
directory, or the file's folder, is put on the import path), ``LIBRARY:NAME`` (a function of
OpenDP, PyDP or diffprivlib: ``dpspec conform --list`` shows them) or ``dpspec`` (dpspec's own
implementation of the algorithm). ``--list`` prints the algorithms, their parameters and what a
target receives and returns.

Exit codes: 0 conforms on every instance; 1 deviates or not private (false alarm ≤ 1e-6 for the
whole run); 2 usage error (a bad option or parameter, an unknown algorithm, a target that cannot
be imported, a draw budget above the limit — all checked before any draw); 3 internal error (the
target raised, a file could not be written).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from dpspec.proofs.engine.errors import InternalError, UsageError, write_json
from dpspec.proofs.engine.options import TEXT, WritablePath, add_option
from dpspec.validation import Domain, Integer, Real

EXIT_CODES = """exit codes:
  0  conforms: the draws fit the exact law on every instance and the privacy audit holds
  1  deviates (the largest per-outcome discrepancy and where is printed) or not private
     (false alarm <= 1e-6 for the whole run); --as accountant: a row unsafe (a reported
     epsilon below the certified interval) or no row judged (0: conforms or loose)
  2  usage error: bad option or parameter, unknown algorithm, a target that cannot be
     imported, a draw budget above --max-draws (checked before any draw: --resolution
     0.02 that would need more draws is refused with the draws it needs)
  3  internal error: the target raised, a file could not be written
one line on stderr for 2 and 3; `dpspec --debug conform ...` prints the traceback."""

#: ``--as accountant``: the target is a privacy accountant, judged over the grid of compositions
ACCOUNTANT = "accountant"
#: the looseness r of an accountant run (dpspec.conform.accountants.conform_accountant's)
LOOSENESS = Real(0.0, 100.0)

#: the domains of conform's options: those of dpspec.conform.conform's keywords (the same
#: bounds; declared here so that building the parser does not import the catalogue)
SEED = Integer(0, hi=2**63 - 1)
MAX_DRAWS = Integer(1, limit="draws")
AUDIT_SAMPLES = Integer(100, hi=10**8)
RESOLUTION = Real(1e-3, 1.0)


@dataclass(frozen=True)
class _AlgorithmName(Domain):
    """A name of ``dpspec conform``'s catalogue (or an alias); the catalogue is read when an
    option is converted, not when the parser is built."""

    def convert(self, value: Any, name: str) -> str:
        from dpspec.conform.catalogue import NAMES

        if value == ACCOUNTANT:
            return ACCOUNTANT
        if not isinstance(value, str) or value not in NAMES:
            raise ValueError(
                f"{name}: unknown algorithm {value!r}; choose from {', '.join(NAMES)} "
                f"or {ACCOUNTANT} (dpspec conform --list)"
            )
        return value

    def hostile(self) -> tuple[Any, ...]:
        return ("", "bogus", "laplace-gaussian", "PCL")

    @property
    def example(self) -> Any:
        return "discrete-laplace"

    def describe(self) -> str:
        return "an algorithm of dpspec conform --list"


@dataclass(frozen=True)
class _Assignment(Domain):
    """``NAME=VALUE`` (a parameter of the algorithm; the value is read and checked against the
    parameter's kind once the algorithm is known): the pair (NAME, VALUE)."""

    def convert(self, value: Any, name: str) -> tuple[str, str]:
        key, sep, text = value.partition("=") if isinstance(value, str) else ("", "", "")
        if not sep or not key.strip() or not text.strip():
            raise ValueError(f"{name}: expected NAME=VALUE, got {value!r}")
        return key.strip(), text.strip()

    def hostile(self) -> tuple[Any, ...]:
        return ("", "scale", "=2", " =2", "scale=")

    @property
    def example(self) -> Any:
        return "scale=2"

    def describe(self) -> str:
        return "NAME=VALUE"


def _params(items: list[tuple[str, str]] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in items or []:
        if key in out:
            raise UsageError(f"--param: {key!r} given twice")
        out[key] = value
    return out


def _list(args: argparse.Namespace) -> int:
    from dpspec.conform import LIBRARY_TARGETS, catalogue
    from dpspec.conform.machinery import version as _version

    rows = [a.describe() for a in catalogue().values()]
    for row in rows:
        aliases = f" (also {', '.join(row['aliases'])})" if row["aliases"] else ""
        print(f"{row['name']}{aliases}: {row['summary']}")
        print(f"    target: {row['target']}")
        params = ", ".join(
            f"{p['name']}={p['default'] if p['default'] is not None else '?'}"
            for p in row["params"]
        )
        print(f"    params: {params or 'none'}; source: {row['source']}")
    from dpspec.conform.accountant_libraries import ACCOUNTANT_TARGETS

    print(f"\naccountant targets (LIBRARY:NAME --as {ACCOUNTANT}; also dpspec, module:fn):")
    for a in ACCOUNTANT_TARGETS:
        print(f"  {a.name:30s} {a.call} [{_version_of_accountant(a.library)}]")
    print("\nlibrary targets (LIBRARY:NAME --as ALGORITHM):")
    libs = []
    for t in LIBRARY_TARGETS:
        libs.append(
            {
                "target": t.name,
                "calls": t.call,
                "algorithm": t.algorithm,
                "params": t.params,
                "version": _version(t.library),
            }
        )
        print(f"  {t.name:34s} --as {t.algorithm:22s} {t.call} [{_version(t.library)}]")
    write_json(args.json, {"algorithms": rows, "library_targets": libs})
    return 0


def _version_of_accountant(library: str) -> str:
    from dpspec.conform.machinery import accountant_version

    return accountant_version(library)


def _accountant(args: argparse.Namespace) -> int:
    """``dpspec conform TARGET --as accountant``: the target asked ε(δ) over the grid."""
    from dpspec.conform import TargetError
    from dpspec.conform.accountants import LOOSENESS as DEFAULT
    from dpspec.conform.accountants import conform_accountant, reference_accountant
    from dpspec.conform.machinery import accountant_target as _accountant_target
    from dpspec.conform.machinery import is_accountant_library as _is_accountant_library
    from dpspec.conform.machinery import load as _load

    for option in ("param", "max_draws", "audit_samples", "resolution", "max_seconds"):
        if getattr(args, option) is not None:
            flag = "--" + option.replace("_", "-")
            raise UsageError(f"{flag}: not an option of --as {ACCOUNTANT}")
    try:
        if args.target == "dpspec":
            target: Any = reference_accountant
        elif _is_accountant_library(args.target):
            target = _accountant_target(args.target)
        else:
            target = _load(args.target)
    except TargetError as exc:
        raise InternalError(str(exc)) from exc
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    from dpspec.conform.accountants import GRID

    looseness = DEFAULT if args.looseness is None else args.looseness
    rows = [r for r in GRID if args.rows is None or args.rows in r.label]
    if not rows:
        raise UsageError(f"--rows: no row of the grid contains {args.rows!r}")
    try:
        result = conform_accountant(target, rows, looseness=looseness)
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from exc
    print("\n".join(result.lines()))
    write_json(args.json, {"target_spec": args.target, **result.to_json()})
    return result.exit_code


def _target(spec: str, algorithm: str, params: dict[str, Any]) -> Any:
    from dpspec.conform import TargetError, reference
    from dpspec.conform.machinery import find as _find
    from dpspec.conform.machinery import is_library as _is_library
    from dpspec.conform.machinery import library_target as _library_target
    from dpspec.conform.machinery import load as _load

    try:
        if spec == "dpspec":
            return reference(algorithm, **params)
        if _is_library(spec):
            entry = _library_target(spec)
            algo = _find(algorithm)
            if algo.name != entry.algorithm:
                raise UsageError(
                    f"--as: {spec} is run as {entry.algorithm} (its table entry), not {algo.name}"
                )
            return entry.build(algo._resolve(dict(params)))
        return _load(spec)
    except TargetError as exc:
        raise InternalError(str(exc)) from exc
    except (ValueError, TypeError) as exc:
        names = dict.fromkeys(p.name for p in _find(algorithm).params)
        raise UsageError(_as_typed(str(exc), {}, names)) from exc


def _cmd_conform(args: argparse.Namespace) -> int:
    if args.list:
        return _list(args)
    if args.target is None:
        raise UsageError(
            "target: required (module:callable, file.py:callable, LIBRARY:NAME or "
            "dpspec), or --list"
        )
    if args.algorithm is None:
        raise UsageError("--as: required (dpspec conform --list shows the algorithms)")
    if args.algorithm == ACCOUNTANT:
        return _accountant(args)
    for option in ("looseness", "rows"):
        if getattr(args, option) is not None:
            raise UsageError(f"--{option}: an option of --as {ACCOUNTANT} only")
    from dpspec.audit.core import MechanismError
    from dpspec.conform import TargetError, conform, plan
    from dpspec.conform.machinery import find as _find

    try:
        params = _find(args.algorithm)._from_text(_params(args.param))
    except (ValueError, TypeError) as exc:
        names = dict.fromkeys(p.name for p in _find(args.algorithm).params)
        raise UsageError(_as_typed(str(exc), {}, names)) from exc
    budget = {
        "max_draws": args.max_draws,
        "audit_samples": args.audit_samples,
        "resolution": args.resolution,
        "max_seconds": args.max_seconds,
    }
    target = _target(args.target, args.algorithm, params)
    try:
        plan(target, args.algorithm, **budget, **params)  # every check before any draw
    except (ValueError, TypeError) as exc:
        names = dict.fromkeys(p.name for p in _find(args.algorithm).params)
        raise UsageError(_as_typed(str(exc), budget, names)) from exc
    try:
        result = conform(target, args.algorithm, seed=args.seed, **budget, **params)
    except (TargetError, MechanismError) as exc:
        raise InternalError(str(exc)) from exc
    print("\n".join(result.lines()))
    write_json(args.json, {"target_spec": args.target, **result.to_json()})
    return result.exit_code


def _as_typed(message: str, budget: dict[str, Any], params: dict[str, Any]) -> str:
    """A refusal of the API named as the user typed it: ``max_draws: …`` is ``--max-draws:
    …``, an algorithm parameter ``scale: …`` is ``--param scale: …``."""
    name, colon, rest = message.partition(":")
    if not colon:
        return message
    if name in budget:
        return f"--{name.replace('_', '-')}:{rest}"
    if name in params:
        return f"--param {name}:{rest}"
    return message


def register(sub: Any) -> None:
    """Add ``conform`` to the ``dpspec`` parser's subparsers ``sub``."""
    p = sub.add_parser(
        "conform",
        help="judge an implementation against an algorithm's exact law and guarantees",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_option(
        p,
        "target",
        domain=TEXT,
        example="dpspec",
        nargs="?",
        help="module:callable | path/file.py:callable | LIBRARY:NAME | dpspec",
    )
    add_option(
        p,
        "--as",
        domain=_AlgorithmName(),
        dest="algorithm",
        metavar="ALGORITHM",
        help="the algorithm the target claims to be (see --list)",
    )
    add_option(
        p,
        "--param",
        domain=_Assignment(),
        action="append",
        metavar="NAME=VALUE",
        help="a parameter of the algorithm (repeat for several)",
    )
    p.add_argument("--list", action="store_true", help="list the algorithms and library targets")
    add_option(p, "--seed", domain=SEED, default=0, help="non-negative integer (default 0)")
    add_option(p, "--max-draws", domain=MAX_DRAWS, help="largest draw budget of one instance")
    add_option(p, "--audit-samples", domain=AUDIT_SAMPLES, help="the audit's draws per side")
    add_option(
        p,
        "--max-seconds",
        domain=Real(0, lo_open=True),
        metavar="S",
        help="refuse, before any draw, a run a timed pilot of the target estimates beyond S s",
    )
    add_option(
        p,
        "--resolution",
        domain=RESOLUTION,
        metavar="R",
        help="size the budget to catch the algorithm off by a factor 1 + R either way "
        "(R = 0.02: a scale off by 2%%) with power 0.99 (default 0.1)",
    )
    add_option(
        p,
        "--looseness",
        domain=LOOSENESS,
        metavar="R",
        help=f"--as {ACCOUNTANT}: a report up to ε_hi·(1 + R) conforms (default 0.1)",
    )
    add_option(
        p,
        "--rows",
        domain=TEXT,
        metavar="TEXT",
        help=f"--as {ACCOUNTANT}: only the grid's rows whose label contains TEXT "
        "(e.g. 'poisson q=0.01')",
    )
    add_option(
        p, "--json", domain=WritablePath(), metavar="PATH", help="write every number as JSON"
    )
    p.set_defaults(func=_cmd_conform)
