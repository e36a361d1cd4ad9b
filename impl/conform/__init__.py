"""``dpspec conform``: is this implementation the algorithm it claims to be?

``conform(target, "discrete-laplace", scale=2)`` runs ``target`` on the spec's small instances
of the algorithm, tests its draws against the algorithm's exact law (false alarm ≤ 1e-6 for the
whole run, draw budget sized for power ≥ 0.99 against the same algorithm at ε × 1.1), audits
its privacy on the spec's worst neighbouring pair, checks the algorithm's other guarantees and
returns a :class:`ConformResult` with a verdict: conforms, deviates or not private.
``catalogue()`` lists the algorithms; :mod:`dpspec.conform.adapters` the calling conventions;
:mod:`dpspec.conform.libraries` the functions of OpenDP, PyDP and diffprivlib it has been run on;
:mod:`dpspec.conform.pytest_plugin` the ``dpspec_conforms`` marker and fixture.
"""

from dpspec.conform.adapters import Sampler, TargetError, as_sampler
from dpspec.conform.catalogue import Algorithm, Instance, algorithm, catalogue
from dpspec.conform.core import ConformResult, InstanceReport, conform, empirical_power, plan
from dpspec.conform.gof import ALPHA, POWER, Law

__all__ = [
    "ALPHA",
    "POWER",
    "Algorithm",
    "ConformResult",
    "Instance",
    "InstanceReport",
    "Law",
    "Sampler",
    "TargetError",
    "algorithm",
    "as_sampler",
    "catalogue",
    "conform",
    "empirical_power",
    "plan",
]
