"""Audit targets: the user's own callables and other DP libraries (OpenDP, PyDP, diffprivlib)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from dpspec.audit import audit
from dpspec.audit.libraries import _gaussian_sigma, load_target
from dpspec.audit.zoo import gaussian_epsilon

ALPHA = 1e-6


def _laplace_ks(draws: np.ndarray, scale: float) -> float:
    return float(stats.kstest(draws, stats.laplace(scale=scale).cdf).pvalue)


def test_user_callables(tmp_path: Path) -> None:
    code = tmp_path / "mech.py"
    code.write_text(
        "import numpy as np\n"
        "def vec(d, n, rng):\n    return d + rng.laplace(0, 2.0, n)\n"
        "def one(d, rng):\n    return d + rng.laplace(0, 2.0)\n"
        "def plain(d):\n    return d\n"
        "class Obj:\n    def sample(self, d, n, rng):\n        return np.full(n, d)\n"
        "obj = Obj()\n",
        encoding="utf-8",
    )
    rng = np.random.default_rng(0)
    for name, shape in [("vec", (7,)), ("one", (7,)), ("plain", (7,)), ("obj", (7,))]:
        assert load_target(f"{code}:{name}", 1.0).sample(0.0, 7, rng).shape == shape
    assert not audit(load_target(f"{code}:vec", 0.5), (0.0, 1.0), 0.5, samples=20_000).violation
    assert audit(load_target(f"{code}:plain", 0.5), (0.0, 1.0), 0.5, samples=2000).violation


def test_bad_targets(tmp_path: Path) -> None:
    for spec in [
        "nolib",
        "opendp:nope",
        "pydp:gaussian",
        f"{tmp_path}/x.py:f",
        "no_such_module_xyz:f",
        "dpspec.audit.zoo:nothing_here",
        ":f",
    ]:
        with pytest.raises(ValueError, match="target"):
            load_target(spec, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        load_target("opendp:laplace", -1.0)
    with pytest.raises(ValueError, match="delta"):
        load_target("opendp:gaussian", 1.0, 0.0)


def test_gaussian_calibration() -> None:
    """The analytic σ is the smallest with exact ε at δ equal to the claim; the classic
    σ = √(2 ln(1.25/δ))/ε is larger (over-noised) for ε = 1."""
    sigma = _gaussian_sigma(1.0, 1e-5)
    assert math.isclose(gaussian_epsilon(sigma, 1e-5), 1.0, rel_tol=1e-7)
    assert sigma < math.sqrt(2 * math.log(1.25 / 1e-5)) and gaussian_epsilon(4.845, 1e-5) < 1


def test_opendp_follows_its_claimed_law() -> None:
    pytest.importorskip("opendp")
    draws = np.asarray(load_target("opendp:laplace", 0.5).sample(0.0, 20_000, None))  # type: ignore[arg-type]
    assert _laplace_ks(draws, 2.0) > ALPHA
    assert _laplace_ks(draws, 1.6) < ALPHA  # control: a wrong scale is rejected
    ints = np.asarray(load_target("opendp:geometric", 0.5).sample(3, 2000, None))  # type: ignore[arg-type]
    assert ints.dtype.kind == "i" and abs(float(np.mean(ints)) - 3) < 0.5
    gauss = np.asarray(load_target("opendp:gaussian", 1.0, 1e-5).sample(0.0, 5000, None))  # type: ignore[arg-type]
    assert (
        float(stats.kstest(gauss, stats.norm(scale=_gaussian_sigma(1.0, 1e-5)).cdf).pvalue) > ALPHA
    )


def test_pydp_follows_its_claimed_law() -> None:
    pytest.importorskip("pydp")
    draws = np.asarray(load_target("pydp:laplace", 0.5).sample([0.0], 20_000, None))  # type: ignore[arg-type]
    assert _laplace_ks(draws, 2.0) > ALPHA
    assert _laplace_ks(draws, 1.6) < ALPHA
    counts = np.asarray(load_target("pydp:count", 1.0).sample(5, 2000, None))  # type: ignore[arg-type]
    assert abs(float(np.mean(counts)) - 5) < 0.3


def test_diffprivlib_target() -> None:
    """diffprivlib 0.6.x fails to import beside scikit-learn >= 1.8: the target then says so
    (exit 2 in the CLI); where it imports, its Laplace follows the claimed law."""
    import importlib.util

    if importlib.util.find_spec("diffprivlib") is None:
        with pytest.raises(ValueError, match="not installed"):
            load_target("diffprivlib:laplace", 1.0)
        return
    try:
        from diffprivlib import mechanisms  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match="scikit-learn"):
            load_target("diffprivlib:laplace", 1.0)
        return
    draws = np.asarray(load_target("diffprivlib:laplace", 0.5).sample(0.0, 20_000, None))  # type: ignore[arg-type]
    assert _laplace_ks(draws, 2.0) > ALPHA and _laplace_ks(draws, 1.6) < ALPHA


def test_target_that_raises_on_import(tmp_path: Path) -> None:
    """A user file that raises while loading is the target's failure (MechanismError, CLI exit
    3), not a usage error — even when it raises ValueError."""
    from dpspec.audit import MechanismError
    from dpspec.cli import main

    code = tmp_path / "bad_target.py"
    code.write_text("raise ValueError('broken at import')\n", encoding="utf-8")
    with pytest.raises(MechanismError, match="broken at import"):
        load_target(f"{code}:f", 1.0)
    assert main(["audit", f"{code}:f", "--epsilon", "1", "--no-progress"]) == 3
