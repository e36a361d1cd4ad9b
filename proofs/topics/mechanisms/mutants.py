"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="exp.half-dropped",
        file="impl/mechanisms/exponential.py",
        original="c = 2 if half else 1",
        replacement="c = 1",
        description=(
            "ExponentialMechanism without the 1/2 (weights exp(eps*s/Delta)): 2eps-DP claimed as "
            "eps"
        ),
        kind="half",
    ),
    Mutant(
        id="exp.sample-exponent-doubled",
        file="impl/mechanisms/exponential.py",
        original="return categorical_base(s.max() - s, self._base, n, rng)",
        replacement="return categorical_base(2 * (s.max() - s), self._base, n, rng)",
        description=(
            "ExponentialMechanism.sample (rational base) draws at twice the exponent; pmf unchanged"
        ),
        kind="law",
    ),
    Mutant(
        id="exp.reported-ratio-ignores-sensitivity",
        file="impl/mechanisms/exponential.py",
        original="ratio = self._base ** (-c * self.sensitivity)",
        replacement="ratio = self._base ** (-c)",
        description="privacy ratio of the base form ignores the sensitivity: reports eps/Delta",
        kind="reported",
    ),
    Mutant(
        id="exp.reported-eps-halved",
        file="impl/mechanisms/exponential.py",
        original="epsilon=e, ratio=math.exp(e)",
        replacement="epsilon=e / 2, ratio=math.exp(e / 2)",
        description="ExponentialMechanism(epsilon=...) reports eps/2 while running at eps",
        kind="reported",
    ),
    Mutant(
        id="nmv.sensitivity-one",
        file="impl/mechanisms/noisy_majority.py",
        original="self.noise, self.privacy = discrete_laplace_for(Fraction(2), epsilon, base)",
        replacement="self.noise, self.privacy = discrete_laplace_for(Fraction(1), epsilon, base)",
        description="NoisyMajorityVote calibrates to sensitivity 1 (margins have sensitivity 2)",
        kind="sensitivity",
    ),
    Mutant(
        id="nmv.idealised-scale-halved",
        file="impl/mechanisms/noisy_majority.py",
        original="self.scale = 1.0 / eps",
        replacement="self.scale = 0.5 / eps",
        description="NoisyMajorityVote(idealised=True) draws Lap(1/(2eps))",
        kind="noise",
    ),
    Mutant(
        id="nmv.sample-margins-doubled",
        file="impl/mechanisms/noisy_majority.py",
        original="return np.asarray(m[None, :] + z > 0)",
        replacement="return np.asarray(2 * m[None, :] + z > 0)",
        description="NoisyMajorityVote.sample doubles the margins (one_probabilities unchanged)",
        kind="law",
    ),
    Mutant(
        id="hist.release-below-threshold",
        file="impl/mechanisms/stability_histogram.py",
        original="np.where(noisy >= self.threshold, noisy, 0.0)",
        replacement="np.where(noisy >= self.threshold - 1, noisy, 0.0)",
        description="release_counts releases cells one below the threshold tau",
        kind="threshold",
    ),
    Mutant(
        id="hist.threshold-drops-factor",
        file="impl/mechanisms/stability_histogram.py",
        original="while (1 + ratio) * noise.sf(tau) > target:",
        replacement="while noise.sf(tau) > target:",
        description=(
            "discrete_threshold forgets the (1 + e^eps) factor: tau too small, delta exceeded"
        ),
        kind="threshold",
    ),
    Mutant(
        id="hist.threshold-strict",
        file="impl/mechanisms/stability_histogram.py",
        original="np.where(noisy >= self.threshold, noisy, 0.0)",
        replacement="np.where(noisy > self.threshold, noisy, 0.0)",
        description=(
            "off-by-one >= -> > in release_counts: still private, but the drawn law is not cell_pmf"
        ),
        kind="law",
    ),
    Mutant(
        id="hist.sensitivity-one",
        file="impl/mechanisms/stability_histogram.py",
        original="self.noise, level = discrete_laplace_for(Fraction(2), epsilon, base)",
        replacement="self.noise, level = discrete_laplace_for(Fraction(1), epsilon, base)",
        description=(
            "StabilityHistogram calibrates its noise to sensitivity 1 (substitution moves 2 counts)"
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="hist.sample-noise-halved",
        file="impl/mechanisms/stability_histogram.py",
        original="noisy = (c + self.noise.sample(c.size, rng)).astype(np.float64)",
        replacement="noisy = (c + self.noise.sample(c.size, rng) // 2).astype(np.float64)",
        description="release_counts halves the noise it draws (cell_pmf unchanged)",
        kind="noise",
    ),
    Mutant(
        id="hist.reported-delta-halved",
        file="impl/mechanisms/stability_histogram.py",
        original="ratio=level.ratio, delta=delta, exact_sampler=True",
        replacement="ratio=level.ratio, delta=delta / 2, exact_sampler=True",
        description="StabilityHistogram.privacy reports delta/2",
        kind="reported",
    ),
    Mutant(
        id="hist.idealised-scale-halved",
        file="impl/mechanisms/stability_histogram.py",
        original="self.scale = 2.0 / eps",
        replacement="self.scale = 1.0 / eps",
        description="StabilityHistogram(idealised=True) draws Lap(1/eps) instead of Lap(2/eps)",
        kind="noise",
    ),
    Mutant(
        id="base.scale-halved",
        file="impl/mechanisms/base.py",
        original='scale = rational_at_least(sensitivity / eps, "scale")',
        replacement='scale = rational_at_least(sensitivity / (2 * eps), "scale")',
        description=(
            "discrete_laplace_for(epsilon=...) uses scale Delta/(2eps): 2eps, and privacy says 2eps"
        ),
        kind="claim",
    ),
    Mutant(
        id="base.base-ratio",
        file="impl/mechanisms/base.py",
        original="ratio=q ** (-d)",
        replacement="ratio=q ** (-max(1, d - 1))",
        description="discrete_laplace_for(base=...) reports e^eps = q^-(Delta-1) for Delta >= 2",
        kind="reported",
    ),
    Mutant(
        id="dlm.sensitivity-one",
        file="impl/mechanisms/discrete_laplace.py",
        original="discrete_laplace_for(Fraction(sensitivity), epsilon, base)",
        replacement="discrete_laplace_for(Fraction(1), epsilon, base)",
        description="DiscreteLaplaceMechanism ignores the declared sensitivity",
        kind="sensitivity",
    ),
    Mutant(
        id="dlm.sample-value-doubled",
        file="impl/mechanisms/discrete_laplace.py",
        original="out = a[None, :] + noise.reshape(",
        replacement="out = 2 * a[None, :] + noise.reshape(",
        description="DiscreteLaplaceMechanism.sample releases 2 f(S) + Z (pmf unchanged)",
        kind="law",
    ),
    Mutant(
        id="lap.lattice-slack-dropped",
        file="impl/mechanisms/laplace.py",
        original="+ self.dimension",
        replacement="+ 0",
        description=(
            "LaplaceMechanism's lattice sensitivity forgets the rounding slack (+1 per coordinate)"
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="lap.idealised-scale-halved",
        file="impl/mechanisms/laplace.py",
        original="self.scale = self.sensitivity / self.epsilon",
        replacement="self.scale = self.sensitivity / self.epsilon / 2",
        description="LaplaceMechanism(idealised=True) draws Lap(Delta/(2eps))",
        kind="noise",
    ),
    Mutant(
        id="rr.keep-too-likely",
        file="impl/mechanisms/randomized_response.py",
        original="keep = u < r.numerator",
        replacement="keep = u < r.numerator + r.denominator",
        description="randomized response keeps the true value with probability (r + 1)/(r + k - 1)",
        kind="response",
    ),
    Mutant(
        id="rr.other-may-be-truth",
        file="impl/mechanisms/randomized_response.py",
        original="other = (flat + 1 + rng.integers(0, self.k - 1, size=m)) % self.k",
        replacement="other = (flat + rng.integers(0, self.k - 1, size=m)) % self.k",
        description=(
            "randomized response's 'other' value can be the truth (k = 2: always the truth)"
        ),
        kind="response",
    ),
    Mutant(
        id="rr.exponent-doubled",
        file="impl/mechanisms/randomized_response.py",
        original="[0, 1], [1, self.k - 1], eps.numerator, eps.denominator, m, rng",
        replacement="[0, 1], [1, self.k - 1], 2 * eps.numerator, eps.denominator, m, rng",
        description="randomized response (epsilon=...) randomises at 2eps",
        kind="response",
    ),
    Mutant(
        id="dlm.pmf-tail-above-one",
        file="impl/mechanisms/discrete_laplace.py",
        original="out[BELOW] = 1 - self.noise.sf(lo - c)",
        replacement="out[BELOW] = 1 + self.noise.sf(lo - c)",
        description=(
            "DiscreteLaplaceMechanism.pmf: lower tail 1 + P(...), the stated law is no distribution"
        ),
        kind="law",
    ),
    Mutant(
        id="rr.local-pmf-unnormalised",
        file="impl/mechanisms/randomized_response.py",
        original="denom = r + self.k - 1",
        replacement="denom = r + self.k",
        description=(
            "RandomizedResponse.local_pmf divides by r + k: the stated law does not sum to 1"
        ),
        kind="law",
    ),
    Mutant(
        id="rr.total-k-minus-two",
        file="impl/mechanisms/randomized_response.py",
        original="total = r.numerator + (self.k - 1) * r.denominator",
        replacement="total = r.numerator + (self.k - 2) * r.denominator",
        description=(
            "randomized response (rational ratio) keeps the truth w.p. r/(r + k - 2): k = 2 never "
            "lies"
        ),
        kind="response",
    ),
    Mutant(
        id="lap.sf-off-by-one",
        file="impl/mechanisms/laplace.py",
        original="k = math.floor(units) + 1 - int(self.lattice_value(data)[0])",
        replacement="k = math.floor(units) - int(self.lattice_value(data)[0])",
        description="LaplaceMechanism.sf (lattice path) is P(M >= t), not P(M > t): law != sampler",
        kind="law",
    ),
    Mutant(
        id="exp.pmf-normaliser-off",
        file="impl/mechanisms/exponential.py",
        original="restrict({i: wi / total for i, wi in enumerate(w)}, window)",
        replacement="restrict({i: wi / (total + 1) for i, wi in enumerate(w)}, window)",
        description=(
            "ExponentialMechanism.pmf divides by the normaliser + 1: the stated law is no "
            "distribution"
        ),
        kind="law",
    ),
    Mutant(
        id="exp.ratio-plus-sensitivity",
        file="impl/mechanisms/exponential.py",
        original="ratio = self._base ** (-c * self.sensitivity)",
        replacement="ratio = self._base ** (-c + self.sensitivity)",
        description="privacy ratio of the base form is q^(Delta - 2) (cosmic-ray's Mul -> Add)",
        kind="reported",
    ),
    Mutant(
        id="lap.sample-value-doubled",
        file="impl/mechanisms/laplace.py",
        original="lattice = self.lattice_value(data)[None, :] + self.noise.sample(n * k, rng)",
        replacement=(
            "lattice = 2 * self.lattice_value(data)[None, :] + self.noise.sample(n * k, rng)"
        ),
        description=(
            "LaplaceMechanism.sample (lattice path) releases 2 f(S) + noise: sensitivity doubled"
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="hist.function-idealised-default",
        file="impl/mechanisms/stability_histogram.py",
        original=(
            "idealised: FlagArg = False,\n) -> tuple[NDArray[np.int64], NDArray[np.float64]]:"
        ),
        replacement=(
            "idealised: FlagArg = True,\n) -> tuple[NDArray[np.int64], NDArray[np.float64]]:"
        ),
        description=(
            "stability_histogram() defaults to the float (idealised) path: not exact, Mironov-open"
        ),
        kind="sampler",
    ),
    Mutant(
        id="hist.release-probability-empty-cells",
        file="impl/mechanisms/stability_histogram.py",
        original="if count <= 0:\n            return 0\n",
        replacement="if count < 0:\n            return 0\n",
        description=(
            "release_probability says an empty cell can be released (law != release_counts)"
        ),
        kind="law",
    ),
)
