"""``dpspec compress CLASS``: compress a random realizable sample of a class (seed 002 ch. 4)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    """Add the ``compress`` subcommand to the ``dpspec`` parser's subparsers ``sub``."""
    del sub  # filled in by the compression work (issue 5)


def _unused(args: argparse.Namespace) -> int:
    del args
    return 0
