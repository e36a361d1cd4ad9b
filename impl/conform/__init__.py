"""``dpspec conform``: is this implementation the algorithm it claims to be?

``conform(target, "discrete-laplace", scale=2)`` runs ``target`` on the spec's small instances
of the algorithm, tests its draws against the algorithm's exact law (false alarm ≤ 1e-6 for the
whole run, draw budget sized for power ≥ 0.99 against the same algorithm at ε × 1.1), audits
its privacy on the spec's worst neighbouring pair, checks the algorithm's other guarantees and
returns a :class:`ConformResult` with a verdict: conforms, deviates or not private.

The public surface: :func:`conform` and :func:`plan` (the budget, fixed before any draw);
:func:`catalogue` / :func:`algorithm` (the algorithms, ``dpspec conform --list``) and
:func:`reference` (dpspec's own implementation of one, as a target); :func:`as_sampler` and
:class:`Sampler` (the calling conventions, :mod:`dpspec.conform.adapters`); the records a run
returns (:class:`ConformResult`, :class:`InstanceReport`, :class:`FitResult`, :class:`Plan`,
:class:`Instance`, :class:`Law`, :class:`Algorithm`, :class:`Param`); the errors
(:class:`TargetError`, :class:`ConformanceFailure`); the pytest marker ``dpspec_conforms`` and
its fixture (:mod:`dpspec.conform.pytest_plugin`, loaded by pytest; its hook
``pytest_configure`` is exported lazily so that importing dpspec does not import pytest); the
library functions of the table (:class:`LibraryTarget`, ``LIBRARY_TARGETS``).
"""

from typing import Any

from dpspec.conform.accountant_libraries import ACCOUNTANT_TARGETS, AccountantTarget
from dpspec.conform.accountants import (
    AccountantResult,
    NotExpressible,
    Row,
    RowReport,
    conform_accountant,
    judge,
    reference_accountant,
)
from dpspec.conform.adapters import Sampler, TargetError, as_sampler
from dpspec.conform.base import Algorithm, Instance, Param
from dpspec.conform.catalogue import algorithm, catalogue, reference
from dpspec.conform.core import (
    ConformanceFailure,
    ConformResult,
    InstanceReport,
    Plan,
    conform,
    plan,
)
from dpspec.conform.gof import ALPHA, POWER, FitResult, Law
from dpspec.conform.libraries import LIBRARY_TARGETS, LibraryTarget

__all__ = [
    "ACCOUNTANT_TARGETS",
    "ALPHA",
    "LIBRARY_TARGETS",
    "POWER",
    "AccountantResult",
    "AccountantTarget",
    "Algorithm",
    "ConformResult",
    "ConformanceFailure",
    "FitResult",
    "Instance",
    "InstanceReport",
    "Law",
    "LibraryTarget",
    "NotExpressible",
    "Param",
    "Plan",
    "Row",
    "RowReport",
    "Sampler",
    "TargetError",
    "algorithm",
    "as_sampler",
    "catalogue",
    "conform",
    "conform_accountant",
    "judge",
    "plan",
    "pytest_configure",
    "reference",
    "reference_accountant",
]

#: names provided by the pytest plugin module, imported on first access
_PLUGIN = ("pytest_configure",)


def __getattr__(name: str) -> Any:
    if name in _PLUGIN:
        from dpspec.conform import pytest_plugin

        return getattr(pytest_plugin, name)
    raise AttributeError(f"module 'dpspec.conform' has no attribute {name!r}")
