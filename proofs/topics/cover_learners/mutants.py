"""Privacy bugs ``dpspec mutate`` plants in seed 004's learners (``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

_LEARNERS = "impl/cover_learners/learners.py"
_HYPOTHESES = "impl/cover_learners/hypotheses.py"

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="cover.selection-half-dropped",
        file=_LEARNERS,
        original="return ExponentialMechanism(scores, 1, epsilon=self.epsilon)",
        replacement="return ExponentialMechanism(scores, 1, epsilon=self.epsilon, half=False)",
        description="A1/A1r/A2 select with weights exp(−α·mistakes) (the ½ dropped): 2α",
        kind="half",
    ),
    Mutant(
        id="cover.fit-half-false",
        file=_LEARNERS,
        original="exponential_choice(scores, self.epsilon, 1, rng, half=mech.half)",
        replacement="exponential_choice(scores, self.epsilon, 1, rng, half=False)",
        description="fit draws without the ½ while release_law keeps it (sampler ≠ law)",
        kind="sampler",
    ),
    Mutant(
        id="cover.fit-epsilon-doubled",
        file=_LEARNERS,
        original="exponential_choice(scores, self.epsilon, 1, rng, half=mech.half)",
        replacement=("exponential_choice(scores, 2 * self.epsilon, 1, rng, half=mech.half)"),
        description="fit selects at 2α (the law at α)",
        kind="sampler",
    ),
    Mutant(
        id="cover.scores-doubled",
        file=_LEARNERS,
        original="return -candidates.mistakes(data[:, 0], data[:, 1].astype(np.int64))",
        replacement="return -2 * candidates.mistakes(data[:, 0], data[:, 1].astype(np.int64))",
        description="the score is 2·mistakes with Δ = 1 assumed (sensitivity 2): 2α",
        kind="sensitivity",
    ),
    Mutant(
        id="cover.a1-grid-from-data",
        file=_LEARNERS,
        original="            return threshold_grid(size)",
        replacement="            return empirical_threshold_cover(X, 1 / (2 * size))",
        description="A1's threshold cover built from the sample's x's (data-dependent G)",
        kind="public",
    ),
    Mutant(
        id="cover.a1-kappa-from-data",
        file=_LEARNERS,
        original="size = grid_size(self.kappa(m), float(self.accuracy), self.hypothesis_class)",
        replacement=(
            "size = grid_size(self.kappa(m) * (1 + float(np.mean(X))), float(self.accuracy), "
            "self.hypothesis_class)"
        ),
        description="κ̂ (hence |G|) depends on the data, not only on the public m",
        kind="public",
    ),
    Mutant(
        id="cover.empty-box-negative",
        file=_HYPOTHESES,
        original="out += sign * np.maximum(inside, 0)  # an empty box counts nothing",
        replacement="out += sign * inside",
        description="the empty interval counts −n points inside: its score moves by 2 per label",
        kind="sensitivity",
    ),
    Mutant(
        id="cover.a2-cover-too-coarse",
        file=_HYPOTHESES,
        original="k = int(np.floor(xs.size * radius)) + 1",
        replacement="k = int(np.floor(xs.size * radius)) + 3",
        description="A2's cover drops too many thresholds: no longer an (ε/4)-cover of ρ_X",
        kind="public",
    ),
    Mutant(
        id="cover.a2-reports-substitution",
        file=_LEARNERS,
        original="    relation = Relation.LABEL\n",
        replacement="    relation = Relation.SUBSTITUTE\n",
        description="A2 reports a substitution (fully private) guarantee it does not have",
        kind="reported",
    ),
)
