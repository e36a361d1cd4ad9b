"""Regression tests (verdicts a library author can trust on inputs they did not
choose): each test names the finding it pins."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import pytest

from dpspec.audit import audit
from dpspec.conform import ConformanceFailure, conform
from dpspec.validation import Real, checked, example


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


@dataclass(frozen=True)
class _AdmitsNaN(Real):
    """A scratch domain with a bug: it admits NaN."""

    def convert(self, value: Any, name: str) -> Any:
        if isinstance(value, float) and math.isnan(value):
            return value
        return super().convert(value, name)


@example(__call__={"x": 1.0})
@checked
def _scale_with_a_buggy_domain(x: Annotated[float, _AdmitsNaN(0.0, 10.0, clean=1.0)]) -> float:
    return 2 * x


@example(__call__={"x": 1.0})
@checked
def _scale(x: Annotated[float, Real(0.0, 10.0, clean=1.0)]) -> float:
    return 2 * x


def test_the_sweep_expects_what_a_kind_of_domain_must_refuse() -> None:
    """Before: ``Domain.refused()`` filtered ``hostile()`` through the domain's own check, so a
    domain that wrongly admitted NaN (or ±inf, or a value past its bound) removed that value
    from its own sweep. A scratch Real domain that admits NaN now fails the sweep."""
    from dpspec.proofs.engine.discovery import PublicObject
    from dpspec.proofs.engine.sweep import Entry, Tally, sweep_entry

    for function, fails in ((_scale_with_a_buggy_domain, True), (_scale, False)):
        tally = Tally()
        sweep_entry(Entry(PublicObject(__name__, function.__name__, function), "__call__"), tally)
        assert tally.calls > 10 and bool(tally.failures) == fails, tally.failures
        if fails:
            assert any("nan" in f for f in tally.failures), tally.failures


def test_raw_exceptions_become_errors_naming_the_parameter(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: ``coarsen_up(Fraction(10**400, 3))`` raised a raw OverflowError; an empty
    ``DPSPEC_CHECKPOINT_KEY`` silently sealed with the unkeyed SHA-256."""
    from fractions import Fraction

    from dpspec.noise import coarsen_up

    with pytest.raises(ValueError, match=r"scale: sensitivity/epsilon = 3.33e\+399 is too large"):
        coarsen_up(Fraction(10**400, 3))
    with pytest.raises(ValueError, match=r"scale: .* = 3.33e-401 is too small"):
        coarsen_up(Fraction(1, 3 * 10**400 + 1))
    monkeypatch.setenv("DPSPEC_CHECKPOINT_KEY", "")
    calls = []

    def lap(d: Any, n: int, rng: np.random.Generator) -> Any:
        calls.append(n)
        return d + rng.laplace(0, 2, n)

    with pytest.raises(ValueError, match="DPSPEC_CHECKPOINT_KEY is set but empty"):
        audit(lap, (0.0, 1.0), 0.5, samples=1000, checkpoint=tmp_path / "c.json")
    assert not calls  # refused before any draw


def test_conform_names_what_the_user_gave(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: a target returning a scalar exited 3 with "'int' object is not iterable";
    ``--max-draws 10`` was refused naming ``max_draws`` (not the option typed)."""
    from dpspec.proofs.engine.command import run_dpspec

    module = tmp_path / "scalar.py"
    module.write_text("def one(v, size, rng):\n    return int(v)\n")
    base = ["conform", "--as", "discrete-laplace", "--param", "scale=2"]
    assert run_dpspec([*base[:1], f"{module}:one", *base[1:]]) == 3
    assert run_dpspec([*base[:1], "dpspec", *base[1:], "--max-draws", "10"]) == 2
    assert run_dpspec([*base[:1], "dpspec", *base[1:4], "scale=2e7"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "returned one int (0) for" in err[0] and "returns size outputs" in err[0]
    assert err[1].startswith("dpspec conform: --max-draws: instance 'value 0' needs")
    assert err[2].startswith("dpspec conform: --param scale: at most 1e6")


def test_report_from_is_checked_against_its_published_schema(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``report --from`` trusted everything beyond id/status (a string ``seconds``, a
    non-dict ``controls``, a ``tightest`` without ``claim``, a 200 000-deep array: exit 3);
    duplicate ids could hide a failure; ids matching nothing exited 0."""
    import json
    from pathlib import Path

    from dpspec.proofs.engine.command import run_dpspec
    from dpspec.proofs.engine.report_schema import PUBLISHED, published_text

    assert PUBLISHED.read_text(encoding="utf-8") == published_text()
    good = {"id": "pcl.privacy", "status": "passed", "seconds": 1.0}
    cases = {
        "seconds": {"obligations": [{**good, "seconds": "1"}]},
        "controls": {"obligations": [{**good, "controls": ["caught"]}]},
        "tightest": {"obligations": [{**good, "tightest": {"quantity": "ε", "measured": 1}}]},
        "repeats": {"obligations": [good, {**good, "status": "failed"}]},
        "registered": {"obligations": [{**good, "id": "nobody.knows"}]},
    }
    for name, body in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(body))
        assert run_dpspec(["report", "--from", str(path)]) == 2, name
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and name in err[0], (name, err)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    assert run_dpspec(["report", "--from", str(deep)]) == 2
    assert "nested too deeply" in capsys.readouterr().err
    fine = tmp_path / "fine.json"
    fine.write_text(json.dumps({"obligations": [good]}))
    out = tmp_path / "r.md"
    assert run_dpspec(["report", "--from", str(fine), "--markdown", str(out)]) == 0
    assert out.read_text().startswith("#") and not list(Path(tmp_path).glob(".*.partial"))


def test_a_required_parameter_is_required() -> None:
    """Before: ``--param granularity`` silently defaulted to 2^-20, so a correct sampler on
    another lattice "deviated" (z = 231)."""
    with pytest.raises(ValueError, match=r"granularity: required.*= 9.53674e-07"):
        conform(lambda v, size, rng: np.zeros(size), "lattice-laplace", epsilon=1.0)


def test_both_pytest_plugins_in_one_conftest(tmp_path: Any) -> None:
    """Before: a conftest.py listing both plugins stopped pytest ("Plugin already registered
    under a different name"): the conform plugin's entry point had another name."""
    import subprocess
    import sys

    (tmp_path / "conftest.py").write_text(
        'pytest_plugins = ["dpspec.audit.pytest_plugin", "dpspec.conform.pytest_plugin"]\n'
    )
    (tmp_path / "test_both.py").write_text(
        "def test_fixtures(assert_dp, dpspec_conforms):\n"
        "    assert callable(assert_dp) and callable(dpspec_conforms)\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


def _exact_one_run_pvalue(m: int, r: int, w: int, q: Any, delta: Any, factor: int = 2) -> Any:
    """The one-run (ε, δ) p-value (Steinke, Nasr, Jagielski 2023) in exact rationals, for a
    rational q = e^ε/(1 + e^ε): P[Bin(r, q) ≥ W] + factor·m·δ·max_{1≤i≤W} P[W−i ≤ Bin < W]/i."""
    from fractions import Fraction

    pmf = [math.comb(r, k) * q**k * (1 - q) ** (r - k) for k in range(r + 1)]
    tail = sum(pmf[w:], Fraction(0))
    if delta == 0 or w == 0:
        return min(tail, Fraction(1))
    window = max(sum(pmf[max(w - i, 0) : w], Fraction(0)) / i for i in range(1, w + 1))
    return min(tail + factor * m * delta * window, Fraction(1))


def test_the_one_run_pvalue_is_its_closed_form() -> None:
    """Before: the one-run audit's (ε, δ) p-value was checked for monotonicity only. Here it
    is recomputed in exact rationals (ε = ln 3 and ln(3/2): q = 3/4, 3/5) on every W of
    r ∈ {10, 40} guesses among m = 2r canaries, δ ∈ {0, 1e-4, 1/200}; the implementation agrees to
    1e-9 relative, and the same formula with the δ term's factor 2 dropped does not."""
    from fractions import Fraction

    from dpspec.audit.one_run import one_run_pvalue

    differs = 0
    for eps, q in ((math.log(3), Fraction(3, 4)), (math.log(1.5), Fraction(3, 5))):
        for r in (10, 40):
            for delta in (Fraction(0), Fraction(1, 10_000), Fraction(1, 200)):
                for w in range(r + 1):
                    exact = _exact_one_run_pvalue(2 * r, r, w, q, delta)
                    got = one_run_pvalue(2 * r, r, w, eps, float(delta))
                    assert math.isclose(got, float(exact), rel_tol=1e-9, abs_tol=1e-300), (
                        eps,
                        r,
                        float(delta),
                        w,
                        got,
                        float(exact),
                    )
                    half = _exact_one_run_pvalue(2 * r, r, w, q, delta, factor=1)
                    differs += not math.isclose(got, float(half), rel_tol=1e-9)
    assert differs > 50  # the control: a factor 2 off is seen


def test_every_sampler_path_is_enumerated() -> None:
    """Before: geometric()'s block path (scales above its table) was never run by verify. A law
    check given the sampler module now fails when a ``sample`` method it reaches has a line no
    case ran: the discrete Laplace at scale 1 alone (the direct table) leaves the block path."""
    from fractions import Fraction

    from dpspec import noise
    from dpspec.noise import _laws
    from dpspec.proofs.engine.law_checks import LawCase, drawing, law_check
    from dpspec.spec.laws import factor, two_sided_spec

    case = LawCase(
        "discrete_laplace(scale=1)",
        drawing(noise.discrete_laplace, Fraction(1)),
        two_sided_spec(factor(Fraction(1))),
    )
    out = law_check([case], [], paths=_laws)
    assert not out.passed and "TwoSidedSampler.sample: lines" in out.detail
    assert law_check([case], []).passed


def test_atomic_writes_leave_devices_and_links_alone(tmp_path: Any) -> None:
    """Writing --json/--markdown atomically must not replace a device (/dev/full stays a
    device and the write fails) or a symlink (the file it names is replaced)."""
    import os
    import stat
    from pathlib import Path

    from dpspec.proofs.engine.errors import InternalError, write_atomically

    if Path("/dev/full").exists():
        with pytest.raises(InternalError, match="--json: cannot write"):
            write_atomically("/dev/full", "x", "--json")
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    write_atomically(str(link), "new", "--markdown")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_negative_one_run_bound_is_kept_and_explained() -> None:
    """``learner_one_run``'s ε_lower < 0 (fewer than half the guesses right at δ = 0) is the
    bound computed, returned as it is and never a violation of a claim ε ≥ 0; the record's
    docstring says so (finding: "can report ε_lower < 0, clamp or explain")."""
    from dpspec.audit.one_run import OneRunResult, one_run_epsilon_lower

    low = one_run_epsilon_lower(correct=10, guesses=50)
    assert low < 0  # logit of a Clopper-Pearson lower bound below 1/2
    assert one_run_epsilon_lower(correct=40, guesses=50) > 0  # control: a majority right
    assert "negative ``epsilon_lower``" in (OneRunResult.__doc__ or "")


def test_spec_docstrings_point_at_modules_that_exist() -> None:
    """Every ``dpspec.…`` name a spec module's docstrings cite resolves (the finding:
    spec/mechanisms.py pointed at ``dpspec.proofs.lemmas``, which does not exist); a
    ``topics.*.lemmas`` pattern names at least one lemma module."""
    import importlib
    import pkgutil
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "spec"
    cited = set()
    for path in root.glob("*.py"):
        cited |= set(re.findall(r"`(dpspec\.[A-Za-z0-9_.*]+)`", path.read_text(encoding="utf-8")))
    assert cited  # control for the extraction

    def resolves(name: str) -> bool:
        if "*" in name:
            head, _, tail = name.partition("*")
            package = importlib.import_module(head.rstrip("."))
            return any(
                resolves(f"{head}{m.name}{tail}") for m in pkgutil.iter_modules(package.__path__)
            )
        try:
            pkgutil.resolve_name(name)
        except (ImportError, AttributeError, ValueError):
            return False
        return True

    assert all(resolves(n) for n in cited), sorted(n for n in cited if not resolves(n))
    assert not resolves("dpspec.proofs.lemmas")  # control: the old pointer


def test_auto_samples_is_what_the_docstrings_say() -> None:
    """``samples="auto"`` takes N = 3000/δ (at least 10⁶) as ``audit``'s docstring, the CLI help
    and the documents (README and every docs page) say (finding: the docstring said 30/δ where
    the code took 3000/δ)."""
    import re
    from pathlib import Path

    from dpspec.audit import loop

    assert loop._auto_samples(1.0, 1e-3, 0.95)[0] == 3_000_000
    assert loop._auto_samples(1.0, 1e-2, 0.95)[0] == 10**6  # 3000/δ = 3·10⁵, raised to 10⁶
    texts = [loop.audit.__doc__ or "", loop._auto_samples.__doc__ or ""]
    root = Path(__file__).resolve().parent.parent
    for doc in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]:
        texts.append(doc.read_text("utf-8"))
    assert any("3000/δ" in t for t in texts[2:])  # the documents state the rule
    stated = {m for t in texts for m in re.findall(r"(\d+)/δ", t)}
    assert stated == {"3000"}, stated
