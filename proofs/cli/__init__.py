"""Deprecated alias of :mod:`dpspec.cli` (kept for 0.3; the command line moved into the package
root with the rest of the product — import :mod:`dpspec.cli`)."""

import warnings

from dpspec.cli import build_parser, main, run_parsed

__all__ = ["build_parser", "main", "run_parsed"]

#: The module this name is an alias of (package discovery skips aliases).
DEPRECATED_ALIAS_OF = "dpspec.cli"

warnings.warn(
    "dpspec.proofs.cli is deprecated; import dpspec.cli", DeprecationWarning, stacklevel=2
)
