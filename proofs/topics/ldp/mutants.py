"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="ldp.truncation-removed",
        file="impl/ldp/mechanism.py",
        original="truncated = np.clip(Y, -self.truncation, self.truncation)",
        replacement="truncated = Y",
        description="LocalRandomiser does not truncate the responses to [-M, M]",
        kind="truncation",
    ),
    Mutant(
        id="ldp.budget-not-split",
        file="impl/ldp/mechanism.py",
        original="budget = epsilon_r if self.z_only else epsilon_r / 2",
        replacement="budget = epsilon_r",
        description=(
            "W and Z each get the whole epsilon (sequential composition forgotten): 2alpha-LDP"
        ),
        kind="composition",
    ),
    Mutant(
        id="ldp.z-sensitivity-halved",
        file="impl/ldp/mechanism.py",
        original="self.scale_z = lattice_scale(2 * self.z_units_max, budget)",
        replacement="self.scale_z = lattice_scale(self.z_units_max, budget)",
        description="Z noise calibrated to sensitivity M instead of 2M (lattice path)",
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.w-sensitivity-halved",
        file="impl/ldp/mechanism.py",
        original="self.scale_w = lattice_scale(2 * W_ONE, budget)",
        replacement="self.scale_w = lattice_scale(W_ONE, budget)",
        description=(
            "W noise calibrated to sensitivity 1 instead of 2 (one-hot vectors differ in 2 cells)"
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.randomise-z-noise-halved",
        file="impl/ldp/mechanism.py",
        original="z_units = self.noise_z.sample(n * big_n, rng)",
        replacement="z_units = (self.noise_z.sample(n * big_n, rng) // 2)",
        description="randomise halves the Z lattice noise it draws (report_law unchanged)",
        kind="noise",
    ),
    Mutant(
        id="ldp.randomise-w-noise-halved",
        file="impl/ldp/mechanism.py",
        original="w_units = self.noise_w.sample(n * big_n, rng)",
        replacement="w_units = (self.noise_w.sample(n * big_n, rng) // 2)",
        description="randomise halves the W lattice noise it draws (report_law unchanged)",
        kind="noise",
    ),
    Mutant(
        id="ldp.w-signal-doubled",
        file="impl/ldp/mechanism.py",
        original="w_units[rows, own] += W_ONE",
        replacement="w_units[rows, own] += 2 * W_ONE",
        description="randomise adds the W signal twice (sensitivity 4 for noise calibrated to 2)",
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.z-signal-doubled",
        file="impl/ldp/mechanism.py",
        original="np.rint(truncated / self.step_z)",
        replacement="np.rint(2 * truncated / self.step_z)",
        description="the snapped Z signal is 2[y]_M (sensitivity 4M for noise calibrated to 2M)",
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.reported-epsilon-halved",
        file="impl/ldp/mechanism.py",
        original="self.epsilon,\n            math.exp(self.epsilon),",
        replacement="self.epsilon / 2,\n            math.exp(self.epsilon / 2),",
        description="LocalRandomiser.privacy reports epsilon/2",
        kind="reported",
    ),
    Mutant(
        id="ldp.effective-epsilon-halved",
        file="impl/ldp/mechanism.py",
        original="level = Fraction(2 * self.z_units_max) / self.scale_z",
        replacement="level = Fraction(self.z_units_max) / self.scale_z",
        description=(
            "effective_epsilon (the exact level stated for the lattice law) counts half of Z's loss"
        ),
        kind="reported",
    ),
    Mutant(
        id="ldp.idealised-sigma-w-halved",
        file="impl/ldp/mechanism.py",
        original="return 4 * math.sqrt(2) / epsilon,",
        replacement="return 2 * math.sqrt(2) / epsilon,",
        description="noise_scales (idealised path): sigma_W = 2*sqrt(2)/epsilon, half of Prop 1's",
        kind="noise",
    ),
    Mutant(
        id="ldp.idealised-sigma-z-ignores-truncation",
        file="impl/ldp/mechanism.py",
        original="4 * math.sqrt(2) * truncation / epsilon",
        replacement="4 * math.sqrt(2) / epsilon",
        description="noise_scales (idealised path): sigma_Z not scaled by the truncation level M",
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.idealised-z-only-halved",
        file="impl/ldp/mechanism.py",
        original="return 0.0, 2 * math.sqrt(2) * truncation / epsilon",
        replacement="return 0.0, math.sqrt(2) * truncation / epsilon",
        description="noise_scales(z_only=True) (idealised path): sigma_Z halved",
        kind="noise",
    ),
    Mutant(
        id="ldp.idealised-z-noise-halved",
        file="impl/ldp/mechanism.py",
        original="z *= self.sigma_z",
        replacement="z *= self.sigma_z / 2",
        description="randomise (idealised) multiplies the Z noise by sigma_Z/2",
        kind="noise",
    ),
    Mutant(
        id="ldp.idealised-unit-laplace-scale",
        file="impl/ldp/mechanism.py",
        original="UNIT_LAPLACE_SCALE = 1.0 / math.sqrt(2.0)",
        replacement="UNIT_LAPLACE_SCALE = 0.5 / math.sqrt(2.0)",
        description="the idealised 'unit-variance' Laplace has variance 1/4",
        kind="noise",
    ),
    Mutant(
        id="ldp.truncation-from-data",
        file="impl/ldp/estimators.py",
        original=(
            "m = check_truncation(truncation_level(n) if self.truncation is None else "
            "self.truncation)\n        c = check_magnitude("
        ),
        replacement=(
            "m = check_truncation(float(np.abs(target).max()) if self.truncation is None else "
            "self.truncation)\n        c = check_magnitude("
        ),
        description=(
            "LDPPartitionRegressor sets M from the data (max |y|): noise scale is data-dependent"
        ),
        kind="public",
    ),
    Mutant(
        id="ldp.estimators-epsilon-doubled",
        file="impl/ldp/estimators.py",
        original="partition, self.epsilon, truncation, z_only, idealised=self.idealised",
        replacement="partition, 2 * self.epsilon, truncation, z_only, idealised=self.idealised",
        description="the LDP estimators randomise at 2alpha for the epsilon the caller passed",
        kind="claim",
    ),
    Mutant(
        id="ldp.estimators-reported-epsilon-halved",
        file="impl/ldp/estimators.py",
        original=(
            "level.epsilon, level.ratio, level.delta, exact_sampler=exact, relation=Relation.LOCAL"
        ),
        replacement=(
            "level.epsilon / 2, level.ratio**0.5, level.delta, exact_sampler=exact, "
            "relation=Relation.LOCAL"
        ),
        description="the LDP estimators' privacy_ says epsilon/2",
        kind="reported",
    ),
)
