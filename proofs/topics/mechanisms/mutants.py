"""Privacy bugs ``dpspec mutate`` plants in this topic's code (see ``proofs/notes/mutation.md``)."""

from __future__ import annotations

from dpspec.mechanisms.base import discrete_laplace_for
from dpspec.mechanisms.discrete_laplace import DiscreteLaplaceMechanism
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.mechanisms.laplace import LaplaceMechanism
from dpspec.mechanisms.noisy_majority import NoisyMajorityVote
from dpspec.mechanisms.randomized_response import RandomizedResponse
from dpspec.mechanisms.stability_histogram import (
    StabilityHistogram,
    discrete_threshold,
    stability_histogram,
)
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="exp.sample-exponent-doubled",
        edit=Edit(
            target=ExponentialMechanism.sample,
            original="return categorical_base(s.max() - s, self._base, n, rng)",
            replacement="return categorical_base(2 * (s.max() - s), self._base, n, rng)",
            bug=(
                "ExponentialMechanism.sample (rational base) draws at twice the exponent; pmf "
                "unchanged"
            ),
        ),
        kind="law",
    ),
    Mutant(
        id="exp.reported-ratio-ignores-sensitivity",
        edit=Edit(
            target=ExponentialMechanism.__init__,
            original="ratio = self._base ** (-c * self.sensitivity)",
            replacement="ratio = self._base ** (-c)",
            bug="privacy ratio of the base form ignores the sensitivity: reports eps/Delta",
        ),
        kind="reported",
    ),
    Mutant(
        id="exp.reported-eps-halved",
        edit=Edit(
            target=ExponentialMechanism.__init__,
            original="epsilon=e, ratio=math.exp(e)",
            replacement="epsilon=e / 2, ratio=math.exp(e / 2)",
            bug="ExponentialMechanism(epsilon=...) reports eps/2 while running at eps",
        ),
        kind="reported",
    ),
    Mutant(
        id="nmv.sensitivity-one",
        edit=Edit(
            target=NoisyMajorityVote.__init__,
            original="self.noise, self.privacy = discrete_laplace_for(Fraction(2), epsilon, base)",
            replacement=(
                "self.noise, self.privacy = discrete_laplace_for(Fraction(1), epsilon, base)"
            ),
            bug="NoisyMajorityVote calibrates to sensitivity 1 (margins have sensitivity 2)",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="nmv.idealised-scale-halved",
        edit=Edit(
            target=NoisyMajorityVote.__init__,
            original="self.scale = 1.0 / eps",
            replacement="self.scale = 0.5 / eps",
            bug="NoisyMajorityVote(idealised=True) draws Lap(1/(2eps))",
        ),
        kind="noise",
    ),
    Mutant(
        id="nmv.sample-margins-doubled",
        edit=Edit(
            target=NoisyMajorityVote.sample,
            original="return np.asarray(m[None, :] + z > 0)",
            replacement="return np.asarray(2 * m[None, :] + z > 0)",
            bug="NoisyMajorityVote.sample doubles the margins (one_probabilities unchanged)",
        ),
        kind="law",
    ),
    Mutant(
        id="hist.threshold-drops-factor",
        edit=Edit(
            target=discrete_threshold,
            original="while (1 + ratio) * noise.sf(tau) > target:",
            replacement="while noise.sf(tau) > target:",
            bug="discrete_threshold forgets the (1 + e^eps) factor: tau too small, delta exceeded",
        ),
        kind="threshold",
    ),
    Mutant(
        id="hist.sensitivity-one",
        edit=Edit(
            target=StabilityHistogram.__init__,
            original="self.noise, level = discrete_laplace_for(Fraction(2), epsilon, base)",
            replacement="self.noise, level = discrete_laplace_for(Fraction(1), epsilon, base)",
            bug=(
                "StabilityHistogram calibrates its noise to sensitivity 1 (substitution moves 2 "
                "counts)"
            ),
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="hist.sample-noise-halved",
        edit=Edit(
            target=StabilityHistogram.release_counts,
            original="noisy = (c + self.noise.sample(c.size, rng)).astype(np.float64)",
            replacement="noisy = (c + self.noise.sample(c.size, rng) // 2).astype(np.float64)",
            bug="release_counts halves the noise it draws (cell_pmf unchanged)",
        ),
        kind="noise",
    ),
    Mutant(
        id="hist.reported-delta-halved",
        edit=Edit(
            target=StabilityHistogram.__init__,
            original="ratio=level.ratio, delta=delta, exact_sampler=True",
            replacement="ratio=level.ratio, delta=delta / 2, exact_sampler=True",
            bug="StabilityHistogram.privacy reports delta/2",
        ),
        kind="reported",
    ),
    Mutant(
        id="hist.idealised-scale-halved",
        edit=Edit(
            target=StabilityHistogram.__init__,
            original="self.scale = 2.0 / eps",
            replacement="self.scale = 1.0 / eps",
            bug="StabilityHistogram(idealised=True) draws Lap(1/eps) instead of Lap(2/eps)",
        ),
        kind="noise",
    ),
    Mutant(
        id="base.scale-halved",
        edit=Edit(
            target=discrete_laplace_for,
            original='scale = rational_at_least(sensitivity / eps, "scale")',
            replacement='scale = rational_at_least(sensitivity / (2 * eps), "scale")',
            bug=(
                "discrete_laplace_for(epsilon=...) uses scale Delta/(2eps): 2eps, and privacy says "
                "2eps"
            ),
        ),
        kind="claim",
    ),
    Mutant(
        id="base.base-ratio",
        edit=Edit(
            target=discrete_laplace_for,
            original="ratio=q ** (-d)",
            replacement="ratio=q ** (-max(1, d - 1))",
            bug="discrete_laplace_for(base=...) reports e^eps = q^-(Delta-1) for Delta >= 2",
        ),
        kind="reported",
    ),
    Mutant(
        id="dlm.sensitivity-one",
        edit=Edit(
            target=DiscreteLaplaceMechanism.__init__,
            original="discrete_laplace_for(Fraction(sensitivity), epsilon, base)",
            replacement="discrete_laplace_for(Fraction(1), epsilon, base)",
            bug="DiscreteLaplaceMechanism ignores the declared sensitivity",
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="dlm.sample-value-doubled",
        edit=Edit(
            target=DiscreteLaplaceMechanism.sample,
            original="out = a[None, :] + noise.reshape(",
            replacement="out = 2 * a[None, :] + noise.reshape(",
            bug="DiscreteLaplaceMechanism.sample releases 2 f(S) + Z (pmf unchanged)",
        ),
        kind="law",
    ),
    Mutant(
        id="lap.lattice-slack-dropped",
        edit=Edit(
            target=LaplaceMechanism.__init__,
            original="+ self.dimension",
            replacement="+ 0",
            bug=(
                "LaplaceMechanism's lattice sensitivity forgets the rounding slack (+1 per "
                "coordinate)"
            ),
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="lap.idealised-scale-halved",
        edit=Edit(
            target=LaplaceMechanism.__init__,
            original="self.scale = self.sensitivity / self.epsilon",
            replacement="self.scale = self.sensitivity / self.epsilon / 2",
            bug="LaplaceMechanism(idealised=True) draws Lap(Delta/(2eps))",
        ),
        kind="noise",
    ),
    Mutant(
        id="rr.keep-too-likely",
        edit=Edit(
            target=RandomizedResponse.randomise,
            original="keep = u < r.numerator",
            replacement="keep = u < r.numerator + r.denominator",
            bug="randomized response keeps the true value with probability (r + 1)/(r + k - 1)",
        ),
        kind="response",
    ),
    Mutant(
        id="rr.other-may-be-truth",
        edit=Edit(
            target=RandomizedResponse.randomise,
            original="other = (flat + 1 + rng.integers(0, self.k - 1, size=m)) % self.k",
            replacement="other = (flat + rng.integers(0, self.k - 1, size=m)) % self.k",
            bug="randomized response's 'other' value can be the truth (k = 2: always the truth)",
        ),
        kind="response",
    ),
    Mutant(
        id="rr.exponent-doubled",
        edit=Edit(
            target=RandomizedResponse.randomise,
            original="[0, 1], [1, self.k - 1], eps.numerator, eps.denominator, m, rng",
            replacement="[0, 1], [1, self.k - 1], 2 * eps.numerator, eps.denominator, m, rng",
            bug="randomized response (epsilon=...) randomises at 2eps",
        ),
        kind="response",
    ),
    Mutant(
        id="dlm.pmf-tail-above-one",
        edit=Edit(
            target=DiscreteLaplaceMechanism.pmf,
            original="out[BELOW] = 1 - self.noise.sf(lo - c)",
            replacement="out[BELOW] = 1 + self.noise.sf(lo - c)",
            bug=(
                "DiscreteLaplaceMechanism.pmf: lower tail 1 + P(...), the stated law is no "
                "distribution"
            ),
        ),
        kind="law",
    ),
    Mutant(
        id="rr.local-pmf-unnormalised",
        edit=Edit(
            target=RandomizedResponse.local_pmf,
            original="denom = r + self.k - 1",
            replacement="denom = r + self.k",
            bug="RandomizedResponse.local_pmf divides by r + k: the stated law does not sum to 1",
        ),
        kind="law",
    ),
    Mutant(
        id="rr.total-k-minus-two",
        edit=Edit(
            target=RandomizedResponse.randomise,
            original="total = r.numerator + (self.k - 1) * r.denominator",
            replacement="total = r.numerator + (self.k - 2) * r.denominator",
            bug=(
                "randomized response (rational ratio) keeps the truth w.p. r/(r + k - 2): k = 2 "
                "never "
                "lies"
            ),
        ),
        kind="response",
    ),
    Mutant(
        id="lap.sf-off-by-one",
        edit=Edit(
            target=LaplaceMechanism.sf,
            original="k = math.floor(units) + 1 - int(self.lattice_value(data)[0])",
            replacement="k = math.floor(units) - int(self.lattice_value(data)[0])",
            bug="LaplaceMechanism.sf (lattice path) is P(M >= t), not P(M > t): law != sampler",
        ),
        kind="law",
    ),
    Mutant(
        id="exp.pmf-normaliser-off",
        edit=Edit(
            target=ExponentialMechanism.pmf,
            original="restrict({i: wi / total for i, wi in enumerate(w)}, window)",
            replacement="restrict({i: wi / (total + 1) for i, wi in enumerate(w)}, window)",
            bug=(
                "ExponentialMechanism.pmf divides by the normaliser + 1: the stated law is no "
                "distribution"
            ),
        ),
        kind="law",
    ),
    Mutant(
        id="exp.ratio-plus-sensitivity",
        edit=Edit(
            target=ExponentialMechanism.__init__,
            original="ratio = self._base ** (-c * self.sensitivity)",
            replacement="ratio = self._base ** (-c + self.sensitivity)",
            bug="privacy ratio of the base form is q^(Delta - 2) (cosmic-ray's Mul -> Add)",
        ),
        kind="reported",
    ),
    Mutant(
        id="lap.sample-value-doubled",
        edit=Edit(
            target=LaplaceMechanism.sample,
            original="lattice = self.lattice_value(data)[None, :] + self.noise.sample(n * k, rng)",
            replacement=(
                "lattice = 2 * self.lattice_value(data)[None, :] + self.noise.sample(n * k, rng)"
            ),
            bug=(
                "LaplaceMechanism.sample (lattice path) releases 2 f(S) + noise: sensitivity "
                "doubled"
            ),
        ),
        kind="sensitivity",
    ),
    Mutant(
        id="hist.function-idealised-default",
        edit=Edit(
            target=stability_histogram,
            original=(
                "idealised: FlagArg = False,\n) -> tuple[NDArray[np.int64], NDArray[np.float64]]:"
            ),
            replacement=(
                "idealised: FlagArg = True,\n) -> tuple[NDArray[np.int64], NDArray[np.float64]]:"
            ),
            bug=(
                "stability_histogram() defaults to the float (idealised) path: not exact, "
                "Mironov-open"
            ),
        ),
        kind="sampler",
    ),
    Mutant(
        id="hist.release-probability-empty-cells",
        edit=Edit(
            target=StabilityHistogram.release_probability,
            original="if count <= 0:\n            return 0\n",
            replacement="if count < 0:\n            return 0\n",
            bug="release_probability says an empty cell can be released (law != release_counts)",
        ),
        kind="law",
    ),
)
