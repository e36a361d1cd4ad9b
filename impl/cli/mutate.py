"""``dpspec mutate [--only TEXT] [--json PATH] [--jobs 2] [--fail-fast] ...``: the privacy mutant
catalogue against ``dpspec verify`` (:mod:`dpspec.proofs.engine.mutation`); exit 0 when every
mutant is killed.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from typing import Any

from dpspec.proofs.engine.errors import UsageError, write_json
from dpspec.proofs.engine.mutation import (
    DEFAULT_TIMEOUT,
    MutateOptions,
    exit_code,
    run_mutants,
    select_mutants,
)
from dpspec.proofs.engine.options import JOBS, JSON_HELP, SECONDS, TEXT, WritablePath, add_option


def _cmd_mutate(args: argparse.Namespace) -> int:
    mutants = select_mutants(args.only)
    if not mutants:
        raise UsageError(f"--only: no mutant id contains {args.only!r}")
    options = MutateOptions(
        jobs=args.jobs,
        all_obligations=args.all_obligations,
        baseline=not args.no_baseline,
        timeout=args.timeout,
        progress=not args.no_progress,
        fail_fast=args.fail_fast,
    )
    report = run_mutants(mutants, options=options)
    width = max(len(r["id"]) for r in report["mutants"])
    for r in report["mutants"]:
        mark = {"killed": "KILLED", "survived": "SURVIV", "stale": "STALE ", "timeout": "HUNG  "}
        what = ", ".join(r["killed_by"]) if r["killed_by"] else r["detail"]
        if r["unlinked_killers"]:
            what += f"  [missing link: {', '.join(r['unlinked_killers'])}]"
        tag = mark.get(r["status"], "ERROR ")
        print(f"{tag}  {r['id']:<{width}}  {r['seconds']:7.1f}s  {what}")
    if report["baseline_failed"]:
        print(f"\nfailing before any mutation (ignored): {', '.join(report['baseline_failed'])}")
    print(
        f"\n{report['killed']}/{report['total']} killed, {report['survived']} survived, "
        f"{report['stale']} stale, {report['errors']} errors/hung in {report['seconds']:.1f}s"
    )
    report["run"] = {
        "command": " ".join(["dpspec", *sys.argv[1:]]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{os.cpu_count()} logical cores, Python {platform.python_version()}",
    }
    write_json(args.json, report)
    return exit_code(report)


def register(sub: Any) -> None:
    """Add ``dpspec mutate`` to the command parser's subparsers."""
    cmd = sub.add_parser("mutate", help="run the privacy mutant catalogue against verify")
    add_option(cmd, "--only", domain=TEXT, metavar="TEXT", help="mutant ids containing TEXT")
    add_option(cmd, "--json", domain=WritablePath(), metavar="PATH", help=JSON_HELP)
    add_option(cmd, "--jobs", domain=JOBS, default=2, help="mutants run in parallel (default 2)")
    cmd.add_argument(
        "--all-obligations",
        action="store_true",
        help="run the whole registry per mutant (finds missing registry links)",
    )
    cmd.add_argument(
        "--no-baseline",
        action="store_true",
        help="skip the unmutated run (obligations failing already then count as kills)",
    )
    add_option(cmd, "--timeout", domain=SECONDS, default=DEFAULT_TIMEOUT, help="seconds per mutant")
    cmd.add_argument(
        "--fail-fast",
        action="store_true",
        help="stop each mutant at its first failing obligation (cheapest first); faster, "
        "killed_by then names one obligation",
    )
    cmd.add_argument("--no-progress", action="store_true", help="no progress bar")
    cmd.set_defaults(func=_cmd_mutate)
