"""DP-SGD for a linear model with squared loss, with Poisson or shuffled batches.

Abadi, Chu, Goodfellow, McMahan, Mironov, Talwar & Zhang, "Deep Learning with Differential
Privacy" (CCS 2016, arXiv:1607.00133): every step takes a batch B_t, clips each example's
gradient to L2 norm C and adds Gaussian noise to their sum,

    θ_{t+1} = θ_t − (η / b) · ( Σ_{i ∈ B_t} clip_C(∇ℓ(θ_t; x_i, y_i)) + N(0, σ²C² I_d) ),

with ℓ(θ; x, y) = ½ (x·θ − y)², so ∇ℓ = (x·θ − y) x, and clip_C(g) = g · min(1, C/‖g‖₂).
θ_0 = 0; the released model is the whole path θ_0, …, θ_T (``coef_path_``: what the
accountants of DP-SGD bound, every iterate published), ``coef_`` = θ_T.

The batches (``batch_sampler``):

* ``"poisson"``: every record joins B_t independently with probability q = b/n at every step
  (the sampling the usual accountants assume: the moments accountant of Abadi et al. 2016, the
  FFT accountant of Koskela, Jälkö & Honkela, "Computing tight differential privacy
  guarantees using FFT", AISTATS 2020, arXiv:1906.03049); the sum is divided by the
  expected batch size b, never by |B_t| (which would make the step depend on the count);
* ``"shuffle"``: every epoch draws one permutation of the n records and cuts it into n/b
  batches of exactly b (b must divide n); the steps run through the epochs in order.

Both are the package's reference samplers, :func:`dpspec.accounting.sampling.poisson_batches`
and :func:`~dpspec.accounting.sampling.shuffled_batches` (their laws are what ``dpspec
conform`` holds other libraries' samplers to).

The two share (σ, q = b/n, T) but not their privacy: Chua, Ghazi, Kamath, Kumar, Manurangsi,
Sinha & Zhang, "How Private are DP-SGD Implementations?" (ICML 2024, arXiv:2403.17673) show
that shuffled batches can lose much more than the Poisson accountant claims for the same
parameters; ``dpsgd.*`` obligations measure it on this estimator (``proofs/topics/dpsgd``).
A fit's (ε, δ) is its scheme's accountant's, with noise multiplier σ (the noise std over the
sensitivity C of adding or removing one record): ``epsilon_interval(Composition("gaussian", σ,
"poisson", b/n, T, "add_remove"), δ)`` for Poisson batches, ``shuffled_gaussian_epsilon(σ,
n/b, ⌈T·b/n⌉, δ)`` (zero-out relation) for shuffled ones (:mod:`dpspec.accounting`).

Randomness comes only from ``random_state`` (a numpy Generator is drawn from as it is, an int
seeds ``numpy.random.default_rng``): the batches, drawn first (``random`` for Poisson,
``permuted`` for shuffling), then one ``normal(0, σC, d)`` per step, added to the clipped sum
as it is drawn. Work is vectorised over the examples of a batch (a Python loop over the T steps
only); a fit of more than :data:`MAX_WORK` gradient coordinates, or more than
:data:`~dpspec.accounting.sampling.MAX_RECORD_DRAWS` batch draws (n·T), is refused before any
draw.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.accounting.sampling import MAX_RECORD_DRAWS, poisson_batches, shuffled_batches
from dpspec.learners.estimator import (
    EstimatorProtocol,
    NotFittedError,
    PointsArg,
    _rows,
)
from dpspec.validation import (
    Array,
    Choice,
    Integer,
    RandomStateArg,
    Real,
    as_finite_array,
    example,
    require_within,
)

#: most gradient coordinates one fit may compute (T · (rows examined per step) · d)
MAX_WORK = 2**31
#: the batch samplers
SAMPLERS = ("poisson", "shuffle")

#: The noise multiplier σ (> 0): the noise std is σ·C.
NoiseMultiplierArg = Annotated[float, Real(0.0, lo_open=True, hi=1e6, clean=1.0)]
#: The clipping norm C (> 0).
ClipNormArg = Annotated[float, Real(0.0, lo_open=True, hi=1e12, clean=1.0)]
#: The learning rate η (> 0).
LearningRateArg = Annotated[float, Real(0.0, lo_open=True, hi=1e6, clean=0.1)]
#: The number of steps T (≥ 1).
StepsArg = Annotated[int, Integer(1, hi=2**31, clean=4)]
#: The batch size b (≥ 1; at most n, checked by ``fit``): Poisson's expected batch size.
BatchSizeArg = Annotated[int, Integer(1, hi=2**62, clean=2)]
#: ``"poisson"`` or ``"shuffle"``.
SamplerArg = Annotated[str, Choice(SAMPLERS)]
#: Real responses, one per row.
TargetsArg = Annotated[Any, Array(ndim=1)]


def _generator(random_state: Any) -> np.random.Generator:
    """The Generator a fit draws from: ``random_state`` itself when it is one."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(random_state)


_X = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [0.2, 0.8]])
_Y = np.array([1.0, 0.5, -1.0, 0.0])


@example(
    every={"X": _X, "y": _Y},
    __init__={"steps": 3, "batch_size": 2, "random_state": 0},
    fit={},
    predict={},
)
class DPSGDRegressor(EstimatorProtocol):
    """DP-SGD on squared loss (see the module docstring): ``noise_multiplier`` σ,
    ``clip_norm`` C, ``learning_rate`` η, ``steps`` T, ``batch_size`` b (Poisson's expected
    size, q = b/n), ``batch_sampler`` (``"poisson"`` or ``"shuffle"``), ``random_state``.
    No intercept: append a column of ones to X for one (its gradient is clipped with the rest).
    Fitted: ``coef_path_`` (T + 1, d), ``coef_`` (d,), ``sampling_rate_`` q, ``epochs_`` (the
    shuffled epochs started, 0 for Poisson), ``n_features_in_``."""

    _estimator_type = "regressor"

    def __init__(
        self,
        noise_multiplier: NoiseMultiplierArg = 1.0,
        clip_norm: ClipNormArg = 1.0,
        learning_rate: LearningRateArg = 0.1,
        steps: StepsArg = 100,
        batch_size: BatchSizeArg = 16,
        batch_sampler: SamplerArg = "poisson",
        random_state: RandomStateArg = None,
    ) -> None:
        self.noise_multiplier = noise_multiplier
        self.clip_norm = clip_norm
        self.learning_rate = learning_rate
        self.steps = steps
        self.batch_size = batch_size
        self.batch_sampler = batch_sampler
        self.random_state = random_state

    def fit(self, X: PointsArg, y: TargetsArg) -> DPSGDRegressor:
        """T noisy clipped gradient steps from θ_0 = 0 (the module docstring's update)."""
        X = _rows(X)
        targets = as_finite_array(y, "y", ndim=1).astype(np.float64)
        n, d = X.shape
        if targets.shape[0] != n:
            raise ValueError(f"y: expected {n} responses (one per row of X), got {targets.size}")
        b, steps = int(self.batch_size), int(self.steps)
        if self.batch_sampler == "poisson" and b > n:
            raise ValueError(f"batch_size: {b} exceeds the {n} rows of X")
        if self.batch_sampler == "shuffle" and (b > n or n % b):
            raise ValueError(
                f"batch_size: must divide the {n} rows of X (an epoch is n/b whole batches), "
                f"got {b}"
            )
        per_step = n if self.batch_sampler == "poisson" else b
        require_within(float(steps) * per_step * d, MAX_WORK, "steps", "gradient coordinates")
        require_within(float(steps) * n, MAX_RECORD_DRAWS, "steps", "record draws (n · steps)")
        rng = _generator(self.random_state)
        path = np.zeros((steps + 1, d))
        if self.batch_sampler == "poisson":
            batches = poisson_batches(n, b / n, steps, rng)
            self.epochs_ = 0
        else:
            batches = shuffled_batches(n, b, steps, rng)
            self.epochs_ = -(-steps // (n // b))
        theta = path[0].copy()
        rate = float(self.learning_rate) / b
        for t, batch in enumerate(batches):
            theta = theta - rate * self._noisy_sum(X, targets, batch, theta, rng)
            path[t + 1] = theta
        self.coef_path_ = path
        self.coef_ = path[-1].copy()
        self.sampling_rate_ = b / n
        self.n_features_in_ = d
        return self

    def _noisy_sum(
        self,
        X: NDArray[np.float64],
        y: NDArray[np.float64],
        batch: NDArray[np.int64],
        theta: NDArray[np.float64],
        rng: np.random.Generator,
    ) -> NDArray[np.float64]:
        """Σ_{i ∈ batch} clip_C((x_i·θ − y_i) x_i) + N(0, σ²C² I), the noise drawn last.

        Written so that no finite input overflows into a NaN: with s = max_j |x_j| and
        x̂ = x/s, r = s·(x̂·θ) − y (±∞ when it overflows, never NaN: x̂·θ is finite) and
        clip_C(r x) = sign(r)·min(|r|·s·‖x̂‖, C)·x̂/‖x̂‖ — the same value as g·min(1, C/‖g‖)
        for g = r x, an overflowing ‖g‖ = ∞ clipped to C (0 when r = 0 or x = 0)."""
        C = float(self.clip_norm)
        rows = X[batch]
        scale = np.max(np.abs(rows), axis=1, initial=0.0)
        safe = np.where(scale > 0, scale, 1.0)
        unit = rows / safe[:, None]
        length = np.sqrt(np.einsum("ij,ij->i", unit, unit))
        with np.errstate(over="ignore"):  # an overflow is ±∞, handled by the clip below
            residual = safe * (unit @ theta) - y[batch]
            norm = np.abs(residual) * safe * length
        size = np.where(residual == 0, 0.0, np.minimum(norm, C))
        direction = unit / np.where(length > 0, length, 1.0)[:, None]
        clipped = (np.sign(residual) * size)[:, None] * direction
        summed = clipped.sum(axis=0)
        return np.asarray(summed + rng.normal(0.0, float(self.noise_multiplier) * C, X.shape[1]))

    def _check_fitted(self) -> None:
        if not hasattr(self, "coef_"):
            raise NotFittedError(f"self: this {type(self).__name__} is not fitted; call fit")

    def predict(self, X: PointsArg) -> NDArray[np.float64]:
        """x·θ_T for each row of X (±∞ where it overflows: s·(x̂·θ_T) with s = max_j |x_j|)."""
        self._check_fitted()
        self.check_n_features(X)
        rows = _rows(X)
        scale = np.max(np.abs(rows), axis=1, initial=0.0)
        safe = np.where(scale > 0, scale, 1.0)
        with np.errstate(over="ignore"):
            return np.asarray(safe * ((rows / safe[:, None]) @ self.coef_))


__all__ = ["MAX_WORK", "SAMPLERS", "DPSGDRegressor"]
