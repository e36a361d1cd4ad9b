"""The auditor's two verdict bugs of 0.2, as regression tests: a learner audit runs
the object's own fit/predict, and a checkpoint resumes its own audit and nothing else."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dpspec.audit import audit, fingerprint
from dpspec.audit._checkpoint import KEY_VARIABLE, _digest
from dpspec.audit.learner_zoo import _pcl_pair
from dpspec.audit.learners import LearnerMechanism, _shortcut_of
from dpspec.audit.zoo import FunctionMechanism, laplace_sampler
from dpspec.cli import main
from dpspec.learners.pcl import PrivateHistogramClassifier


class LastLabel(PrivateHistogramClassifier):
    """The reproducer: predict returns the last training label."""

    def fit(self, X: Any, y: Any) -> LastLabel:
        super().fit(X, y)
        self.last_ = np.asarray(y)[-1]
        return self

    def predict(self, X: Any) -> Any:
        return np.full(np.asarray(X).shape[0], self.last_)


class Wrapper:
    """A wrapper around PCL (its fit/predict are the wrapper's, whatever they call)."""

    def __init__(self, seed: int) -> None:
        self.inner = PrivateHistogramClassifier(1.0, random_state=seed)
        self.repeated_predictions = self.inner.repeated_predictions

    def fit(self, X: Any, y: Any) -> Wrapper:
        self.inner.fit(X, y)
        self.last_ = np.asarray(y)[-1]
        return self

    def predict(self, X: Any) -> Any:
        return np.full(np.asarray(X).shape[0], self.last_)


def _replaced(seed: int) -> PrivateHistogramClassifier:
    model = PrivateHistogramClassifier(1.0, random_state=seed)
    model.predict = lambda X: np.ones(np.asarray(X).shape[0], dtype=int)  # type: ignore[method-assign]
    return model


PAIR = _pcl_pair(300)


def test_a_subclass_is_audited_through_its_own_predict() -> None:
    """Before: the parent's repeated_predictions ran, ε_LCB −0.001, "consistent"."""
    mech = LearnerMechanism(lambda s: LastLabel(1.0, random_state=s), probe=PAIR[2])
    assert _shortcut_of(LastLabel(1.0)) is None
    assert mech.sampling().startswith("real fit + predict")
    result = audit(mech, PAIR[:2], 1.0, samples=200, selection=100, seed=0)
    assert result.violation and result.epsilon_lower > 3
    assert result.sampling.startswith("real fit") and "subclasses" in result.sampling
    assert result.to_json()["sampling"] == result.sampling
    forced = LearnerMechanism(lambda s: LastLabel(1.0, random_state=s), probe=PAIR[2])
    forced.vectorised = False
    assert audit(forced, PAIR[:2], 1.0, samples=200, selection=100, seed=0).violation


@pytest.mark.parametrize("factory", [Wrapper, _replaced])
def test_wrappers_and_replaced_methods_take_the_real_path(factory: Any) -> None:
    mech = LearnerMechanism(factory, probe=PAIR[2])
    assert _shortcut_of(factory(0)) is None
    assert mech.sampling().startswith("real fit")


def test_exactly_the_bound_class_takes_the_shortcut() -> None:
    mech = LearnerMechanism(
        lambda s: PrivateHistogramClassifier(1.0, random_state=s), probe=PAIR[2]
    )
    assert mech.sampling().startswith("vectorised dpspec.learners.pcl.PrivateHistogramClassifier")
    assert "audit.learner-repeated-fits" in mech.sampling()
    mech.vectorised = False
    assert mech.sampling() == "real fit + predict per draw (vectorised=False)"


def test_cli_real_fits_switch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    argv = ["audit", "learner:pcl-half-noise", "--samples", "300", "--selection", "200"]
    assert main([*argv, "--real-fits", "--no-progress", "--json", str(out)]) == 1
    assert json.loads(out.read_text())["sampling"].endswith("(vectorised=False)")
    assert main([*argv, "--no-progress", "--json", str(out)]) == 1
    assert json.loads(out.read_text())["sampling"].startswith("vectorised")
    assert "sampling: vectorised" in capsys.readouterr().out


# --- checkpoints -------------------------------------------------------------------------------


def _release(scale: float) -> Any:
    return lambda d, n, r: d + r.laplace(0, scale, n)


def _interrupt(blocks: int) -> Any:
    calls = [0]

    def stop(_: int) -> None:
        calls[0] += 1
        if calls[0] == blocks:
            raise KeyboardInterrupt

    return stop


def test_a_finished_checkpoint_does_not_answer_for_another_target(tmp_path: Path) -> None:
    """Before: audit(b, …, checkpoint=P) after audit(g, …, checkpoint=P) was not flagged."""
    good, bad = _release(1), _release(0.05)
    path = tmp_path / "p.json"
    plan: dict[str, Any] = {"samples": 600_000, "seed": 3, "checkpoint": path}
    assert not audit(good, (0, 1), 1.0, **plan).violation
    assert not path.exists()  # finished: removed
    assert audit(bad, (0, 1), 1.0, **plan).violation
    assert audit(bad, (0, 1), 1.0, samples=600_000, seed=3).violation


def test_an_interrupted_checkpoint_refuses_another_target(tmp_path: Path) -> None:
    good, bad = _release(1), _release(0.05)
    path = tmp_path / "p.json"
    with contextlib.suppress(KeyboardInterrupt):
        audit(good, (0, 1), 1.0, samples=600_000, seed=3, checkpoint=path, progress=_interrupt(2))
    assert path.exists()
    with pytest.raises(ValueError, match=r"checkpoint: .* different audit .*target"):
        audit(bad, (0, 1), 1.0, samples=600_000, seed=3, checkpoint=path)
    with pytest.raises(ValueError, match=r"different audit .*pair"):
        audit(good, (0, 2), 1.0, samples=600_000, seed=3, checkpoint=path)
    resumed = audit(good, (0, 1), 1.0, samples=600_000, seed=3, checkpoint=path)
    assert resumed.p1 == audit(good, (0, 1), 1.0, samples=600_000, seed=3).p1


def test_learner_factories_are_told_apart(tmp_path: Path) -> None:
    def factory(scale: float) -> Any:
        def make(seed: int) -> Any:
            return PrivateHistogramClassifier(scale, cells_per_axis=2, random_state=seed)

        return make

    X = np.array([[0.1], [0.9]])
    pair = ((X, np.array([0, 1])), (X, np.array([0, 0])))
    one, two = (LearnerMechanism(factory(e), probe=[[0.9]]) for e in (1.0, 8.0))
    assert fingerprint(one) != fingerprint(two)
    assert fingerprint(one) == fingerprint(LearnerMechanism(factory(1.0), probe=[[0.9]]))
    path = tmp_path / "l.json"
    with contextlib.suppress(KeyboardInterrupt):
        audit(one, pair, 1.0, samples=600_000, seed=1, checkpoint=path, progress=_interrupt(2))
    with pytest.raises(ValueError, match="different audit"):
        audit(two, pair, 1.0, samples=600_000, seed=1, checkpoint=path)


def test_large_pairs_are_identified_by_content() -> None:
    a = np.zeros(10_000)
    b = a.copy()
    b[5000] = 1.0  # repr(a) == repr(b): numpy elides the middle
    assert repr(a) == repr(b) and fingerprint((a, 0)) != fingerprint((b, 0))


def test_keyed_checkpoints_refuse_edits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: edited hits with a recomputed SHA-256 were accepted."""
    good = _release(1)
    path = tmp_path / "k.json"
    monkeypatch.setenv(KEY_VARIABLE, "a secret kept outside the file")

    def interrupted() -> dict[str, Any]:
        path.unlink(missing_ok=True)
        with contextlib.suppress(KeyboardInterrupt):
            audit(good, (0, 1), 1.0, samples=600_000, seed=3, checkpoint=path,
                  progress=_interrupt(2))  # fmt: skip
        data: dict[str, Any] = json.loads(path.read_text())
        assert "hmac_sha256" in data and "sha256" not in data
        return data

    data = interrupted()
    data["hits"] = [[h[0] - 1000, h[1]] for h in data["hits"]]
    body = {k: v for k, v in data.items() if k != "hmac_sha256"}
    path.write_text(json.dumps({**body, "sha256": _digest(body)}))
    with pytest.raises(ValueError, match="not sealed with a key"):
        audit(good, (0, 1), 1.0, samples=600_000, seed=3, checkpoint=path)
    data = interrupted()
    data["hits"] = [[h[0] - 1000, h[1]] for h in data["hits"]]
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="HMAC does not verify"):
        audit(good, (0, 1), 1.0, samples=600_000, seed=3, checkpoint=path)
    interrupted()
    monkeypatch.setenv(KEY_VARIABLE, "another key")
    with pytest.raises(ValueError, match="HMAC does not verify"):
        audit(good, (0, 1), 1.0, samples=600_000, seed=3, checkpoint=path)
    monkeypatch.delenv(KEY_VARIABLE)
    with pytest.raises(ValueError, match="sealed with a key"):
        audit(good, (0, 1), 1.0, samples=600_000, seed=3, checkpoint=path)


def test_cli_checkpoint_of_another_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: an interrupted `audit mods:good_slow --checkpoint X` was resumed by `audit
    mods:bad --checkpoint X`, which reported good's result."""
    mods = tmp_path / "mods.py"
    mods.write_text(
        "calls = [0]\n"
        "def good_slow(d, n, rng):\n"
        "    calls[0] += 1\n"
        "    if calls[0] == 4:\n"
        "        raise KeyboardInterrupt\n"
        "    return d + rng.laplace(0.0, 1.0, n)\n"
        "def bad(d, n, rng):\n"
        "    return d + rng.laplace(0.0, 0.05, n)\n",
        encoding="utf-8",
    )
    check = tmp_path / "x.json"
    base = ["--epsilon", "1", "--samples", "600000", "--no-progress", "--pair", "[0, 1]"]
    base += ["--checkpoint", str(check)]
    assert main(["audit", f"{mods}:good_slow", *base]) == 3
    assert check.exists()
    capsys.readouterr()
    assert main(["audit", f"{mods}:bad", *base]) == 2
    err = capsys.readouterr().err
    assert "checkpoint" in err and "different audit" in err and len(err.strip().splitlines()) == 1
    check.unlink()
    assert main(["audit", f"{mods}:bad", *base]) == 1
    assert not check.exists()


# --- damaged, edited and unwritable checkpoints ----------------------------------------------

LAPLACE = FunctionMechanism("lap", laplace_sampler(2.0))


def _interrupted_checkpoint(path: Path, jobs: int = 1) -> None:
    calls = [0]

    def stop(_: int) -> None:
        calls[0] += 1
        if calls[0] == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        audit(
            LAPLACE,
            (0.0, 1.0),
            0.5,
            samples=10**6,
            seed=0,
            checkpoint=path,
            progress=stop,
            jobs=jobs,
            backend="threading",
        )


def test_checkpoint_resume_with_jobs(tmp_path: Path) -> None:
    """A checkpoint written with jobs = 2 resumes with jobs = 1 to the uninterrupted counts."""
    full = audit(LAPLACE, (0.0, 1.0), 0.5, samples=10**6, seed=0)
    path = tmp_path / "c.json"
    _interrupted_checkpoint(path, jobs=2)
    resumed = audit(LAPLACE, (0.0, 1.0), 0.5, samples=10**6, seed=0, checkpoint=path)
    assert (full.p1, full.p2) == (resumed.p1, resumed.p2)


def _rehash(data: dict[str, Any]) -> dict[str, Any]:
    from dpspec.audit._checkpoint import _digest

    body = {k: v for k, v in data.items() if k != "sha256"}
    return {**body, "sha256": _digest(body)}


@pytest.mark.parametrize(
    ("edit", "rehash"),
    [
        (lambda d: d.__setitem__("hits", [[10**9, 0]]), False),  # before: p1 = 3333.3
        (lambda d: d.__setitem__("done", [-(10**6), -(10**6)]), False),  # before: p1 = 0.859
        (lambda d: d.__setitem__("hits", [[10**9, 0]]), True),  # hash recomputed: still refused
        (lambda d: d.__setitem__("done", [-(2**18), 0]), True),
        (lambda d: d.__setitem__("done", [12345, 0]), True),
        (lambda d: d.__setitem__("hits", [[1.5, 0]]), True),
        (lambda d: d.__setitem__("hits", [1, 0]), True),
        (lambda d: d.__setitem__("hits", [[0, 0], [0, 0]]), True),
        (lambda d: d.__setitem__("swapped", ["no"]), True),
        (lambda d: d.__setitem__("swapped", False), True),
        (lambda d: d.__setitem__("root", -1), True),
        (lambda d: d["audit"].__setitem__("selection", 7), True),
        (lambda d: d["events"][0].__setitem__("kind", "bogus"), True),
        (lambda d: d["events"][0].__setitem__("values", [{"x": 1}]), True),
        (lambda d: d.pop("events"), True),
        (lambda d: d.__setitem__("events", []), True),
        (lambda d: d.__setitem__("extra", 1), True),
    ],
)
def test_tampered_checkpoints_are_refused(tmp_path: Path, edit: Any, rehash: bool) -> None:
    path = tmp_path / "c.json"
    _interrupted_checkpoint(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(_rehash(data) if rehash else data), encoding="utf-8")
    with pytest.raises(ValueError, match="checkpoint"):
        audit(LAPLACE, (0.0, 1.0), 0.5, samples=10**6, seed=0, checkpoint=path)


@pytest.mark.parametrize("text", ['{"key": 1', "[1, 2]", "{}", "null", "\x00\xff"])
def test_corrupted_checkpoints_are_refused(tmp_path: Path, text: str) -> None:
    """Before: JSONDecodeError, AttributeError, KeyError."""
    path = tmp_path / "c.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="checkpoint"):
        audit(LAPLACE, (0.0, 1.0), 0.5, samples=1000, seed=0, checkpoint=path)


def test_unwritable_checkpoint_is_refused_before_drawing(tmp_path: Path) -> None:
    calls = [0]

    def counted(d: float, n: int, rng: np.random.Generator) -> np.ndarray:
        calls[0] += 1
        return d + rng.laplace(0.0, 2.0, n)

    for bad in (tmp_path / "missing" / "dir" / "c.json", tmp_path, "/proc/version"):
        if isinstance(bad, Path) and bad.name == "c.json":
            (tmp_path / "missing").write_text("a file, not a directory", encoding="utf-8")
        with pytest.raises(ValueError, match="checkpoint"):
            audit(counted, (0.0, 1.0), 0.5, samples=1000, checkpoint=bad)
    assert calls[0] == 0


def test_checkpoint_counts_predicate() -> None:
    from dpspec.spec.audit import checkpoint_counts_valid

    block = 2**18
    assert checkpoint_counts_valid(0, 0, 10**6, block)
    assert checkpoint_counts_valid(2 * block, 17, 10**6, block)
    assert checkpoint_counts_valid(10**6, 10**6, 10**6, block)  # the last, shorter block
    for done, hits in [(-block, 0), (12345, 0), (block, block + 1), (block, -1), (2 * 10**6, 0)]:
        assert not checkpoint_counts_valid(done, hits, 10**6, block), (done, hits)
    assert not checkpoint_counts_valid(True, 0, 10**6, block)
    assert not checkpoint_counts_valid(0, 0.0, 10**6, block)  # type: ignore[arg-type]
