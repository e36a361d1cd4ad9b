"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.learners.pcl2 import (
    PrivatePackingClassifier,
    PrivateUnboundedClassifier,
    release_histogram,
)
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="pcl2b.composition-eps",
        edit=Edit(
            target=PrivateUnboundedClassifier.fit,
            original="epsilon=2 * level.epsilon,",
            replacement="epsilon=level.epsilon,",
            bug="PCL2b privacy_ states eps for two eps-DP releases (should be 2eps)",
        ),
        kind="composition",
    ),
    Mutant(
        id="pcl2b.composition-ratio",
        edit=Edit(
            target=PrivateUnboundedClassifier.fit,
            original="ratio=level.ratio**2,",
            replacement="ratio=level.ratio,",
            bug="PCL2b privacy_ ratio e^eps instead of e^(2eps)",
        ),
        kind="composition",
    ),
    Mutant(
        id="pcl2b.composition-delta",
        edit=Edit(
            target=PrivateUnboundedClassifier.fit,
            original="delta=2 * level.delta,",
            replacement="delta=level.delta,",
            bug="PCL2b privacy_ states delta for two delta releases (should be 2delta)",
        ),
        kind="composition",
    ),
    Mutant(
        id="pcl2b.shared-noise",
        edit=Edit(
            target=PrivateUnboundedClassifier.fit,
            original="y_hat = hist.release_counts(ones, rng)",
            replacement=(
                "y_hat = hist.release_counts(ones, np.random.default_rng("
                "_model_key(self.random_state)))"
            ),
            bug=(
                "PCL2b's two histograms reuse one noise draw: c_hat - y_hat reveals the label-0 "
                "count"
            ),
        ),
        kind="reuse",
    ),
    Mutant(
        id="pcl2b.histogram-at-2eps",
        edit=Edit(
            target=release_histogram,
            original="return StabilityHistogram(None, epsilon, delta, base=base)",
            replacement=(
                "return StabilityHistogram(None, None if epsilon is None else 2 * epsilon, delta, "
                "base=base)"
            ),
            bug="PCL2b's histograms run at 2eps for the eps the caller passed (privacy_ follows)",
        ),
        kind="claim",
    ),
    Mutant(
        id="pcl2b.grid-from-labels",
        edit=Edit(
            target=PrivateUnboundedClassifier.fit,
            original="lattice = self._lattice(*X.shape)",
            replacement="lattice = self._lattice(X.shape[0] + int(labels.sum()), X.shape[1])",
            bug="PCL2b's cube side depends on the number of positive labels (data-dependent grid)",
        ),
        kind="public",
    ),
    Mutant(
        id="pcl2.packing-from-sample",
        edit=Edit(
            target=PrivatePackingClassifier.fit,
            original="lattice, centres, r, cells = self._partition(n, d)\n        inner_m",
            replacement=(
                "lattice, centres, r, cells = (self._partition(n, d) if self.candidates is None "
                "else "
                "PrivatePackingClassifier(candidates=X, radius=self.radius)._partition(n, d))\n    "
                "   "
                " inner_m"
            ),
            bug=(
                "PCL2.fit builds its packing from the training sample instead of the public "
                "candidates"
            ),
        ),
        kind="public",
    ),
    Mutant(
        id="pcl2.reported-eps-halved",
        edit=Edit(
            target=PrivatePackingClassifier.fit,
            original="self.privacy_: PrivacyLevel = inner.privacy_",
            replacement=(
                "self.privacy_: PrivacyLevel = PrivacyLevel(inner.privacy_.epsilon / 2, "
                "inner.privacy_.ratio**0.5, 0, inner.privacy_.exact_sampler)"
            ),
            bug="PCL2 privacy_ says eps/2",
        ),
        kind="reported",
    ),
)
