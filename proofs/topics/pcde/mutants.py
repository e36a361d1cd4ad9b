"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.learners.pcde import PrivateHistogramDensity
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="pcde.histogram-at-2eps",
        edit=Edit(
            target="dpspec.learners.pcde.PrivateHistogramDensity._histogram",
            original="bins=None, epsilon=float(self.epsilon), delta=self.delta",
            replacement="bins=None, epsilon=2 * float(self.epsilon), delta=self.delta",
            bug=(
                "PCDE's histogram runs at 2eps for the eps the caller passed (privacy_ then says "
                "2eps)"
            ),
        ),
        kind="claim",
    ),
    Mutant(
        id="pcde.delta-inflated",
        edit=Edit(
            target="dpspec.learners.pcde.PrivateHistogramDensity._histogram",
            original="delta=self.delta, idealised",
            replacement="delta=min(0.5, 100 * self.delta), idealised",
            bug="PCDE's histogram runs at 100 delta for the delta the caller passed",
        ),
        kind="claim",
    ),
    Mutant(
        id="pcde.side-from-data",
        edit=Edit(
            target="dpspec.learners.pcde.PrivateHistogramDensity._fit",
            original="side = self._side(n, d)",
            replacement="side = self._side(n, d) * (1.0 + float(np.ptp(X)))",
            bug="PCDE's cube side depends on the spread of the data (data-dependent grid)",
        ),
        kind="public",
    ),
    Mutant(
        id="pcde.reported-eps-halved",
        edit=Edit(
            target="dpspec.learners.pcde.PrivateHistogramDensity._fit",
            original="self.privacy_ = histogram.privacy",
            replacement=(
                "self.privacy_ = type(histogram.privacy)(histogram.privacy.epsilon / 2, "
                "histogram.privacy.ratio**0.5, histogram.privacy.delta, "
                "histogram.privacy.exact_sampler)"
            ),
            bug="PCDE privacy_ says eps/2",
        ),
        kind="reported",
    ),
    Mutant(
        id="pcde.histogram-at-1.25eps",
        edit=Edit(
            target="dpspec.learners.pcde.PrivateHistogramDensity._histogram",
            original="bins=None, epsilon=float(self.epsilon), delta=self.delta",
            replacement="bins=None, epsilon=1.25 * float(self.epsilon), delta=self.delta",
            bug="PCDE's histogram noised for 1.25 eps (privacy_ follows it)",
        ),
        kind="noise",
    ),
    Mutant(
        id="pcde.delta-doubled",
        edit=Edit(
            target="dpspec.learners.pcde.PrivateHistogramDensity._histogram",
            original="delta=self.delta, idealised",
            replacement="delta=2 * self.delta, idealised",
            bug="PCDE's histogram run at 2 delta (the threshold one step low)",
        ),
        kind="claim",
    ),
    Mutant(
        id="pcde.side-exponent",
        edit=Edit(
            target="dpspec.learners.pcde._side_for",
            original="return float(n ** (-1.0 / (2 * d)))",
            replacement="return float(n ** (-1.0 / d))",
            bug="cube side n^(-1/d): n r^d = 1, not consistent (Thm 4.3 needs n r^d -> inf)",
        ),
        kind="utility",
    ),
    Mutant(
        id="pcde.pdf-other-end",
        edit=Edit(
            target=PrivateHistogramDensity.pdf,
            original="idx = _match_rows(self.released_cells_, _cube_ids(X, self.side_))",
            replacement=(
                "idx = _match_rows(self.released_cells_, _cube_ids(np.nextafter(X, -np.inf), "
                "self.side_))"
            ),
            bug="pdf reads cubes (k r, (k+1) r] while fit counts [k r, (k+1) r)",
        ),
        kind="utility",
    ),
    Mutant(
        id="pcde.volume-missing",
        edit=Edit(
            target="dpspec.learners.pcde.PrivateHistogramDensity._fit",
            original="self.density_values_ = self.released_counts_ / (mass * side**d)",
            replacement="self.density_values_ = self.released_counts_ / (mass * side)",
            bug="f̂ normalised by r instead of r^d (not a density for d > 1)",
        ),
        kind="utility",
    ),
)
