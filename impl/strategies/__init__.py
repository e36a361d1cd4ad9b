"""Public Hypothesis strategies for differential-privacy property tests (``dpspec.strategies``).

Datasets follow :mod:`dpspec.spec.neighbours`: a dataset is a finite sequence of records (a
``tuple`` here, a ``numpy`` array for continuous data), and neighbours are positional under a
:class:`~dpspec.spec.neighbours.Relation`. Output distributions follow
:mod:`dpspec.spec.privacy`: a finite mapping ``outcome -> probability``.

* :func:`finite_datasets`, :func:`labelled_datasets`, :func:`continuous_datasets` draw datasets;
* :func:`neighbouring_pairs` and :func:`continuous_neighbouring_pairs` draw a dataset ``d`` and
  one of its neighbours ``d'``, returned as ``(d, d')``; ``is_neighbour(d, d', relation)``
  always holds (for arrays: on the rows, see :func:`as_records`);
* :func:`distributions` and :func:`distribution_pairs` draw finite distributions, exact
  (``Fraction`` probabilities summing to exactly 1) or ``float``.

The strategies are built constructively: the only rejections are a fresh continuous row that
happens to equal the row it replaces, and (for :func:`neighbouring_pairs` over a user strategy)
a drawn dataset that has no neighbour at all. They shrink towards small datasets and
point-mass-like distributions, and validate their arguments eagerly: a bad argument raises
``ValueError`` naming it when the strategy is created. ``Relation`` members or their string
values (``"add-remove"``, ``"substitute"``, ``"label"``, ``"local"``) are accepted.

Modules: :mod:`~dpspec.strategies.datasets`, :mod:`~dpspec.strategies.neighbours`,
:mod:`~dpspec.strategies.distributions` (argument checks in :mod:`~dpspec.strategies.common`).
"""

from dpspec.strategies.common import FloatArray
from dpspec.strategies.datasets import (
    as_records,
    continuous_datasets,
    finite_datasets,
    labelled_datasets,
    labelled_domain,
)
from dpspec.strategies.distributions import distribution_pairs, distributions
from dpspec.strategies.neighbours import continuous_neighbouring_pairs, neighbouring_pairs

__all__ = [
    "FloatArray",
    "as_records",
    "continuous_datasets",
    "continuous_neighbouring_pairs",
    "distribution_pairs",
    "distributions",
    "finite_datasets",
    "labelled_datasets",
    "labelled_domain",
    "neighbouring_pairs",
]
