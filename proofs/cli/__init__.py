"""The ``dpspec`` command: ``verify``, ``prove``, ``list``, ``errata``, ``report``,
``consistency``, ``audit``, ``compress``, ``mutate``.

Every command accepts ``--json PATH``. Exit codes, the same for every command: 0 the claim
holds, 1 a violation, 2 a usage error, 3 an internal error (:mod:`dpspec.proofs.engine.errors`).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dpspec.proofs.engine.errors import (
    EXIT_INTERNAL,
    EXIT_USAGE,
    InternalError,
    UsageError,
    check_writable,
    one_line_errors,
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
    obligations,
    topic_module,
    topics,
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
    rows = [
        {
            "id": ob.id,
            "source": ob.source,
            "claim": ob.claim,
            "method": ob.method.value,
            "predicates": list(ob.predicates),
            "impls": list(ob.impls),
            "tests": list(ob.tests),
        }
        for ob in obligations()
    ]
    for r in rows:
        print(f"{r['id']:<36} {r['method']:<11} {r['source']}")
    _write_json(args.json, {"obligations": rows})
    return 0


def _cmd_errata(args: argparse.Namespace) -> int:
    from dpspec.proofs.engine.registry import errata

    rows = [e.__dict__ for e in errata()]
    for e in errata():
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
    from dpspec.proofs.engine.registry import obligations
    from dpspec.proofs.engine.report_schema import problems

    try:
        verify = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise UsageError(f"--from: not a dpspec verify --json report: {path!r} ({why})") from exc
    found = problems(verify, (ob.id for ob in obligations()))
    if found:
        raise UsageError(
            f"--from: not a dpspec verify --json report: {path!r} ({'; '.join(found)})"
        )
    out: dict[str, Any] = verify
    return out


def build_parser() -> argparse.ArgumentParser:
    # argparse sizes a help formatter on every add_argument (it formats the metavar to check
    # it), reading the terminal's width each time: read it once, as HelpFormatter would
    formatter = functools.partial(
        argparse.HelpFormatter, width=shutil.get_terminal_size().columns - 2
    )

    class Parser(argparse.ArgumentParser):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("formatter_class", formatter)
            super().__init__(*args, **kwargs)

    parser = Parser(
        prog="dpspec", description="Executable specification of DP learning guarantees."
    )
    parser.add_argument("--debug", action="store_true", help="print tracebacks of internal errors")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

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

    from dpspec.proofs.cli.mutate import register as register_mutate

    register_mutate(sub)
    for topic in topics():  # a topic's own commands: ``topics/<family>/commands.py``
        commands = topic_module(topic, "commands")
        if commands is not None:
            commands.register(sub)
    one_line_errors(parser)
    for command in sub.choices.values():
        command.add_argument(
            "--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
        )
        one_line_errors(command)
    return parser


def _empty_value(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """The option of a single value that argparse filled with ``[]`` (``--opt=--``), if any."""
    command = getattr(args, "command", None)
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    chosen = sub.choices.get(command) if sub is not None and command else None
    for action in (*parser._actions, *(chosen._actions if chosen is not None else ())):
        value = getattr(args, action.dest, None)
        empty = value == [] or (
            isinstance(action, argparse._AppendAction) and isinstance(value, list) and [] in value
        )
        if action.nargs is None and action.option_strings and empty:
            flag: str = action.option_strings[0]
            return flag
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; exit codes 0 holds, 1 violation, 2 usage error, 3 internal error."""
    return run_parsed(build_parser(), argv)


def run_parsed(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    """:func:`main` on a parser :func:`build_parser` has built (parsing leaves it unchanged, so
    many command lines may go through one parser)."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors
        return int(exc.code or 0)
    empty = _empty_value(parser, args)
    if empty is not None:  # ``--opt=--``: argparse hands over [] without calling the type
        print(f"dpspec: argument {empty}: expected one value, got '--'", file=sys.stderr)
        return EXIT_USAGE
    debug = bool(getattr(args, "debug", False))
    try:
        check_writable(getattr(args, "json", None))
        code: int = args.func(args)
    except UsageError as exc:
        if debug:
            traceback.print_exc()
        print(f"dpspec {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except InternalError as exc:
        if debug:
            traceback.print_exc()
        print(f"dpspec {args.command}: internal error: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print(f"dpspec {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERNAL
    except BrokenPipeError:  # the reader of stdout went away (e.g. `| head`): not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps interpreter exit quiet
        return 0
    except Exception as exc:  # a bug in dpspec or the target: never the violation code
        if debug:
            traceback.print_exc()
        message = str(exc).splitlines()[0] if str(exc) else ""
        print(
            f"dpspec {args.command}: internal error: {type(exc).__name__}: {message}",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    return code


if __name__ == "__main__":
    sys.exit(main())
