"""The ``dpspec`` command: every subcommand is a module of this package with a
``register(subparsers)`` function — the registry's (:mod:`dpspec.cli.registry`: ``verify``,
``prove``, ``list``, ``errata``, ``report``) first, then the others in name order (``audit``,
``conform``, ``compress``, ``consistency``, ``contract``, ``mutate``, …). A new module here is a
new command; nothing lists them.

Every command accepts ``--json PATH``. Exit codes, the same for every command: 0 the claim
holds, 1 a violation, 2 a usage error, 3 an internal error (:mod:`dpspec.proofs.engine.errors`).
The command line is the top layer: it imports the algorithms and :mod:`dpspec.proofs`; nothing
imports it (a check reaches it through the installed console script,
:mod:`dpspec.proofs.engine.command`).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import pkgutil
import shutil
import sys
import traceback
from collections.abc import Sequence
from typing import Any

from dpspec.proofs.engine.errors import (
    EXIT_INTERNAL,
    EXIT_USAGE,
    InternalError,
    UsageError,
    check_writable,
    one_line_errors,
)


def command_modules() -> list[str]:
    """The modules of this package that add commands: :mod:`dpspec.cli.registry` first, then
    every other module in name order."""
    found = pkgutil.iter_modules(__path__)
    names = sorted(m.name for m in found if not m.name.startswith("_"))
    names.sort(key=lambda name: name != "registry")
    return [f"{__name__}.{name}" for name in names]


def build_parser() -> argparse.ArgumentParser:
    """The ``dpspec`` parser with every command of :func:`command_modules`."""
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
    for module in command_modules():
        importlib.import_module(module).register(sub)
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
