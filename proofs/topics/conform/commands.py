"""``dpspec conform TARGET --as ALGORITHM [--param k=v …]``: is TARGET the algorithm it claims?

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
from typing import Any

from dpspec.proofs.engine.errors import InternalError, UsageError, write_json

EXIT_CODES = """exit codes:
  0  conforms: the draws fit the exact law on every instance and the privacy audit holds
  1  deviates (the largest per-outcome discrepancy and where is printed) or not private
     (false alarm <= 1e-6 for the whole run)
  2  usage error: bad option or parameter, unknown algorithm, a target that cannot be
     imported, a draw budget above --max-draws (checked before any draw)
  3  internal error: the target raised, a file could not be written
one line on stderr for 2 and 3; `dpspec --debug conform ...` prints the traceback."""


def _params(items: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--param: expected NAME=VALUE, got {item!r}")
        if key.strip() in out:
            raise UsageError(f"--param: {key.strip()!r} given twice")
        out[key.strip()] = value.strip()
    return out


def _list(args: argparse.Namespace) -> int:
    from dpspec.conform import catalogue
    from dpspec.conform.libraries import LIBRARY_TARGETS, version

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
    print("\nlibrary targets (LIBRARY:NAME --as ALGORITHM):")
    libs = []
    for t in LIBRARY_TARGETS:
        libs.append(
            {
                "target": t.name,
                "calls": t.call,
                "algorithm": t.algorithm,
                "params": t.params,
                "version": version(t.library),
            }
        )
        print(f"  {t.name:34s} --as {t.algorithm:22s} {t.call} [{version(t.library)}]")
    write_json(args.json, {"algorithms": rows, "library_targets": libs})
    return 0


def _target(spec: str, algorithm: str, params: dict[str, Any]) -> Any:
    from dpspec.conform import algorithm as find
    from dpspec.conform.adapters import TargetError, load
    from dpspec.conform.libraries import is_library, library_target

    try:
        if spec == "dpspec":
            algo = find(algorithm)
            return algo.reference(algo.resolve(dict(params)))
        if is_library(spec):
            entry = library_target(spec)
            algo = find(algorithm)
            if algo.name != entry.algorithm:
                raise UsageError(
                    f"--as: {spec} is run as {entry.algorithm} (its table entry), not {algo.name}"
                )
            return entry.build(algo.resolve(dict(params)))
        return load(spec)
    except TargetError as exc:
        raise InternalError(str(exc)) from exc
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from exc


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
    from dpspec.audit.core import MechanismError
    from dpspec.conform import TargetError, conform, plan
    from dpspec.conform import algorithm as find

    try:
        params = find(args.algorithm).from_text(_params(args.param))
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from exc
    options = {"seed": args.seed, "max_draws": args.max_draws, "audit_samples": args.audit_samples}
    target = _target(args.target, args.algorithm, params)
    try:
        plan(
            target,
            args.algorithm,
            max_draws=args.max_draws,
            audit_samples=args.audit_samples,
            **params,
        )  # every check before any draw
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from exc
    try:
        result = conform(target, args.algorithm, **options, **params)
    except (TargetError, MechanismError) as exc:
        raise InternalError(str(exc)) from exc
    print("\n".join(result.lines()))
    write_json(args.json, {"target_spec": args.target, **result.to_json()})
    return result.exit_code


def register(sub: Any) -> None:
    """Add ``conform`` to the ``dpspec`` parser's subparsers ``sub``."""
    p = sub.add_parser(
        "conform",
        help="judge an implementation against an algorithm's exact law and guarantees",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "target", nargs="?", help="module:callable | path/file.py:callable | LIBRARY:NAME | dpspec"
    )
    p.add_argument(
        "--as",
        dest="algorithm",
        metavar="ALGORITHM",
        help="the algorithm the target claims to be (see --list)",
    )
    p.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="a parameter of the algorithm (repeat for several)",
    )
    p.add_argument("--list", action="store_true", help="list the algorithms and library targets")
    p.add_argument("--seed", type=int, default=0, help="non-negative integer (default 0)")
    p.add_argument("--max-draws", type=int, help="largest draw budget of one instance")
    p.add_argument("--audit-samples", type=int, help="the privacy audit's draws per side")
    p.add_argument("--json", metavar="PATH", help="write every number as JSON")
    p.set_defaults(func=_cmd_conform)
