"""Privacy mutants of the exact samplers (``impl/noise/``): one ulp of a threshold table, the
refinement of ties, the tail loops and the Bernoulli(exp(−γ)) paths — each killed by the exact
enumeration of the sampler's law (``sampler_laws.py``) or the exact tables (``exact_tables.py``).
"""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="noise.bernoulli-exp-parity",
        file="impl/noise/_series.py",
        original="return np.asarray(first_failure % 2 == 1)",
        replacement="return np.asarray(first_failure % 2 == 0)",
        description=(
            "the alternating series returns the complement: Bernoulli(1 - exp(-gamma)) for the "
            "many-exponent path"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.threshold-one-ulp-high",
        file="impl/noise/_tables.py",
        original="            floors.append(floor)",
        replacement="            floors.append(floor + (k == 0))",
        description="the first threshold of every table one unit in the last place (2^-64) high",
        kind="sampler",
    ),
    Mutant(
        id="noise.bernoulli-floor-one-ulp-high",
        file="impl/noise/_laws.py",
        original="    return first_floor(law, 0, law.bounds(0, TABLE_BITS))",
        replacement="    return first_floor(law, 0, law.bounds(0, TABLE_BITS))[0] + 1, False",
        description=(
            "Bernoulli(exp(-gamma))'s threshold one unit in the last place (2^-64) high, for "
            "the exponents of the table path"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.bernoulli-negligible-rate-off-by-one",
        file="impl/noise/_laws.py",
        original="NEGLIGIBLE_RATE = 45",
        replacement="NEGLIGIBLE_RATE = 44",
        description=(
            "the shortcut floor 0 taken from gamma >= 44, where exp(-44) > 2^-64: "
            "Bernoulli(exp(-44)) one ulp too unlikely"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.refinement-skipped",
        file="impl/noise/_tables.py",
        original="        for i in ties.tolist():",
        replacement="        for i in ties.tolist()[:0]:",
        description=(
            "the fallback skipped: a word equal to an inexact floor is decided by the floor "
            "(each threshold off by up to 2^-64)"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.bernoulli-off-by-1e-3",
        file="impl/noise/__init__.py",
        original="    out = np.asarray(w < threshold)",
        replacement="    out = np.asarray(w < threshold - np.uint64(2**54))",
        description=(
            "Bernoulli(exp(-gamma)) true with probability lower by 2^-10 (about 1e-3): invisible "
            "to a chi-square test of 2*10^5 draws"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.geometric-tail-not-continued",
        file="impl/noise/_laws.py",
        original="        beyond = np.flatnonzero(g == self.size)",
        replacement="        beyond = np.flatnonzero(g == self.size + 1)",
        description=(
            "the geometric tail loop one step short: G >= K returned as K (mass e^-14 misplaced)"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.two-sided-tail-offset",
        file="impl/noise/_laws.py",
        original="            j[beyond] += np.sign(j[beyond]) * extra",
        replacement="            j[beyond] += np.sign(j[beyond]) * (extra + 1)",
        description="the discrete Laplace tails start one block too far out",
        kind="sampler",
    ),
    Mutant(
        id="noise.block-negative-offset",
        file="impl/noise/_laws.py",
        original="drawn = np.where(reversed_[rest], self.block - 1 - drawn, drawn)",
        replacement="drawn = np.where(reversed_[rest], self.block - drawn, drawn)",
        description=(
            "large-scale discrete Laplace: the residual positions of negative blocks turned "
            "round one value off (the lattice Laplace's law off by one lattice step there)"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.residual-for-a-lighter-uniform-part",
        file="impl/noise/_laws.py",
        original="ThresholdTable.build(ResidualLaw(q, block, self.uniform))",
        replacement="ThresholdTable.build(ResidualLaw(q, block, self.uniform - block))",
        description=(
            "the within-block residual table built for a uniform part B*2^-64 lighter than the "
            "one drawn (the large-scale discrete Laplace off by 2^-64 per value)"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.residual-bounds-step-off",
        file="impl/noise/_laws.py",
        original="        shift = per_value << (bits + total)",
        replacement="        shift = (per_value + 1) << (bits + total)",
        description=(
            "the residual table's bounds subtract a uniform part one word per value too heavy "
            "(both bounds moved together: the floors they determine are wrong)"
        ),
        kind="sampler",
    ),
    Mutant(
        id="noise.dlap-scale-halved",
        file="impl/noise/__init__.py",
        original="    q = Ratio(scale.denominator, scale.numerator, exp=True)",
        replacement="    q = Ratio(2 * scale.denominator, scale.numerator, exp=True)",
        description="discrete_laplace(scale) draws at scale/2",
        kind="sampler",
    ),
    Mutant(
        id="noise.categorical-half-exponent",
        file="impl/noise/__init__.py",
        original="_categorical_levels(Ratio(1, d, exp=True), a - a.min(), size, rng)",
        replacement="_categorical_levels(Ratio(1, 2 * d, exp=True), a - a.min(), size, rng)",
        description="categorical sampling (the exponential mechanism) at half the exponent",
        kind="sampler",
    ),
    Mutant(
        id="noise.dlap-sf-shifted",
        file="impl/noise/_closed_forms.py",
        original="return two_sided_sf(k, base)",
        replacement="return two_sided_sf(k + 1, base)",
        description="discrete_laplace_sf (the law the verifiers use) is off by one: law != sampler",
        kind="law",
    ),
)
