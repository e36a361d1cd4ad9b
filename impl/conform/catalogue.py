"""The algorithms ``dpspec conform`` can judge an implementation against, by name.

:func:`catalogue` lists them (``dpspec conform --list``), :func:`algorithm` finds one by its
name or an alias, :func:`reference` gives dpspec's own implementation of one as a target. What
an entry states is in :mod:`dpspec.conform.base`; the entries are in
:mod:`dpspec.conform.mechanisms`, :mod:`dpspec.conform.gaussian`,
:mod:`dpspec.conform.learners` and :mod:`dpspec.conform.samplers` (DP-SGD batch samplers).
"""

from __future__ import annotations

from typing import Annotated, Any

from dpspec.conform.adapters import Sampler
from dpspec.conform.base import Algorithm
from dpspec.conform.gaussian import NOISE
from dpspec.conform.learners import LEARNERS
from dpspec.conform.mechanisms import MECHANISMS
from dpspec.conform.samplers import SAMPLERS
from dpspec.validation import Choice, checked, example

#: every algorithm of the catalogue, in the order ``dpspec conform --list`` shows them
ALGORITHMS: tuple[Algorithm, ...] = (*MECHANISMS, *NOISE, *LEARNERS, *SAMPLERS)

#: every name an algorithm answers to (its name and its aliases)
NAMES: tuple[str, ...] = tuple(n for a in ALGORITHMS for n in (a.name, *a.aliases))

#: The name of an algorithm of the catalogue (or one of its aliases).
AlgorithmArg = Annotated[str, Choice(options=NAMES)]


@checked
def catalogue() -> dict[str, Algorithm]:
    """Every algorithm by name."""
    return {a.name: a for a in ALGORITHMS}


@example(__call__={"name": "two-sided-geometric"})
@checked
def algorithm(name: AlgorithmArg) -> Algorithm:
    """The algorithm named ``name`` or one of its aliases."""
    return next(a for a in ALGORITHMS if name == a.name or name in a.aliases)


@example(__call__={"algorithm": "bernoulli-exp"})
@checked
def reference(algorithm: AlgorithmArg, **params: Any) -> Sampler:
    """dpspec's own implementation of ``algorithm`` with ``params``, as a target: run through
    its public entry point (``sample``, ``randomise``, ``fit`` + ``predict``).
    ``conform(reference("discrete-laplace", scale=2), "discrete-laplace", scale=2)`` conforms;
    ``reference("discrete-laplace", scale=2 / 1.1)`` is the 10% scale bug every draw budget is
    sized to catch with power ≥ 0.99."""
    algo = _find(algorithm)
    return algo._reference(algo._resolve(params))


def _find(name: str) -> Algorithm:
    return next(a for a in ALGORITHMS if name == a.name or name in a.aliases)
