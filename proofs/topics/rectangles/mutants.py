"""Privacy bugs ``dpspec mutate`` plants in the rectangles code (``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

_IP = "impl/rectangles/interior_point.py"
_RM = "impl/rectangles/rand_margins.py"
_CLF = "impl/rectangles/classifier.py"

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="rect.median-half-dropped",
        file=_IP,
        original="q = Fraction(math.ceil(math.exp(-epsilon / 2) * scale) + 1, scale)",
        replacement="q = Fraction(math.ceil(math.exp(-epsilon) * scale) + 1, scale)",
        description="the exponential median's base is e^{−ε} (the ½ dropped): 2ε per call",
        kind="half",
    ),
    Mutant(
        id="rect.median-score-doubled",
        file=_IP,
        original="return np.asarray(np.minimum(at_most, at_least), dtype=np.int64)",
        replacement="return np.asarray(2 * np.minimum(at_most, at_least), dtype=np.int64)",
        description="the median score doubled with Δ = 1 assumed (sensitivity 2)",
        kind="sensitivity",
    ),
    Mutant(
        id="rect.sampler-base-squared",
        file=_IP,
        original="Ratio(self.base.numerator, self.base.denominator, exp=False)",
        replacement="Ratio(self.base.numerator**2, self.base.denominator**2, exp=False)",
        description="ExponentialMedian.sample draws with weights q^{2·gap} while pmf keeps q^gap",
        kind="sampler",
    ),
    Mutant(
        id="rect.median-run-offset",
        file=_IP,
        original="out[j] = int(self.starts[runs[r]]) + offset - before",
        replacement="out[j] = int(self.starts[runs[r]]) + offset - before + 1",
        description="the point inside a run of equal score read one to the right",
        kind="sampler",
    ),
    Mutant(
        id="rect.median-gap-score",
        file=_IP,
        original="gap_score = np.minimum(cum[:-1], m - cum[:-1])",
        replacement="gap_score = np.minimum(cum[:-1], m - cum[:-1] + 1)",
        description="the score of the gaps between data points counts the point to their right",
        kind="sampler",
    ),
    Mutant(
        id="rect.size-noise-dropped",
        file=_RM,
        original="return [math.ceil(params.mu) + int(v) for v in z]",
        replacement="return [math.ceil(params.mu) for v in z]",
        description="RandMargins draws no size noise (k_i = ⌈μ⌉) while its law has it",
        kind="noise",
    ),
    Mutant(
        id="rect.removal-strict",
        file=_RM,
        original="            alive &= ~(z[:, i] >= q[i])",
        replacement="            alive &= ~(z[:, i] > q[i])",
        description="the sampler removes y[i] > p_i, the law y[i] ≥ p_i",
        kind="law",
    ),
    Mutant(
        id="rect.size-law-shifted",
        file=_RM,
        original="float(discrete_laplace_sf(j - c + 1, q))",
        replacement="float(discrete_laplace_sf(j - c + 2, q))",
        description="the exact law of k_i is off by one (the law decides privacy on a wrong law)",
        kind="law",
    ),
    Mutant(
        id="rect.report-theorem-delta",
        file=_CLF,
        original='    return theorem, "theorem", delta',
        replacement='    return theorem, "theorem", 0.0',
        description="the theorem's accounting reports δ = 0 (a pure guarantee it does not have)",
        kind="reported",
    ),
    Mutant(
        id="rect.report-basic-split",
        file=_CLF,
        original="    basic = epsilon / d",
        replacement="    basic = epsilon / max(1, d - 1)",
        description="basic accounting splits ε over d − 1 calls (one call unpaid)",
        kind="composition",
    ),
    Mutant(
        id="rect.tags-ignored",
        file=_RM,
        original="tags if tags is not None else rng.integers(0, t, size=n)",
        replacement="tags if tags is not None else np.zeros(n, dtype=np.int64)",
        description="the tie fix draws no tags (every record tag 0: the printed tie failure)",
        kind="public",
    ),
)
