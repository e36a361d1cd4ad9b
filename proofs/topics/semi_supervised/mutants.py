"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.learners.semi_supervised import PrivateSemiSupervisedClassifier
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="ssl.fit-half-false",
        edit=Edit(
            target=PrivateSemiSupervisedClassifier.fit,
            original="half=mech.half,",
            replacement="half=False,",
            bug=(
                "PrivateSemiSupervisedClassifier.fit selects with half=False (the thesis's printed "
                "form)"
            ),
        ),
        kind="half",
    ),
    Mutant(
        id="ssl.scores-doubled",
        edit=Edit(
            target=PrivateSemiSupervisedClassifier.fit,
            original="scores = mech.score_vector(np.column_stack([X, labels]))",
            replacement="scores = 2 * mech.score_vector(np.column_stack([X, labels]))",
            bug=(
                "fit selects on 2x the mistake score (sensitivity 2 with Delta = 1 assumed): "
                "2eps_label"
            ),
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="ssl.label-law-at-half-eps",
        edit=Edit(
            target="dpspec.learners.semi_supervised.PrivateSemiSupervisedClassifier._selection",
            original="return ExponentialMechanism(scores, 1, epsilon=self.label_epsilon)",
            replacement="return ExponentialMechanism(scores, 1, epsilon=self.label_epsilon / 2)",
            bug=(
                "selection law (and its level in privacy_) at eps_label/2 while fit draws at "
                "eps_label"
            ),
        ),
        kind="reported",
    ),
)
