"""Regression tests of issue 32 (verdicts a library author can trust on inputs they did not
choose): each test names the finding it pins."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dpspec.audit import audit
from dpspec.conform import ConformanceFailure, conform


def _fixed_seed_sum(d: Any, n: int, rng: np.random.Generator) -> Any:
    """Ignores the Generator it is given: a fixed internal seed."""
    return np.sum(d) + np.random.default_rng(0).laplace(0, 2, n)


def _fixed_seed_geometric(v: Any, size: int, rng: np.random.Generator) -> Any:
    """A discrete Laplace of scale 2 drawn from its own fixed seed (its law is right)."""
    own = np.random.default_rng(1)
    q = np.exp(-0.5)
    return int(v) + own.geometric(1 - q, size) - own.geometric(1 - q, size)


def test_a_target_with_a_fixed_internal_seed_is_not_private() -> None:
    """Before: audit(...) "consistent" at eps_LCB 0.499: the release is a deterministic
    function of the data (epsilon = inf), its draws only look like the law on each side."""
    r = audit(_fixed_seed_sum, ([0.2], [0.2, 1.0]), 0.5)
    assert r.verdict == "violation" and r.epsilon_lower == float("inf")
    assert "ignores the Generator" in r.event
    fresh = audit(lambda d, n, rng: np.sum(d) + rng.laplace(0, 2, n), ([0.2], [0.2, 1.0]), 0.5)
    assert fresh.verdict != "violation" and fresh.extra["freshness"].startswith("fresh")


def test_conform_and_its_fixture_refuse_a_fixed_internal_seed() -> None:
    """Before: the fixed-seed sampler conformed (its draws fit the law)."""
    result = conform(_fixed_seed_geometric, "discrete-laplace", scale=2.0, audit_samples=2000)
    assert result.verdict == "not private"
    assert "ignores the Generator" in result.instances[0].privacy["event"]


@pytest.mark.dpspec_conforms("discrete-laplace", scale=2.0, audit_samples=2000)
def test_the_fixture_fails_a_fixed_internal_seed(dpspec_conforms) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConformanceFailure, match="NOT PRIVATE"):
        dpspec_conforms(_fixed_seed_geometric)


_SUBCLASSES = '''
import numpy as np
from dpspec.learners import PrivateHistogramClassifier

class Leaky(PrivateHistogramClassifier):
    """Releases its first training label at the first probe point."""
    def fit(self, X, y):
        super().fit(X, y)
        self.first_ = int(np.asarray(y)[0])
        return self
    def predict(self, X):
        out = np.asarray(super().predict(X)).copy()
        out[0] = self.first_
        return out

class Fine(PrivateHistogramClassifier):
    pass
'''

_PAIR = "[[[[0.1],[0.6]],[0,1]],[[[0.1],[0.6]],[1,1]]]"


def test_a_subclass_of_a_dpspec_learner_is_audited_and_flagged(tmp_path: Any) -> None:
    """Before: `dpspec audit learner:mod:Class` on a subclass of PCL stopped with exit 3 (the
    real-fit path built it with a RandomState its validation refuses). And the plain subclass
    showed a real leak of PCL itself: a sample of ones was encoded as classes (1, 1), so
    predict released 1 whatever the noise (eps_LCB 6.1 for eps = 1 on this pair)."""
    from dpspec.audit.learners import LearnerMechanism
    from dpspec.audit.libraries import load_factory
    from dpspec.proofs.engine.command import run_dpspec

    module = tmp_path / "subclasses.py"
    module.write_text(_SUBCLASSES)
    args = ["--epsilon", "1", "--pair", _PAIR, "--probe", "[[0.1],[0.6]]", "--samples", "2000"]
    assert run_dpspec(["audit", f"learner:{module}:Leaky", *args, "--no-progress"]) == 1
    assert run_dpspec(["audit", f"learner:{module}:Fine", *args, "--no-progress"]) in (0, 4)
    X = np.array([[0.1], [0.6]])
    pair = ((X, np.array([0, 1])), (X, np.array([1, 1])))
    probe = np.array([[0.1], [0.6]])
    for name, leaks in (("Leaky", True), ("Fine", False)):
        make = load_factory(f"{module}:{name}", epsilon=1.0)
        r = audit(LearnerMechanism(make, "predict", probe), pair, 1.0, samples=2000, seed=0)
        assert r.violation == leaks, (name, r.epsilon_lower, r.event)


def test_conform_judges_the_whole_input_domain() -> None:
    """Before: only the inputs 0 and 1000: a discrete Laplace that adds no noise to negative
    values, or to values above 10^4, conformed. The instances now include a negative value,
    both ends of [−2^52, 2^52] and a value drawn at random (each labelled so in the report)."""
    from dpspec.conform import reference

    own = reference("discrete-laplace", scale=2.0)

    def noiseless_below_zero(v: Any, size: int, rng: np.random.Generator) -> Any:
        return own.draw(v, size, rng) if v >= 0 else np.full(size, v)

    def noiseless_above(v: Any, size: int, rng: np.random.Generator) -> Any:
        return own.draw(v, size, rng) if v <= 10**4 else np.full(size, v)

    for bug in (noiseless_below_zero, noiseless_above):
        result = conform(bug, "discrete-laplace", scale=2.0, audit_samples=2000)
        assert result.verdict == "not private", bug.__name__
    labels = [r.label for r in conform(own, "discrete-laplace", scale=2.0,
                                       audit_samples=2000).instances]  # fmt: skip
    assert any("negative" in x for x in labels) and any("drawn at random" in x for x in labels)
    assert any("largest" in x for x in labels) and any("lowest" in x for x in labels)
