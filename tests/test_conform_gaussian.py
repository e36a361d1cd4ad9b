"""``dpspec conform``'s Gaussian and continuous-Laplace entries: the references conform, real
bugs deviate, the float caveat is stated, the parameters are checked, the CLI runs them."""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dpspec.conform import algorithm, catalogue, conform, plan, reference
from dpspec.conform.gaussian import (
    FLOAT_CAVEAT,
    _discrete_gaussian,
    _zcdp_epsilon,
    _zcdp_rho,
)
from dpspec.proofs.engine.command import run_dpspec

FAST = 2000  # audit draws per side (the audit's soundness is the audit topic's)

CASES = [
    ("discrete-gaussian", {"sigma": 2.0}),
    ("discrete-gaussian", {"epsilon": 1.0, "delta": 1e-5}),
    ("discrete-gaussian", {"sigma": 1.5, "granularity": 0.25}),
    ("gaussian", {"sigma": 2.0}),
    ("laplace", {"scale": 2.0}),
]


@pytest.mark.parametrize(("name", "params"), CASES)
def test_references_conform_with_the_stated_power(name: str, params: dict) -> None:  # type: ignore[type-arg]
    result = conform(reference(name, **params), name, audit_samples=FAST, **params)
    assert result.verdict == "conforms", "\n".join(result.lines())
    assert all(r.power >= 0.99 for r in result.instances)
    assert all("resolves the algorithm off by a factor 1.1" in r.resolution_text() for r in
               result.instances)  # fmt: skip
    labels = " ".join(r.label for r in result.instances)
    assert "negative" in labels and "drawn at random" in labels and "large" in labels


def test_instances_cover_the_input_domain() -> None:
    dg = algorithm("discrete-gaussian")
    values = [i.data for i in dg._instances(dg._resolve({"sigma": 2.0}))]
    assert 0 in values and -7 in values and max(values) > 2**30 and min(values) < -(2**30)
    cont = algorithm("gaussian")
    values = [i.data for i in cont._instances(cont._resolve({"sigma": 2.0}))]
    assert 0.0 in values and min(values) < 0 and max(values) >= 1e9


def _dg_sigma_times_1_25(v, size, rng):  # type: ignore[no-untyped-def]
    """A discrete Gaussian at σ × 1.25 (σ² = 4 · 1.5625 = 25/4) claimed as σ = 2."""
    return int(v) + _discrete_gaussian(Fraction(25, 4), size, rng)


def _gaussian_no_noise_below_zero(v, size, rng):  # type: ignore[no-untyped-def]
    """Adds its noise to non-negative inputs only (a sign test on the input gone wrong)."""
    v = float(v)
    return np.full(size, v) if v < 0 else v + rng.normal(0.0, 2.0, size)


def _laplace_wrong_scale(v, size, rng):  # type: ignore[no-untyped-def]
    """scale = Δ/ε × 0.8 (a calibration bug: 25% more ε spent than claimed)."""
    return float(v) + rng.laplace(0.0, 0.8 * 1.0 / 1.0, size)


def test_a_discrete_gaussian_at_sigma_times_1_25_deviates() -> None:
    result = conform(_dg_sigma_times_1_25, "discrete-gaussian", sigma=2.0, audit_samples=FAST)
    assert result.verdict == "deviates"
    assert all(r.fit.rejected for r in result.instances)


def test_a_gaussian_without_noise_on_negative_inputs_is_caught_there() -> None:
    result = conform(_gaussian_no_noise_below_zero, "gaussian", sigma=2.0, audit_samples=FAST)
    assert not result.conforms
    for r in result.instances:
        negative = float(r.data) < 0
        assert r.fit.rejected == negative, r.label  # the law test rejects exactly those
        assert (r.verdict != "conforms") == negative


def test_a_laplace_at_scale_times_0_8_deviates() -> None:
    result = conform(_laplace_wrong_scale, "laplace", epsilon=1.0, audit_samples=FAST)
    assert result.verdict == "deviates"
    assert all(r.fit.rejected for r in result.instances)


def test_the_float_caveat_is_in_the_description_report_and_json() -> None:
    for name in ("gaussian", "laplace"):
        algo = algorithm(name)
        assert FLOAT_CAVEAT in algo.summary and algo.describe()["caveat"] == FLOAT_CAVEAT
    result = conform(reference("laplace", scale=2.0), "laplace", scale=2.0, audit_samples=FAST)
    assert any(FLOAT_CAVEAT in line for line in result.lines())
    assert any(FLOAT_CAVEAT in n for n in result.to_json()["notes"])
    exact = conform(
        reference("discrete-gaussian", sigma=2.0),
        "discrete-gaussian",
        sigma=2.0,
        audit_samples=FAST,
    )
    assert not any(FLOAT_CAVEAT in n for n in exact.notes)  # an exact law needs no caveat


def test_the_gaussian_claim_is_the_zcdp_epsilon_delta_form() -> None:
    p = plan(reference("discrete-gaussian", sigma=2.0), "discrete-gaussian", sigma=2.0,
             audit_samples=FAST)  # fmt: skip
    rho = 1 / 8
    assert p.claim == pytest.approx((rho + 2 * math.sqrt(rho * math.log(1e6)), 1e-6))
    for eps, delta in ((0.5, 1e-6), (1.0, 1e-5), (3.0, 1e-9)):
        assert _zcdp_epsilon(_zcdp_rho(eps, delta), delta) == pytest.approx(eps, rel=1e-12)
    # σ from ε is rounded up (σ² to a multiple of 1/1000): the claim at σ is at most ε
    algo = algorithm("discrete-gaussian")
    sigma = algo._resolve({"epsilon": 1.0})["sigma"]
    assert _zcdp_epsilon(1 / (2 * sigma**2), 1e-6) <= 1.0
    result = conform(reference("discrete-gaussian", sigma=2.0), "discrete-gaussian", sigma=2.0,
                     audit_samples=FAST)  # fmt: skip
    row = result.instances[0].guarantees[0]
    assert "zCDP" in row["guarantee"] and row["measured"]["rho"] == pytest.approx(rho)


def test_the_exact_sampler_draws_the_discrete_gaussian() -> None:
    """Frequencies of 2·10^5 draws at σ² = 2 against exp(−z²/4)/Σ (6 sd of each)."""
    z = _discrete_gaussian(Fraction(2), 200_000, np.random.default_rng(3))
    ks = np.arange(-30, 31)
    w = np.exp(-(ks**2) / 4.0)
    p = w / w.sum()
    freq = np.array([(z == k).mean() for k in ks])
    assert np.all(np.abs(freq - p) <= 6 * np.sqrt(p * (1 - p) / z.size) + 1e-12)
    assert _discrete_gaussian(Fraction(9, 4), 0, np.random.default_rng(0)).size == 0
    with pytest.raises(ValueError, match="sigma"):
        _discrete_gaussian(Fraction(0), 3, np.random.default_rng(0))


@pytest.mark.parametrize(
    ("name", "params", "error", "named"),
    [
        ("discrete-gaussian", {}, ValueError, "sigma"),
        ("discrete-gaussian", {"sigma": 2.0, "epsilon": 1.0}, ValueError, "sigma"),
        ("discrete-gaussian", {"sigma": 2.0, "granularity": 0.3}, ValueError, "granularity"),
        ("discrete-gaussian", {"sigma": 2.0, "sensitivity": 1.5}, ValueError, "sensitivity"),
        ("discrete-gaussian", {"sigma": "2"}, TypeError, "sigma"),
        ("discrete-gaussian", {"sigma": 2.0, "delta": 0.0}, ValueError, "delta"),
        ("gaussian", {}, ValueError, "sigma"),
        ("gaussian", {"sigma": -1.0}, ValueError, "sigma"),
        ("gaussian", {"sigma": 1e-9}, ValueError, "sigma"),
        ("laplace", {}, ValueError, "scale"),
        ("laplace", {"scale": 1.0, "bins": 3}, ValueError, "bins"),
    ],
)
def test_bad_parameters_are_refused_naming_them(
    name: str,
    params: dict,  # type: ignore[type-arg]
    error: type[Exception],
    named: str,
) -> None:
    with pytest.raises(error, match=named):
        plan(reference("discrete-laplace", scale=2.0), name, **params)


def test_the_catalogue_lists_them() -> None:
    assert {"discrete-gaussian", "gaussian", "laplace"} <= set(catalogue())
    assert algorithm("normal").name == "gaussian"


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_list = tmp_path / "list.json"
    assert run_dpspec(["conform", "--list", "--json", str(out_list)]) == 0
    listed = capsys.readouterr().out
    for name in ("discrete-gaussian", "gaussian", "laplace"):
        assert f"\n{name}" in listed or listed.startswith(name)
    assert FLOAT_CAVEAT in listed
    target = tmp_path / "noise.py"
    target.write_text(
        "from fractions import Fraction\n"
        "from dpspec.conform.gaussian import _discrete_gaussian\n"
        "def dg(v, size, rng):\n"
        "    return int(v) + _discrete_gaussian(Fraction(4), size, rng)\n"
        "def wide(v, size, rng):\n"
        "    return int(v) + _discrete_gaussian(Fraction(25, 4), size, rng)\n"
        "def gauss(v, size, rng):\n"
        "    return float(v) + rng.normal(0.0, 2.0, size)\n"
    )
    report = tmp_path / "r.json"
    common = ["--param", "sigma=2", "--audit-samples", str(FAST)]
    code = run_dpspec(
        ["conform", f"{target}:dg", "--as", "discrete-gaussian", *common, "--json", str(report)]
    )
    assert code == 0
    data = json.loads(report.read_text())
    assert data["verdict"] == "conforms" and data["params"]["sigma"] == 2.0
    assert run_dpspec(["conform", f"{target}:wide", "--as", "discrete-gaussian", *common]) == 1
    code = run_dpspec(["conform", f"{target}:gauss", "--as", "gaussian", *common, "--json",
                       str(report)])  # fmt: skip
    assert code == 0
    assert any(FLOAT_CAVEAT in n for n in json.loads(report.read_text())["notes"])
    capsys.readouterr()
    assert run_dpspec(["conform", f"{target}:dg", "--as", "discrete-gaussian"]) == 2
    assert "sigma" in capsys.readouterr().err


# --- the time of a run of a target called once per draw, stated before it starts ------------


def _slow_coin(g, rng):  # type: ignore[no-untyped-def]
    time.sleep(0.001)
    return bool(rng.random() < math.exp(-float(g)))


def _coin(g, rng):  # type: ignore[no-untyped-def]
    return bool(rng.random() < math.exp(-float(g)))


def test_a_per_call_target_is_timed_and_refused_beyond_max_seconds() -> None:
    p = plan(_slow_coin, "bernoulli-exp")
    assert p.estimate is not None and p.estimate["draws"] == sum(p.draws)  # no claim: no audit
    assert p.estimate["seconds"] >= 0.001 * sum(p.draws)
    assert "draws of a target called once per draw" in p.estimate_text()
    with pytest.raises(ValueError, match="max_seconds"):
        plan(_slow_coin, "bernoulli-exp", max_seconds=1.0)
    assert plan(reference("bernoulli-exp"), "bernoulli-exp").estimate is None  # not asked


def test_max_seconds_applies_to_a_vectorised_target_and_refuses_learners() -> None:
    """``max_seconds`` is never ignored: a vectorised target is timed on a pilot when it is
    given (refused at a limit no run meets, planned with its estimate at a generous one); a
    learner's run, which no pilot estimates, is refused naming the option."""
    with pytest.raises(ValueError, match=r"max_seconds: the run would take .* a vectorised target"):
        plan(reference("bernoulli-exp"), "bernoulli-exp", max_seconds=1e-9)
    p = plan(reference("bernoulli-exp"), "bernoulli-exp", max_seconds=600)
    assert p.estimate is not None and p.estimate["draws"] == sum(p.draws)
    with pytest.raises(ValueError, match="max_seconds: a learner"):
        plan(reference("pcl", epsilon=1), "pcl", epsilon=1, max_seconds=600)


def test_the_estimate_is_printed_before_the_run_and_kept(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = conform(_coin, "bernoulli-exp", gamma=1)
    err = capsys.readouterr().err
    assert err.startswith("dpspec conform: about ") and "timed on a pilot of" in err
    assert any(n.startswith("estimated before the run: about") for n in result.notes)
    p = plan(_coin, "randomized-response", epsilon=1.0, audit_samples=FAST)
    assert p.estimate is not None and p.estimate["draws"] == sum(p.draws) + len(p.instances) * (
        2 * (FAST + 1000) + 256
    )


def test_opendp_measurements_of_one_input_are_run_in_compositions() -> None:
    pytest.importorskip("opendp")
    from dpspec.conform.libraries import BATCHED_FORM, OPENDP_BATCH, _library_target

    entry = _library_target("opendp:randomized-response-bool")
    params = algorithm(entry.algorithm)._resolve(dict(entry.params))
    sampler = entry.build(params)
    assert sampler.form == BATCHED_FORM
    out = sampler.draw(1, OPENDP_BATCH + 7, np.random.default_rng(0))
    assert out.shape == (OPENDP_BATCH + 7,) and set(out.tolist()) <= {0, 1}
    result = conform(sampler, entry.algorithm, resolution=0.3, audit_samples=FAST, **entry.params)
    assert result.verdict == "conforms", "\n".join(result.lines())


def test_the_cli_max_seconds_is_named_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    """``dpspec conform --max-seconds S`` reaches the plan: refused in one line naming the
    option (exit 2) before any draw."""
    from dpspec.cli import main

    argv = ["conform", "dpspec", "--as", "discrete-laplace", "--param", "scale=2"]
    assert main([*argv, "--max-seconds", "1e-9"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("dpspec conform: --max-seconds: the run would take") and "\n" not in err
