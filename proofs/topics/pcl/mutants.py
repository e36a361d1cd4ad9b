"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

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
)
