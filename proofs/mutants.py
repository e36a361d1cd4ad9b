"""The catalogue of privacy-critical mutations of ``impl/`` run by ``dpspec mutate``.

Each :class:`Mutant` is one plausible privacy bug: a short snippet of one file replaced by a
broken version. The snippet must occur exactly once in its file (``dpspec mutate`` reports the
mutant *stale* otherwise, and ``tests/test_mutate.py`` fails). A mutant is killed when
``dpspec verify`` — the obligations the registry links to the mutated module — fails on it.

Kinds (the ``kind`` field): ``noise`` (noise scale), ``sensitivity``, ``threshold``,
``truncation``, ``half`` (the ½ of the exponential mechanism, 002_9f3104e4a0d86722.txt:L655),
``composition`` (PCL2b's (2ε, 2δ), 000_dff3c4dc97cf0e21.txt:L568), ``reported`` (the level an
object states about itself), ``reuse`` (one random draw used for several cells or releases),
``public`` (a public parameter computed from the data), ``sampler`` (an exact sampler of
``impl/noise.py`` drawing the wrong law), ``law`` (the stated law differs from what is drawn),
``response`` (randomized response probabilities), ``claim`` (the mechanism runs at a level other
than the one the caller asked for).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    """One mutation: in ``file`` (repo-relative) replace ``original`` by ``replacement``."""

    id: str
    file: str
    original: str
    replacement: str
    description: str
    kind: str = ""


_EXP = "impl/mechanisms/exponential.py"
_SSL = "impl/learners/semi_supervised.py"
_PCL = "impl/learners/pcl.py"
_KEY = "impl/learners/keyed_noise.py"
_NMV = "impl/mechanisms/noisy_majority.py"
_HIST = "impl/mechanisms/stability_histogram.py"
_PCL2 = "impl/learners/pcl2.py"
_PCDE = "impl/learners/pcde.py"
_LDP = "impl/ldp/mechanism.py"
_LDPE = "impl/ldp/estimators.py"
_NOISE = "impl/noise.py"
_BASE = "impl/mechanisms/base.py"
_DLM = "impl/mechanisms/discrete_laplace.py"
_LAP = "impl/mechanisms/laplace.py"
_RR = "impl/mechanisms/randomized_response.py"

MUTANTS: tuple[Mutant, ...] = (
    # --- the exponential mechanism and the selection inside PrivateSemiSupervisedClassifier ---
    Mutant(
        "exp.half-dropped",
        _EXP,
        "c = 2 if half else 1",
        "c = 1",
        "ExponentialMechanism without the 1/2 (weights exp(eps*s/Delta)): 2eps-DP claimed as eps",
        "half",
    ),
    Mutant(
        "exp.sample-exponent-doubled",
        _EXP,
        "return categorical_base(s.max() - s, self._base, n, rng)",
        "return categorical_base(2 * (s.max() - s), self._base, n, rng)",
        "ExponentialMechanism.sample (rational base) draws at twice the exponent; pmf unchanged",
        "law",
    ),
    Mutant(
        "exp.reported-ratio-ignores-sensitivity",
        _EXP,
        "ratio = self._base ** (-c * self.sensitivity)",
        "ratio = self._base ** (-c)",
        "privacy ratio of the base form ignores the sensitivity: reports eps/Delta",
        "reported",
    ),
    Mutant(
        "exp.reported-eps-halved",
        _EXP,
        "epsilon=e, ratio=math.exp(e)",
        "epsilon=e / 2, ratio=math.exp(e / 2)",
        "ExponentialMechanism(epsilon=...) reports eps/2 while running at eps",
        "reported",
    ),
    Mutant(
        "ssl.selection-half-dropped",
        _SSL,
        "denominator = eps.denominator * (2 if half else 1) * sensitivity",
        "denominator = eps.denominator * sensitivity",
        "exponential_choice (the selection in PrivateSemiSupervisedClassifier.fit) drops the 1/2",
        "half",
    ),
    Mutant(
        "ssl.fit-half-false",
        _SSL,
        "half=mech.half,",
        "half=False,",
        "PrivateSemiSupervisedClassifier.fit selects with half=False (the thesis's printed form)",
        "half",
    ),
    Mutant(
        "ssl.scores-doubled",
        _SSL,
        "scores = mech.score_vector(np.column_stack([X, labels]))",
        "scores = 2 * mech.score_vector(np.column_stack([X, labels]))",
        "fit selects on 2x the mistake score (sensitivity 2 with Delta = 1 assumed): 2eps_label",
        "sensitivity",
    ),
    Mutant(
        "ssl.label-law-at-half-eps",
        _SSL,
        "return ExponentialMechanism(scores, 1, epsilon=self.label_epsilon)",
        "return ExponentialMechanism(scores, 1, epsilon=self.label_epsilon / 2)",
        "selection law and label_privacy_ at eps_label/2 while fit draws at eps_label",
        "reported",
    ),
    # --- PCL (Alg 2) and its counter-keyed noise ---------------------------------------------
    Mutant(
        "pcl.bits-noise-halved",
        _PCL,
        "lambda size, g: law.sample(size, g))",
        "lambda size, g: law.sample(size, g) // 2)",
        "PCL._bits halves the discrete noise it adds (the law one_probabilities states is kept)",
        "noise",
    ),
    Mutant(
        "pcl.sensitivity-one",
        _PCL,
        "law, level = discrete_laplace_for(Fraction(2), eps, None)",
        "law, level = discrete_laplace_for(Fraction(1), eps, None)",
        "PCL calibrates its noise to sensitivity 1 for the integer margins of sensitivity 2",
        "sensitivity",
    ),
    Mutant(
        "pcl.margins-doubled",
        _PCL,
        "margins = (2 * ones[cells] - counts[cells]).astype(np.int64)",
        "margins = (4 * ones[cells] - 2 * counts[cells]).astype(np.int64)",
        "PCL.fit (dense path) doubles the margins before adding noise: 2eps",
        "sensitivity",
    ),
    Mutant(
        "pcl.laplace-scale-halved",
        _PCL,
        "scale = 1.0 / float(self.epsilon)",
        "scale = 0.5 / float(self.epsilon)",
        "PCL noise='laplace' draws Lap(1/(2eps)) instead of Lap(1/eps)",
        "noise",
    ),
    Mutant(
        "pcl.reported-eps-halved",
        _PCL,
        "return law, level",
        "return law, PrivacyLevel(level.epsilon / 2, level.ratio**0.5, 0, exact_sampler=True)",
        "PCL privacy_ says eps/2 for the eps the caller passed",
        "reported",
    ),
    Mutant(
        "pcl.grid-from-labels",
        _PCL,
        "            cells_per_axis_for(n, d)\n            if self.cells_per_axis is None",
        "            cells_per_axis_for(n + int(labels.sum()), d)\n"
        "            if self.cells_per_axis is None",
        "PCL's grid depends on the number of positive labels (a data-dependent public grid)",
        "public",
    ),
    Mutant(
        "keyed.same-draw-in-block",
        _KEY,
        "out[mask] = values[cells[mask] % BLOCK]",
        "out[mask] = values[0]",
        "every cell of a block reuses one noise draw (cells' noises not independent)",
        "reuse",
    ),
    Mutant(
        "keyed.blocks-share-stream",
        _KEY,
        "counter = [0, 0, block & (2**64 - 1), block >> 64]",
        "counter = [0, 0, 0, 0]",
        "every block of 1024 cells replays the same Philox stream (cell c and c+1024 share noise)",
        "reuse",
    ),
    # --- noisy majority vote (PCL's release) -------------------------------------------------
    Mutant(
        "nmv.sensitivity-one",
        _NMV,
        "self.noise, self.privacy = discrete_laplace_for(Fraction(2), epsilon, base)",
        "self.noise, self.privacy = discrete_laplace_for(Fraction(1), epsilon, base)",
        "NoisyMajorityVote calibrates to sensitivity 1 (margins have sensitivity 2)",
        "sensitivity",
    ),
    Mutant(
        "nmv.idealised-scale-halved",
        _NMV,
        "self.scale = 1.0 / eps",
        "self.scale = 0.5 / eps",
        "NoisyMajorityVote(idealised=True) draws Lap(1/(2eps))",
        "noise",
    ),
    Mutant(
        "nmv.sample-margins-doubled",
        _NMV,
        "return np.asarray(m[None, :] + z > 0)",
        "return np.asarray(2 * m[None, :] + z > 0)",
        "NoisyMajorityVote.sample doubles the margins (one_probabilities unchanged)",
        "law",
    ),
    # --- stability histogram (Alg 1) ---------------------------------------------------------
    Mutant(
        "hist.release-below-threshold",
        _HIST,
        "np.where(noisy >= self.threshold, noisy, 0.0)",
        "np.where(noisy >= self.threshold - 1, noisy, 0.0)",
        "release_counts releases cells one below the threshold tau",
        "threshold",
    ),
    Mutant(
        "hist.threshold-drops-factor",
        _HIST,
        "while (1 + ratio) * noise.sf(tau) > target:",
        "while noise.sf(tau) > target:",
        "discrete_threshold forgets the (1 + e^eps) factor: tau too small, delta exceeded",
        "threshold",
    ),
    Mutant(
        "hist.threshold-strict",
        _HIST,
        "np.where(noisy >= self.threshold, noisy, 0.0)",
        "np.where(noisy > self.threshold, noisy, 0.0)",
        "off-by-one >= -> > in release_counts: still private, but the drawn law is not cell_pmf",
        "law",
    ),
    Mutant(
        "hist.sensitivity-one",
        _HIST,
        "self.noise, level = discrete_laplace_for(Fraction(2), epsilon, base)",
        "self.noise, level = discrete_laplace_for(Fraction(1), epsilon, base)",
        "StabilityHistogram calibrates its noise to sensitivity 1 (substitution moves 2 counts)",
        "sensitivity",
    ),
    Mutant(
        "hist.sample-noise-halved",
        _HIST,
        "noisy = (c + self.noise.sample(c.size, rng)).astype(np.float64)",
        "noisy = (c + self.noise.sample(c.size, rng) // 2).astype(np.float64)",
        "release_counts halves the noise it draws (cell_pmf unchanged)",
        "noise",
    ),
    Mutant(
        "hist.reported-delta-halved",
        _HIST,
        "ratio=level.ratio, delta=delta, exact_sampler=True",
        "ratio=level.ratio, delta=delta / 2, exact_sampler=True",
        "StabilityHistogram.privacy reports delta/2",
        "reported",
    ),
    Mutant(
        "hist.idealised-scale-halved",
        _HIST,
        "self.scale = 2.0 / eps",
        "self.scale = 1.0 / eps",
        "StabilityHistogram(idealised=True) draws Lap(1/eps) instead of Lap(2/eps)",
        "noise",
    ),
    # --- PCL2 / PCL2b (Alg 4, 5) -------------------------------------------------------------
    Mutant(
        "pcl2b.composition-eps",
        _PCL2,
        "epsilon=2 * level.epsilon,",
        "epsilon=level.epsilon,",
        "PCL2b privacy_ states eps for two eps-DP releases (should be 2eps)",
        "composition",
    ),
    Mutant(
        "pcl2b.composition-ratio",
        _PCL2,
        "ratio=level.ratio**2,",
        "ratio=level.ratio,",
        "PCL2b privacy_ ratio e^eps instead of e^(2eps)",
        "composition",
    ),
    Mutant(
        "pcl2b.composition-delta",
        _PCL2,
        "delta=2 * level.delta,",
        "delta=level.delta,",
        "PCL2b privacy_ states delta for two delta releases (should be 2delta)",
        "composition",
    ),
    Mutant(
        "pcl2b.shared-noise",
        _PCL2,
        "y_hat = hist.release_counts(ones, rng)",
        "y_hat = hist.release_counts(ones, np.random.default_rng(model_key(self.random_state)))",
        "PCL2b's two histograms reuse one noise draw: c_hat - y_hat reveals the label-0 count",
        "reuse",
    ),
    Mutant(
        "pcl2b.histogram-at-2eps",
        _PCL2,
        "return StabilityHistogram(None, epsilon, delta, base=base)",
        "return StabilityHistogram(None, None if epsilon is None else 2 * epsilon, delta, "
        "base=base)",
        "PCL2b's histograms run at 2eps for the eps the caller passed (privacy_ follows)",
        "claim",
    ),
    Mutant(
        "pcl2b.grid-from-labels",
        _PCL2,
        "lattice = self._lattice(*X.shape)",
        "lattice = self._lattice(X.shape[0] + int(labels.sum()), X.shape[1])",
        "PCL2b's cube side depends on the number of positive labels (data-dependent grid)",
        "public",
    ),
    Mutant(
        "pcl2.packing-from-sample",
        _PCL2,
        "lattice, centres, r, cells = self._partition(n, d)\n        inner_m",
        "lattice, centres, r, cells = (self._partition(n, d) if self.candidates is None else "
        "PrivatePackingClassifier(candidates=X, radius=self.radius)._partition(n, d))\n"
        "        inner_m",
        "PCL2.fit builds its packing from the training sample instead of the public candidates",
        "public",
    ),
    Mutant(
        "pcl2.reported-eps-halved",
        _PCL2,
        "self.privacy_: PrivacyLevel = inner.privacy_",
        "self.privacy_: PrivacyLevel = PrivacyLevel(inner.privacy_.epsilon / 2, "
        "inner.privacy_.ratio**0.5, 0, inner.privacy_.exact_sampler)",
        "PCL2 privacy_ says eps/2",
        "reported",
    ),
    # --- PCDE (Alg 3) ------------------------------------------------------------------------
    Mutant(
        "pcde.histogram-at-2eps",
        _PCDE,
        "bins=None, epsilon=eps, delta=self.delta",
        "bins=None, epsilon=2 * eps, delta=self.delta",
        "PCDE's histogram runs at 2eps for the eps the caller passed (privacy_ then says 2eps)",
        "claim",
    ),
    Mutant(
        "pcde.delta-inflated",
        _PCDE,
        "delta=self.delta, idealised",
        "delta=min(0.5, 100 * self.delta), idealised",
        "PCDE's histogram runs at 100 delta for the delta the caller passed",
        "claim",
    ),
    Mutant(
        "pcde.side-from-data",
        _PCDE,
        "side = self._side(n, d)",
        "side = self._side(n, d) * (1.0 + float(np.ptp(X)))",
        "PCDE's cube side depends on the spread of the data (data-dependent grid)",
        "public",
    ),
    Mutant(
        "pcde.reported-eps-halved",
        _PCDE,
        "self.privacy_ = histogram.privacy",
        "self.privacy_ = type(histogram.privacy)(histogram.privacy.epsilon / 2, "
        "histogram.privacy.ratio**0.5, histogram.privacy.delta, "
        "histogram.privacy.exact_sampler)",
        "PCDE privacy_ says eps/2",
        "reported",
    ),
    # --- LDP randomiser (seed 003) -----------------------------------------------------------
    Mutant(
        "ldp.truncation-removed",
        _LDP,
        "truncated = np.clip(Y, -self.truncation, self.truncation)",
        "truncated = Y",
        "LocalRandomiser does not truncate the responses to [-M, M]",
        "truncation",
    ),
    Mutant(
        "ldp.budget-not-split",
        _LDP,
        "budget = alpha_r if self.z_only else alpha_r / 2",
        "budget = alpha_r",
        "W and Z each get the whole alpha (sequential composition forgotten): 2alpha-LDP",
        "composition",
    ),
    Mutant(
        "ldp.z-sensitivity-halved",
        _LDP,
        "self.scale_z = lattice_scale(2 * self.z_units_max, budget)",
        "self.scale_z = lattice_scale(self.z_units_max, budget)",
        "Z noise calibrated to sensitivity M instead of 2M (lattice path)",
        "sensitivity",
    ),
    Mutant(
        "ldp.w-sensitivity-halved",
        _LDP,
        "self.scale_w = lattice_scale(2 * W_ONE, budget)",
        "self.scale_w = lattice_scale(W_ONE, budget)",
        "W noise calibrated to sensitivity 1 instead of 2 (one-hot vectors differ in 2 cells)",
        "sensitivity",
    ),
    Mutant(
        "ldp.randomise-z-noise-halved",
        _LDP,
        "z_units = self.noise_z.sample(n * big_n, rng)",
        "z_units = (self.noise_z.sample(n * big_n, rng) // 2)",
        "randomise halves the Z lattice noise it draws (report_law unchanged)",
        "noise",
    ),
    Mutant(
        "ldp.randomise-w-noise-halved",
        _LDP,
        "w_units = self.noise_w.sample(n * big_n, rng)",
        "w_units = (self.noise_w.sample(n * big_n, rng) // 2)",
        "randomise halves the W lattice noise it draws (report_law unchanged)",
        "noise",
    ),
    Mutant(
        "ldp.w-signal-doubled",
        _LDP,
        "w_units[rows, own] += W_ONE",
        "w_units[rows, own] += 2 * W_ONE",
        "randomise adds the W signal twice (sensitivity 4 for noise calibrated to 2)",
        "sensitivity",
    ),
    Mutant(
        "ldp.z-signal-doubled",
        _LDP,
        "np.rint(truncated / self.step_z)",
        "np.rint(2 * truncated / self.step_z)",
        "the snapped Z signal is 2[y]_M (sensitivity 4M for noise calibrated to 2M)",
        "sensitivity",
    ),
    Mutant(
        "ldp.reported-alpha-halved",
        _LDP,
        "self.alpha, math.exp(self.alpha), 0, exact_sampler=not self.idealised",
        "self.alpha / 2, math.exp(self.alpha / 2), 0, exact_sampler=not self.idealised",
        "LocalRandomiser.privacy reports alpha/2",
        "reported",
    ),
    Mutant(
        "ldp.effective-alpha-halved",
        _LDP,
        "level = Fraction(2 * self.z_units_max) / self.scale_z",
        "level = Fraction(self.z_units_max) / self.scale_z",
        "effective_alpha (the exact level stated for the lattice law) counts half of Z's loss",
        "reported",
    ),
    Mutant(
        "ldp.idealised-sigma-w-halved",
        _LDP,
        "return 4 * math.sqrt(2) / alpha,",
        "return 2 * math.sqrt(2) / alpha,",
        "noise_scales (idealised path): sigma_W = 2*sqrt(2)/alpha, half of Prop 1's",
        "noise",
    ),
    Mutant(
        "ldp.idealised-sigma-z-ignores-truncation",
        _LDP,
        "4 * math.sqrt(2) * truncation / alpha",
        "4 * math.sqrt(2) / alpha",
        "noise_scales (idealised path): sigma_Z not scaled by the truncation level M",
        "sensitivity",
    ),
    Mutant(
        "ldp.idealised-z-only-halved",
        _LDP,
        "return 0.0, 2 * math.sqrt(2) * truncation / alpha",
        "return 0.0, math.sqrt(2) * truncation / alpha",
        "noise_scales(z_only=True) (idealised path): sigma_Z halved",
        "noise",
    ),
    Mutant(
        "ldp.idealised-z-noise-halved",
        _LDP,
        "z *= self.sigma_z",
        "z *= self.sigma_z / 2",
        "randomise (idealised) multiplies the Z noise by sigma_Z/2",
        "noise",
    ),
    Mutant(
        "ldp.idealised-unit-laplace-scale",
        _LDP,
        "UNIT_LAPLACE_SCALE = 1.0 / math.sqrt(2.0)",
        "UNIT_LAPLACE_SCALE = 0.5 / math.sqrt(2.0)",
        "the idealised 'unit-variance' Laplace has variance 1/4",
        "noise",
    ),
    Mutant(
        "ldp.truncation-from-data",
        _LDPE,
        "m = check_truncation(truncation_level(n) if self.truncation is None "
        "else self.truncation)\n"
        "        c = check_magnitude(",
        "m = check_truncation(float(np.abs(target).max()) if self.truncation is None "
        "else self.truncation)\n"
        "        c = check_magnitude(",
        "LDPPartitionRegressor sets M from the data (max |y|): noise scale is data-dependent",
        "public",
    ),
    Mutant(
        "ldp.estimators-alpha-doubled",
        _LDPE,
        "partition, self.alpha, truncation, z_only, idealised=self.idealised",
        "partition, 2 * self.alpha, truncation, z_only, idealised=self.idealised",
        "the LDP estimators randomise at 2alpha for the alpha the caller passed",
        "claim",
    ),
    Mutant(
        "ldp.estimators-reported-alpha-halved",
        _LDPE,
        "PrivacyLevel(level.epsilon, level.ratio, level.delta, exact_sampler=exact)",
        "PrivacyLevel(level.epsilon / 2, level.ratio**0.5, level.delta, exact_sampler=exact)",
        "the LDP estimators' privacy_ says alpha/2",
        "reported",
    ),
    # --- exact samplers (impl/noise.py) and their calibration --------------------------------
    Mutant(
        "noise.bernoulli-exp-parity",
        _NOISE,
        "return np.asarray(first_failure % 2 == 1)",
        "return np.asarray(first_failure % 2 == 0)",
        "Bernoulli(exp(-gamma)) for gamma <= 1 returns the complement (1 - exp(-gamma))",
        "sampler",
    ),
    Mutant(
        "noise.geometric-exp-parity",
        _NOISE,
        "success = ~go_on & (ka % 2 == 1)",
        "success = ~go_on & (ka % 2 == 0)",
        "the Geometric(1 - e^-1) part of the discrete Laplace sampler counts the wrong trials",
        "sampler",
    ),
    Mutant(
        "noise.dlap-scale-halved",
        _NOISE,
        "y = x // s",
        "y = x // (2 * s)",
        "discrete_laplace(scale) draws at scale/2",
        "sampler",
    ),
    Mutant(
        "noise.dlap-zero-twice",
        _NOISE,
        "accept = ~(negative & (y == 0))",
        "accept = negative | ~negative",
        "discrete_laplace keeps the (sign -, 0) draw: P(0) doubled, ratio at 0 is 2/q",
        "sampler",
    ),
    Mutant(
        "noise.geometric-step-two",
        _NOISE,
        "g[active] += 1",
        "g[active] += 2",
        "geometric(base) counts each success twice: discrete_laplace_base lives on 2Z",
        "sampler",
    ),
    Mutant(
        "noise.categorical-half-exponent",
        _NOISE,
        "shifted = rows - rows.min(axis=1, keepdims=True)",
        "shifted = (rows - rows.min(axis=1, keepdims=True)) // 2",
        "categorical sampling (exponential mechanism, randomized response) at half the exponent",
        "sampler",
    ),
    Mutant(
        "noise.dlap-sf-shifted",
        _NOISE,
        "return base**k / (1 + base)",
        "return base ** (k + 1) / (1 + base)",
        "discrete_laplace_sf (the law the verifiers use) is off by one: law != sampler",
        "law",
    ),
    Mutant(
        "base.scale-halved",
        _BASE,
        'scale = rational_at_least(sensitivity / eps, "scale")',
        'scale = rational_at_least(sensitivity / (2 * eps), "scale")',
        "discrete_laplace_for(epsilon=...) uses scale Delta/(2eps): 2eps, and privacy says 2eps",
        "claim",
    ),
    Mutant(
        "base.base-ratio",
        _BASE,
        "ratio=q ** (-d)",
        "ratio=q ** (-max(1, d - 1))",
        "discrete_laplace_for(base=...) reports e^eps = q^-(Delta-1) for Delta >= 2",
        "reported",
    ),
    # --- discrete Laplace, Laplace, randomized response --------------------------------------
    Mutant(
        "dlm.sensitivity-one",
        _DLM,
        "discrete_laplace_for(Fraction(self.sensitivity), epsilon, base)",
        "discrete_laplace_for(Fraction(1), epsilon, base)",
        "DiscreteLaplaceMechanism ignores the declared sensitivity",
        "sensitivity",
    ),
    Mutant(
        "dlm.sample-value-doubled",
        _DLM,
        "out = a[None, :] + self.noise.sample(",
        "out = 2 * a[None, :] + self.noise.sample(",
        "DiscreteLaplaceMechanism.sample releases 2 f(S) + Z (pmf unchanged)",
        "law",
    ),
    Mutant(
        "lap.lattice-slack-dropped",
        _LAP,
        "+ self.dimension",
        "+ 0",
        "LaplaceMechanism's lattice sensitivity forgets the rounding slack (+1 per coordinate)",
        "sensitivity",
    ),
    Mutant(
        "lap.idealised-scale-halved",
        _LAP,
        "self.scale = self.sensitivity / self.epsilon",
        "self.scale = self.sensitivity / self.epsilon / 2",
        "LaplaceMechanism(idealised=True) draws Lap(Delta/(2eps))",
        "noise",
    ),
    Mutant(
        "rr.keep-too-likely",
        _RR,
        "keep = u < r.numerator",
        "keep = u < r.numerator + r.denominator",
        "randomized response keeps the true value with probability (r + 1)/(r + k - 1)",
        "response",
    ),
    Mutant(
        "rr.other-may-be-truth",
        _RR,
        "other = (flat + 1 + rng.integers(0, self.k - 1, size=m)) % self.k",
        "other = (flat + rng.integers(0, self.k - 1, size=m)) % self.k",
        "randomized response's 'other' value can be the truth (k = 2: always the truth)",
        "response",
    ),
    Mutant(
        "rr.exponent-doubled",
        _RR,
        "categorical_exp_neg(mismatch * self._eps.numerator,",
        "categorical_exp_neg(2 * mismatch * self._eps.numerator,",
        "randomized response (epsilon=...) randomises at 2eps",
        "response",
    ),
    # --- found by the general mutation tool (cosmic-ray) ----------------------------------
    Mutant(
        "dlm.pmf-tail-above-one",
        _DLM,
        "out[BELOW] = 1 - self.noise.sf(lo - c)",
        "out[BELOW] = 1 + self.noise.sf(lo - c)",
        "DiscreteLaplaceMechanism.pmf: lower tail 1 + P(...), the stated law is no distribution",
        "law",
    ),
    Mutant(
        "rr.local-pmf-unnormalised",
        _RR,
        "denom = r + self.k - 1",
        "denom = r + self.k",
        "RandomizedResponse.local_pmf divides by r + k: the stated law does not sum to 1",
        "law",
    ),
    Mutant(
        "rr.total-k-minus-two",
        _RR,
        "total = r.numerator + (self.k - 1) * r.denominator",
        "total = r.numerator + (self.k - 2) * r.denominator",
        "randomized response (rational ratio) keeps the truth w.p. r/(r + k - 2): k = 2 never lies",
        "response",
    ),
    Mutant(
        "lap.sf-off-by-one",
        _LAP,
        "k = math.floor(units) + 1 - int(self.lattice_value(data)[0])",
        "k = math.floor(units) - int(self.lattice_value(data)[0])",
        "LaplaceMechanism.sf (lattice path) is P(M >= t), not P(M > t): law != sampler",
        "law",
    ),
    Mutant(
        "exp.pmf-normaliser-off",
        _EXP,
        "return {i: wi / total for i, wi in enumerate(w)}",
        "return {i: wi / (total + 1) for i, wi in enumerate(w)}",
        "ExponentialMechanism.pmf divides by the normaliser + 1: the stated law is no distribution",
        "law",
    ),
    Mutant(
        "exp.ratio-plus-sensitivity",
        _EXP,
        "ratio = self._base ** (-c * self.sensitivity)",
        "ratio = self._base ** (-c + self.sensitivity)",
        "privacy ratio of the base form is q^(Delta - 2) (cosmic-ray's Mul -> Add)",
        "reported",
    ),
    Mutant(
        "lap.sample-value-doubled",
        _LAP,
        "lattice = self.lattice_value(data)[None, :] + self.noise.sample(n * k, rng)",
        "lattice = 2 * self.lattice_value(data)[None, :] + self.noise.sample(n * k, rng)",
        "LaplaceMechanism.sample (lattice path) releases 2 f(S) + noise: sensitivity doubled",
        "sensitivity",
    ),
    Mutant(
        "pcl.sparse-margins-doubled",
        _PCL,
        "margins = np.bincount(inverse, weights=2 * labels - 1)",
        "margins = np.bincount(inverse, weights=4 * labels - 2)",
        "PCL.fit's sparse path (m^d > 4n cubes) doubles the margins: 2eps",
        "sensitivity",
    ),
    Mutant(
        "hist.function-idealised-default",
        _HIST,
        "idealised: bool = False,\n) -> tuple[NDArray[np.int64], NDArray[np.float64]]:",
        "idealised: bool = True,\n) -> tuple[NDArray[np.int64], NDArray[np.float64]]:",
        "stability_histogram() defaults to the float (idealised) path: not exact, Mironov-open",
        "sampler",
    ),
    Mutant(
        "hist.release-probability-empty-cells",
        _HIST,
        "if count <= 0:\n            return 0\n",
        "if count < 0:\n            return 0\n",
        "release_probability says an empty cell can be released (law != release_counts)",
        "law",
    ),
)
