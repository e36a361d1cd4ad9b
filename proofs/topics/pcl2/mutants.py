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
            "y_hat = hist.release_counts(ones, np.random.default_rng("
            "_model_key(self.random_state)))"
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
    Mutant(
        id="pcl2b.histograms-at-2delta",
        file="impl/learners/pcl2.py",
        original="return release_histogram(self.epsilon, self.delta, self.idealised)",
        replacement="return release_histogram(self.epsilon, 2 * self.delta, self.idealised)",
        description="PCL2b runs each histogram at 2delta (the total 2delta given to each)",
        kind="composition",
    ),
    Mutant(
        id="pcl2.inner-at-1.25eps",
        file="impl/learners/pcl2.py",
        original="self.epsilon, self.idealised, cells_per_axis=k_or_m",
        replacement="1.25 * float(self.epsilon), self.idealised, cells_per_axis=k_or_m",
        description="PCL2's cell votes noised for 1.25 eps (privacy_ follows the inner PCL)",
        kind="noise",
    ),
    Mutant(
        id="pcl2b.predict-other-end",
        file="impl/learners/pcl2.py",
        original="query = _row_keys(self.lattice_.cell_coords(X))",
        replacement="query = _row_keys(self.lattice_.cell_coords(np.nextafter(X, -np.inf)))",
        description="PCL2b's predict reads cubes (k r, (k+1) r] while fit counts [k r, (k+1) r)",
        kind="utility",
    ),
    Mutant(
        id="packing.greedy-drops-ties",
        file="impl/learners/packing.py",
        original="remaining = rest[inner[i, rest] >= radius]",
        replacement="remaining = rest[inner[i, rest] > radius]",
        description="greedy packing drops a candidate at distance exactly r (not maximal)",
        kind="public",
    ),
)
