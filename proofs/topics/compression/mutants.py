"""Bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``): the
real implementation bugs the obligations' controls stand for, each killed by ``dpspec verify``."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="compression.rho-lower-median",
        file="impl/compression/schemes.py",
        original="return np.asarray(weighted_median(values, np.ones(len(hypotheses))))",
        replacement="return -np.asarray(weighted_median(-values, np.ones(len(hypotheses))))",
        description="the scheme's rho votes with the lower median (L693-703 define the upper)",
        kind="boundary",
    ),
    Mutant(
        id="compression.quantile-nonstrict-share",
        file="impl/compression/boosting.py",
        original="plus_ok = above < limit",
        replacement="plus_ok = above <= limit",
        description="Q+_gamma with a non-strict share (<= where the definition has <)",
        kind="boundary",
    ),
    Mutant(
        id="compression.adaboost-alpha",
        file="impl/compression/boosting.py",
        original="alpha = 0.5 * math.log((1 - gamma) * (1 - err) / ((1 + gamma) * err))",
        replacement="alpha = 0.5 * math.log((1 - err) / err)",
        description="MedBoost with AdaBoost's alpha: the factor (1 - gamma)/(1 + gamma) dropped",
        kind="utility",
    ),
    Mutant(
        id="compression.threshold-open-end",
        file="impl/compression/learners.py",
        original="(_scalar(q) >= self.t)",
        replacement="(_scalar(q) > self.t)",
        description="thresholds predict 1[x > t] where the ERM scored 1[x >= t]",
        kind="boundary",
    ),
    Mutant(
        id="compression.interval-open-right",
        file="impl/compression/learners.py",
        original="(x <= self.b)",
        replacement="(x < self.b)",
        description="intervals open at their right end (the hull of the positives is closed)",
        kind="boundary",
    ),
)
