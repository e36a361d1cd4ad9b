"""The command line's surface, derived from the parser itself.

Every subcommand of ``dpspec`` (its own and the topics' ``commands`` modules) is walked; every
option that takes a value must declare its domain (:func:`dpspec.proofs.engine.options.
add_option`) or a fixed set of ``choices``. Each text its domain refuses is then sent through
the installed command — ``dpspec CMD <clean positionals> --opt TEXT`` — and must end with exit
code 2 and exactly one line on stderr, before any work (the refusal is argparse's, at parse
time). A text is first given to the option's converter: one it accepts is never run (the
command would do real work), it is a failure of the declaration. The console script's ``main``
is ``run_parsed(build_parser(), argv)``; the command lines go through the one parser walked
here, and each command's first also through ``main`` itself, which must answer the same.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType

from dpspec.proofs.engine.command import installed_command
from dpspec.proofs.engine.options import DomainType

#: The parser of the installed command (``dpspec.cli.build_parser``), reached through the
#: console script's module as a user's shell reaches it.


def _command_module() -> ModuleType:
    return __import__(installed_command().__module__, fromlist=["build_parser", "run_parsed"])


def _parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = _command_module().build_parser()
    return parser


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@dataclass
class CliTally:
    commands: int = 0
    options: int = 0
    texts: int = 0
    failures: list[str] = field(default_factory=list)


def _takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0 and not isinstance(
        action, argparse._HelpAction | argparse._VersionAction
    )


def _clean(action: argparse.Action) -> str | None:
    kind = action.type
    if isinstance(kind, DomainType) and kind.example is not None:
        return kind.example
    if action.choices:
        return str(next(iter(action.choices)))
    return None


def _required(command: argparse.ArgumentParser) -> tuple[list[str], list[str], list[str]]:
    """Clean values of the command's positionals (in order), clean argv of its required
    options, and the problems (a positional or required option without a clean example)."""
    positionals: list[str] = []
    options: list[str] = []
    problems = []
    for action in command._actions:
        if not _takes_value(action):
            continue
        if action.option_strings and not action.required:
            continue
        clean = _clean(action)
        if clean is None:
            problems.append(f"{command.prog}: {action.dest} has no clean example")
            clean = "?"
        if action.option_strings:
            options += [action.option_strings[0], clean]
        else:
            positionals.append(clean)
    return positionals, options, problems


def _run(run_parsed: Callable[[list[str]], int], argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = run_parsed(argv)
        except SystemExit as exc:
            code = int(exc.code) if isinstance(exc.code, int) else 2
    return code, err.getvalue()


def _options(command: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    for action in command._actions:
        if _takes_value(action) and action.dest not in ("help",):
            yield action


def sweep_cli(limit_commands: tuple[str, ...] | None = None) -> CliTally:
    """Every option of every subcommand: declared, and its refused texts refused as usage
    errors (exit 2, one line on stderr)."""
    tally = CliTally()
    parser = _parser()
    # the console script's ``main`` is ``run_parsed(build_parser(), argv)``: every command line
    # goes through the parser walked here, built once; each command's first one also through
    # ``main`` itself, which must answer the same
    run_parsed = partial(_command_module().run_parsed, parser)
    main = installed_command()
    for name, command in sorted(subcommands(parser).items()):
        if limit_commands is not None and name not in limit_commands:
            continue
        tally.commands += 1
        first_text = tally.texts + 1
        positionals, required, problems = _required(command)
        tally.failures += problems
        listed = [a for a in command._actions if _takes_value(a) and not a.option_strings]
        for action in _options(command):
            tally.options += 1
            flag = action.option_strings[0] if action.option_strings else action.dest
            kind = action.type
            if not isinstance(kind, DomainType):
                if action.choices is None:
                    tally.failures.append(f"{name} {flag}: no declared domain")
                    continue
                texts: tuple[str, ...] = ("bogus-choice",)
            else:
                texts = kind.refused_texts()
            if action.option_strings and action.nargs is None:
                texts = (*texts, "=--")  # ``--opt=--``: argparse's empty list
            for text in texts:
                tally.texts += 1
                if isinstance(kind, DomainType) and text != "=--":
                    try:
                        kind(text)
                    except argparse.ArgumentTypeError:
                        pass
                    else:
                        tally.failures.append(f"{name} {flag} {text!r}: accepted a refused text")
                        continue
                if text == "=--":
                    argv = [name, *positionals, *_without(required, flag), f"{flag}=--"]
                elif action.option_strings:
                    argv = [name, *positionals, *_without(required, flag), flag, text]
                else:
                    values = list(positionals)
                    values[listed.index(action)] = text
                    argv = [name, *values, *required]
                code, err = _run(run_parsed, argv)
                if tally.texts == first_text and _run(main, argv) != (code, err):
                    tally.failures.append(f"{' '.join(argv)}: main answers otherwise")
                lines = [line for line in err.splitlines() if line.strip()]
                if code != 2 or len(lines) != 1:
                    tally.failures.append(
                        f"{' '.join(argv)}: exit {code}, {len(lines)} stderr line(s): "
                        f"{err.strip()[:160]!r}"
                    )
    return tally


def _without(argv: list[str], flag: str) -> list[str]:
    """``argv`` without ``flag`` and its value (a required option replaced by the test)."""
    out, skip = [], False
    for item in argv:
        if skip:
            skip = False
            continue
        if item == flag:
            skip = True
            continue
        out.append(item)
    return out
