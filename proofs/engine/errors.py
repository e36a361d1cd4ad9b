"""Exit codes and error reporting shared by every ``dpspec`` command.

* 0 — the claim holds / the mechanism is consistent with its claim / the command succeeded;
* 1 — a violation: a failed obligation, a flagged mechanism, a counterexample;
* 2 — a usage error: a bad argument (one line on stderr naming it);
* 3 — an internal error: the audited target raised, a file could not be read or written.

A command raises :class:`UsageError` or :class:`InternalError`; :func:`dpspec.cli.main`
turns them into one line on stderr and the exit code (a traceback only with ``--debug``).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any, NoReturn

__all__ = [
    "EXIT_INTERNAL",
    "EXIT_OK",
    "EXIT_USAGE",
    "EXIT_VIOLATION",
    "InternalError",
    "UsageError",
    "check_plot",
    "check_writable",
    "one_line_errors",
    "write_json",
]

EXIT_OK = 0


EXIT_VIOLATION = 1


EXIT_USAGE = 2


EXIT_INTERNAL = 3


class UsageError(Exception):
    """A bad command-line argument; the message names it (exit code 2)."""


class InternalError(Exception):
    """The harness could not do its job: the target raised, I/O failed (exit code 3)."""


def check_writable(path: str | None, option: str = "--json") -> None:
    """Refuse an output path up front (before any long work) when it cannot be written."""
    if path is None:
        return
    if path == "":
        raise UsageError(f"{option}: empty path")
    target = Path(path)
    if target.exists() and target.is_dir():
        raise UsageError(f"{option}: {path!r} is a directory")
    parent = target.parent if str(target.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"{option}: cannot write {path!r} ({exc.strerror or exc})") from exc


def check_plot(path: str | None, option: str = "--plot") -> None:
    """Refuse ``--plot`` up front when matplotlib is missing or the path cannot be written."""
    if path is None:
        return
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError(f"{option}: needs matplotlib (pip install 'dpspec[plot]')") from None
    check_writable(path, option)


def write_atomically(path: str, text: str, option: str) -> None:
    """``text`` to ``path``: written beside it, then renamed over it, so an interrupted run
    leaves the old file (or none), never a truncated one (a symlink's file is replaced, not
    the link; a device or pipe such as /dev/stdout is written in place, never replaced); an
    I/O failure is an :class:`InternalError` naming ``option``."""
    given = Path(path)
    target = given.resolve() if given.is_symlink() else given  # a link: the file it names
    partial = target.with_name(f".{target.name}.partial")
    try:
        if given.exists() and not given.is_file():  # a device or a pipe: written in place
            with given.open("w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
            return
        if str(target.parent):
            target.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise InternalError(f"{option}: cannot write {path!r} ({exc.strerror or exc})") from exc


def write_json(path: str | None, payload: dict[str, Any], option: str = "--json") -> None:
    """Write ``payload`` as JSON (atomically); an I/O failure is an :class:`InternalError`."""
    if path is not None:
        write_atomically(path, json.dumps(payload, indent=2, default=str) + "\n", option)


def one_line_errors(parser: argparse.ArgumentParser) -> None:
    """argparse errors of ``parser`` (bad type, missing argument, unknown option) as one line
    on stderr, exit 2 (argparse's default prints the whole usage first)."""

    def error(message: str) -> NoReturn:
        parser.exit(EXIT_USAGE, f"{parser.prog}: {message} (see {parser.prog} --help)\n")

    parser.error = error  # type: ignore[method-assign]
