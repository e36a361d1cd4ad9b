"""Bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``): the
real implementation bugs the obligations' controls stand for, each killed by ``dpspec verify``."""

from __future__ import annotations

from dpspec.compression.boosting import medboost, weighted_quantiles
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="compression.rho-lower-median",
        edit=Edit(
            target="dpspec.compression.schemes._median_of",
            original="return np.asarray(weighted_median(values, np.ones(len(hypotheses))))",
            replacement="return -np.asarray(weighted_median(-values, np.ones(len(hypotheses))))",
            bug="the scheme's rho votes with the lower median (L693-703 define the upper)",
        ),
        kind="boundary",
    ),
    Mutant(
        id="compression.quantile-nonstrict-share",
        edit=Edit(
            target=weighted_quantiles,
            original="plus_ok = above < limit",
            replacement="plus_ok = above <= limit",
            bug="Q+_gamma with a non-strict share (<= where the definition has <)",
        ),
        kind="boundary",
    ),
    Mutant(
        id="compression.adaboost-alpha",
        edit=Edit(
            target=medboost,
            original="alpha = 0.5 * math.log((1 - gamma) * (1 - err) / ((1 + gamma) * err))",
            replacement="alpha = 0.5 * math.log((1 - err) / err)",
            bug="MedBoost with AdaBoost's alpha: the factor (1 - gamma)/(1 + gamma) dropped",
        ),
        kind="utility",
    ),
    Mutant(
        id="compression.threshold-open-end",
        edit=Edit(
            target="dpspec.compression.learners._Threshold.__call__",
            original="(_scalar(q) >= self.t)",
            replacement="(_scalar(q) > self.t)",
            bug="thresholds predict 1[x > t] where the ERM scored 1[x >= t]",
        ),
        kind="boundary",
    ),
    Mutant(
        id="compression.interval-open-right",
        edit=Edit(
            target="dpspec.compression.learners._Interval.__call__",
            original="(x <= self.b)",
            replacement="(x < self.b)",
            bug="intervals open at their right end (the hull of the positives is closed)",
        ),
        kind="boundary",
    ),
)
