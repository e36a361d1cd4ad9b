"""``conform_accountant``: the reference's closed-form intervals, the verdicts, the records, the
library adapters' refusals and the command line (``dpspec conform TARGET --as accountant``)."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from dpspec.accounting import Bracket, Composition
from dpspec.conform import accountants
from dpspec.conform.accountant_libraries import (
    ACCOUNTANT_TARGETS,
    PACKAGES,
    _accountant_target,
)
from dpspec.conform.accountants import (
    GRID,
    NotExpressible,
    Row,
    conform_accountant,
    judge,
    reference_accountant,
)


def _delta_closed(epsilon: float, mu: float) -> float:
    """The Gaussian δ(ε), written here (valid while e^ε is a float)."""

    def sf(x: float) -> float:
        return 0.5 * math.erfc(x / math.sqrt(2))

    return sf(epsilon / mu - mu / 2) - math.exp(epsilon) * sf(epsilon / mu + mu / 2)


def test_the_reference_brackets_the_closed_form() -> None:
    """Every unsubsampled Gaussian row with ε < 600: δ(ε_hi) ≤ δ < δ(ε_lo) (or ε_lo = 0); the
    one-step Laplace rows contain ε(δ) = max(0, 1/b + 2 ln(1 − δ)) (from δ(ε) =
    1 − e^{(ε − 1/b)/2}) and the pure sums are T/b exactly."""
    checked = 0
    for row in GRID:
        c = row.composition
        if c.sampling != "none":
            continue
        interval = accountants.epsilon_interval(c, row.delta)
        factor = 1  # the noise multiplier is relative to the relation's sensitivity
        if c.mechanism == "laplace":
            eps0 = factor / c.noise
            if row.delta == 0:
                assert interval.lo == interval.hi == Fraction(c.steps * factor) / Fraction(c.noise)
            else:
                expected = max(0.0, eps0 + 2 * math.log(1 - row.delta))
                assert float(interval.lo) <= expected <= float(interval.hi)
            checked += 1
            continue
        mu = factor * math.sqrt(c.steps) / c.noise
        if float(interval.hi) >= 600:
            continue
        assert _delta_closed(float(interval.hi), mu) <= row.delta * (1 + 1e-9)
        if interval.lo > 0:
            assert _delta_closed(float(interval.lo), mu) > row.delta * (1 - 1e-9)
        assert float(interval.hi - interval.lo) <= 1e-6 * max(1.0, float(interval.hi))
        checked += 1
    assert checked >= 20


def test_judge_reads_the_interval() -> None:
    interval = Bracket(Fraction(1), Fraction(2))
    assert judge(0.999, interval) == "unsafe"
    assert judge(1.0, interval) == "conforms"
    assert judge(2.0, interval) == "conforms"
    assert judge(2.2, interval) == "conforms"  # 10% above ε_hi
    assert judge(2.21, interval) == "loose"
    assert judge(2.21, interval, looseness=0.2) == "conforms"
    assert judge(math.inf, interval) == "loose"
    zero = Bracket(Fraction(0), Fraction(0))
    assert judge(0.0009, zero) == "conforms"  # the absolute slack
    assert judge(0.002, zero) == "loose"
    # exact: the float just below a Fraction end is unsafe, not rounded onto it
    third = Bracket(Fraction(1, 3), Fraction(1, 2))
    assert judge(math.nextafter(1 / 3, 0), third) == "unsafe"
    assert judge(float(Fraction(1, 3)), third) == (
        "unsafe" if Fraction(1, 3) > 1 / 3 else "conforms"
    )
    infinite = Bracket(math.inf, math.inf)
    assert judge(math.inf, infinite) == "conforms"
    assert judge(1e300, infinite) == "unsafe"


def test_the_grid_covers_the_boundaries() -> None:
    gauss = [r for r in GRID if r.composition.mechanism == "gaussian"]
    assert {r.composition.noise for r in gauss} == {0.5, 10.0}
    assert {r.composition.rate for r in gauss} == {1e-4, 0.01, 1.0}
    assert {r.composition.steps for r in gauss} == {1, 100, 10**4}
    assert {r.delta for r in gauss} == {1e-5, 1e-12, 0.1}
    assert {r.composition.relation for r in gauss} == {"add_remove", "substitution"}
    assert len({r.label for r in GRID}) == len(GRID)


def test_dpspec_own_accountant_conforms() -> None:
    """On the closed-form rows and two subsampled ones (the reference's grid path)."""
    rows = [r for r in GRID if r.composition.sampling == "none"]
    rows += [r for r in GRID if r.composition.sampling != "none" and r.delta == 0.1][:2]
    result = conform_accountant(reference_accountant, rows)
    assert result.verdict == "conforms" and result.count("conforms") == len(rows)
    assert result.exit_code == 0


def test_a_row_the_reference_refuses_has_no_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(composition: object, delta: float) -> Bracket:
        raise ValueError("composition: beyond the catalogue")

    monkeypatch.setattr(accountants, "epsilon_interval", refuse)
    report = conform_accountant(lambda c, d: 1.0, GRID[:1]).rows[0]
    assert report.verdict == "no reference" and report.why == "beyond the catalogue"
    assert report.lo is None and report.reported == 1.0
    mine = conform_accountant(reference_accountant, GRID[:1])
    assert mine.rows[0].verdict == "no reference" and mine.verdict == "not judged"


def _rows() -> list[Row]:
    return [r for r in GRID if r.composition.sampling == "none"][:4]


def test_rows_record_what_the_target_did() -> None:
    def target(composition: object, delta: float) -> float:
        c = composition
        assert isinstance(c, Composition)
        if c.noise == 0.5 and c.steps == 1 and delta == 1e-5:
            raise NotExpressible("not this one")
        if delta == 1e-12:
            raise RuntimeError("library failure\nsecond line")
        if delta == 0.1:
            return -0.5
        return 0.0

    result = conform_accountant(target, _rows())
    verdicts = [r.verdict for r in result.rows]
    assert verdicts == ["not expressible", "error", "error", "unsafe"]
    assert result.rows[1].why == "RuntimeError: library failure"
    assert "negative" not in result.rows[2].why and "-0.5" in result.rows[2].why
    assert result.verdict == "unsafe" and result.exit_code == 1
    record = result.to_json()
    assert record["counts"]["error"] == 2 and record["verdict"] == "unsafe"
    json.dumps(record)
    lines = result.lines()
    assert lines[-1].startswith("verdict: unsafe")
    assert len(lines) == 2 + len(result.notes) + len(result.rows)


def test_nan_and_non_numbers_are_errors() -> None:
    for value in (math.nan, "1.0", None, [1.0]):
        result = conform_accountant(lambda c, d, v=value: v, _rows()[:1])
        assert result.rows[0].verdict == "error", value
        assert result.verdict == "not judged" and result.exit_code == 1


def test_the_overall_verdict_prefers_unsafe_then_loose() -> None:
    assert accountants._overall(["conforms", "loose", "unsafe"]) == "unsafe"
    assert accountants._overall(["conforms", "loose"]) == "loose"
    assert accountants._overall(["conforms", "error"]) == "conforms"
    assert accountants._overall(["error", "no reference"]) == "not judged"


def test_arguments_are_refused_naming_them() -> None:
    with pytest.raises(TypeError, match=r"^target:"):
        conform_accountant(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^rows"):
        conform_accountant(reference_accountant, [])
    with pytest.raises(ValueError, match=r"^rows"):
        conform_accountant(reference_accountant, [1.0])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"^looseness:"):
        conform_accountant(reference_accountant, looseness=-1.0)
    with pytest.raises(ValueError, match=r"^rate:"):
        Composition("gaussian", 1.0, "none", 0.5, 1, "add_remove")
    with pytest.raises(ValueError, match=r"^relation:"):
        Composition("gaussian", 1.0, "poisson", 0.5, 1, "substitution")
    with pytest.raises(ValueError, match=r"^mechanism:"):
        Composition("exponential", 1.0, "none", 1.0, 1, "add_remove")
    with pytest.raises(ValueError, match=r"^noise:"):
        Composition("gaussian", 0.0, "none", 1.0, 1, "add_remove")
    with pytest.raises(ValueError, match=r"^delta:"):
        Row(Composition("gaussian", 1.0, "none", 1.0, 1, "add_remove"), 1.0)


def test_library_targets_say_when_they_are_not_installed() -> None:
    """Each adapter imports its library lazily: where it is not installed, asking it a row is
    'not expressible: not installed' and the command line's lookup refuses naming target."""
    assert {t.library for t in ACCOUNTANT_TARGETS} == set(PACKAGES)
    for entry in ACCOUNTANT_TARGETS:
        installed = importlib.util.find_spec(entry.library) is not None
        row = _rows()[0]
        if installed:
            assert isinstance(_accountant_target(entry.name).name, str)
            continue
        with pytest.raises(NotExpressible, match="not installed"):
            entry(row.composition, row.delta)
        with pytest.raises(ValueError, match=rf"^target: {entry.library} is not installed"):
            _accountant_target(entry.name)
    with pytest.raises(ValueError, match=r"^target: unknown"):
        _accountant_target("dp_accounting:bogus")


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dpspec.cli", "conform", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


def test_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    few = ("--rows", "σ=10 T=1 add_remove")
    done = _cli("dpspec", "--as", "accountant", *few, "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("verdict: conforms")
    assert json.loads(out.read_text())["verdict"] == "conforms"
    (tmp_path / "mine.py").write_text("def acct(composition, delta):\n    return 0.0\n")
    done = _cli("mine.py:acct", "--as", "accountant", *few, cwd=tmp_path)
    assert done.returncode == 1 and "verdict: unsafe" in done.stdout
    for bad, start in (
        (("dpspec", "--as", "accountant", "--param", "k=1"), "--param:"),
        (("dpspec", "--as", "accountant", "--looseness", "-1"), "argument --looseness:"),
        (("dpspec", "--as", "discrete-laplace", "--looseness", "0.2"), "--looseness:"),
        (("dpspec", "--as", "accountant", "--rows", "nothing"), "--rows:"),
        (("nowhere:fn", "--as", "accountant"), "target:"),
    ):
        done = _cli(*bad)
        assert done.returncode == 2, (bad, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"dpspec conform: {start}"), lines
