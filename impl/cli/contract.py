"""``dpspec contract``: the public surface of dpspec, found by walking the package, and how it
keeps the contract — the problems of each public object and, with ``--sweep``, the hostile
sweep of its declared parameters. Exit 0 when all keep it, 1 when some do not, 2 usage error.
"""

from __future__ import annotations

import argparse
from typing import Any

from dpspec.proofs.engine.errors import UsageError, write_json
from dpspec.proofs.engine.options import TEXT, WritablePath, add_option


def _cmd_contract(args: argparse.Namespace) -> int:
    from dpspec.proofs.engine.discovery import public_objects
    from dpspec.proofs.engine.sweep import entries, sweep
    from dpspec.proofs.topics.contract.discovery import contract_problems

    objects = tuple(
        o for o in public_objects() if args.package is None or o.module.startswith(args.package)
    )
    if not objects:
        raise UsageError(f"--package: no public object under {args.package!r}")
    problems = contract_problems(objects)
    for p in problems:
        print(p)
    payload: dict[str, Any] = {"objects": len(objects), "problems": problems}
    failures: list[str] = []
    if args.sweep:
        tally = sweep(entries(objects))
        failures = tally.failures
        for f in failures:
            print(f"sweep: {f}")
        payload["sweep"] = {
            "calls": tally.calls,
            "refused": tally.refused,
            "equivalent": tally.equivalent,
            "failures": failures,
            "by_family": tally.by_family,
        }
        print(
            f"sweep: {tally.calls} calls, {tally.refused} refused, {tally.equivalent} "
            f"equivalent, {len(failures)} failures"
        )
    print(f"{len(objects)} public objects, {len(problems)} contract problems")
    write_json(args.json, payload)
    return 1 if problems or failures else 0


def register(sub: Any) -> None:
    """Add ``contract`` to the ``dpspec`` subparsers."""
    p = sub.add_parser(
        "contract",
        help="the public surface and how it keeps the contract (exit 1 on a problem)",
        description="Exit codes: 0 every object keeps the contract, 1 not, 2 usage error.",
    )
    add_option(p, "--package", domain=TEXT, default=None, help="only modules under this prefix")
    p.add_argument("--sweep", action="store_true", help="also run the hostile-input sweep")
    add_option(p, "--json", domain=WritablePath(), default=None, metavar="PATH")
    p.add_argument("--no-progress", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=_cmd_contract)
