"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="pcl2b.composition-eps",
        file="impl/learners/pcl2.py",
        original="epsilon=2 * level.epsilon,",
        replacement="epsilon=level.epsilon,",
        description="PCL2b privacy_ states eps for two eps-DP releases (should be 2eps)",
        kind="composition",
    ),
    Mutant(
        id="pcl2b.composition-ratio",
        file="impl/learners/pcl2.py",
        original="ratio=level.ratio**2,",
        replacement="ratio=level.ratio,",
        description="PCL2b privacy_ ratio e^eps instead of e^(2eps)",
        kind="composition",
    ),
    Mutant(
        id="pcl2b.composition-delta",
        file="impl/learners/pcl2.py",
        original="delta=2 * level.delta,",
        replacement="delta=level.delta,",
        description="PCL2b privacy_ states delta for two delta releases (should be 2delta)",
        kind="composition",
    ),
    Mutant(
        id="pcl2b.shared-noise",
        file="impl/learners/pcl2.py",
        original="y_hat = hist.release_counts(ones, rng)",
        replacement=(
            "y_hat = hist.release_counts(ones, np.random.default_rng(model_key(self.random_state)))"
        ),
        description=(
            "PCL2b's two histograms reuse one noise draw: c_hat - y_hat reveals the label-0 count"
        ),
        kind="reuse",
    ),
    Mutant(
        id="pcl2b.histogram-at-2eps",
        file="impl/learners/pcl2.py",
        original="return StabilityHistogram(None, epsilon, delta, base=base)",
        replacement=(
            "return StabilityHistogram(None, None if epsilon is None else 2 * epsilon, delta, "
            "base=base)"
        ),
        description=(
            "PCL2b's histograms run at 2eps for the eps the caller passed (privacy_ follows)"
        ),
        kind="claim",
    ),
    Mutant(
        id="pcl2b.grid-from-labels",
        file="impl/learners/pcl2.py",
        original="lattice = self._lattice(*X.shape)",
        replacement="lattice = self._lattice(X.shape[0] + int(labels.sum()), X.shape[1])",
        description=(
            "PCL2b's cube side depends on the number of positive labels (data-dependent grid)"
        ),
        kind="public",
    ),
    Mutant(
        id="pcl2.packing-from-sample",
        file="impl/learners/pcl2.py",
        original="lattice, centres, r, cells = self._partition(n, d)\n        inner_m",
        replacement=(
            "lattice, centres, r, cells = (self._partition(n, d) if self.candidates is None else "
            "PrivatePackingClassifier(candidates=X, radius=self.radius)._partition(n, d))\n       "
            " inner_m"
        ),
        description=(
            "PCL2.fit builds its packing from the training sample instead of the public candidates"
        ),
        kind="public",
    ),
    Mutant(
        id="pcl2.reported-eps-halved",
        file="impl/learners/pcl2.py",
        original="self.privacy_: PrivacyLevel = inner.privacy_",
        replacement=(
            "self.privacy_: PrivacyLevel = PrivacyLevel(inner.privacy_.epsilon / 2, "
            "inner.privacy_.ratio**0.5, 0, inner.privacy_.exact_sampler)"
        ),
        description="PCL2 privacy_ says eps/2",
        kind="reported",
    ),
)
