"""Bugs ``dpspec mutate`` plants in the ch. 7 code (``proofs/notes/mutation.md``); each is a
control some adaptive obligation reports, and ``dpspec verify`` must kill it."""

from __future__ import annotations

from dpspec.adaptive.deviating import DeviatingAlgorithm
from dpspec.adaptive.game import LaplaceAnswers, RoundingAnswers
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="adaptive.rounding-off-midpoint",
        edit=Edit(
            target=RoundingAnswers.answer,
            original="return (2 * j + 1) * self.alpha",
            replacement="return (2 * j + 2) * self.alpha",
            bug="the rounding mechanism answers the cell's upper end: error up to 2α",
        ),
        kind="law",
    ),
    Mutant(
        id="adaptive.rounding-cells-too-wide",
        edit=Edit(
            target=RoundingAnswers.answer,
            original="j = min(int(value / (2 * self.alpha)), self.cells - 1)",
            replacement="j = min(int(value / (4 * self.alpha)), self.cells - 1)",
            bug="the rounding grid has cells of width 4α: error up to 3α",
        ),
        kind="law",
    ),
    Mutant(
        id="adaptive.laplace-budget-over-k-minus-1",
        edit=Edit(
            target="dpspec.adaptive.game._composition_plan",
            original="basic = Fraction(epsilon) / k",
            replacement="basic = Fraction(epsilon) / max(1, k - 1)",
            bug=(
                "LaplaceAnswers splits ε over k − 1 answers (a composition count off by one): "
                "kε/(k − 1) delivered"
            ),
        ),
        kind="claim",
    ),
    Mutant(
        id="adaptive.laplace-noise-for-1.25-epsilon",
        edit=Edit(
            target="dpspec.adaptive.game._composition_plan",
            original='scale = coarsen_up(rational_at_least(1 / step, "epsilon"))',
            replacement='scale = coarsen_up(rational_at_least(4 / (5 * step), "epsilon"))',
            bug="LaplaceAnswers draws its noise for ε × 1.25",
        ),
        kind="half",
    ),
    Mutant(
        id="adaptive.laplace-idealised-half-scale",
        edit=Edit(
            target=LaplaceAnswers.answer,
            original="noisy: float = count + float(rng.laplace(0.0, float(self.scale)))",
            replacement="noisy: float = count + float(rng.laplace(0.0, float(self.scale) / 2))",
            bug="the idealised LaplaceAnswers draws Lap(scale/2): 2ε delivered (sampler ≠ law)",
        ),
        kind="sampler",
    ),
    Mutant(
        id="adaptive.laplace-clipped-tail-off-by-one",
        edit=Edit(
            target=LaplaceAnswers.answer_pmf,
            original="law[0.0] = float(discrete_laplace_sf(c, q))",
            replacement="law[0.0] = float(discrete_laplace_sf(c + 1, q))",
            bug="LaplaceAnswers.answer_pmf puts P(Z ≥ c + 1) on the clipped answer 0",
        ),
        kind="law",
    ),
    Mutant(
        id="adaptive.deviating-picks-an-unreleased-cell",
        edit=Edit(
            target=DeviatingAlgorithm.sample,
            original="return np.where(released.max(axis=1) > 0, choice, NOTHING)",
            replacement="return choice",
            bug=(
                "Algorithm 10 returns cell 0 when nothing was released (sampler ≠ law: h ≡ 0 is "
                "lost)"
            ),
        ),
        kind="law",
    ),
    Mutant(
        id="adaptive.deviating-histogram-at-4-delta",
        edit=Edit(
            target=DeviatingAlgorithm.__init__,
            original="StabilityHistogram(bins, epsilon, delta, base=base, idealised=idealised)",
            replacement=(
                "StabilityHistogram(bins, epsilon, 4 * delta, base=base, idealised=idealised)"
            ),
            bug=(
                "Algorithm 10 runs its histogram at 4δ (Thm 7.1.4's δ/4 read the wrong way): the "
                "threshold drops from 5 to 3 and the caller's δ is violated"
            ),
        ),
        kind="claim",
    ),
    Mutant(
        id="adaptive.deviating-pmf-ties-reversed",
        edit=Edit(
            target="dpspec.adaptive.deviating.DeviatingAlgorithm._discrete_law",
            original="q ** (-int(counts[y]) + (1 if y > x else 0)) / (1 + q)",
            replacement="q ** (-int(counts[y]) + (1 if y < x else 0)) / (1 + q)",
            bug="Algorithm 10's pmf breaks ties of large released counts the other way",
        ),
        kind="law",
    ),
    Mutant(
        id="adaptive.predicate-mechanism-full-epsilon-weights",
        edit=Edit(
            target="dpspec.adaptive.deviating.PredicateMechanism._law",
            original=(
                "self.prior[h] / self.base ** sum(c for v, c in zip(h, counts, strict=True) if v)"
            ),
            replacement=(
                "self.prior[h] / self.base ** (2 * sum(c for v, c in zip(h, counts, strict=True) "
                "if v))"
            ),
            bug=(
                "Lemma 7.1.1's exponential mechanism uses weights exp(εn·score) instead of "
                "exp((εn/2)·score): 2ε-DP while ε is claimed"
            ),
        ),
        kind="half",
    ),
)
