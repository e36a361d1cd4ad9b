"""The third-party modules a check process needs, imported once by a process that forks the
check processes (:class:`~dpspec.proofs.engine.mutation.ForkServer` for ``dpspec mutate``, the
fork server of ``dpspec verify``'s worker pool) rather than once per process."""

from __future__ import annotations

#: Imported by the forking process before its first child (those missing are skipped).
PRELOAD = (
    "numpy",
    "scipy.stats",
    "scipy.optimize",
    "scipy.special",
    "scipy.spatial",
    "sklearn.base",
    "sklearn.utils.validation",
    "hypothesis",
    "hypothesis.extra.numpy",
    "tqdm",
    "joblib",
)
