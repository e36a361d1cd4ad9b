"""Deprecated alias of :mod:`dpspec.learners._keyed_noise` (the learners' counter-keyed noise,
internal machinery since 0.3)."""

import warnings

from dpspec.learners._keyed_noise import *  # noqa: F403

#: The module this name is an alias of (package discovery skips aliases).
DEPRECATED_ALIAS_OF = "dpspec.learners._keyed_noise"

warnings.warn(
    "dpspec.learners.keyed_noise is deprecated; it is internal machinery "
    "(dpspec.learners._keyed_noise)",
    DeprecationWarning,
    stacklevel=2,
)
