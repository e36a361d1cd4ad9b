"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

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
)
