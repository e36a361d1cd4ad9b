"""``dpspec conform``: the catalogue's laws, the law test, adapters, errors, CLI and marker."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpspec.conform import (
    ConformanceFailure,
    Sampler,
    algorithm,
    as_sampler,
    catalogue,
    conform,
    plan,
    reference,
)
from dpspec.conform.gof import ALPHA, _draws_for_power
from dpspec.proofs.engine.command import run_dpspec

FAST = 2000  # audit draws per side in these tests (the audit's soundness is the audit topic's)


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
    result = conform(reference(name, **params), name, audit_samples=FAST, **params)
    assert result.verdict == "conforms", "\n".join(result.lines())
    assert all(r.power >= 0.99 for r in result.instances)


def test_epsilon_variant_deviates() -> None:
    bug = reference("discrete-laplace", scale=2.0 / 1.1)  # noise for ε × 1.1
    result = conform(bug, "discrete-laplace", scale=2.0, audit_samples=FAST)
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
    law = plan(reference("bernoulli-exp"), "bernoulli-exp").instances[1].law  # exp(-1)
    alt = np.array([1 - math.exp(-1.1), math.exp(-1.1)])
    n, bound = _draws_for_power(law, alt, ALPHA, 0.99)
    from dpspec.conform.gof import _event_family, _power_bound

    k = len(_event_family(law).names)
    p = math.exp(-1)
    counts = np.arange(n + 1)
    pvals = np.minimum(
        1, 2 * np.minimum(stats.binom.cdf(counts, n, p), stats.binom.sf(counts - 1, n, p))
    )
    reject = counts[np.minimum(1, k * pvals) <= ALPHA]
    exact = float(stats.binom.pmf(reject, n, math.exp(-1.1)).sum())
    assert bound == pytest.approx(exact, abs=1e-9)
    assert _power_bound(law, _event_family(law), alt, n, ALPHA) >= 0.99


def test_noisy_max_law_matches_simulation_free_check() -> None:
    """Report-noisy-max with equal scores: by symmetry only the tie rule breaks the symmetry;
    the law sums to 1 and favours the smaller index (ties go to it)."""
    from dpspec.conform.laws import _noisy_max_law

    p = _noisy_max_law([0, 0, 0], math.exp(-0.5))
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

    own = replace(
        reference("randomized-response", epsilon=1.0, k=2),
        pmf=lambda x: {0: 0.7, 1: 0.3} if x == 0 else {0: 0.3, 1: 0.7},
    )
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


def test_resolution_sizes_the_budget_it_states() -> None:
    """resolution=0.05 states r = 0.05 in the algorithm's own parameter and sizes the budget
    for it: the discrete Laplace at scale × 1.05 (ε / 1.05), which passes the default budget,
    deviates at resolution 0.05."""
    own = reference("discrete-laplace", scale=2.0)
    default = plan(own, "discrete-laplace", scale=2.0)
    fine = plan(own, "discrete-laplace", scale=2.0, resolution=0.05)
    assert default.resolution == pytest.approx(0.1) and fine.resolution == 0.05
    assert fine.draws[0] > 3 * default.draws[0]
    assert set(fine.deviations[0]) == {"scale / 1.05", "scale × 1.05"}
    assert all(0.017 < tv < 0.019 for tv in fine.deviations[0].values())
    assert all(pw >= 0.99 for pw in fine.powers)
    wide = reference("discrete-laplace", scale=2.1)
    caught = conform(wide, "discrete-laplace", scale=2.0, resolution=0.05, audit_samples=FAST)
    assert caught.verdict == "deviates"
    result = conform(own, "discrete-laplace", scale=2.0, resolution=0.05, audit_samples=FAST)
    assert result.verdict == "conforms" and result.resolution == 0.05
    assert "off by a factor 1.05 either way" in result.lines()[-1]
    assert "scale × 1.05: TV 0.018" in result.instances[0].resolution_text()
    data = result.to_json()
    assert data["resolution"] == 0.05 and data["instances"][0]["resolution"] == 0.05


def test_resolution_beyond_the_limit_is_refused_with_the_estimate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def never(v, size, rng):  # type: ignore[no-untyped-def]
        raise AssertionError("drawn")

    with pytest.raises(ValueError, match=r"max_draws: .* needs 112\d{6} draws .* resolution"):
        conform(never, "discrete-laplace", scale=2.0, resolution=0.001, max_draws=10**6)
    for bad in (0.0, -0.1, 2.0, math.nan):
        with pytest.raises(ValueError, match="resolution"):
            plan(never, "discrete-laplace", scale=2.0, resolution=bad)
    with pytest.raises(TypeError, match="resolution"):
        plan(never, "discrete-laplace", scale=2.0, resolution="2%")
    args = ["conform", "dpspec", "--as", "discrete-laplace", "--param", "scale=2"]
    assert run_dpspec([*args, "--resolution", "0.001", "--max-draws", "1000000"]) == 2
    assert run_dpspec([*args, "--resolution", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "draws for power 0.99 at resolution 0.001" in err[0], err


def test_what_is_no_implementation_is_refused_naming_target() -> None:
    """A number, a string or a list is no target: a TypeError naming ``target`` before any
    work (the declared domain), from conform, plan and as_sampler alike."""
    for bad in (3, "mylib:sampler", [len], None):
        with pytest.raises(TypeError, match="target"):
            conform(bad, "bernoulli-exp")
        with pytest.raises(TypeError, match="target"):
            as_sampler(bad)
    with pytest.raises(TypeError, match="target"):
        plan(np.zeros(3), "bernoulli-exp")


def test_a_target_called_per_draw_is_not_asked_more_than_it_can_finish() -> None:
    """Sampler.draw refuses, before calling the target, more draws than one Python call each
    can give in reasonable time (2·10^6); a vectorised target is called in blocks."""

    def never(v, rng):  # type: ignore[no-untyped-def]
        raise AssertionError("called")

    per_call = as_sampler(never)
    with pytest.raises(ValueError, match="size"):
        per_call.draw(0, 2 * 10**6 + 1, np.random.default_rng(0))
    calls = []

    def vectorised(v, size, rng):  # type: ignore[no-untyped-def]
        calls.append(size)
        return np.full(size, v)

    out = as_sampler(vectorised).draw(7, 2**18 + 5, np.random.default_rng(0))
    assert out.shape == (2**18 + 5,) and calls == [2**18, 5]
    with pytest.raises(TypeError, match="seeded"):
        Sampler(vectorised, "f(data, size, rng)", "no", True, "x")  # type: ignore[arg-type]


def test_the_plugin_hook_is_exported_without_importing_pytest_at_import() -> None:
    import dpspec.conform
    from dpspec.conform import pytest_plugin

    assert "pytest_configure" in dpspec.conform.__all__
    assert dpspec.conform.pytest_configure is pytest_plugin.pytest_configure  # type: ignore[attr-defined]


def test_library_table_entries_name_catalogue_algorithms() -> None:
    """Every entry of the library table is judged as an algorithm of the catalogue with
    parameters it accepts; an installed library's vectorised entry runs through conform."""
    from dpspec.conform import LIBRARY_TARGETS
    from dpspec.conform.libraries import _library_target

    for entry in LIBRARY_TARGETS:
        algo = algorithm(entry.algorithm)
        assert algo.name == entry.algorithm
        algo._resolve(dict(entry.params))
    pytest.importorskip("opendp")
    entry = _library_target("opendp:geometric")
    target = entry.build(algorithm(entry.algorithm)._resolve(dict(entry.params)))
    result = conform(target, entry.algorithm, audit_samples=FAST, **entry.params)
    assert result.verdict == "conforms" and not result.seeded, "\n".join(result.lines())


def test_pydp_rounded_laplace_is_detected_with_the_stated_power() -> None:
    """The numbers of the PyDP rows of proofs/notes/conformance-libraries.md: Laplace of scale
    b = 2 rounded to the integer (P(0) = 1 − e^{−1/4}, P(k) = ½(e^{−(|k|−½)/b} − e^{−(|k|+½)/b}))
    against discrete Laplace at ε = 0.5: the budget sized for ε × 1.1 and ε / 1.1 over the six
    instances is 12416 draws, at which the exact power bound against the rounded law is 0.459
    per instance; 23936 draws reach 0.99."""
    from dpspec.conform.gof import _event_family, _power_bound

    budget = plan(reference("discrete-laplace", epsilon=0.5), "discrete-laplace", epsilon=0.5)
    law, b = budget.instances[0].law, 2.0

    def rounded(k: int) -> float:
        if k == 0:
            return 1 - math.exp(-0.5 / b)
        return 0.5 * (math.exp(-(abs(k) - 0.5) / b) - math.exp(-(abs(k) + 0.5) / b))

    inner = [rounded(k) for k in law.labels[1:-1]]  # the atoms around the value 0
    tail = (1 - sum(inner)) / 2
    alt = np.array([tail, *inner, tail])
    assert rounded(0) == pytest.approx(0.2212, abs=5e-5)
    assert budget.draws[0] == 12416
    power = _power_bound(law, _event_family(law), alt, 12416, budget.alpha_each)
    assert power == pytest.approx(0.459, abs=5e-4)
    n, reached = _draws_for_power(law, alt, budget.alpha_each, 0.99)
    assert n == 23936 and reached >= 0.99


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
    assert run_dpspec(["conform", f"{bad}:rr", *args, "--param", "k"]) == 2
    assert run_dpspec(["conform", f"{bad}:rr", *args, "--seed", "-1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 6 and all(line.startswith("dpspec conform:") for line in err), err


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
    with pytest.raises(ConformanceFailure, match="DEVIATES"):
        dpspec_conforms(_rr_with_bias)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(-300, 300),
    st.integers(0, 40),
    st.floats(0.01, 0.999),
)
def test_vectorised_interval_masses_equal_the_closed_forms(a: int, width: int, q: float) -> None:
    """The integer tables' interval masses and the noisy-max matrices: the same floats, bit
    for bit, as the scalar closed forms of dpspec.noise."""
    from dpspec.conform.laws import _between, _pmf, _sf
    from dpspec.noise import discrete_laplace_pmf, discrete_laplace_sf

    b = a + width

    def scalar(lo: int, hi: int) -> float:
        if lo == hi:
            return float(discrete_laplace_pmf(lo, q))
        sf = lambda k: float(discrete_laplace_sf(k, q))  # noqa: E731
        if lo > 0:
            return sf(lo) - sf(hi + 1)
        if hi < 0:
            return sf(-hi) - sf(1 - lo)
        return 1.0 - sf(hi + 1) - sf(1 - lo)

    got = _between(np.array([a]), np.array([b]), q)[0]
    assert got == scalar(a, b)
    z = np.arange(a, b + 1, dtype=np.int64)
    assert _pmf(z, q).tolist() == [float(discrete_laplace_pmf(int(v), q)) for v in z]
    assert _sf(z, q).tolist() == [float(discrete_laplace_sf(int(v), q)) for v in z]


def test_readme_resolution_sentence_is_what_conform_says() -> None:
    """The resolution sentence docs/conformance.md quotes for the discrete Laplace at scale 2 (no
    stale figures)."""
    page = Path(__file__).resolve().parent.parent / "docs" / "conformance.md"
    text = " ".join(page.read_text(encoding="utf-8").split())
    result = conform(reference("discrete-laplace", scale=2.0), "discrete-laplace", scale=2.0,
                     audit_samples=FAST)  # fmt: skip
    quoted = result.instances[0].resolution_text().split("; smaller")[0]
    assert quoted in text
