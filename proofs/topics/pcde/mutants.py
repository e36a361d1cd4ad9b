"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="pcde.histogram-at-2eps",
        file="impl/learners/pcde.py",
        original="bins=None, epsilon=eps, delta=self.delta",
        replacement="bins=None, epsilon=2 * eps, delta=self.delta",
        description=(
            "PCDE's histogram runs at 2eps for the eps the caller passed (privacy_ then says 2eps)"
        ),
        kind="claim",
    ),
    Mutant(
        id="pcde.delta-inflated",
        file="impl/learners/pcde.py",
        original="delta=self.delta, idealised",
        replacement="delta=min(0.5, 100 * self.delta), idealised",
        description="PCDE's histogram runs at 100 delta for the delta the caller passed",
        kind="claim",
    ),
    Mutant(
        id="pcde.side-from-data",
        file="impl/learners/pcde.py",
        original="side = self._side(n, d)",
        replacement="side = self._side(n, d) * (1.0 + float(np.ptp(X)))",
        description="PCDE's cube side depends on the spread of the data (data-dependent grid)",
        kind="public",
    ),
    Mutant(
        id="pcde.reported-eps-halved",
        file="impl/learners/pcde.py",
        original="self.privacy_ = histogram.privacy",
        replacement=(
            "self.privacy_ = type(histogram.privacy)(histogram.privacy.epsilon / 2, "
            "histogram.privacy.ratio**0.5, histogram.privacy.delta, "
            "histogram.privacy.exact_sampler)"
        ),
        description="PCDE privacy_ says eps/2",
        kind="reported",
    ),
)
