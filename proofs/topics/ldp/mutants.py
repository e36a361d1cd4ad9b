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
        original="self.scale_z = _lattice_scale(2 * self.z_units_max, budget)",
        replacement="self.scale_z = _lattice_scale(self.z_units_max, budget)",
        description="Z noise calibrated to sensitivity M instead of 2M (lattice path)",
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.w-sensitivity-halved",
        file="impl/ldp/mechanism.py",
        original="self.scale_w = _lattice_scale(2 * W_ONE, budget)",
        replacement="self.scale_w = _lattice_scale(W_ONE, budget)",
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
        description="randomise halves the Z lattice noise it draws (pmf unchanged)",
        kind="noise",
    ),
    Mutant(
        id="ldp.randomise-w-noise-halved",
        file="impl/ldp/mechanism.py",
        original="w_units = self.noise_w.sample(n * big_n, rng)",
        replacement="w_units = (self.noise_w.sample(n * big_n, rng) // 2)",
        description="randomise halves the W lattice noise it draws (pmf unchanged)",
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
            'm = truncation_level(n) if params["truncation"] is None else params["truncation"]\n'
            "        c = threshold_constant(n)"
        ),
        replacement=(
            'm = float(np.abs(target).max()) if params["truncation"] is None else '
            'params["truncation"]\n        c = threshold_constant(n)'
        ),
        description=(
            "LDPPartitionRegressor sets M from the data (max |y|): noise scale is data-dependent"
        ),
        kind="public",
    ),
    Mutant(
        id="ldp.estimators-epsilon-doubled",
        file="impl/ldp/estimators.py",
        original='partition, params["epsilon"], truncation, z_only, idealised=params["idealised"]',
        replacement=(
            'partition, 2 * params["epsilon"], truncation, z_only, idealised=params["idealised"]'
        ),
        description="the LDP estimators randomise at 2 epsilon for the epsilon the caller passed",
        kind="claim",
    ),
    Mutant(
        id="ldp.estimators-epsilon-125",
        file="impl/ldp/estimators.py",
        original='partition, params["epsilon"], truncation, z_only, idealised=params["idealised"]',
        replacement=(
            'partition, min(700.0, 1.25 * params["epsilon"]), truncation, z_only, '
            'idealised=params["idealised"]'
        ),
        description="the LDP estimators randomise for epsilon x 1.25",
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
    Mutant(
        id="ldp.z-noise-for-125-epsilon",
        file="impl/ldp/mechanism.py",
        original="self.noise_z = DiscreteLaplaceNoise(scale=self.scale_z)",
        replacement="self.noise_z = DiscreteLaplaceNoise(scale=self.scale_z * Fraction(4, 5))",
        description="randomise draws its Z noise for epsilon x 1.25 (pmf states epsilon)",
        kind="noise",
    ),
    Mutant(
        id="ldp.budget-125",
        file="impl/ldp/mechanism.py",
        original="budget = epsilon_r if self.z_only else epsilon_r / 2",
        replacement="budget = 1.25 * epsilon_r if self.z_only else 1.25 * epsilon_r / 2",
        description="the lattice calibration spends epsilon x 1.25 (law and sampler agree)",
        kind="noise",
    ),
    Mutant(
        id="ldp.threshold-without-volume",
        file="impl/ldp/estimators.py",
        original="keep = mu >= c * partition.h**d",
        replacement="keep = mu >= c",
        description="LDPPartitionRegressor compares mu~ with c_n instead of c_n h^d (L154)",
        kind="utility",
    ),
    Mutant(
        id="ldp.cubes-closed-right",
        file="impl/ldp/partition.py",
        original="scaled = np.floor((arr - self.offset) / self.h)",
        replacement="scaled = np.ceil((arr - self.offset) / self.h) - 1",
        description="cell_index puts a point on a cube edge in the lower cube (closed right)",
        kind="boundary",
    ),
    Mutant(
        id="ldp.classifier-sign-zero-positive",
        file="impl/ldp/estimators.py",
        original="positive = self.decision_values(X) > 0",
        replacement="positive = self.decision_values(X) >= 0",
        description="LDPPartitionClassifier predicts classes_[1] where nu~ = 0 (sign(0) = -1)",
        kind="boundary",
    ),
    Mutant(
        id="ldp.bandwidth-exponent-doubled",
        file="impl/ldp/partition.py",
        original="n ** (-1.0 / (2 * (d + 1)))",
        replacement="n ** (-1.0 / (d + 1))",
        description="the bandwidth schedule h_n uses the exponent of eq. (11) doubled",
        kind="utility",
    ),
    Mutant(
        id="ldp.in-law-totals-added",
        file="impl/ldp/mechanism.py",
        original="for sign in (1.0, -1.0):",
        replacement="for sign in (1.0, 1.0):",
        description="collect_in_law adds the two negative-binomial totals instead of subtracting",
        kind="noise",
    ),
)
