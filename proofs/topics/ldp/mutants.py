"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

import dpspec.ldp.mechanism
from dpspec.ldp.estimators import LDPPartitionRegressor
from dpspec.ldp.mechanism import LocalRandomiser, noise_scales
from dpspec.ldp.partition import bandwidth
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="ldp.truncation-removed",
        edit=Edit(
            target="dpspec.ldp.mechanism.LocalRandomiser._signal",
            original="truncated = np.clip(Y, -self.truncation, self.truncation)",
            replacement="truncated = Y",
            bug="LocalRandomiser does not truncate the responses to [-M, M]",
        ),
        kind="truncation",
    ),
    Mutant(
        id="ldp.budget-not-split",
        edit=Edit(
            target=LocalRandomiser.__init__,
            original="budget = epsilon_r if self.z_only else epsilon_r / 2",
            replacement="budget = epsilon_r",
            bug="W and Z each get the whole epsilon (sequential composition forgotten): 2alpha-LDP",
        ),
        kind="composition",
    ),
    Mutant(
        id="ldp.z-sensitivity-halved",
        edit=Edit(
            target=LocalRandomiser.__init__,
            original="self.scale_z = _lattice_scale(2 * self.z_units_max, budget)",
            replacement="self.scale_z = _lattice_scale(self.z_units_max, budget)",
            bug="Z noise calibrated to sensitivity M instead of 2M (lattice path)",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.w-sensitivity-halved",
        edit=Edit(
            target=LocalRandomiser.__init__,
            original="self.scale_w = _lattice_scale(2 * W_ONE, budget)",
            replacement="self.scale_w = _lattice_scale(W_ONE, budget)",
            bug=(
                "W noise calibrated to sensitivity 1 instead of 2 (one-hot vectors differ in 2 "
                "cells)"
            ),
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.randomise-z-noise-halved",
        edit=Edit(
            target="dpspec.ldp.mechanism.LocalRandomiser._randomise",
            original="z_units = self.noise_z.sample(n * big_n, rng)",
            replacement="z_units = (self.noise_z.sample(n * big_n, rng) // 2)",
            bug="randomise halves the Z lattice noise it draws (pmf unchanged)",
        ),
        kind="noise",
    ),
    Mutant(
        id="ldp.randomise-w-noise-halved",
        edit=Edit(
            target="dpspec.ldp.mechanism.LocalRandomiser._randomise",
            original="w_units = self.noise_w.sample(n * big_n, rng)",
            replacement="w_units = (self.noise_w.sample(n * big_n, rng) // 2)",
            bug="randomise halves the W lattice noise it draws (pmf unchanged)",
        ),
        kind="noise",
    ),
    Mutant(
        id="ldp.z-signal-doubled",
        edit=Edit(
            target="dpspec.ldp.mechanism.LocalRandomiser._signal",
            original="np.rint(truncated / self.step_z)",
            replacement="np.rint(2 * truncated / self.step_z)",
            bug="the snapped Z signal is 2[y]_M (sensitivity 4M for noise calibrated to 2M)",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.reported-epsilon-halved",
        edit=Edit(
            target=LocalRandomiser.__init__,
            original="self.epsilon,\n            math.exp(self.epsilon),",
            replacement="self.epsilon / 2,\n            math.exp(self.epsilon / 2),",
            bug="LocalRandomiser.privacy reports epsilon/2",
        ),
        kind="reported",
    ),
    Mutant(
        id="ldp.effective-epsilon-halved",
        edit=Edit(
            target=LocalRandomiser.__init__,
            original="level = Fraction(2 * self.z_units_max) / self.scale_z",
            replacement="level = Fraction(self.z_units_max) / self.scale_z",
            bug=(
                "effective_epsilon (the exact level stated for the lattice law) counts half of Z's "
                "loss"
            ),
        ),
        kind="reported",
    ),
    Mutant(
        id="ldp.idealised-sigma-w-halved",
        edit=Edit(
            target=noise_scales,
            original="return 4 * math.sqrt(2) / epsilon,",
            replacement="return 2 * math.sqrt(2) / epsilon,",
            bug="noise_scales (idealised path): sigma_W = 2*sqrt(2)/epsilon, half of Prop 1's",
        ),
        kind="noise",
    ),
    Mutant(
        id="ldp.idealised-sigma-z-ignores-truncation",
        edit=Edit(
            target=noise_scales,
            original="4 * math.sqrt(2) * truncation / epsilon",
            replacement="4 * math.sqrt(2) / epsilon",
            bug="noise_scales (idealised path): sigma_Z not scaled by the truncation level M",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="ldp.idealised-z-only-halved",
        edit=Edit(
            target=noise_scales,
            original="return 0.0, 2 * math.sqrt(2) * truncation / epsilon",
            replacement="return 0.0, math.sqrt(2) * truncation / epsilon",
            bug="noise_scales(z_only=True) (idealised path): sigma_Z halved",
        ),
        kind="noise",
    ),
    Mutant(
        id="ldp.idealised-z-noise-halved",
        edit=Edit(
            target="dpspec.ldp.mechanism.LocalRandomiser._randomise",
            original="z *= self.sigma_z",
            replacement="z *= self.sigma_z / 2",
            bug="randomise (idealised) multiplies the Z noise by sigma_Z/2",
        ),
        kind="noise",
    ),
    Mutant(
        id="ldp.idealised-unit-laplace-scale",
        edit=Edit(
            target=dpspec.ldp.mechanism,
            original="UNIT_LAPLACE_SCALE = 1.0 / math.sqrt(2.0)",
            replacement="UNIT_LAPLACE_SCALE = 0.5 / math.sqrt(2.0)",
            bug="the idealised 'unit-variance' Laplace has variance 1/4",
        ),
        kind="noise",
    ),
    Mutant(
        id="ldp.truncation-from-data",
        edit=Edit(
            target=LDPPartitionRegressor.fit,
            original=(
                'm = truncation_level(n) if params["truncation"] is None else '
                'params["truncation"]\n'
                "        c = threshold_constant(n)"
            ),
            replacement=(
                'm = float(np.abs(target).max()) if params["truncation"] is None else '
                'params["truncation"]\n        c = threshold_constant(n)'
            ),
            bug=(
                "LDPPartitionRegressor sets M from the data (max |y|): noise scale is "
                "data-dependent"
            ),
        ),
        kind="public",
    ),
    Mutant(
        id="ldp.estimators-epsilon-doubled",
        edit=Edit(
            target="dpspec.ldp.estimators._PrivatePartitionEstimator._randomiser",
            original=(
                'partition, params["epsilon"], truncation, z_only, idealised=params["idealised"]'
            ),
            replacement=(
                'partition, 2 * params["epsilon"], truncation, z_only, '
                'idealised=params["idealised"]'
            ),
            bug="the LDP estimators randomise at 2 epsilon for the epsilon the caller passed",
        ),
        kind="claim",
    ),
    Mutant(
        id="ldp.estimators-reported-epsilon-halved",
        edit=Edit(
            target="dpspec.ldp.estimators._PrivatePartitionEstimator._reports",
            original=(
                "level.epsilon, level.ratio, level.delta, exact_sampler=exact, "
                "relation=Relation.LOCAL"
            ),
            replacement=(
                "level.epsilon / 2, level.ratio**0.5, level.delta, exact_sampler=exact, "
                "relation=Relation.LOCAL"
            ),
            bug="the LDP estimators' privacy_ says epsilon/2",
        ),
        kind="reported",
    ),
    Mutant(
        id="ldp.budget-125",
        edit=Edit(
            target=LocalRandomiser.__init__,
            original="budget = epsilon_r if self.z_only else epsilon_r / 2",
            replacement="budget = 1.25 * epsilon_r if self.z_only else 1.25 * epsilon_r / 2",
            bug="the lattice calibration spends epsilon x 1.25 (law and sampler agree)",
        ),
        kind="noise",
    ),
    Mutant(
        id="ldp.bandwidth-exponent-doubled",
        edit=Edit(
            target=bandwidth,
            original="n ** (-1.0 / (2 * (d + 1)))",
            replacement="n ** (-1.0 / (d + 1))",
            bug="the bandwidth schedule h_n uses the exponent of eq. (11) doubled",
        ),
        kind="utility",
    ),
    Mutant(
        id="ldp.in-law-totals-added",
        edit=Edit(
            target=LocalRandomiser.collect_in_law,
            original="for sign in (1.0, -1.0):",
            replacement="for sign in (1.0, 1.0):",
            bug="collect_in_law adds the two negative-binomial totals instead of subtracting",
        ),
        kind="noise",
    ),
)
