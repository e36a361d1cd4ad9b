"""The checkpoint check: an interrupted audit resumes exactly, and only its own audit."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import numpy as np

from dpspec.audit import audit
from dpspec.audit.zoo import zoo
from dpspec.proofs.engine.registry import (
    DIFFERENTIAL,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    VerifyConfig,
)

SEED = 9000


def _interrupt_after(blocks: int) -> Any:
    """A progress callback that raises KeyboardInterrupt at its ``blocks``-th call."""
    calls = [0]

    def stop(_: int) -> None:
        calls[0] += 1
        if calls[0] == blocks:
            raise KeyboardInterrupt

    return stop


def _laplace_release(scale: float) -> Any:
    """``d + Laplace(scale)``: functions that differ only in a constant share one name."""

    def release(d: float, n: int, rng: np.random.Generator) -> Any:
        return d + rng.laplace(0.0, scale, n)

    return release


def _checkpoint_cases(tmp: Path) -> dict[str, bool]:
    """The checkpoint's guarantees, each True when it holds (see :func:`resume_exact`)."""
    import os

    from dpspec.audit.learners import LearnerMechanism
    from dpspec.audit.machinery import KEY_VARIABLE
    from dpspec.audit.machinery import digest as _digest

    entry = zoo()["laplace"]
    plan: dict[str, Any] = {"samples": 600_000, "selection": 1000, "seed": 3}
    path = tmp / "audit.json"
    out: dict[str, bool] = {}
    honest, sharp = _laplace_release(1.0), _laplace_release(0.05)  # true ε 1 and 20

    def interrupted(mech: Any, pair: Any = (0.0, 1.0), eps: float = 1.0) -> None:
        """A checkpoint of ``mech``'s audit, interrupted after the selection draws."""
        path.unlink(missing_ok=True)
        with contextlib.suppress(KeyboardInterrupt):
            audit(mech, pair, eps, **plan, checkpoint=path, progress=_interrupt_after(1))

    def edited(text: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(text)
        data["root"] = (data["root"] + 1) % 2**63  # other estimation draws: other counts
        return data

    def refused(mech: Any, pair: Any = (0.0, 1.0), eps: float = 1.0) -> bool:
        """Whether an audit of ``mech`` refuses the checkpoint (it is not run to the end when
        it does not: the check only needs to know it got past the load)."""
        try:
            audit(mech, pair, eps, **plan, checkpoint=path, progress=_interrupt_after(1))
        except KeyboardInterrupt:
            return False
        except ValueError as exc:
            return str(exc).startswith("checkpoint:")
        return False

    # resuming reproduces the uninterrupted counts
    full = audit(entry.mechanism, entry.pair, 0.5, samples=10**6, seed=SEED)
    path.unlink(missing_ok=True)
    with contextlib.suppress(KeyboardInterrupt):
        audit(
            entry.mechanism, entry.pair, 0.5, samples=10**6, seed=SEED, checkpoint=path,
            progress=_interrupt_after(3),
        )  # fmt: skip
    out["interrupted audit leaves a checkpoint"] = path.is_file()
    resumed = audit(entry.mechanism, entry.pair, 0.5, samples=10**6, seed=SEED, checkpoint=path)
    same = (full.p1, full.p2, full.event) == (resumed.p1, resumed.p2, resumed.event)
    out["resumed counts equal the uninterrupted ones"] = same
    out["a finished audit removes its checkpoint"] = not path.exists()
    # an audit of anything else is refused: target code, pair, claim, plan, seed
    interrupted(honest)
    out["another target (Laplace scale 0.05 vs 1, same name) refused"] = refused(sharp)
    out["another pair refused"] = refused(honest, (0.0, 2.0))
    out["another claim refused"] = refused(honest, (0.0, 1.0), 0.9)
    flagged_fresh = audit(sharp, (0.0, 1.0), 1.0, samples=20_000, seed=3).violation
    out["the sharp Laplace is flagged on a fresh audit"] = flagged_fresh

    def learner(scale: float) -> Any:
        def factory(seed: int) -> Any:
            return _ScaledRelease(scale, seed)

        return LearnerMechanism(factory, lambda model: model.value_, name="scaled")

    datasets = ((np.array([[0.0]]), np.array([1])), (np.array([[1.0]]), np.array([1])))
    interrupted(learner(1.0), datasets)
    out["another learner factory (same name) refused"] = refused(learner(0.05), datasets)
    # sealing: a plausible edit with a recomputed SHA-256 is accepted only without a key
    previous = os.environ.get(KEY_VARIABLE)
    os.environ[KEY_VARIABLE] = "verify-" + str(SEED)
    try:
        interrupted(honest)
        data = edited(path.read_text(encoding="utf-8"))
        body = {k: v for k, v in data.items() if k not in ("hmac_sha256", "sha256")}
        path.write_text(json.dumps({**body, "sha256": _digest(body)}), encoding="utf-8")
        out["keyed: an edited file resealed with SHA-256 refused"] = refused(honest)
        interrupted(honest)
        path.write_text(json.dumps(edited(path.read_text(encoding="utf-8"))), encoding="utf-8")
        out["keyed: an edited file with its old HMAC refused"] = refused(honest)
        interrupted(honest)
        os.environ.pop(KEY_VARIABLE)
        out["keyed file refused without the key"] = refused(honest)
    finally:
        if previous is None:
            os.environ.pop(KEY_VARIABLE, None)
        else:
            os.environ[KEY_VARIABLE] = previous
    path.unlink(missing_ok=True)
    return out


class _ScaledRelease:
    """A learner target for the checkpoint check: ``fit`` releases the last x plus
    Laplace(scale) noise seeded by ``random_state``."""

    def __init__(self, scale: float, random_state: int) -> None:
        self.scale = scale
        self.random_state = random_state

    def fit(self, X: Any, y: Any = None) -> _ScaledRelease:
        rng = np.random.default_rng(self.random_state)
        self.value_ = float(np.asarray(X).reshape(-1)[0]) + rng.laplace(0.0, self.scale)
        return self


@Obligation(
    id="audit.resume",
    source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
    claim=(
        "an interrupted audit resumed from its checkpoint reproduces the uninterrupted "
        "counts; a foreign checkpoint is refused"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{DIFFERENTIAL}: a resumed audit's counts against the uninterrupted one's",
    impls=(
        audit,
        "dpspec.audit._checkpoint.Progress",
        "dpspec.audit._checkpoint.AuditIdentity",
        "dpspec.audit._identity.fingerprint",
        "dpspec.audit._identity.qualified_name",
    ),
    tests=(
        "tests/test_audit_checkpoint.py::test_a_finished_checkpoint_does_not_answer_for_another_target",
        "tests/test_audit_checkpoint.py::test_an_interrupted_checkpoint_refuses_another_target",
        "tests/test_audit_checkpoint.py::test_learner_factories_are_told_apart",
        "tests/test_audit_checkpoint.py::test_keyed_checkpoints_refuse_edits",
        "tests/test_audit_checkpoint.py::test_cli_checkpoint_of_another_target",
    ),
)
def resume_exact(config: VerifyConfig) -> CheckOutcome:
    """A checkpoint resumes exactly its own audit and nothing else: an audit interrupted after
    a few blocks and resumed gives exactly the uninterrupted counts; a finished audit removes
    its checkpoint; an interrupted checkpoint is refused by an audit of another target with the
    same name (two functions differing in one constant — the reported reproducer — and two
    learner factories likewise), another pair or another claim; with
    ``DPSPEC_CHECKPOINT_KEY`` set, a file whose counts were edited is refused whether resealed
    with SHA-256 or left with its old HMAC, and a keyed file is refused without the key.
    Controls, each run through these cases: checkpoint keys that name the target instead of
    fingerprinting its code and data (the 0.2 bug: a foreign target resumed), and the keyed
    seal switched off (an edited, resealed file accepted)."""
    from unittest import mock

    from dpspec.audit.machinery import checkpoint as checkpoint
    from dpspec.audit.machinery import identity as identity

    with TemporaryDirectory() as tmp:
        cases = _checkpoint_cases(Path(tmp))
        names_only = mock.patch.object(checkpoint, "fingerprint", identity.qualified_name)
        with names_only:
            named = _checkpoint_cases(Path(tmp))
        with mock.patch.object(checkpoint, "_key", lambda: None):
            unkeyed = _checkpoint_cases(Path(tmp))
    failed = [k for k, v in cases.items() if not v]
    foreign = "another target (Laplace scale 0.05 vs 1, same name) refused"
    resealed = "keyed: an edited file resealed with SHA-256 refused"
    controls = [
        Control(
            "checkpoint keyed by the target's name, not a fingerprint of its code and data",
            not named[foreign],
            f"foreign target refused: {named[foreign]}",
        ),
        Control(
            "checkpoint sealed without the key although DPSPEC_CHECKPOINT_KEY is set",
            not unkeyed[resealed],
            f"edited and resealed file refused: {unkeyed[resealed]}",
        ),
    ]
    return CheckOutcome(
        not failed,
        f"{sum(cases.values())}/{len(cases)} checkpoint guarantees hold (failing: {failed}); "
        + "; ".join(f"control '{c.bug}': caught {c.caught}" for c in controls),
        {"cases": cases},
        controls,
    )
