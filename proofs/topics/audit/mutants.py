"""Bugs ``dpspec mutate`` plants in the auditor (``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.audit.learners import LearnerMechanism
from dpspec.audit.one_run import one_run_audit
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="audit.repeated-fits-reuse-noise",
        edit=Edit(
            target=PrivateHistogramClassifier.repeated_predictions,
            original=(
                "noise = self._noise(repetitions * probed.size, rng).reshape(repetitions, "
                "probed.size)"
            ),
            replacement=(
                "noise = np.repeat(self._noise(probed.size, rng)[None, :], repetitions, axis=0)"
            ),
            bug=(
                "PCL's vectorised repeated fits reuse one noise draw for every repetition (the "
                "auditor would see one fit, not many)"
            ),
        ),
        kind="reuse",
    ),
    Mutant(
        id="audit.learner-fits-share-a-seed",
        edit=Edit(
            target=LearnerMechanism.sample,
            original="seeds = rng.integers(0, 2**62, size=n)",
            replacement="seeds = np.full(n, int(rng.integers(0, 2**62)))",
            bug=(
                "every fit of a learner audit gets the same random_state: the draws are not "
                "independent and a correct learner looks deterministic"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="audit.learner-shortcut-for-subclasses",
        edit=Edit(
            target=LearnerMechanism.sample,
            original="if estimator is not None and _shortcut_of(estimator) is not None:",
            replacement='if estimator is not None and hasattr(estimator, "repeated_predictions"):',
            bug=(
                "the learner auditor samples any estimator that has repeated_predictions through "
                "it "
                "(0.2's rule): a PCL subclass whose predict leaks a training label is audited "
                "through PCL's shortcut and called private"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="audit.checkpoint-keyed-by-name",
        edit=Edit(
            target="dpspec.audit._checkpoint.AuditIdentity.of",
            original="target_sha256=fingerprint(target),",
            replacement="target_sha256=fingerprint(_target_name(target)),",
            bug=(
                "a checkpoint identifies its target by name only (0.2's rule): an audit of another "
                "function with the same name resumes it and reports the first target's counts"
            ),
        ),
        kind="claim",
    ),
    Mutant(
        id="audit.one-run-ties-see-the-coins",
        edit=Edit(
            target=one_run_audit,
            original="order = np.lexsort((rng.permutation(m), scores))",
            replacement="order = np.lexsort((included, scores))",
            bug=(
                "one-run guesses break score ties by the inclusion coins themselves: the guesses "
                "see S, the binomial bound no longer applies"
            ),
        ),
        kind="claim",
    ),
)
