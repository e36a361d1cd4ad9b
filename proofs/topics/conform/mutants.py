"""Bugs of ``dpspec conform`` itself that ``dpspec mutate`` plants (see
``proofs/notes/mutation.md``): each weakens what a verdict promises — its false alarm or its
stated power — and must be killed by this topic's obligations."""

from __future__ import annotations

from dpspec.conform.core import plan
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="conform.stated-power-at-epsilon",
        edit=Edit(
            target=plan,
            original="for v in (inst.variant, below[0])",
            replacement="for v in (inst.law, inst.law)",
            bug="the stated power computed against the law at eps instead of the resolution",
        ),
        kind="power",
    ),
    Mutant(
        id="conform.pvalue-upper-tail-off-by-one",
        edit=Edit(
            target="dpspec.conform.gof._count_test",
            original="stats.binom.sf(c - 1, n, mass)",
            replacement="stats.binom.sf(c, n, mass)",
            bug=(
                "the law test's upper tail read one count too far: P(X >= c + 1) instead of "
                "P(X >= c), a p-value below the exact binomial one (false alarm above alpha)"
            ),
        ),
        kind="level",
    ),
    Mutant(
        id="conform.alpha-split-ignores-audits",
        edit=Edit(
            target=plan,
            original="tests = len(instances) * (2 if claim is not None else 1)",
            replacement="tests = len(instances)",
            bug=(
                "alpha split over the law tests only, not over the privacy audits too: each test "
                "at twice its share, the whole run's false alarm up to 2 alpha"
            ),
        ),
        kind="level",
    ),
    Mutant(
        id="conform.critical-counts-at-full-alpha",
        edit=Edit(
            target="dpspec.conform.gof._critical_counts",
            original="half = alpha_each / 2",
            replacement="half = alpha_each",
            bug=(
                "the critical counts behind the stated power at alpha per side instead of alpha/2: "
                "the power of a test at twice the level stated (power overstated)"
            ),
        ),
        kind="power",
    ),
    Mutant(
        id="conform.discrete-gaussian-law-variance-halved",
        edit=Edit(
            target="dpspec.conform.laws._discrete_gaussian_law",
            original="weights = np.exp(-(z * z) / (2.0 * sigma * sigma))",
            replacement="weights = np.exp(-(z * z) / (sigma * sigma))",
            bug=(
                "the discrete Gaussian's table at exp(-z^2/sigma^2): the law of sigma/sqrt(2) "
                "judged as sigma's"
            ),
        ),
        kind="law",
    ),
    Mutant(
        id="conform.discrete-gaussian-acceptance-squared",
        edit=Edit(
            target="dpspec.conform.gaussian._discrete_gaussian",
            original="den = 2 * a * b * t * t",
            replacement="den = a * b * t * t",
            bug=(
                "the discrete Gaussian sampler's acceptance exp(-(|y| - sigma^2/t)^2/sigma^2): "
                "twice the exponent of CKS 2020 Alg 3, not the discrete Gaussian"
            ),
        ),
        kind="sampler",
    ),
)
