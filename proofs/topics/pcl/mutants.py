"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="pcl.bits-noise-halved",
        edit=Edit(
            target="dpspec.learners.pcl.PrivateHistogramClassifier._noise",
            original="return self.noise_law_.sample(size, g)",
            replacement="return self.noise_law_.sample(size, g) // 2",
            bug=(
                "PCL._noise halves the discrete noise fit adds (the law release_law states is kept)"
            ),
        ),
        kind="noise",
    ),
    Mutant(
        id="pcl.sensitivity-one",
        edit=Edit(
            target="dpspec.learners.pcl._exact_noise",
            original="return discrete_laplace_for(Fraction(2), epsilon, None)",
            replacement="return discrete_laplace_for(Fraction(1), epsilon, None)",
            bug=(
                "PCL calibrates its noise to sensitivity 1 for the integer margins of sensitivity 2"
            ),
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="pcl.margins-doubled",
        edit=Edit(
            target="dpspec.learners.pcl.PrivateHistogramClassifier._margins",
            original="return cells, ones[cells] - zeros[cells]",
            replacement="return cells, 2 * (ones[cells] - zeros[cells])",
            bug="PCL.fit (dense path) doubles the margins before adding noise: 2eps",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="pcl.laplace-scale-halved",
        edit=Edit(
            target="dpspec.learners.pcl.PrivateHistogramClassifier._noise",
            original="return g.laplace(0.0, self._laplace_scale(), size)",
            replacement="return g.laplace(0.0, 0.5 * self._laplace_scale(), size)",
            bug="PCL idealised=True draws Lap(1/(2eps)) instead of Lap(1/eps)",
        ),
        kind="noise",
    ),
    Mutant(
        id="pcl.reported-eps-halved",
        edit=Edit(
            target="dpspec.learners.pcl.PrivateHistogramClassifier._noise_law",
            original="return _exact_noise(eps)",
            replacement=(
                "law, level = _exact_noise(eps)\n        return law, PrivacyLevel(level.epsilon / "
                "2, "
                "level.ratio**0.5, 0, exact_sampler=True)"
            ),
            bug="PCL privacy_ says eps/2 for the eps the caller passed",
        ),
        kind="reported",
    ),
    Mutant(
        id="pcl.grid-from-labels",
        edit=Edit(
            target="dpspec.learners.pcl.PrivateHistogramClassifier._setup",
            original="self.m_ = _cells_per_axis_for(n, d) if",
            replacement="self.m_ = _cells_per_axis_for(n + int(labels.sum()), d) if",
            bug=(
                "PCL's grid depends on the number of positive labels (a data-dependent public grid)"
            ),
        ),
        kind="public",
    ),
    Mutant(
        id="keyed.same-draw-in-block",
        edit=Edit(
            target="dpspec.learners._keyed_noise.keyed_values",
            original="out[mask] = values[cells[mask] % BLOCK]",
            replacement="out[mask] = values[0]",
            bug="every cell of a block reuses one noise draw (cells' noises not independent)",
        ),
        kind="reuse",
    ),
    Mutant(
        id="keyed.blocks-share-stream",
        edit=Edit(
            target="dpspec.learners._keyed_noise.block_generator",
            original="counter = [0, 0, block & (2**64 - 1), block >> 64]",
            replacement="counter = [0, 0, 0, 0]",
            bug=(
                "every block of 1024 cells replays the same Philox stream (cell c and c+1024 share "
                "noise)"
            ),
        ),
        kind="reuse",
    ),
    Mutant(
        id="pcl.sparse-margins-doubled",
        edit=Edit(
            target="dpspec.learners.pcl.PrivateHistogramClassifier._margins",
            original="return cells, np.bincount(inverse, weights=2 * labels - 1)",
            replacement="return cells, np.bincount(inverse, weights=4 * labels - 2)",
            bug="PCL.fit's sparse path (m^d > 4n cubes) doubles the margins: 2eps",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="pcl.noise-for-1.25eps",
        edit=Edit(
            target="dpspec.learners.pcl.PrivateHistogramClassifier._noise_law",
            original="eps = float(self.epsilon)  # a Fraction",
            replacement="eps = 1.25 * float(self.epsilon)  # a Fraction",
            bug="PCL.fit (and its law) draws noise for 1.25 eps (privacy_ follows it)",
        ),
        kind="noise",
    ),
    Mutant(
        id="pcl.strict-vote-dropped",
        edit=Edit(
            target="dpspec.learners.pcl.PrivateHistogramClassifier._decide",
            original="return np.asarray(margins + noise > 0)",
            replacement="return np.asarray(margins + noise >= 0)",
            bug="h = 1[m + Z >= 0] in fit: a tie goes to 1 (Alg 2: Σy + w > |C|/2)",
        ),
        kind="law",
    ),
    Mutant(
        id="pcl.empty-cubes-noiseless",
        edit=Edit(
            target=PrivateHistogramClassifier.decision_cells,
            original=(
                "bits[~found] = self._bits(empty, np.zeros(empty.size, dtype=np.int64))[inverse]"
            ),
            replacement="bits[~found] = False",
            bug="empty cubes predict 0 without noise (looked-up grids)",
        ),
        kind="noise",
    ),
    Mutant(
        id="keyed.noise-by-query-rank",
        edit=Edit(
            target="dpspec.learners._keyed_noise.keyed_values",
            original="out[mask] = values[cells[mask] % BLOCK]",
            replacement="out[mask] = values[np.arange(stop - start) % BLOCK]",
            bug="a cube's noise indexed by its rank in the query (predict is not one function)",
        ),
        kind="reuse",
    ),
    Mutant(
        id="pcl.predict-other-end",
        edit=Edit(
            target=PrivateHistogramClassifier.predict,
            original="return np.asarray(self.dense_classes_[_cube_keys(X, self.m_,",
            replacement=(
                "return np.asarray(self.dense_classes_[_cube_keys(np.nextafter(X, 0), self.m_,"
            ),
            bug="predict reads cubes (k/m, (k+1)/m] while fit counts [k/m, (k+1)/m)",
        ),
        kind="utility",
    ),
    Mutant(
        id="pcl.one-label-encoded-as-itself",
        edit=Edit(
            target="dpspec.learners.estimator._encoded_labels",
            original="if classes[0] in (0, 1):",
            replacement="if classes[0] == 0:",
            bug=(
                "a sample of ones encoded as classes (1, 1): predict releases 1 whatever the noise "
                "(eps = inf against the neighbour with one label flipped)"
            ),
        ),
        kind="claim",
    ),
)
