"""The auditor on hostile input: named errors or sound verdicts, never anything else."""

from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import numpy as np

from dpspec.audit import audit
from dpspec.audit.bounds import max_epsilon_lower
from dpspec.audit.ci import assert_dp, vote
from dpspec.audit.libraries import load_target
from dpspec.audit.loop import default_selection
from dpspec.audit.machinery import PROBE
from dpspec.audit.zoo import FunctionMechanism, laplace_sampler
from dpspec.cli import main
from dpspec.proofs.engine.registry import CheckOutcome, Control, Method, Obligation, VerifyConfig
from dpspec.spec.audit import checkpoint_counts_valid
from dpspec.validation import check_confidence, check_seed

SEED = 9000


#: confidence of the fuzzed audits: a correct mechanism is flagged with probability <= 1e-6
#: per audit, so a false "violation" among the <= 100 fuzzed audits has probability <= 1e-4
#: (and the examples are derandomized, so the check is deterministic)
_FUZZ_CONFIDENCE = 1 - 1e-6


def _nan_leak(d: float, n: int, rng: np.random.Generator) -> Any:
    x = rng.laplace(0.0, 2.0, n)
    x[rng.random(n) < 0.5 * d] = np.nan
    return x


def _vector_nan_leak(d: float, n: int, rng: np.random.Generator) -> Any:
    x = rng.laplace(0.0, 2.0, (n, 2))
    x[rng.random(n) < 0.5 * d, 0] = np.nan
    return x


def _complex_leak(d: float, n: int, rng: np.random.Generator) -> Any:
    return rng.laplace(0.0, 2.0, n) + 10j * d


def _sharp(d: float, n: int, rng: np.random.Generator) -> Any:
    return d + rng.laplace(0.0, 0.1, n)  # ε = 10


class _Counted:
    """Laplace(2) released one value per call, counting the calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, d: float, rng: np.random.Generator) -> float:
        self.calls += 1
        return float(d + rng.laplace(0.0, 2.0))


def _outcome(run: Any) -> tuple[str, Any]:
    """("result", AuditResult) or ("error", exception) of ``run()``, warnings as errors."""
    import warnings

    from dpspec.audit import AuditCoverageWarning
    from dpspec.audit.ci import DPViolation

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        warnings.filterwarnings("ignore", category=AuditCoverageWarning)  # stated in results
        try:
            return "result", run()
        except DPViolation as exc:
            return "flagged", exc
        except Exception as exc:
            return "error", exc


def _named_error(kind: str, value: Any, names: tuple[str, ...]) -> bool:
    return (
        kind == "error"
        and isinstance(value, ValueError | TypeError)
        and any(str(value).startswith(f"{n}:") or f" {n}:" in str(value) for n in names)
    )


def _explicit_hostile_cases(tmp: Path) -> list[tuple[str, Any, Any]]:
    """(name, run, accept(kind, value)) for the listed hostile inputs."""
    from dpspec.audit.ci import assert_dp

    lap = FunctionMechanism("lap", laplace_sampler(2.0))

    def flagged(kind: str, value: Any) -> bool:
        return (kind == "result" and value.violation) or kind == "flagged"

    def error(*names: str) -> Any:
        return lambda kind, value: _named_error(kind, value, names)

    def run_audit(mech: Any = lap, **kw: Any) -> Any:
        args: dict[str, Any] = {"epsilon": 0.5, "samples": 20_000, "seed": SEED, **kw}
        return lambda: audit(mech, (0.0, 1.0), **args)

    counted = _Counted()

    def hundred() -> Any:
        audit(counted, (0.0, 1.0), 0.5, samples=100, seed=SEED)
        return counted.calls

    checkpoint = tmp / "c.json"
    drawn = _Counted()

    def tampered(text: str) -> Any:
        def run() -> Any:
            checkpoint.write_text(text, encoding="utf-8")
            return audit(lap, (0.0, 1.0), 0.5, samples=10**6, seed=SEED, checkpoint=checkpoint)

        return run

    saved: list[str] = []

    def _genuine_checkpoint() -> None:
        """Write a genuine checkpoint of an interrupted audit; keep its text in ``saved``."""
        interrupted = [0]

        def stop(_: int) -> None:
            interrupted[0] += 1
            if interrupted[0] == 3:
                raise KeyboardInterrupt

        checkpoint.unlink(missing_ok=True)
        with contextlib.suppress(KeyboardInterrupt):
            audit(
                lap, (0.0, 1.0), 0.5, samples=10**6, seed=SEED, checkpoint=checkpoint, progress=stop
            )
        saved[:] = [checkpoint.read_text(encoding="utf-8")]

    def edited_hits() -> Any:
        _genuine_checkpoint()
        data = json.loads(saved[0])
        data["hits"] = [[10**9, 0]]
        return tampered(json.dumps(data))()

    def edited_and_rehashed() -> Any:
        from dpspec.audit.machinery import digest as _digest

        _genuine_checkpoint()
        data = json.loads(saved[0])
        body = {k: v for k, v in data.items() if k != "sha256"}
        body["hits"] = [[10**9, 0]]  # the hash no longer protects: the field checks must
        return tampered(json.dumps({**body, "sha256": _digest(body)}))()

    def jobs_agree() -> Any:
        one = audit(lap, (0.0, 1.0), 0.5, samples=600_000, seed=SEED, jobs=1)
        two = audit(lap, (0.0, 1.0), 0.5, samples=600_000, seed=SEED, jobs=2, backend="threading")
        return (one.p1, one.p2) == (two.p1, two.p2)

    def unwritable() -> Any:
        audit(drawn, (0.0, 1.0), 0.5, samples=1000, checkpoint="/proc/dpspec-none/c.json")

    return [
        ("NaN outputs leak", run_audit(_nan_leak), flagged),
        (
            "NaN leak under assert_dp",
            lambda: assert_dp(_nan_leak, (0.0, 1.0), 0.5, samples=20_000, votes=3),
            flagged,
        ),
        ("vector outputs with NaN", run_audit(_vector_nan_leak), flagged),
        ("complex outputs", run_audit(_complex_leak), flagged),
        ("dict outputs of the data", run_audit(lambda d: {"a": d}, samples=200), flagged),
        ("None outputs", run_audit(lambda d: None, samples=200), error("mechanism")),
        (
            "objects of another kind",
            run_audit(lambda d: {"a": object()}, samples=200),
            error("mechanism"),
        ),
        (
            "text outputs that never repeat",
            run_audit(lambda d, rng: f"{d + rng.laplace(0.0, 2.0):.17g}", samples=200),
            error("mechanism"),
        ),
        ("selection 500, true eps 10", run_audit(_sharp, selection=500), flagged),
        ("selection 2000, true eps 10", run_audit(_sharp, selection=2000), flagged),
        ("seed=-1", run_audit(seed=-1), error("seed")),
        ("seed=1.5", run_audit(seed=1.5), error("seed")),
        ("seed='0'", run_audit(seed="0"), error("seed")),
        ("confidence='0.9'", run_audit(confidence="0.9"), error("confidence")),
        (
            "assert_dp confidence=1.5",
            lambda: assert_dp(lap, (0.0, 1.0), 0.5, confidence=1.5),
            error("confidence"),
        ),
        ("event='x'", run_audit(event="x"), error("event")),
        ("samples=0", run_audit(samples=0), error("samples")),
        ("samples=1: no outcome could refute 0.5", run_audit(samples=1), error("samples")),
        (
            "epsilon=20 at 10^6: unrefutable",
            run_audit(epsilon=20.0, samples=10**6),
            error("samples"),
        ),
        ("samples=1e15", run_audit(samples=10**15), error("samples")),
        ("selection=1e15", run_audit(selection=10**15), error("selection")),
        (
            "samples=100: 400 draws and the freshness probe's 4 x 64",
            hundred,
            lambda kind, value: kind == "result" and value == 400 + 4 * PROBE,
        ),
        ("checkpoint hits edited", edited_hits, error("checkpoint")),
        ("checkpoint hits edited, hash recomputed", edited_and_rehashed, error("checkpoint")),
        ("checkpoint not JSON", tampered('{"key": 1'), error("checkpoint")),
        ("checkpoint a list", tampered("[1, 2]"), error("checkpoint")),
        ("checkpoint without fields", tampered("{}"), error("checkpoint")),
        (
            "checkpoint unwritable, no draws",
            unwritable,
            lambda kind, value: _named_error(kind, value, ("checkpoint",)) and drawn.calls == 0,
        ),
        ("jobs=1 and jobs=2 counts", jobs_agree, lambda kind, value: kind == "result" and value),
    ]


def _cli_cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    code = tmp / "targets.py"
    code.write_text(
        "import numpy as np\n"
        "def boom(d, n, rng):\n    raise RuntimeError('target broke')\n"
        "def as_dict(d):\n    return {'value': d}\n"
        "def fine(d, n, rng):\n    return d + rng.laplace(0.0, 2.0, n)\n",
        encoding="utf-8",
    )
    base = ["--epsilon", "0.5", "--samples", "2000", "--no-progress", "--pair", "[0, 1]"]
    return [
        ("target raises", ["audit", f"{code}:boom", *base], 3),
        ("dict outputs of the data", ["audit", f"{code}:as_dict", *base], 1),
        ("no pair", ["audit", f"{code}:fine", "--epsilon", "0.5", "--no-progress"], 2),
        ("--json a directory", ["audit", f"{code}:fine", *base, "--json", str(tmp)], 2),
        ("--json unwritable", ["audit", f"{code}:fine", *base, "--json", "/proc/version"], 2),
        (
            "--checkpoint unwritable",
            ["audit", f"{code}:fine", *base, "--checkpoint", "/proc/x/c"],
            2,
        ),
        ("--seed -1", ["audit", f"{code}:fine", *base, "--seed", "-1"], 2),
        ("inconclusive", ["audit", f"{code}:fine", *base], 4),
        ("consistent", ["audit", f"{code}:fine", *base, "--replay"], 0),
        ("violation", ["audit", "builtin:noisy-max-v2b", "--samples", "20000", "--no-progress"], 1),
    ]


#: values a careless or hostile release may hold
_HOSTILE_VALUES: tuple[Any, ...] = (
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    -1e308,
    5e-324,
    -0.0,
    1j,
    1 + 2j,
    None,
    {"a": 1},
    [1, 2],
    "s",
    b"b",
    True,
    2**70,
    np.float32("nan"),
    np.datetime64("2020-01-01"),
)


def _hostile_release(value: Any, leak: bool, vector: bool) -> Any:
    """One release per call: Laplace(2) noise (plus the data), and with probability 1/2 the
    hostile ``value`` instead — on D' = 1 only (``leak``: a support shift, true ε = ∞) or on
    both inputs alike (the hostile value carries no information: true ε = 0.5)."""

    def release(d: float, rng: np.random.Generator) -> Any:
        noise = float(d + rng.laplace(0.0, 2.0))
        show = rng.random() < 0.5 and (d == 1 or not leak)
        x = value if show else noise
        return [x, float(rng.laplace(0.0, 2.0))] if vector else x

    return release


@Obligation(
    id="audit.hostile-input",
    source=(
        "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); hostile-input "
        "review of the auditor"
    ),
    claim=(
        "the auditor refuses unrepresentable releases and hostile arguments with an "
        "error naming them (before any draw), flags NaN/complex/vector-NaN leaks, never "
        "judges continuous outputs by atoms only, validates checkpoints, gives the same "
        "counts for any jobs, and its CLI exits 2 (usage) or 3 (internal), never 1, on "
        "such input"
    ),
    method=Method.PROPERTY,
    predicates=(checkpoint_counts_valid,),
    impls=(
        audit,
        "dpspec.audit._events.Event",
        "dpspec.audit._targets.MechanismError",
        check_confidence,
        check_seed,
        "dpspec.audit.loop._check_samples",
        default_selection,
        max_epsilon_lower,
        vote,
        load_target,
    ),
    entry_points=(audit, assert_dp, main),
    tests=(
        "tests/test_audit.py::test_nan_is_an_event_of_its_own",
        "tests/test_audit.py::test_complex_outputs_are_audited_as_pairs",
        "tests/test_audit.py::test_unrepresentable_outputs_are_refused",
        "tests/test_audit.py::test_small_selection_is_not_judged_by_atoms",
        "tests/test_audit.py::test_selection_follows_samples",
        "tests/test_audit.py::test_arguments_are_checked_by_name",
        "tests/test_audit.py::test_assert_dp_arguments",
        "tests/test_audit.py::test_jobs_do_not_change_the_counts",
        "tests/test_audit_checkpoint.py::test_tampered_checkpoints_are_refused",
        "tests/test_audit_checkpoint.py::test_corrupted_checkpoints_are_refused",
        "tests/test_audit_checkpoint.py::test_unwritable_checkpoint_is_refused_before_drawing",
        "tests/test_audit.py::test_cli_exit_codes",
        "tests/test_audit.py::test_cli_help_documents_exit_codes",
        "tests/test_audit_checkpoint.py::test_checkpoint_counts_predicate",
        "tests/test_audit.py::test_unrefutable_claims_are_refused",
    ),
)
def hostile_inputs(config: VerifyConfig) -> CheckOutcome:
    """The auditor on hostile input: each case ends in a ValueError/TypeError naming the
    argument (``mechanism`` for an output it cannot represent) or in a sound verdict — never
    another exception, a warning, or a "consistent" verdict for a leak.

    * the listed cases (NaN, vector-NaN, complex and dict leaks must be flagged; None outputs,
      objects the auditor cannot read,
      bad seed/confidence/event/samples/selection and damaged or unwritable checkpoints refused
      by name, before any draw; samples = 100 costs 400 draws and the freshness probe's 256;
      jobs = 1 and 2 agree);
    * Hypothesis (derandomized, 40 examples; 120 with ``--thorough``) over releases that
      mix Laplace noise with a hostile value (NaN, ±inf, ±1e308, denormals, −0.0, complex,
      None, dict, list, str, bytes, bool, 2^70, float32 NaN, datetime), as a scalar or in a
      vector, leaking (true ε = ∞: must be flagged or refused) or not (true ε = 0.5: must not
      be flagged, false alarm ≤ 1e-6 per audit at the confidence used);
    * Hypothesis (60 examples; 200 thorough) over hostile arguments (floats incl. NaN/inf,
      huge and negative integers, strings, None, bools, complex) for seed, confidence,
      samples, selection, epsilon, delta and jobs: a named error (``samples`` as well when
      the claim could not be refuted at that size), or a verdict that flags Laplace(ε = 0.5)
      only for a claim below 0.5;
    * the CLI: exit 3 when the target raises, 2 for a missing pair, unwritable --json or
      --checkpoint and bad arguments (one line on stderr), 0 / 1 / 4 for verdicts (1 for a dict
      release of the data).

    The slowest case is reported (not judged: verdicts never depend on wall-clock speed).
    Controls, each rerunning the listed cases with one function of the auditor replaced by a
    plausible bug: the checkpoint's field checks skipped (a hand-edited count with a recomputed
    SHA-256 accepted), ``seed`` not validated (numpy's own error, not naming ``seed``), the
    checkpoint path checked only when first written (after the selection draws)."""
    import contextlib
    import io
    import time

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from dpspec.proofs.engine.command import run_dpspec as main

    failures: list[str] = []
    slowest = 0.0
    counts = {"explicit": 0, "outputs": 0, "arguments": 0, "cli": 0}

    def timed(run: Any) -> tuple[str, Any]:
        nonlocal slowest
        start = time.perf_counter()
        out = _outcome(run)
        slowest = max(slowest, time.perf_counter() - start)
        return out

    with TemporaryDirectory() as name:
        tmp = Path(name)
        for label, run, accept in _explicit_hostile_cases(tmp):
            kind, value = timed(run)
            counts["explicit"] += 1
            if not accept(kind, value):
                failures.append(f"{label}: {kind} {value!r:.200}")
        for label, argv, expected in _cli_cases(tmp):
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                got = main(argv)
            counts["cli"] += 1
            lines = err.getvalue().strip().splitlines()
            if got != expected or (
                expected in (2, 3) and (len(lines) != 1 or "Traceback" in err.getvalue())
            ):
                failures.append(
                    f"CLI {label}: exit {got} (expected {expected}), stderr {lines!r:.200}"
                )

    lap = FunctionMechanism("lap", laplace_sampler(2.0))
    budget = 3 if config.thorough else 1
    fuzz = settings(
        max_examples=40 * budget,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )

    @fuzz
    @given(st.sampled_from(_HOSTILE_VALUES), st.booleans(), st.booleans())
    def outputs(value: Any, leak: bool, vector: bool) -> None:
        mech = _hostile_release(value, leak, vector)
        kind, result = timed(
            lambda: audit(
                mech, (0.0, 1.0), 0.5, samples=2000, confidence=_FUZZ_CONFIDENCE, seed=SEED
            )
        )
        counts["outputs"] += 1
        ok = _named_error(kind, result, ("mechanism",)) or (
            kind == "result" and result.violation == leak
        )
        if not ok:
            failures.append(f"output {value!r} leak={leak} vector={vector}: {kind} {result!r:.200}")

    hostile_numbers = st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(-(2**70), 0),
        st.integers(10**10 + 1, 2**70),
        st.integers(1, 3000),
        st.text(max_size=3),
        st.none(),
        st.booleans(),
        st.complex_numbers(),
        st.sampled_from([np.float32("nan"), np.int64(-1), np.float64(0.5), np.int64(7)]),
    )
    names = ("seed", "confidence", "samples", "selection", "epsilon", "delta", "jobs")

    @settings(fuzz, max_examples=60 * (3 if config.thorough else 1))
    @given(st.sampled_from(names), hostile_numbers)
    def arguments(name: str, value: Any) -> None:
        if name == "jobs" and isinstance(value, int) and not isinstance(value, bool) and value > 2:
            value = -value  # valid worker counts are exercised by the explicit cases
        kwargs: dict[str, Any] = {
            "epsilon": 0.5,
            "samples": 2000,
            "confidence": _FUZZ_CONFIDENCE,
            "seed": SEED,
            "backend": "threading",
            name: value,
        }
        kind, result = timed(lambda: audit(lap, (0.0, 1.0), **kwargs))
        counts["arguments"] += 1
        # a claim no outcome of the audit could refute is refused naming samples
        related = (name, "samples") if name in ("epsilon", "delta", "confidence") else (name,)
        if kind == "result" and name == "confidence":
            # at a fuzzed confidence c a false alarm has probability up to 1 - c: the verdict
            # is not fixed, so check the result reports that c and ordered bounds
            lo1, hi1 = result.p1_interval
            lo2, hi2 = result.p2_interval
            ok = result.confidence == float(value) and lo1 <= result.p1 <= hi1
            ok = ok and lo2 <= result.p2 <= hi2
        else:
            ok = _named_error(kind, result, related) or (
                kind == "result" and (not result.violation or result.epsilon_claimed < 0.5)
            )
        if not ok:
            failures.append(f"argument {name}={value!r}: {kind} {result!r:.200}")

    outputs()
    arguments()
    controls = _controls()
    return CheckOutcome(
        not failures,
        f"{counts['explicit']} listed cases, {counts['outputs']} fuzzed releases, "
        f"{counts['arguments']} fuzzed arguments, {counts['cli']} CLI runs; slowest case "
        f"{slowest:.2f}s; failures: {failures[:5]}; controls: "
        + "; ".join(f"{c.bug}: {c.measured}" for c in controls),
        {"counts": counts, "failures": failures, "slowest_seconds": slowest},
        controls,
    )


def _explicit_failures() -> list[str]:
    """The listed cases that end otherwise than they must."""
    failed = []
    with TemporaryDirectory() as name:
        for label, run, accept in _explicit_hostile_cases(Path(name)):
            kind, value = _outcome(run)
            if not accept(kind, value):
                failed.append(label)
    return failed


def _controls() -> list[Control]:
    """The listed cases rerun with one function of the auditor replaced by a bug."""
    from unittest import mock

    import dpspec.audit.loop as loop
    from dpspec.audit.machinery import checkpoint as checkpoint
    from dpspec.validation import RandomState

    def late_path(path: Any) -> Path | None:
        return None if path is None else Path(path)

    bugs: dict[str, Any] = {
        "checkpoint field checks skipped": mock.patch.object(
            checkpoint, "checkpoint_counts_valid", lambda *args: True
        ),
        "seed not validated": mock.patch.object(
            RandomState, "convert", lambda self, value, name: value
        ),
        "checkpoint path checked when first written": mock.patch.object(
            loop, "_checkpoint_path", late_path
        ),
    }
    out = []
    for bug, patch in bugs.items():
        with patch:
            failed = _explicit_failures()
        out.append(Control(bug, bool(failed), f"{len(failed)} listed cases fail: {failed[:3]}"))
    return out
