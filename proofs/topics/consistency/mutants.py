"""Bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``): the
real implementation bugs the obligations' controls stand for, each killed by ``dpspec verify``."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="consistency.gap-without-region",
        file="impl/consistency.py",
        original="gap = np.abs(1.0 - self.noise - arr) * area_b + ",
        replacement="gap = 0.0 * area_b + ",
        description="E|eta - eta^| computed without its part on B (the plug-in gap understated)",
        kind="utility",
    ),
    Mutant(
        id="consistency.disk-radius-wide",
        file="impl/consistency.py",
        original="<= self.radius**2)",
        replacement="<= self.radius**2 * 1.1)",
        description="the disk's membership test about 5% too wide (areas and samples disagree)",
        kind="utility",
    ),
    Mutant(
        id="consistency.mixture-truncation",
        file="impl/consistency.py",
        original="keep = np.all((X >= 0.0) & (X <= 1.0), axis=1)",
        replacement="keep = np.all((X >= 0.0) & (X <= 1.05), axis=1)",
        description="the Gaussian mixture truncated to [0, 1.05]^d instead of [0, 1]^d",
        kind="utility",
    ),
)
