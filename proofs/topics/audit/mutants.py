"""Bugs ``dpspec mutate`` plants in the auditor (``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.accounting.pld import pure_epsilon
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
    Mutant(
        id="audit.resolution-at-half-power",
        edit=Edit(
            target="dpspec.audit.power._resolution",
            original="return _power(n, p1, weights, need) - power",
            replacement="return _power(n, p1, weights, need) - power / 1.8",
            bug=(
                "the stated resolution solved at detection probability 0.5 instead of 0.9: every "
                "pass claims to see violations it catches half the time"
            ),
        ),
        kind="power",
    ),
    Mutant(
        id="audit.delta-resolution-at-half-power",
        edit=Edit(
            target="dpspec.audit.power._delta_resolution",
            original="return float(special.betaincinv(lo, n - lo + 1, power))",
            replacement="return float(special.betaincinv(lo, n - lo + 1, power / 1.8))",
            bug="the stated delta resolution solved at detection probability 0.5",
        ),
        kind="power",
    ),
    Mutant(
        id="audit.beyond-range-events-dropped",
        edit=Edit(
            target="dpspec.audit._selection._families",
            original="if delta > 0:",
            replacement="if delta < 0:",
            bug=(
                "(eps, delta) audits without the events beyond the other side's range: a truncated "
                "Laplace leaking 10x delta passes"
            ),
        ),
        kind="power",
    ),
    Mutant(
        id="audit.unresolved-delta-consistent",
        edit=Edit(
            target="dpspec.audit.loop._bracket",
            original="and delta_resolved(result.delta, result.delta_resolution, DELTA_MARGIN)",
            replacement="or delta_resolved(result.delta, result.delta_resolution, DELTA_MARGIN)",
            bug="an (eps, delta) claim whose delta the budget cannot resolve called consistent",
        ),
        kind="claim",
    ),
    Mutant(
        id="audit.replay-laplace-loss-halved",
        edit=Edit(
            target=pure_epsilon,
            original="""    if family in ("laplace", "logistic"):
        return abs(shift)""",
            replacement="""    if family in ("laplace", "logistic"):
        return abs(shift) / 2""",
            bug=(
                "the replay's Laplace loss per draw halved (|t|/2 for a shift t): the upper bound "
                "of the bracket below the true epsilon"
            ),
        ),
        kind="claim",
    ),
    Mutant(
        id="audit.freshness-never-compared",
        edit=Edit(
            target="dpspec.audit._freshness.probe",
            original="sides.append((first, first == second, _collisions(first) <= MAX_COLLISION))",
            replacement="sides.append((first, False, _collisions(first) <= MAX_COLLISION))",
            bug=(
                "the freshness probe never compares two Generators' releases: a target with a "
                "fixed internal seed passes"
            ),
        ),
        kind="claim",
    ),
)
