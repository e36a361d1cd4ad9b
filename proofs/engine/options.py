"""Command-line options with declared domains: the same declarations as the Python API.

``add_option(parser, "--epsilon", Epsilon(), default=1.0)`` gives argparse a converter built from
the :class:`~dpspec.validation.Domain`: the text is read as a number (``1e3`` is accepted for an
integer), checked by the domain, and a value outside it is a usage error naming the option (one
line on stderr, exit 2) before any work. The CLI sweep of the contract topic walks the parser
and sends every option the strings its domain refuses.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from dpspec.validation import (
    Choice,
    Delta,
    Domain,
    Epsilon,
    Flag,
    Instance,
    Integer,
    Pair,
    RandomState,
    Real,
)

#: Free text (an id fragment, a title): every string.
TEXT = Instance(types=(str,))
#: A CPU budget in seconds: finite and > 0 (at most a day).
SECONDS = Real(0, 86400, lo_open=True)
#: Worker processes.
JOBS = Integer(1, hi=64)
#: Help of every ``--json`` option.
JSON_HELP = "write the result as JSON"

#: Text that no numeric option accepts.
NOT_NUMBERS = ("", "abc", "1,5", "0x10", "1e", "--")


@dataclass(frozen=True)
class WritablePath(Domain):
    """An output file (``--json``, ``--plot``): a path whose folder exists or can be made and
    that is not a folder; ``suffixes`` restricts the extension (``.png``)."""

    suffixes: tuple[str, ...] = ()

    def convert(self, value: Any, name: str) -> str:
        if not isinstance(value, str) or value == "":
            raise ValueError(f"{name}: expected a file path, got {value!r}")
        target = Path(value)
        if target.is_dir():
            raise ValueError(f"{name}: {value!r} is a directory")
        if self.suffixes and target.suffix.lower() not in self.suffixes:
            raise ValueError(f"{name}: expected a {'/'.join(self.suffixes)} file, got {value!r}")
        parent = target.parent if str(target.parent) else Path(".")
        for folder in (parent, *parent.parents):
            if folder.exists():
                if not folder.is_dir():
                    raise ValueError(f"{name}: {str(folder)!r} is not a directory")
                if not os.access(folder, os.W_OK):
                    raise ValueError(f"{name}: cannot write in {str(folder)!r}")
                break
        return value

    def hostile(self) -> tuple[Any, ...]:
        return ("", "/dev/null/x.json", "/proc/x/y.json", ".")

    @property
    def example(self) -> Any:
        return None

    def describe(self) -> str:
        return "a writable file path"


@dataclass(frozen=True)
class ReadablePath(Domain):
    """An input file that must exist and be readable."""

    def convert(self, value: Any, name: str) -> str:
        if not isinstance(value, str) or not Path(value).is_file():
            raise ValueError(f"{name}: no such file {value!r}")
        if not os.access(value, os.R_OK):
            raise ValueError(f"{name}: cannot read {value!r}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return ("", "/no/such/file.json", ".")

    def describe(self) -> str:
        return "a readable file"


@dataclass(frozen=True)
class JsonList(Domain):
    """Text holding a JSON list (of ``length`` items when given), kept as text: the command
    reads what the items mean."""

    length: int | None = None

    def convert(self, value: Any, name: str) -> str:
        if not isinstance(value, str):
            raise TypeError(f"{name}: expected JSON text, got {type(value).__name__}")
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{name}: expected {self.describe()}, got {value!r} ({exc})") from None
        if not isinstance(parsed, list) or (self.length is not None and len(parsed) != self.length):
            raise ValueError(f"{name}: expected {self.describe()}, got {value!r}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return ("", "[", "5", "null", "{}", '"x"', "[" + ", ".join(["0"] * 3) + "]")

    def describe(self) -> str:
        items = "" if self.length is None else f" of {self.length} items"
        return f"a JSON list{items}"


def _number(text: str, domain: Domain) -> Any:
    """The number a command-line text denotes for ``domain`` (integers may be written 1e3)."""
    value: Any
    if isinstance(domain, Integer | RandomState):
        try:
            value = int(text)
        except ValueError:
            as_float = float(text)  # ValueError for text that is no number
            if not (math.isfinite(as_float) and as_float.is_integer()):
                raise ValueError(f"{text!r} is not an integer") from None
            value = int(Fraction(text))
        return value
    if isinstance(domain, Flag):
        lowered = text.lower()
        if lowered not in ("true", "false"):
            raise ValueError(f"expected true or false, got {text!r}")
        return lowered == "true"
    return float(text)


class DomainType:
    """The argparse ``type`` of an option with a declared domain."""

    def __init__(self, domain: Domain, option: str, example: str | None = None) -> None:
        self.domain, self.option, self.example = domain, option, example
        self.__name__ = domain.describe()  # argparse names the type in its messages

    def __call__(self, text: str) -> Any:
        try:
            if isinstance(self.domain, Real | Epsilon | Delta | Integer | Flag | RandomState):
                value = _number(text, self.domain)
            elif isinstance(self.domain, Pair):
                parts = text.split(",")
                value = tuple(_number(p, self.domain.inner) for p in parts)
            else:
                value = text
            return self.domain.check(value, self.option)
        except (ValueError, TypeError, OverflowError) as exc:
            message = str(exc)  # argparse puts "argument OPTION:" in front
            if message.startswith(f"{self.option}: "):
                message = message[len(self.option) + 2 :]
            else:
                message = f"{self.domain.describe()} expected, got {text!r}"
            raise argparse.ArgumentTypeError(message) from None

    def refused_texts(self) -> tuple[str, ...]:
        """Command-line texts the option refuses: the domain's refused values that are numbers
        or strings, written out, and text that is no number — those the converter refuses (a
        value refused in Python may be a fine text: the string "1" is the number 1 here)."""
        out = []
        for value in self.domain.refused():
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, int | float | str):
                out.append(str(value))
        if not isinstance(self.domain, Choice | WritablePath | ReadablePath):
            out.extend(NOT_NUMBERS)
        refused = []
        for text in dict.fromkeys(out):
            try:
                self(text)
            except argparse.ArgumentTypeError:
                refused.append(text)
        return tuple(refused)


def add_option(
    parser: argparse.ArgumentParser,
    *flags: str,
    domain: Domain,
    example: str | None = None,
    **kwargs: Any,
) -> argparse.Action:
    """``parser.add_argument`` with ``type`` built from ``domain`` (its name the first flag);
    ``example`` is a clean text for a required option or a positional (the CLI sweep uses
    it)."""
    option = flags[0]
    kind = DomainType(domain, option, example)
    if isinstance(domain, Choice):
        kwargs.setdefault("choices", domain.options)
        kind.__name__ = "choice"
    return parser.add_argument(*flags, type=kind, **kwargs)
