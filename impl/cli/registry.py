"""The registry's commands: ``dpspec verify``, ``prove``, ``list``, ``errata``, ``report``.

They run and show :mod:`dpspec.proofs` (the obligations, the CrossHair lemmas, the errata) and
write the guarantee table from a ``verify --json`` report.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from dpspec.proofs.engine.errors import (
    UsageError,
    check_writable,
    write_atomically,
    write_json,
)
from dpspec.proofs.engine.options import (
    JOBS,
    JSON_HELP,
    SECONDS,
    TEXT,
    ReadablePath,
    WritablePath,
    add_option,
)
from dpspec.proofs.engine.registry import (
    CROSSHAIR_BUDGET,
    VerifyConfig,
)
from dpspec.proofs.engine.verify import run_verify


def _write_json(path: str | None, payload: dict[str, Any]) -> None:
    write_json(path, payload)


def _cmd_verify(args: argparse.Namespace) -> int:
    config = VerifyConfig(thorough=args.thorough, crosshair_timeout=args.crosshair_timeout)
    start = time.perf_counter()
    ids = None if args.ids is None else [i for i in args.ids.split(",") if i]
    report = run_verify(config, args.only, progress=not args.no_progress, ids=ids, jobs=args.jobs)
    report["seconds"] = round(time.perf_counter() - start, 3)
    width = max((len(r["id"]) for r in report["obligations"]), default=10)
    for r in report["obligations"]:
        mark = {"passed": "PASS", "failed": "FAIL", "documented": "DOC "}[r["status"]]
        print(f"{mark}  {r['id']:<{width}}  {r['method']:<11}  {r['seconds']:7.2f}s  {r['detail']}")
    kinds = report["kinds"]
    print(
        f"\n{report['passed']} passed, {report['failed']} failed, {report['documented']} "
        f"documented in {report['seconds']:.1f}s; shown to discriminate (every control caught): "
        f"{kinds['discriminating']}, demonstrations: {kinds['demonstration']}"
        + (f", power not shown: {kinds['unpowered']}" if kinds["unpowered"] else "")
    )
    _write_json(args.json, report)
    return 1 if report["failed"] else 0


def _cmd_prove(args: argparse.Namespace) -> int:
    from dpspec.proofs.engine.crosshair import discover, run_prove

    for module in args.module or ():
        try:
            discover(module)
        except (ImportError, ValueError, OSError) as exc:
            raise UsageError(f"--module: {exc}") from exc
    report = run_prove(
        modules=tuple(args.module) if args.module else None,
        per_condition_timeout=args.timeout,
        progress=not args.no_progress,
    )
    payload = report.to_json()
    for c in payload["conditions"]:
        print(f"{c['status']:<15} {c['seconds']:7.2f}s CPU  {c['id']}")
        if c["status"] != "confirmed":
            print(f"    {c['message']}")
    print(
        f"\n{payload['confirmed']} confirmed, {payload['unconfirmed']} unconfirmed, "
        f"{payload['counterexamples']} counterexamples; largest condition "
        f"{payload['max_cpu_seconds']:.2f}s CPU of a {payload['per_condition_timeout']:g}s "
        f"budget per condition, {payload['seconds']:.1f}s wall"
    )
    _write_json(args.json, payload)
    return 1 if payload["counterexamples"] or payload["unconfirmed"] else 0


def _cmd_list(args: argparse.Namespace) -> int:
    from dpspec.proofs.engine.index import entries

    rows = [
        {
            "id": ob.id,
            "source": ob.source,
            "claim": ob.claim,
            "method": ob.method.value,
            "predicates": list(ob.predicates),
            "no_predicate": ob.no_predicate,
            "impls": list(ob.impls),
            "tests": list(ob.tests),
        }
        for ob in entries()
    ]
    for r in rows:
        print(f"{r['id']:<36} {r['method']:<11} {r['source']}")
    _write_json(args.json, {"obligations": rows})
    return 0


def _cmd_errata(args: argparse.Namespace) -> int:
    from dpspec.proofs.engine.index import indexed_errata

    rows = [e.__dict__ for e in indexed_errata()]
    for e in indexed_errata():
        print(
            f"{e.id}  {e.source}\n  printed:   {e.printed}\n  corrected: {e.corrected}\n"
            f"  witness:   {e.counterexample}"
        )
    _write_json(args.json, {"errata": rows})
    return 0


def _write_text(path: str | None, text: str, option: str) -> None:
    if path is not None:
        write_atomically(path, text, option)


def _cmd_report(args: argparse.Namespace) -> int:
    from dpspec.proofs.engine.report import report

    for option, path in (("--markdown", args.markdown), ("--html", args.html)):
        check_writable(path, option)
    if args.source is not None:
        verify = read_verify_report(args.source)
    else:
        print(
            "dpspec report: no --from: running dpspec verify first (about a minute; "
            "`dpspec verify --json F` then `dpspec report --from F` reuses a run)",
            file=sys.stderr,
        )
        verify = run_verify(VerifyConfig(), progress=not args.no_progress)
    md, page = report(verify, args.title)
    _write_text(args.markdown, md, "--markdown")
    _write_text(args.html, page, "--html")
    if args.markdown is None and args.html is None:
        print(md, end="")
    _write_json(args.json, {"markdown": md})
    return 1 if any(r["status"] == "failed" for r in verify["obligations"]) else 0


def read_verify_report(path: str) -> dict[str, Any]:
    """A ``dpspec verify --json`` report read back and checked against its published schema
    (:mod:`dpspec.proofs.engine.report_schema`: every field the report reads, ids unique, at
    least one a registered obligation). Anything else is a usage error naming ``--from`` and
    the field."""
    from dpspec.proofs.engine.index import entries
    from dpspec.proofs.engine.report_schema import problems

    try:
        verify = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise UsageError(f"--from: not a dpspec verify --json report: {path!r} ({why})") from exc
    found = problems(verify, (ob.id for ob in entries()))
    if found:
        raise UsageError(
            f"--from: not a dpspec verify --json report: {path!r} ({'; '.join(found)})"
        )
    out: dict[str, Any] = verify
    return out


def register(sub: Any) -> None:
    """Add ``verify``, ``prove``, ``list``, ``errata`` and ``report`` to the subparsers."""
    verify = sub.add_parser("verify", help="run every registered obligation")
    add_option(verify, "--json", domain=WritablePath(), metavar="PATH", help=JSON_HELP)
    verify.add_argument("--thorough", action="store_true", help="larger instances and samples")
    add_option(verify, "--only", domain=TEXT, metavar="TEXT", help="ids containing TEXT")
    add_option(verify, "--ids", domain=TEXT, metavar="A,B", help="only these ids (comma-separated)")
    add_option(
        verify,
        "--crosshair-timeout",
        domain=SECONDS,
        default=CROSSHAIR_BUDGET,
        metavar="SECONDS",
        help=f"CrossHair CPU budget per condition (default {CROSSHAIR_BUDGET:g})",
    )
    add_option(
        verify,
        "--jobs",
        domain=JOBS,
        default=2,
        help="worker processes for the checks (1..64, default 2; verdicts do not depend on it)",
    )
    verify.add_argument("--no-progress", action="store_true", help="no progress bar")
    verify.set_defaults(func=_cmd_verify)

    prove = sub.add_parser("prove", help="run CrossHair on the lemma layer")
    add_option(prove, "--json", domain=WritablePath(), metavar="PATH", help=JSON_HELP)
    add_option(
        prove,
        "--timeout",
        domain=SECONDS,
        default=CROSSHAIR_BUDGET,
        help=f"CPU budget per condition in seconds (default {CROSSHAIR_BUDGET:g})",
    )
    add_option(prove, "--module", domain=TEXT, action="append", help="module(s) to check")
    prove.add_argument("--no-progress", action="store_true", help="no progress bar")
    prove.set_defaults(func=_cmd_prove)

    lst = sub.add_parser("list", help="list the registered obligations")
    add_option(lst, "--json", domain=WritablePath(), metavar="PATH", help=JSON_HELP)
    lst.set_defaults(func=_cmd_list)

    err = sub.add_parser("errata", help="list the errata found in the seeds")
    add_option(err, "--json", domain=WritablePath(), metavar="PATH", help=JSON_HELP)
    err.set_defaults(func=_cmd_errata)

    rep = sub.add_parser(
        "report", help="the guarantee table (Markdown and a self-contained HTML page)"
    )
    add_option(
        rep,
        "--from",
        domain=ReadablePath(),
        dest="source",
        metavar="PATH",
        help="a dpspec verify --json report",
    )
    add_option(rep, "--markdown", domain=WritablePath(), metavar="PATH", help="Markdown file")
    add_option(rep, "--html", domain=WritablePath(), metavar="PATH", help="HTML page")
    add_option(
        rep, "--title", domain=TEXT, default="dpspec: the registered guarantees", help="page title"
    )
    add_option(rep, "--json", domain=WritablePath(), metavar="PATH", help=JSON_HELP)
    rep.add_argument("--no-progress", action="store_true", help="no progress bar")
    rep.set_defaults(func=_cmd_report)
