"""Bugs ``dpspec mutate`` plants in seed 004's learners (``proofs/notes/mutation.md``): in their
privacy (the ½, the ε the selection is drawn for, a sampler that leaves its law, a cover that
reads the data), in what they report, in the mistakes they score, in their grids and in the
certificates they state. Each is killed by an obligation of the topic; the controls of those
obligations are the same bugs, run in the check itself."""

from __future__ import annotations

from dpspec.cover_learners.hypotheses import Boxes, empirical_threshold_cover
from dpspec.cover_learners.learners import (
    LabelPrivateCoverClassifier,
)
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="cover.selection-half-dropped",
        edit=Edit(
            target=(
                "dpspec.cover_learners.learners._CoverExponentialClassifier._selection_mechanism"
            ),
            original="return ExponentialMechanism(scores, 1, epsilon=epsilon)",
            replacement="return ExponentialMechanism(scores, 1, epsilon=epsilon, half=False)",
            bug="A1/A1r/A2 select with weights exp(−α·mistakes) (the ½ dropped): 2α",
        ),
        kind="half",
    ),
    Mutant(
        id="cover.fit-half-false",
        edit=Edit(
            target="dpspec.cover_learners.learners._CoverExponentialClassifier.fit",
            original="exponential_choice(scores, eps, 1, rng, half=mech.half)",
            replacement="exponential_choice(scores, eps, 1, rng, half=False)",
            bug="fit draws without the ½ while release_law keeps it (sampler ≠ law)",
        ),
        kind="sampler",
    ),
    Mutant(
        id="cover.fit-epsilon-doubled",
        edit=Edit(
            target="dpspec.cover_learners.learners._CoverExponentialClassifier.fit",
            original="exponential_choice(scores, eps, 1, rng, half=mech.half)",
            replacement="exponential_choice(scores, 2 * eps, 1, rng, half=mech.half)",
            bug="fit selects at 2α (the law at α)",
        ),
        kind="sampler",
    ),
    Mutant(
        id="cover.idealised-half-dropped",
        edit=Edit(
            target="dpspec.cover_learners.learners._float_release_law",
            original="weights = np.exp(-(epsilon / 2) * gap)",
            replacement="weights = np.exp(-epsilon * gap)",
            bug="the idealised (float) law and sampler without the ½: 2α",
        ),
        kind="half",
    ),
    Mutant(
        id="cover.idealised-sampler-off-law",
        edit=Edit(
            target="dpspec.cover_learners.learners._float_choice",
            original="cumulative = np.cumsum(_float_release_law(scores, epsilon))",
            replacement="cumulative = np.cumsum(_float_release_law(scores, 2 * epsilon))",
            bug="the idealised fit draws at 2α while its release_law states α",
        ),
        kind="sampler",
    ),
    Mutant(
        id="cover.scores-doubled",
        edit=Edit(
            target=(
                "dpspec.cover_learners.learners._CoverExponentialClassifier._selection_mechanism"
            ),
            original="return -candidates.mistakes(data[:, 0], data[:, 1].astype(np.int64))",
            replacement="return -2 * candidates.mistakes(data[:, 0], data[:, 1].astype(np.int64))",
            bug="the score is 2·mistakes with Δ = 1 assumed (sensitivity 2): 2α",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="cover.a1-grid-from-data",
        edit=Edit(
            target="dpspec.cover_learners.learners.PrivateCoverClassifier._candidates",
            original="        return self._grid(s, int(np.asarray(X).shape[0]))",
            replacement=(
                "        return empirical_threshold_cover(np.asarray(X)[:, 0], s['accuracy'] / 4)"
            ),
            bug="A1's cover built from the sample's x's (data-dependent G)",
        ),
        kind="public",
    ),
    Mutant(
        id="cover.a1-kappa-from-data",
        edit=Edit(
            target="dpspec.cover_learners.learners.PrivateCoverClassifier._candidates",
            original="        return self._grid(s, int(np.asarray(X).shape[0]))",
            replacement=(
                "        return self._grid_at(s, self._kappa(s, len(X)) * (1 + float(np.mean(X))))"
            ),
            bug="κ̂ (hence |G|) depends on the data, not only on the public m",
        ),
        kind="public",
    ),
    Mutant(
        id="cover.empty-box-negative",
        edit=Edit(
            target=Boxes.mistakes,
            original="out += sign * np.maximum(inside, 0)  # an empty box counts nothing",
            replacement="out += sign * inside",
            bug="the empty interval counts −n points inside: its score moves by 2 per label",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="cover.a2-cover-too-coarse",
        edit=Edit(
            target=empirical_threshold_cover,
            original="k = int(np.floor(xs.size * radius)) + 1",
            replacement="k = int(np.floor(xs.size * radius)) + 3",
            bug="A2's cover drops too many thresholds: no longer an (ε/4)-cover of ρ_X",
        ),
        kind="public",
    ),
    Mutant(
        id="cover.a2-reports-substitution",
        edit=Edit(
            target=LabelPrivateCoverClassifier,
            original="    relation = Relation.LABEL\n",
            replacement="    relation = Relation.SUBSTITUTE\n",
            bug="A2 reports a substitution (fully private) guarantee it does not have",
        ),
        kind="reported",
    ),
)
