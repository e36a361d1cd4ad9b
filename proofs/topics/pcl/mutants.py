"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="pcl.bits-noise-halved",
        file="impl/learners/pcl.py",
        original="return self.noise_law_.sample(size, g)",
        replacement="return self.noise_law_.sample(size, g) // 2",
        description=(
            "PCL._noise halves the discrete noise fit adds (the law release_law states is kept)"
        ),
        kind="noise",
    ),
    Mutant(
        id="pcl.sensitivity-one",
        file="impl/learners/pcl.py",
        original="law, level = discrete_laplace_for(Fraction(2), eps, None)",
        replacement="law, level = discrete_laplace_for(Fraction(1), eps, None)",
        description=(
            "PCL calibrates its noise to sensitivity 1 for the integer margins of sensitivity 2"
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="pcl.margins-doubled",
        file="impl/learners/pcl.py",
        original="return cells, ones[cells] - zeros[cells]",
        replacement="return cells, 2 * (ones[cells] - zeros[cells])",
        description="PCL.fit (dense path) doubles the margins before adding noise: 2eps",
        kind="sensitivity",
    ),
    Mutant(
        id="pcl.laplace-scale-halved",
        file="impl/learners/pcl.py",
        original="return g.laplace(0.0, 1.0 / float(self.epsilon), size)",
        replacement="return g.laplace(0.0, 0.5 / float(self.epsilon), size)",
        description="PCL noise='laplace' draws Lap(1/(2eps)) instead of Lap(1/eps)",
        kind="noise",
    ),
    Mutant(
        id="pcl.reported-eps-halved",
        file="impl/learners/pcl.py",
        original="return law, level",
        replacement=(
            "return law, PrivacyLevel(level.epsilon / 2, level.ratio**0.5, 0, exact_sampler=True)"
        ),
        description="PCL privacy_ says eps/2 for the eps the caller passed",
        kind="reported",
    ),
    Mutant(
        id="pcl.grid-from-labels",
        file="impl/learners/pcl.py",
        original="            cells_per_axis_for(n, d)\n            if self.cells_per_axis is None",
        replacement=(
            "            cells_per_axis_for(n + int(labels.sum()), d)\n            if "
            "self.cells_per_axis is None"
        ),
        description=(
            "PCL's grid depends on the number of positive labels (a data-dependent public grid)"
        ),
        kind="public",
    ),
    Mutant(
        id="keyed.same-draw-in-block",
        file="impl/learners/keyed_noise.py",
        original="out[mask] = values[cells[mask] % BLOCK]",
        replacement="out[mask] = values[0]",
        description="every cell of a block reuses one noise draw (cells' noises not independent)",
        kind="reuse",
    ),
    Mutant(
        id="keyed.blocks-share-stream",
        file="impl/learners/keyed_noise.py",
        original="counter = [0, 0, block & (2**64 - 1), block >> 64]",
        replacement="counter = [0, 0, 0, 0]",
        description=(
            "every block of 1024 cells replays the same Philox stream (cell c and c+1024 share "
            "noise)"
        ),
        kind="reuse",
    ),
    Mutant(
        id="pcl.sparse-margins-doubled",
        file="impl/learners/pcl.py",
        original="return cells, np.bincount(inverse, weights=2 * labels - 1)",
        replacement="return cells, np.bincount(inverse, weights=4 * labels - 2)",
        description="PCL.fit's sparse path (m^d > 4n cubes) doubles the margins: 2eps",
        kind="sensitivity",
    ),
)
