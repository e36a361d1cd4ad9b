"""Deprecated alias of :mod:`dpspec.proofs.engine.errors` (kept for 0.3; import from there)."""

import warnings

from dpspec.proofs.engine.errors import *  # noqa: F403
from dpspec.proofs.engine.errors import __all__  # noqa: F401

#: The module this name is an alias of (package discovery skips aliases).
DEPRECATED_ALIAS_OF = "dpspec.proofs.engine.errors"

warnings.warn(
    "dpspec.proofs.cli.errors is deprecated; import dpspec.proofs.engine.errors",
    DeprecationWarning,
    stacklevel=2,
)
