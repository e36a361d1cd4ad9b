"""Deprecated alias of :mod:`dpspec.spec.cover_learners` (seed 004's predicates; kept for 0.3)."""

import warnings

from dpspec.spec.cover_learners import *  # noqa: F403

#: The module this name is an alias of (package discovery skips aliases).
DEPRECATED_ALIAS_OF = "dpspec.spec.cover_learners"

warnings.warn(
    "dpspec.spec.sample_complexity is deprecated; import dpspec.spec.cover_learners",
    DeprecationWarning,
    stacklevel=2,
)
