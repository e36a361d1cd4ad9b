"""Deprecated alias of :mod:`dpspec.consistency` (the problems of the consistency theorems)."""

import warnings

from dpspec.consistency import *  # noqa: F403

#: The module this name is an alias of (package discovery skips aliases).
DEPRECATED_ALIAS_OF = "dpspec.consistency"

warnings.warn(
    "dpspec.distributions is deprecated; import dpspec.consistency",
    DeprecationWarning,
    stacklevel=2,
)
