"""The internals of :mod:`dpspec.conform` that other packages rely on, public under one name.

These are the objects the package's own code runs (re-exported, never copies): the exact checks
and the command line drive them directly. They validate nothing themselves (the public entry
points validate before calling them), so they are not part of the user-facing API.
"""

from __future__ import annotations

from dpspec.conform.accountant_libraries import _accountant_target as accountant_target
from dpspec.conform.accountant_libraries import _is_accountant_library as is_accountant_library
from dpspec.conform.accountant_libraries import _version as accountant_version
from dpspec.conform.adapters import _load as load
from dpspec.conform.catalogue import _find as find
from dpspec.conform.core import _empirical_power as empirical_power
from dpspec.conform.gof import _count_test as count_test
from dpspec.conform.gof import _draws_for_power as draws_for_power
from dpspec.conform.gof import _event_family as event_family
from dpspec.conform.libraries import _is_library as is_library
from dpspec.conform.libraries import _library_target as library_target
from dpspec.conform.libraries import _version as version

__all__ = [
    "accountant_target",
    "accountant_version",
    "count_test",
    "draws_for_power",
    "empirical_power",
    "event_family",
    "find",
    "is_accountant_library",
    "is_library",
    "library_target",
    "load",
    "version",
]
