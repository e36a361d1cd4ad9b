"""Verifying someone else's implementation: any callable, no pair needed, any
output, samples="auto", CLI targets from the working directory, assert_dp = audit."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dpspec.audit import AuditCoverageWarning, DPViolation, Search, assert_dp, audit
from dpspec.audit.zoo import laplace_sampler, zoo
from dpspec.audit.zoo_kinds import (
    gaussian_sigma,
    resampled_bounded_epsilon,
    resampled_bounded_laplace,
)
from dpspec.cli import main

# --- any callable ------------------------------------------------------------------------------


def with_default(data: Any, n: int, rng: np.random.Generator, p: float = 0.75) -> Any:
    return data + rng.laplace(0.0, 2.0, n)


class Release:
    def __call__(self, data: Any, rng: np.random.Generator) -> float:
        return float(data + rng.laplace(0.0, 2.0))


@pytest.mark.parametrize(
    ("target", "form"),
    [
        (with_default, "(data, n, rng), vectorised"),  # before: refused, "expected f(data)…"
        (lambda d, n, rng, b=3: d + rng.laplace(0.0, 2.0, n), "(data, n, rng), vectorised"),
        (Release(), "(data, rng), called once per draw"),
        (functools.partial(lambda d, n, rng, s: d + rng.laplace(0, s, n), s=2.0), "vectorised"),
        (lambda d: d + np.random.laplace(0.0, 2.0), "global generators seeded by the audit"),
    ],
)
def test_any_callable_is_a_target(target: Any, form: str) -> None:
    result = audit(target, (0.0, 1.0), 0.5, samples=5000, seed=1)
    assert form in result.sampling and not result.violation
    again = audit(target, (0.0, 1.0), 0.5, samples=5000, seed=1)
    assert again.p1 == result.p1  # reproducible, f(data) included


@pytest.mark.parametrize(
    ("target", "said"),
    [
        (lambda a, b, c, d: 0, "4 required positional parameters"),
        (Release, "got the class"),
        (lambda *a: 0, "ambiguous"),
        (lambda d, *, k: 0, "keyword-only"),
    ],
)
def test_refused_callables_say_what_was_found(target: Any, said: str) -> None:
    with pytest.raises(TypeError, match=f"mechanism: .*{said}"):
        audit(target, (0.0, 1.0), 0.5, samples=5000)


# --- no pair needed ----------------------------------------------------------------------------


def test_no_pair_no_search_is_refused() -> None:
    with pytest.raises(ValueError, match="pair: none given"):
        audit(laplace_sampler(2.0), None, 0.5, samples=5000)
    with pytest.raises(ValueError, match="search"):
        Search()
    with pytest.raises(ValueError, match="relation"):
        Search(domain=(0.0, 1.0), relation="swap")


def test_search_finds_the_edge_and_states_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unclipped sum leaks only at the domain's edge; the bounded resampled Laplace only
    near the bounds. The result names the pair, the budget and the α split; Hypothesis writes
    nothing in the working directory."""
    monkeypatch.chdir(tmp_path)
    entry = zoo()["search-unclipped-sum"]
    result = audit(entry.mechanism, None, 0.5, samples=50_000, seed=2, **entry.audit_options())
    assert result.violation and result.pair_source == "search"
    search = result.to_json()["extra"]["search"]
    assert search["alpha"] == {"search": 0.0, "final": pytest.approx(0.05),
                               "per_finalist": pytest.approx(0.025)}  # fmt: skip
    assert search["budget"]["screened_pairs_at_most"] == 40
    assert "screening_scores_not_bounds" in search and len(result.finalists) == 2
    bounded = audit(resampled_bounded_laplace, None, 0.5, samples=100_000, seed=3,
                    search=Search(queries=1, bounds=(0.0, 10.0)))  # fmt: skip
    assert bounded.violation
    assert min(abs(float(bounded.pair[0])), abs(10 - float(bounded.pair[0]))) <= 2  # an edge
    assert list(tmp_path.iterdir()) == []


def test_dataset_search_with_finite_domain_and_users() -> None:
    def count_twice(data: Any, n: int, rng: np.random.Generator) -> Any:
        return 2.0 * len(data) + rng.laplace(0.0, 2.0, n)  # counted twice: ε = 1, not 0.5

    found = audit(
        count_twice, None, 0.5, samples=50_000, seed=4,
        search=Search(domain=("a", "b"), relation="add-remove"),
    )  # fmt: skip
    assert found.violation and abs(len(found.pair[0]) - len(found.pair[1])) == 1
    users = audit(
        lambda d, n, rng: len(d) + rng.laplace(0.0, 2.0, n), None, 0.5, samples=50_000,
        seed=4, search=Search(domain=("a", "b"), relation="add-remove", contribution=3),
    )  # fmt: skip
    assert users.violation  # user-level: 3 records differ, ε = 1.5
    assert abs(len(users.pair[0]) - len(users.pair[1])) == 3


# --- any output --------------------------------------------------------------------------------


def test_nan_coordinates_are_audited_within_their_pattern() -> None:
    """Before: every row held a NaN, the continuous families saw nothing, "consistent"."""
    entries = zoo()
    leak, fine = entries["nan-one-coordinate-leak"], entries["nan-one-coordinate"]
    flagged = audit(leak.mechanism, leak.pair, 0.5, samples=50_000, seed=5)
    assert flagged.violation and "of shape" in flagged.event
    assert flagged.epsilon_lower >= 0.9 * leak.true_epsilon
    assert not audit(fine.mechanism, fine.pair, 0.5, samples=50_000, seed=5).violation


def test_keyed_and_variable_length_releases() -> None:
    entries = zoo()
    for name in ("group-by-data-keys", "records-variable-length"):
        e = entries[name]
        assert audit(e.mechanism, e.pair, e.epsilon, samples=5000, seed=6).violation, name
    for name in ("group-by-public-keys", "records-fixed-length", "tuple-composed"):
        e = entries[name]
        assert not audit(e.mechanism, e.pair, e.epsilon, samples=5000, seed=6).violation, name


def test_a_family_that_cannot_run_is_said() -> None:
    """More shapes than the within-shape families cover: a warning and a result field."""

    def many_shapes(d: Any, n: int, rng: np.random.Generator) -> Any:
        x = d + rng.laplace(0.0, 2.0, (n, 6))
        x[rng.random((n, 6)) < 0.3] = np.nan
        return x

    with pytest.warns(AuditCoverageWarning, match="shape only"):
        result = audit(many_shapes, ((0.0,) * 6, (1.0,) * 6), 3.0, samples=20_000, seed=7)
    assert result.warnings and result.to_json()["warnings"] == result.warnings


# --- samples="auto" and the true ε of the new zoo entries -----------------------------------------


def test_auto_samples_are_sized_from_the_claim() -> None:
    result = audit(laplace_sampler(2.0), (0.0, 1.0), 0.5, 1e-3, samples="auto", seed=8)
    assert result.samples_per_side == 3_000_000
    assert "3000/delta" in result.extra["samples_auto"]
    pure = audit(laplace_sampler(2.0), (0.0, 1.0), 0.5, samples="auto", seed=8)
    assert pure.samples_per_side == 10**6
    with pytest.raises(ValueError, match="samples"):
        audit(laplace_sampler(2.0), (0.0, 1.0), 0.5, samples="many")


def test_new_zoo_truths() -> None:
    from dpspec.audit.zoo import gaussian_epsilon

    assert gaussian_epsilon(gaussian_sigma(2.0, 1e-3), 1e-3) == pytest.approx(2.0, rel=1e-8)
    # the resampled bounded Laplace at the edge: 1/b + ln(mass(1)/mass(0)), mass(q) =
    # P(q + Lap(2) in [0, 10]) = 1 - e^{-q/2}/2 - e^{-(10-q)/2}/2
    mass = lambda q: 1 - 0.5 * math.exp(-q / 2) - 0.5 * math.exp(-(10 - q) / 2)  # noqa: E731
    assert resampled_bounded_epsilon() == pytest.approx(0.5 + math.log(mass(1) / mass(0)), 1e-9)
    for entry in zoo().values():
        assert entry.correct == (entry.true_epsilon <= entry.epsilon * (1 + 1e-9)), entry.name


# --- assert_dp = audit --------------------------------------------------------------------------


def test_assert_dp_takes_audit_options_and_carries_results() -> None:
    """Before: no float_bits, so textbook float Laplace passed assert_dp 0/9."""
    naive = zoo()["naive-float-laplace"]
    with pytest.raises(DPViolation) as caught:
        assert_dp(naive.mechanism, naive.pair, 0.1, samples=20_000, float_bits=True, votes=3)
    result = caught.value.result
    assert result.violations >= 2 and len(result.results) == 3
    assert "pair" in str(caught.value) and "event" in str(caught.value)
    assert assert_dp(naive.mechanism, naive.pair, 0.1, samples=20_000, votes=3).passed
    with pytest.raises(ValueError, match="checkpoint"):
        assert_dp(naive.mechanism, naive.pair, 0.1, checkpoint="x.json")
    searched = zoo()["search-unclipped-sum"]
    with pytest.raises(DPViolation):
        assert_dp(searched.mechanism, None, 0.5, samples=20_000, votes=3,
                  **searched.audit_options())  # fmt: skip


# --- the CLI ------------------------------------------------------------------------------------


def test_cli_targets_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `module:fn` needed PYTHONPATH=. and a file target could not import its
    siblings (exit 3)."""
    (tmp_path / "mymech.py").write_text(
        "def release(d, n, rng, scale=2.0):\n    return d + rng.laplace(0.0, scale, n)\n"
    )
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "helper.py").write_text("def noise(rng, n):\n    return rng.laplace(0.0, 2.0, n)\n")
    (pkg / "mech.py").write_text(
        "from helper import noise\ndef release(d, n, rng):\n    return d + noise(rng, n)\n"
    )
    monkeypatch.chdir(tmp_path)
    base = ["--epsilon", "0.5", "--samples", "20000", "--no-progress"]
    assert main(["audit", "mymech:release", *base, "--pair", "[0, 1]"]) == 0
    assert main(["audit", f"{pkg / 'mech.py'}:release", *base, "--pair", "[0, 1]"]) == 0
    capsys.readouterr()
    assert main(["audit", "mymech:release", *base]) == 2  # no pair is invented
    assert "--queries" in capsys.readouterr().err
    out = tmp_path / "s.json"
    assert main(["audit", "mymech:release", *base, "--queries", "1", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["pair_source"] == "search" and data["extra"]["search"]["kind"] == "queries"
    assert "found by a search" in capsys.readouterr().out
    (tmp_path / "dsum.py").write_text(
        "import numpy as np\n"
        "def noisy_sum(data, n, rng):\n"
        "    return float(np.sum(data)) + rng.laplace(0.0, 2.0, n)\n"
    )
    argv = ["audit", "dsum:noisy_sum", *base, "--domain", "[0, 3]", "--interval"]
    assert main([*argv, "--relation", "add-remove"]) == 1  # unclipped: ε = 1.5
    assert main(["audit", "builtin:laplace", "--samples", "auto", "--no-progress"]) == 0
