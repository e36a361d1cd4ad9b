"""Privacy mutants of the exact samplers (``impl/noise/``): one ulp of a threshold table, the
refinement of ties, the tail loops and the Bernoulli(exp(−γ)) paths — each killed by the exact
enumeration of the sampler's law (``sampler_laws.py``) or the exact tables (``exact_tables.py``).
"""

from __future__ import annotations

from dpspec.noise import categorical_exp_neg
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="noise.bernoulli-exp-parity",
        edit=Edit(
            target="dpspec.noise._series.bernoulli_at_most_one",
            original="return np.asarray(first_failure % 2 == 1)",
            replacement="return np.asarray(first_failure % 2 == 0)",
            bug=(
                "the alternating series returns the complement: Bernoulli(1 - exp(-gamma)) for the "
                "many-exponent path"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.threshold-one-ulp-high",
        edit=Edit(
            target="dpspec.noise._tables.ThresholdTable.build",
            original="            floors.append(floor)",
            replacement="            floors.append(floor + (k == 0))",
            bug="the first threshold of every table one unit in the last place (2^-64) high",
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.bernoulli-floor-one-ulp-high",
        edit=Edit(
            target="dpspec.noise._laws.bernoulli_floor",
            original="    return first_floor(law, 0, law.bounds(0, TABLE_BITS))",
            replacement="    return first_floor(law, 0, law.bounds(0, TABLE_BITS))[0] + 1, False",
            bug=(
                "Bernoulli(exp(-gamma))'s threshold one unit in the last place (2^-64) high, for "
                "the exponents of the table path"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.bernoulli-negligible-rate-off-by-one",
        edit=Edit(
            target="dpspec.noise._laws",
            original="NEGLIGIBLE_RATE = 45",
            replacement="NEGLIGIBLE_RATE = 44",
            bug=(
                "the shortcut floor 0 taken from gamma >= 44, where exp(-44) > 2^-64: "
                "Bernoulli(exp(-44)) one ulp too unlikely"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.refinement-skipped",
        edit=Edit(
            target="dpspec.noise._tables.ThresholdTable.locate",
            original="        for i in ties.tolist():",
            replacement="        for i in ties.tolist()[:0]:",
            bug=(
                "the fallback skipped: a word equal to an inexact floor is decided by the floor "
                "(each threshold off by up to 2^-64)"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.bernoulli-off-by-1e-3",
        edit=Edit(
            target="dpspec.noise._bernoulli_exp_neg_exponents",
            original="    out = np.asarray(w < threshold)",
            replacement="    out = np.asarray(w < threshold - np.uint64(2**54))",
            bug=(
                "Bernoulli(exp(-gamma)) true with probability lower by 2^-10 (about 1e-3): "
                "invisible "
                "to a chi-square test of 2*10^5 draws"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.geometric-tail-not-continued",
        edit=Edit(
            target="dpspec.noise._laws.GeometricSampler.sample",
            original="        beyond = np.flatnonzero(g == self.size)",
            replacement="        beyond = np.flatnonzero(g == self.size + 1)",
            bug=(
                "the geometric tail loop one step short: G >= K returned as K (mass e^-14 "
                "misplaced)"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.two-sided-tail-offset",
        edit=Edit(
            target="dpspec.noise._laws.TwoSidedSampler.sample",
            original="            j[beyond] += np.sign(j[beyond]) * extra",
            replacement="            j[beyond] += np.sign(j[beyond]) * (extra + 1)",
            bug="the discrete Laplace tails start one block too far out",
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.block-negative-offset",
        edit=Edit(
            target="dpspec.noise._laws.WithinBlockSampler.sample",
            original="drawn = np.where(reversed_[rest], self.block - 1 - drawn, drawn)",
            replacement="drawn = np.where(reversed_[rest], self.block - drawn, drawn)",
            bug=(
                "large-scale discrete Laplace: the residual positions of negative blocks turned "
                "round one value off (the lattice Laplace's law off by one lattice step there)"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.residual-for-a-lighter-uniform-part",
        edit=Edit(
            target="dpspec.noise._laws.WithinBlockSampler.residual",
            original="ThresholdTable.build(ResidualLaw(q, block, self.uniform))",
            replacement="ThresholdTable.build(ResidualLaw(q, block, self.uniform - block))",
            bug=(
                "the within-block residual table built for a uniform part B*2^-64 lighter than the "
                "one drawn (the large-scale discrete Laplace off by 2^-64 per value)"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.residual-bounds-step-off",
        edit=Edit(
            target="dpspec.noise._laws.ResidualLaw.all_bounds",
            original="        shift = per_value << (bits + total)",
            replacement="        shift = (per_value + 1) << (bits + total)",
            bug=(
                "the residual table's bounds subtract a uniform part one word per value too heavy "
                "(both bounds moved together: the floors they determine are wrong)"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.dlap-scale-halved",
        edit=Edit(
            target="dpspec.noise._discrete_laplace",
            original="    q = Ratio(scale.denominator, scale.numerator, exp=True)",
            replacement="    q = Ratio(2 * scale.denominator, scale.numerator, exp=True)",
            bug="discrete_laplace(scale) draws at scale/2",
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.categorical-half-exponent",
        edit=Edit(
            target=categorical_exp_neg,
            original="_categorical_levels(Ratio(1, d, exp=True), a - a.min(), size, rng)",
            replacement="_categorical_levels(Ratio(1, 2 * d, exp=True), a - a.min(), size, rng)",
            bug="categorical sampling (the exponential mechanism) at half the exponent",
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.dlap-sf-shifted",
        edit=Edit(
            target="dpspec.noise._closed_forms.discrete_laplace_sf",
            original="return two_sided_sf(k, base)",
            replacement="return two_sided_sf(k + 1, base)",
            bug="discrete_laplace_sf (the law the verifiers use) is off by one: law != sampler",
        ),
        kind="law",
    ),
)
