"""Bugs ``dpspec mutate`` plants in seed 004's learners (``proofs/notes/mutation.md``): in their
privacy (the ½, the ε the selection is drawn for, a sampler that leaves its law, a cover that
reads the data), in what they report, in the mistakes they score, in their grids and in the
certificates they state. Each is killed by an obligation of the topic; the controls of those
obligations are the same bugs, run in the check itself."""

from __future__ import annotations

from dpspec.cover_learners.hypotheses import Boxes, empirical_threshold_cover, threshold_grid
from dpspec.cover_learners.learners import (
    LabelPrivateCoverClassifier,
    a1_certificate,
    a1r_certificate,
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
        id="cover.selection-epsilon-1.25",
        edit=Edit(
            target="dpspec.cover_learners.learners._CoverExponentialClassifier._selection_epsilon",
            original='        return float(s["epsilon"])\n',
            replacement='        return 1.25 * float(s["epsilon"])\n',
            bug="the selection step calibrated for ε × 1.25 (fit and release_law, both paths)",
        ),
        kind="sampler",
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
        id="cover.score-open-lower-end",
        edit=Edit(
            target=Boxes.mistakes,
            original='                xs, self.lower, side="left"',
            replacement='                xs, self.lower, side="right"',
            bug="mistakes counted with an open lower end (x > lower) while predict is closed",
        ),
        kind="utility",
    ),
    Mutant(
        id="cover.threshold-grid-shifted",
        edit=Edit(
            target=threshold_grid,
            original="w = (2 * np.arange(1, size + 1) - 1) / (2 * size)",
            replacement="w = np.arange(1, size + 1) / size",
            bug="A1's threshold grid at j/J: cover radius 1/J, not the 1/(2J) the proof needs",
        ),
        kind="utility",
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
    Mutant(
        id="cover.idealised-reports-exact",
        edit=Edit(
            target="dpspec.cover_learners.learners._CoverExponentialClassifier.fit",
            original="level = PrivacyLevel(eps, math.exp(eps), 0, False, self.relation)",
            replacement="level = PrivacyLevel(eps, math.exp(eps), 0, True, self.relation)",
            bug="the idealised (float) learner reports an exact sampler",
        ),
        kind="reported",
    ),
    Mutant(
        id="cover.a1-certificate-halved",
        edit=Edit(
            target=a1_certificate,
            original="return 2 * size * math.exp(-m * accuracy**2 / 8) + size",
            replacement="return size * math.exp(-m * accuracy**2 / 8) + size",
            bug="A1's certificate without the 2 of the two-sided Hoeffding bound",
        ),
        kind="certificate",
    ),
    Mutant(
        id="cover.a1r-certificate-printed-exponent",
        edit=Edit(
            target=a1r_certificate,
            original="+ size * math.exp(-3 * epsilon * m * accuracy / 40)",
            replacement="+ size * math.exp(-3 * m * accuracy / 20)",
            bug="A1r's certificate with L565's printed exponent (α and ½ dropped)",
        ),
        kind="certificate",
    ),
)
