"""The ``dpspec`` command as installed, for checks that exercise it in-process.

Topics never import :mod:`dpspec.cli` (the command is built on the topics, not the other
way round); a check of the command line reaches it the way a user does, through the console
script the distribution installs (``[project.scripts] dpspec``), so what runs is the program a
user types, in this process (fast, and traced by the registry's call tracer).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib.metadata import entry_points


@cache
def installed_command() -> Callable[[Sequence[str] | None], int]:
    """The function behind the installed ``dpspec`` console script."""
    found = entry_points(group="console_scripts", name="dpspec")
    for ep in found:
        main: Callable[[Sequence[str] | None], int] = ep.load()
        return main
    raise RuntimeError("the dpspec console script is not installed (pip install dpspec)")


def run_dpspec(argv: Sequence[str]) -> int:
    """Run ``dpspec ARGV…`` in this process; its exit code."""
    return installed_command()(list(argv))
