"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.learners.semi_supervised import PrivateSemiSupervisedClassifier, exponential_choice
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="ssl.selection-half-dropped",
        edit=Edit(
            target=exponential_choice,
            original="denominator = eps.denominator * (2 if half else 1) * sensitivity",
            replacement="denominator = eps.denominator * sensitivity",
            bug=(
                "exponential_choice (the selection in PrivateSemiSupervisedClassifier.fit) drops "
                "the "
                "1/2"
            ),
        ),
        kind="half",
    ),
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
    Mutant(
        id="ssl.selection-at-1.25eps",
        edit=Edit(
            target="dpspec.learners.semi_supervised.PrivateSemiSupervisedClassifier._selection",
            original="return ExponentialMechanism(scores, 1, epsilon=self.label_epsilon)",
            replacement="return ExponentialMechanism(scores, 1, epsilon=1.25 * self.label_epsilon)",
            bug="the selection (and its law, and privacy_) at 1.25 eps_label",
        ),
        kind="noise",
    ),
    Mutant(
        id="ssl.predict-open-lower-end",
        edit=Edit(
            target=PrivateSemiSupervisedClassifier.decision,
            original="inside = np.all((pts >= self.lower_) & (pts <= self.upper_), axis=1)",
            replacement="inside = np.all((pts > self.lower_) & (pts <= self.upper_), axis=1)",
            bug="predict with an open lower end where the selection's score counts it closed",
        ),
        kind="utility",
    ),
    Mutant(
        id="ssl.slots-ties-lost",
        edit=Edit(
            target="dpspec.learners.semi_supervised._slots",
            original='right = np.searchsorted(coords, values, side="right")',
            replacement='right = np.searchsorted(coords, values, side="left")',
            bug="a labeled point on a synthetic coordinate scored as between coordinates",
        ),
        kind="utility",
    ),
)
