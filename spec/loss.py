"""Deprecated alias of :mod:`dpspec.spec.mechanisms` (privacy losses of the noise mechanisms)."""

import warnings

from dpspec.spec.mechanisms import *  # noqa: F403

#: The module this name is an alias of (package discovery skips aliases).
DEPRECATED_ALIAS_OF = "dpspec.spec.mechanisms"

warnings.warn(
    "dpspec.spec.loss is deprecated; import dpspec.spec.mechanisms",
    DeprecationWarning,
    stacklevel=2,
)
