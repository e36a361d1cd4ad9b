"""``dpspec conform``: the catalogue's laws, the law test, adapters, errors, CLI and marker."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from dpspec.conform import algorithm, as_sampler, catalogue, conform
from dpspec.conform.gof import ALPHA, draws_for_power
from dpspec.proofs.engine.command import run_dpspec

FAST = 2000  # audit draws per side in these tests (the audit's soundness is the audit topic's)


def _own(name: str, factor: float = 1.0, **params):  # type: ignore[no-untyped-def]
    algo = algorithm(name)
    return algo.reference(algo.resolve(dict(params)), factor)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("discrete-laplace", {"scale": 2.0}),
        ("randomized-response", {"epsilon": 1.0, "k": 3}),
        ("exponential-mechanism", {"epsilon": 1.0, "half": False}),
        ("bernoulli-exp", {}),
    ],
)
def test_own_implementations_conform(name: str, params: dict) -> None:  # type: ignore[type-arg]
    result = conform(_own(name, **params), name, audit_samples=FAST, **params)
    assert result.verdict == "conforms", "\n".join(result.lines())
    assert all(r.power >= 0.99 for r in result.instances)


def test_epsilon_variant_deviates() -> None:
    result = conform(
        _own("discrete-laplace", 1.1, scale=2.0), "discrete-laplace", scale=2.0, audit_samples=FAST
    )
    assert result.verdict == "deviates"
    assert result.exit_code == 1
    assert "largest discrepancy" in result.instances[0].why()


def test_catalogue_has_the_issue_algorithms() -> None:
    names = set(catalogue())
    assert {
        "discrete-laplace",
        "lattice-laplace",
        "bernoulli-exp",
        "exponential-mechanism",
        "randomized-response",
        "stability-histogram",
        "report-noisy-max",
        "pcl",
    } <= names
    assert algorithm("two-sided-geometric").name == "discrete-laplace"


def test_power_bound_is_exact_for_one_event() -> None:
    """On a Bernoulli law every event is {1} or {0}: the bound must equal the exact rejection
    probability of the two-sided binomial test at α/K, computed here from scipy directly."""
    law = algorithm("bernoulli-exp").instances({"gamma": None})[1].law  # exp(-1)
    alt = np.array([1 - math.exp(-1.1), math.exp(-1.1)])
    n, bound = draws_for_power(law, alt, ALPHA, 0.99)
    from dpspec.conform.gof import event_family, power_bound

    k = len(event_family(law).names)
    p = math.exp(-1)
    counts = np.arange(n + 1)
    pvals = np.minimum(
        1, 2 * np.minimum(stats.binom.cdf(counts, n, p), stats.binom.sf(counts - 1, n, p))
    )
    reject = counts[np.minimum(1, k * pvals) <= ALPHA]
    exact = float(stats.binom.pmf(reject, n, math.exp(-1.1)).sum())
    assert bound == pytest.approx(exact, abs=1e-9)
    assert power_bound(law, event_family(law), alt, n, ALPHA) >= 0.99


def test_noisy_max_law_matches_simulation_free_check() -> None:
    """Report-noisy-max with equal scores: by symmetry only the tie rule breaks the symmetry;
    the law sums to 1 and favours the smaller index (ties go to it)."""
    from dpspec.conform.laws import noisy_max_law

    p = noisy_max_law([0, 0, 0], math.exp(-0.5))
    assert sum(p) == pytest.approx(1, abs=1e-14)
    assert p[0] > p[1] > p[2]


def test_adapters_forms() -> None:
    def vectorised(v, size, rng, extra=1):  # type: ignore[no-untyped-def]
        return np.full(size, v)

    def per_call(v, rng, extra=1):  # type: ignore[no-untyped-def]
        return v

    def unseeded(v):  # type: ignore[no-untyped-def]
        return v

    class Library:
        def randomise(self, value):  # type: ignore[no-untyped-def]
            return value

    assert as_sampler(vectorised).form == "f(data, size, rng)"
    assert as_sampler(per_call).form == "f(data, rng)"
    assert not as_sampler(unseeded).seeded
    assert as_sampler(Library()).form == "randomise(data)"
    assert not as_sampler(Library()).seeded
    with pytest.raises(TypeError, match="target"):
        as_sampler(lambda a, b, c, d: 0)


def test_unseeded_target_is_said_so() -> None:
    rng = np.random.default_rng(5)
    q = math.exp(-0.5)

    def library_like(v):  # type: ignore[no-untyped-def]
        return int(v + rng.geometric(1 - q) - rng.geometric(1 - q))

    result = conform(
        library_like, "discrete-laplace", scale=2.0, audit_samples=FAST, max_draws=30_000
    )
    assert result.verdict == "conforms", "\n".join(result.lines())
    assert not result.seeded and "own generator" in result.notes[0]


def test_impossible_outputs_and_wrong_pmf_deviate() -> None:
    def half_integers(v, size, rng):  # type: ignore[no-untyped-def]
        return v + rng.laplace(0, 2, size).round() + 0.5

    result = conform(half_integers, "discrete-laplace", scale=2.0, audit_samples=FAST)
    assert result.verdict != "conforms"
    assert result.instances[0].fit.impossible > 0

    own = _own("randomized-response", epsilon=1.0, k=2)
    own.pmf = lambda x: {0: 0.7, 1: 0.3} if x == 0 else {0: 0.3, 1: 0.7}
    result = conform(own, "randomized-response", epsilon=1.0, audit_samples=FAST)
    assert result.verdict == "deviates" and not result.instances[0].exact["matches"]


def test_bad_arguments_are_refused_before_any_draw() -> None:
    def never(v, size, rng):  # type: ignore[no-untyped-def]
        raise AssertionError("drawn")

    with pytest.raises(ValueError, match="algorithm"):
        conform(never, "laplace-gaussian")
    with pytest.raises(ValueError, match="colour"):
        conform(never, "discrete-laplace", scale=2.0, colour=1)
    with pytest.raises(ValueError, match="scale"):
        conform(never, "discrete-laplace")
    with pytest.raises(ValueError, match="epsilon"):
        conform(never, "randomized-response", epsilon=-1.0)
    with pytest.raises(TypeError, match="half"):
        conform(never, "exponential-mechanism", epsilon=1.0, half="no")
    with pytest.raises(ValueError, match="max_draws"):
        conform(never, "discrete-laplace", scale=2.0, max_draws=100)
    with pytest.raises(ValueError, match="audit_samples"):
        conform(never, "discrete-laplace", scale=2.0, audit_samples=50)
    with pytest.raises(ValueError, match="audit_samples"):  # cannot refute ε = 5 at 1e-6
        conform(never, "randomized-response", epsilon=5.0, audit_samples=200)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_dpspec(["conform", "--list"]) == 0
    out = tmp_path / "r.json"
    code = run_dpspec(
        [
            "conform",
            "dpspec",
            "--as",
            "randomized-response",
            "--param",
            "epsilon=1",
            "--param",
            "k=3",
            "--audit-samples",
            "2000",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert data["verdict"] == "conforms" and data["instances"][0]["draws"] > 0
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import numpy as np\n"
        "def rr(x, size, rng):\n"
        "    return np.where(rng.random(size) < 0.8, x, 1 - x)\n"
        "def boom(x, size, rng):\n"
        "    raise RuntimeError('bug')\n"
    )
    capsys.readouterr()
    args = ["--as", "randomized-response", "--param", "epsilon=1", "--audit-samples", "2000"]
    assert run_dpspec(["conform", f"{bad}:rr", *args]) == 1
    assert run_dpspec(["conform", f"{bad}:boom", *args]) == 3
    assert (
        run_dpspec(["conform", f"{bad}:rr", "--as", "randomized-response", "--param", "epsilon=x"])
        == 2
    )
    assert run_dpspec(["conform", f"{bad}:rr", "--as", "nope"]) == 2
    assert run_dpspec(["conform", f"{bad}:missing", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(line.startswith("dpspec conform:") for line in err)


def _rr_with_bias(x, size, rng):  # type: ignore[no-untyped-def]
    keep = rng.random(size) < math.e / (math.e + 2) + 0.02
    return np.where(keep, x, (x + 1 + rng.integers(0, 2, size)) % 3)


def _rr(x, size, rng):  # type: ignore[no-untyped-def]
    keep = rng.random(size) < math.e / (math.e + 2)
    return np.where(keep, x, (x + 1 + rng.integers(0, 2, size)) % 3)


@pytest.mark.dpspec_conforms("randomized-response", epsilon=1.0, k=3, audit_samples=FAST)
def test_marker_passes_a_correct_implementation(dpspec_conforms) -> None:  # type: ignore[no-untyped-def]
    dpspec_conforms(_rr)


@pytest.mark.dpspec_conforms("randomized-response", epsilon=1.0, k=3, audit_samples=FAST)
def test_marker_fails_a_biased_implementation(dpspec_conforms) -> None:  # type: ignore[no-untyped-def]
    from dpspec.conform.pytest_plugin import ConformanceFailure

    with pytest.raises(ConformanceFailure, match="DEVIATES"):
        dpspec_conforms(_rr_with_bias)
