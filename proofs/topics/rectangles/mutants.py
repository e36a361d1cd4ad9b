"""Bugs ``dpspec mutate`` plants in the rectangles code (``proofs/notes/mutation.md``): the
controls of the topic's checks that are real implementation bugs."""

from __future__ import annotations

from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant
from dpspec.rectangles.classifier import PrivateRectangleClassifier, per_call_level
from dpspec.rectangles.interior_point import (
    ExponentialMedian,
    interior_point_sample_complexity,
    median_base,
    median_scores,
)
from dpspec.rectangles.rand_margins import RandMarginsParameters, noisy_sizes, rand_margins_trace

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="rect.median-half-dropped",
        edit=Edit(
            target=median_base,
            original="q = Fraction(math.ceil(math.exp(-epsilon / 2) * scale) + 1, scale)",
            replacement="q = Fraction(math.ceil(math.exp(-epsilon) * scale) + 1, scale)",
            bug="the exponential median's base is e^{−ε} (the ½ dropped): 2ε per call",
        ),
        kind="half",
    ),
    Mutant(
        id="rect.median-score-doubled",
        edit=Edit(
            target=median_scores,
            original="return np.asarray(np.minimum(at_most, at_least), dtype=np.int64)",
            replacement="return np.asarray(2 * np.minimum(at_most, at_least), dtype=np.int64)",
            bug="the median score doubled with Δ = 1 assumed (sensitivity 2)",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="rect.sampler-base-squared",
        edit=Edit(
            target=ExponentialMedian.sample,
            original="Ratio(self.base.numerator, self.base.denominator, exp=False)",
            replacement="Ratio(self.base.numerator**2, self.base.denominator**2, exp=False)",
            bug="ExponentialMedian.sample draws with weights q^{2·gap} while pmf keeps q^gap",
        ),
        kind="sampler",
    ),
    Mutant(
        id="rect.float-median-half-dropped",
        edit=Edit(
            target="dpspec.rectangles.interior_point.ExponentialMedian._sample_float",
            original="weights = np.append(np.exp(-self.epsilon / 2 * lv.gaps), 0.0)",
            replacement="weights = np.append(np.exp(-self.epsilon * lv.gaps), 0.0)",
            bug="the idealised median samples with exp(ε·q) inside [min D, max D] (½ dropped)",
        ),
        kind="sampler",
    ),
    Mutant(
        id="rect.ip-complexity-halved",
        edit=Edit(
            target=interior_point_sample_complexity,
            original="value = 4 / epsilon * math.log((grid_max + 1) / beta)",
            replacement="value = 2 / epsilon * math.log((grid_max + 1) / beta)",
            bug="IP_A understated 2×: the margin Δ too small for failure β",
        ),
        kind="bound",
    ),
    Mutant(
        id="rect.median-eps-hot",
        edit=Edit(
            target="dpspec.rectangles.rand_margins.RandMarginsParameters._median",
            original=(
                "return ExponentialMedian(self.epsilon, grid_max=self.refined_max, "
                "idealised=self.idealised)"
            ),
            replacement=(
                "return ExponentialMedian(1.25 * self.epsilon, grid_max=self.refined_max, "
                "idealised=self.idealised)"
            ),
            bug="RandMargins' interior point drawn for ε × 1.25 (Δ, μ, the report unchanged)",
        ),
        kind="noise",
    ),
    Mutant(
        id="rect.median-run-offset",
        edit=Edit(
            target="dpspec.rectangles.interior_point._RunIndex.points_by_scan",
            original="out[j] = int(self.starts[runs[r]]) + offset - before",
            replacement="out[j] = int(self.starts[runs[r]]) + offset - before + 1",
            bug="the point inside a run of equal score read one to the right",
        ),
        kind="sampler",
    ),
    Mutant(
        id="rect.median-gap-score",
        edit=Edit(
            target="dpspec.rectangles.interior_point._score_runs",
            original="gap_score = np.minimum(cum[:-1], m - cum[:-1])",
            replacement="gap_score = np.minimum(cum[:-1], m - cum[:-1] + 1)",
            bug="the score of the gaps between data points counts the point to their right",
        ),
        kind="sampler",
    ),
    Mutant(
        id="rect.size-noise-dropped",
        edit=Edit(
            target=noisy_sizes,
            original="return [math.ceil(params.mu) + int(v) for v in z]",
            replacement="return [math.ceil(params.mu) for v in z]",
            bug="RandMargins draws no size noise (k_i = ⌈μ⌉) while its law has it",
        ),
        kind="noise",
    ),
    Mutant(
        id="rect.size-noise-scale-doubled",
        edit=Edit(
            target=noisy_sizes,
            original="z = discrete_laplace(Fraction(2 * params.sample_complexity), d, rng)",
            replacement="z = discrete_laplace(Fraction(4 * params.sample_complexity), d, rng)",
            bug="the size noise drawn with scale 4Δ while its law has 2Δ",
        ),
        kind="noise",
    ),
    Mutant(
        id="rect.removal-strict",
        edit=Edit(
            target=rand_margins_trace,
            original="            alive &= ~(z[:, i] >= q[i])",
            replacement="            alive &= ~(z[:, i] > q[i])",
            bug="the sampler removes y[i] > p_i, the law y[i] ≥ p_i",
        ),
        kind="law",
    ),
    Mutant(
        id="rect.size-law-shifted",
        edit=Edit(
            target="dpspec.rectangles.rand_margins._size_pmf",
            original="return two_sided_cdf(j - c, q)",
            replacement="return two_sided_cdf(j - c - 1, q)",
            bug="the exact law of k_i is off by one (the law decides privacy on a wrong law)",
        ),
        kind="law",
    ),
    Mutant(
        id="rect.report-run-level",
        edit=Edit(
            target=RandMarginsParameters.run_privacy,
            original="            epsilon=d * call.epsilon,",
            replacement="            epsilon=call.epsilon,",
            bug="run_privacy reports one call's level for the d calls (composition forgotten)",
        ),
        kind="reported",
    ),
    Mutant(
        id="rect.sample-size-halved",
        edit=Edit(
            target=RandMarginsParameters.sample_size,
            original="return math.ceil(6 * d * self.sample_complexity * math.log(1 / self.beta))",
            replacement=(
                "return math.ceil(3 * d * self.sample_complexity * math.log(1 / self.beta))"
            ),
            bug="sample_size with the 6 of L1476 read as 3 (understated 2×)",
        ),
        kind="bound",
    ),
    Mutant(
        id="rect.tags-ignored",
        edit=Edit(
            target=rand_margins_trace,
            original="tags if tags is not None else rng.integers(0, t, size=n)",
            replacement="tags if tags is not None else np.zeros(n, dtype=np.int64)",
            bug="the tie fix draws no tags (every record tag 0: the printed tie failure)",
        ),
        kind="public",
    ),
    Mutant(
        id="rect.report-basic-split",
        edit=Edit(
            target=per_call_level,
            original="    per_axis = float(epsilon) / d",
            replacement="    per_axis = float(epsilon) / max(1, d - 1)",
            bug="basic accounting splits ε over d − 1 calls (one call unpaid)",
        ),
        kind="composition",
    ),
    Mutant(
        id="rect.predict-open-end",
        edit=Edit(
            target=PrivateRectangleClassifier.decision_cells,
            original="return np.asarray(np.all(points <= self.p_, axis=1), dtype=np.bool_)",
            replacement="return np.asarray(np.all(points < self.p_, axis=1), dtype=np.bool_)",
            bug="predict applies an open end (x_i < p_i) where the scores count x_i ≤ p_i",
        ),
        kind="boundary",
    ),
)
