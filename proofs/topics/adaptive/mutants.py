"""Bugs ``dpspec mutate`` plants in the ch. 7 code (``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="adaptive.tight-example-psi-doubled",
        file="impl/adaptive/measures.py",
        original="rng.random((size, n)) < psi",
        replacement="rng.random((size, n)) < 2 * psi",
        description="the tight example's sampler copies x* with probability 2ψ (sampler ≠ law)",
        kind="sampler",
    ),
    Mutant(
        id="adaptive.rounding-off-midpoint",
        file="impl/adaptive/game.py",
        original="return (2 * j + 1) * self.alpha",
        replacement="return (2 * j + 2) * self.alpha",
        description="the rounding mechanism answers the cell's upper end: error up to 2α",
        kind="law",
    ),
    Mutant(
        id="adaptive.rounding-cells-too-wide",
        file="impl/adaptive/game.py",
        original="j = min(int(value / (2 * self.alpha)), self.cells - 1)",
        replacement="j = min(int(value / (4 * self.alpha)), self.cells - 1)",
        description="the rounding grid has cells of width 4α: error up to 3α",
        kind="law",
    ),
    Mutant(
        id="adaptive.deviating-picks-an-unreleased-cell",
        file="impl/adaptive/deviating.py",
        original="return np.where(released.max(axis=1) > 0, choice, NOTHING)",
        replacement="return choice",
        description=(
            "Algorithm 10 returns cell 0 when nothing was released (sampler ≠ law: h ≡ 0 is lost)"
        ),
        kind="law",
    ),
    Mutant(
        id="adaptive.deviating-histogram-at-4-delta",
        file="impl/adaptive/deviating.py",
        original="StabilityHistogram(bins, epsilon, delta, base=base, idealised=idealised)",
        replacement="StabilityHistogram(bins, epsilon, 4 * delta, base=base, idealised=idealised)",
        description=(
            "Algorithm 10 runs its histogram at 4δ (Thm 7.1.4's δ/4 read the wrong way): the "
            "threshold drops from 5 to 3 and the caller's δ is violated"
        ),
        kind="claim",
    ),
    Mutant(
        id="adaptive.predicate-mechanism-full-epsilon-weights",
        file="impl/adaptive/deviating.py",
        original="self.prior[h] / self.base ** sum(c for v, c in zip(h, counts, strict=True) if v)",
        replacement=(
            "self.prior[h] / self.base ** (2 * sum(c for v, c in zip(h, counts, strict=True) if v))"
        ),
        description=(
            "Lemma 7.1.1's exponential mechanism uses weights exp(εn·score) instead of "
            "exp((εn/2)·score): 2ε-DP while ε is claimed"
        ),
        kind="half",
    ),
)
