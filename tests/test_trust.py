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
