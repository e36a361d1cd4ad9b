"""Privacy accounting: the privacy curve δ(ε) of a composition of mechanisms.

* :mod:`dpspec.accounting.exact` — exact privacy loss distributions of finite output laws
  (:class:`LossDistribution`, one ordered pair; :class:`PrivacyCurve`, both directions of a
  relation kept apart), composed in ``Fraction`` arithmetic; δ(ε) exact at a rational e^ε and a
  certified :class:`Bracket` at a real ε; ε(δ) a certified bracket of stated width.
* :mod:`dpspec.accounting.pairs` — the worst-case pairs of mechanisms as curves: randomized
  response, the discrete Laplace count, and Poisson subsampling of any curve.
* :mod:`dpspec.accounting.pld` — the grid engine: discretised privacy loss distributions of
  shifted location-family noise (pessimistic and optimistic rounding), composed by convolution,
  and the Gaussian μ-composition in closed form. The replay auditor
  (:mod:`dpspec.audit.replay`) composes its per-call losses with it; it is exported whole (its
  names stay under ``dpspec.accounting.pld``).
* :mod:`dpspec.accounting.sampling` — the batch samplers the accountants assume, as dpspec's
  reference implementations: Poisson (:func:`poisson_batches`), fixed-size without
  replacement (:func:`fixed_size_batches`) and shuffling (:func:`shuffled_batches`), each also
  as ``*_membership`` (many epochs at once, a boolean array); ``dpspec conform`` judges a
  library's sampler against their exact laws (:mod:`dpspec.conform.samplers`).
* :mod:`dpspec.accounting.shuffling` — shuffled fixed batches of the Gaussian mechanism (each
  record in one batch per epoch): a certified interval [ε_lo, ε_hi]
  (:func:`shuffled_gaussian_epsilon`, :func:`shuffled_gaussian_delta`), ε_hi from the
  unamplified μ-composition, ε_lo from the max-of-batches statistic of a worst-case pair
  (:func:`max_cells`), composed on the grid engine's optimistic side.
* :mod:`dpspec.accounting.certified` — certified δ(ε) and ε(δ) of k identical steps: one step's
  loss cells (:class:`~dpspec.accounting.certified.Step`, a finite law's loss distribution
  too) rounded to a grid preserving means, composed by one FFT power, every error bounded
  (Hoeffding, truncation, wrap-around, floats).
* :mod:`dpspec.accounting.compositions` — the catalogue: :class:`Composition` (Gaussian or
  Laplace steps, unsampled, Poisson-sampled under add/remove, sampled without replacement
  under substitution, or shuffled into fixed batches (Gaussian; bracketed by
  :mod:`~dpspec.accounting.shuffling`)) and its certified :func:`epsilon_interval` and
  :func:`delta_interval`.

The guarantees checked of it are the ``accounting.*`` obligations (``dpspec verify --only
accounting``; the method in ``proofs/topics/accounting/note.md``).
"""

from dpspec.accounting import certified, pld
from dpspec.accounting.compositions import (
    Composition,
    composition_steps,
    delta_interval,
    epsilon_interval,
)
from dpspec.accounting.exact import (
    EPSILON_WIDTH,
    EXP_BITS,
    LIMIT_CAP,
    MAX_PRODUCTS,
    Bracket,
    LossDistribution,
    PrivacyCurve,
    exp_bounds,
    loss_distribution,
    privacy_curve,
)
from dpspec.accounting.pairs import (
    discrete_laplace_curve,
    randomized_response_curve,
    subsampled,
)
from dpspec.accounting.sampling import (
    fixed_size_batches,
    fixed_size_membership,
    poisson_batches,
    poisson_membership,
    shuffled_batches,
    shuffled_membership,
)
from dpspec.accounting.shuffling import (
    MaxCells,
    max_cells,
    shuffled_gaussian_delta,
    shuffled_gaussian_epsilon,
)

__all__ = [
    "EPSILON_WIDTH",
    "EXP_BITS",
    "LIMIT_CAP",
    "MAX_PRODUCTS",
    "Bracket",
    "Composition",
    "LossDistribution",
    "MaxCells",
    "PrivacyCurve",
    "certified",
    "composition_steps",
    "delta_interval",
    "discrete_laplace_curve",
    "epsilon_interval",
    "exp_bounds",
    "fixed_size_batches",
    "fixed_size_membership",
    "loss_distribution",
    "max_cells",
    "pld",
    "poisson_batches",
    "poisson_membership",
    "privacy_curve",
    "randomized_response_curve",
    "shuffled_batches",
    "shuffled_gaussian_delta",
    "shuffled_gaussian_epsilon",
    "shuffled_membership",
    "subsampled",
]
