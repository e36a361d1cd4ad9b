"""Privacy accounting: the privacy curve δ(ε) of a composition of mechanisms.

* :mod:`dpspec.accounting.pld` — the grid engine: discretised privacy loss distributions of
  shifted location-family noise (pessimistic and optimistic rounding), composed by convolution,
  and the Gaussian μ-composition in closed form. The replay auditor
  (:mod:`dpspec.audit.replay`) composes its per-call losses with it; it is exported whole (its
  names stay under ``dpspec.accounting.pld``).
"""

from dpspec.accounting import pld

__all__ = ["pld"]
