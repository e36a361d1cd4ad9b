"""Bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``): the
real implementation bugs the obligations' controls stand for, each killed by ``dpspec verify``."""

from __future__ import annotations

from dpspec.consistency import GaussianMixture
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="consistency.gap-without-region",
        edit=Edit(
            target="dpspec.consistency._TwoValuedProblem.mean_abs_eta_gap",
            original="gap = np.abs(1.0 - self.noise - arr) * area_b + ",
            replacement="gap = 0.0 * area_b + ",
            bug="E|eta - eta^| computed without its part on B (the plug-in gap understated)",
        ),
        kind="utility",
    ),
    Mutant(
        id="consistency.disk-radius-wide",
        edit=Edit(
            target="dpspec.consistency.Circle._region",
            original="<= self.radius**2)",
            replacement="<= self.radius**2 * 1.1)",
            bug="the disk's membership test about 5% too wide (areas and samples disagree)",
        ),
        kind="utility",
    ),
    Mutant(
        id="consistency.mixture-truncation",
        edit=Edit(
            target=GaussianMixture.draw,
            original="keep = np.all((X >= 0.0) & (X <= 1.0), axis=1)",
            replacement="keep = np.all((X >= 0.0) & (X <= 1.05), axis=1)",
            bug="the Gaussian mixture truncated to [0, 1.05]^d instead of [0, 1]^d",
        ),
        kind="utility",
    ),
)
