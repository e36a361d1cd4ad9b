"""Deprecated alias of :mod:`dpspec.audit._learner_search` (the auditor's pair-search machinery,
internal since 0.3: :class:`dpspec.audit.Search` is the public way to search for a pair)."""

import warnings

from dpspec.audit._learner_search import *  # noqa: F403

#: The module this name is an alias of (package discovery skips aliases).
DEPRECATED_ALIAS_OF = "dpspec.audit._learner_search"

warnings.warn(
    "dpspec.audit.learner_search is deprecated; it is internal machinery "
    "(dpspec.audit._learner_search); search for a pair with dpspec.audit.Search",
    DeprecationWarning,
    stacklevel=2,
)
