"""The runner of ``dpspec verify``: every selected obligation's check, one row each.

The CrossHair runs the selected lemma obligations need start first, in the background, so they
overlap the other checks, which run in worker processes; a check that raises is a failed
obligation with its traceback.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import importlib
import multiprocessing
import os
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from tqdm import tqdm

from dpspec.proofs.engine.controls import planted
from dpspec.proofs.engine.errors import UsageError
from dpspec.proofs.engine.preload import PRELOAD
from dpspec.proofs.engine.registry import (
    Check,
    CheckOutcome,
    Control,
    FailedUnderControl,
    Kind,
    Method,
    Obligation,
    VerifyConfig,
    all_of,
    by_id,
    check_modules,
    obligations,
)


def cpu_with_children() -> float:
    """CPU seconds of this process and of the child processes it has waited for (a check
    that forks or runs a subprocess is charged for it)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def check_of(ob: Obligation) -> Check | None:
    """The one function ``dpspec verify`` runs for ``ob`` (every named check must pass; a
    CrossHair entry's check confirms its ``lemmas``), or None for a documented entry; the
    modules are imported on first use."""
    parts = list(ob.parts)
    if ob.lemmas:
        from dpspec.proofs.engine.crosshair import crosshair_check
        from dpspec.proofs.engine.finite import finite_check, finite_domain

        module = importlib.import_module(ob.lemma_module)
        finite = tuple(n for n in ob.lemmas if finite_domain(getattr(module, n)))
        symbolic = tuple(n for n in ob.lemmas if n not in finite)
        if finite:
            parts.append(finite_check(finite, ob.lemma_module))
        if symbolic:
            parts.append(crosshair_check(symbolic, ob.lemma_module))
    return all_of(*parts) if parts else None


def run_obligation(ob: Obligation, config: VerifyConfig) -> dict[str, Any]:
    """Run one obligation's check; its report row (a check that raises is a failed row).
    ``cpu_seconds`` counts the check's child processes too."""
    start, cpu = time.perf_counter(), cpu_with_children()
    check = check_of(ob)
    if check is None:
        outcome = CheckOutcome(True, "documented: nothing to run")
        status = "documented"
    else:
        try:
            outcome = check(config)
        except Exception as exc:  # a crashing check is a failed obligation, with its trace
            outcome = CheckOutcome(
                False,
                f"check raised {type(exc).__name__}: {exc}",
                {"traceback": traceback.format_exc()},
            )
        if outcome.passed and ob.bug_controls:
            outcome.controls.extend(run_bug_controls(ob, check, config))
            outcome.passed = all(c.caught for c in outcome.controls)
        status = "passed" if outcome.passed else "failed"
    kind = ob.effective_kind
    power = power_problem(ob, outcome) if check is not None else None
    if power is not None and status == "passed":
        status = "failed"  # a check that has not shown it can fail does not pass
    tightest = outcome.tightest
    return {
        "id": ob.id,
        "source": ob.source,
        "claim": ob.claim,
        "method": ob.method.value,
        "kind": kind.value,
        "reason": ob.reason,
        "status": status,
        "seconds": round(time.perf_counter() - start, 3),
        "cpu_seconds": round(cpu_with_children() - cpu, 3),
        "detail": outcome.detail if power is None else f"{outcome.detail} [{power}]",
        "numbers": outcome.numbers,
        "controls": [
            {"bug": c.bug, "caught": c.caught, "measured": c.measured} for c in outcome.controls
        ],
        "slack": [s.to_json() for s in outcome.slack],
        "tightest": None if tightest is None else tightest.to_json(),
        "power_problem": power,
    }


def run_bug_controls(ob: Obligation, check: Any, config: VerifyConfig) -> list[Control]:
    """The obligation's check run again with each of its bug controls planted: a control is
    caught when the check then fails (or raises)."""
    found = []
    for control in ob.bug_controls:
        try:
            planting = planted(control)
            planting.__enter__()
        except (ValueError, AttributeError, OSError, TypeError) as exc:  # a stale control
            found.append(Control(control.bug, False, f"cannot plant it: {exc}"))
            continue
        try:
            outcome = check(dataclasses.replace(config, under_control=True))
            caught, seen = not outcome.passed, outcome.detail[:160]
        except FailedUnderControl as exc:  # a part failed: the check stopped there
            caught, seen = True, f"failed at {str(exc)[:150]}"
        except Exception as exc:  # a planted bug that crashes the check is caught by it
            caught, seen = True, f"the check raised {type(exc).__name__}: {str(exc)[:120]}"
        finally:
            planting.__exit__(None, None, None)
        found.append(Control(control.bug, caught, seen))
    return found


def power_problem(ob: Obligation, outcome: CheckOutcome) -> str | None:
    """Why the check has not shown it can fail, or None: a discriminating obligation must
    report at least one control and every control must be caught; a demonstration must state
    its reason."""
    kind = ob.effective_kind
    if kind is Kind.DEMONSTRATION:
        return None if ob.reason else "a demonstration without its reason"
    if kind is Kind.DOCUMENTED:
        return "a running check labelled documented"
    if not outcome.controls:
        return "no discriminating control reported"
    missed = [c.bug for c in outcome.controls if not c.caught]
    if missed:
        return f"control passed the check: {missed[0]}"
    return None


#: Objects allocated before a young-generation collection in a check process (default 700).
WORKER_GC_THRESHOLD = (20_000, 20, 20)


def settle_worker() -> None:
    """A check process keeps the objects its imports made out of every collection
    (``gc.freeze``) and collects its young generation every 20 000 allocations: the checks
    build and drop many small containers (Fractions, dicts of laws), which the default
    schedule (every 700 allocations) keeps traversing. Its Hypothesis draws no local
    constants (:func:`hypothesis_without_local_constants`)."""
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLD)
    hypothesis_without_local_constants()


def hypothesis_without_local_constants() -> None:
    """Hypothesis draws, now and then, a literal constant found in the source of the local
    modules loaded so far (``hypothesis.internal.conjecture.providers``). Which modules a
    check process has loaded depends on the checks it ran before — on how the run was split
    between the workers — so the examples of the property checks and of the pair searches
    would too, and collecting them writes a cache into ``.hypothesis/`` of the working
    directory. The checks draw Hypothesis's global constants only: the same examples in any
    order, in ``dpspec verify`` and ``dpspec mutate`` alike. (A Hypothesis without local
    constants is left as it is.)"""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover - Hypothesis reorganised: nothing to switch off
        return
    if not hasattr(providers, "_get_local_constants"):
        return  # pragma: no cover
    none = Constants()
    providers._get_local_constants = lambda: none
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if cache is not None:
        cache.cache.clear()


def _worker_context(checks: Sequence[str] = ()) -> Any:
    """Workers forked from a fork server (a fresh interpreter, never a fork of this process and
    its CrossHair thread) that has imported :data:`PRELOAD`, the registry and the modules of
    the ``checks`` to run once; a fresh interpreter per worker where ``forkserver`` is missing
    (Windows)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([*PRELOAD, "dpspec.proofs.engine.verify", *checks])
    return context


def _run_by_id(obligation_id: str, config: VerifyConfig) -> dict[str, Any]:
    """:func:`run_obligation` in a worker process (the registry is re-read there)."""
    return run_obligation(by_id(obligation_id), config)


#: The variables BLAS and OpenMP libraries read for their thread count when they load.
_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS and OpenMP on one thread while the checks run: in this process (threadpoolctl,
    when installed) and in the processes started meanwhile (the variables they read when the
    libraries load). The checks already run in parallel processes; more threads per process
    only compete for the same cores, and a thread count that follows the machine would make
    float sums depend on it."""
    saved = {name: os.environ.get(name) for name in _THREAD_VARIABLES}
    os.environ.update({name: "1" for name in _THREAD_VARIABLES})
    try:
        try:
            from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
        except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
            limits: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        else:
            limits = threadpool_limits(limits=1)
        with limits:
            yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


#: Statistical and exact checks are the long ones: they go to the workers first.
_FIRST = {Method.STATISTICAL: 0, Method.EXACT: 1, Method.PROPERTY: 2}


def run_verify(
    config: VerifyConfig,
    only: str | None = None,
    progress: bool = True,
    ids: Sequence[str] | None = None,
    jobs: int = 2,
) -> dict[str, Any]:
    """Run every registered obligation (or those whose id contains ``only`` / is in ``ids``).

    The CrossHair runs the selected lemma entries need start in the background; the other
    checks run in ``jobs`` worker processes (each check is deterministic, so the verdicts do
    not depend on ``jobs`` or on the order); the lemma entries then read their CrossHair
    reports. Rows come back in registry order.
    """
    selected = [ob for ob in obligations() if only is None or only in ob.id]
    if ids is not None:
        from dpspec.proofs.engine.legacy_ids import LEGACY_IDS

        ids = [LEGACY_IDS.get(i, i) for i in ids]  # the ids of 0.1 and 0.2 resolve
        unknown = sorted(set(ids) - {ob.id for ob in selected})
        if unknown:
            raise UsageError(f"--ids: no obligation {unknown[0]!r}")
        selected = [ob for ob in selected if ob.id in set(ids)]
    hypothesis_without_local_constants()  # the checks run here too (one worker, the lemmas)
    with one_blas_thread():
        rows = _run_selected(selected, config, progress, jobs)
    ordered = [rows[ob.id] for ob in selected]
    return {
        "obligations": ordered,
        "passed": sum(r["status"] == "passed" for r in ordered),
        "failed": sum(r["status"] == "failed" for r in ordered),
        "documented": sum(r["status"] == "documented" for r in ordered),
        "kinds": kind_counts(ordered),
        "thorough": config.thorough,
    }


def _run_selected(
    selected: Sequence[Obligation], config: VerifyConfig, progress: bool, jobs: int
) -> dict[str, dict[str, Any]]:
    """The rows of ``selected`` by id: CrossHair in the background, the checks in ``jobs``
    worker processes, the lemma entries (which read CrossHair's reports) here meanwhile."""
    from dpspec.proofs.engine.crosshair import prefetch_crosshair

    prefetch_crosshair(selected, config.crosshair_timeout)  # CrossHair overlaps other checks
    parallel = [ob for ob in selected if not ob.lemmas and ob.checks]
    parallel.sort(key=lambda ob: _FIRST.get(ob.method, 3))
    rows: dict[str, dict[str, Any]] = {}
    bar = tqdm(
        total=len(selected),
        desc="verify",
        unit="obligation",
        disable=not progress,
        file=sys.stderr,
    )
    lock = threading.Lock()

    def record(ob: Obligation, row: dict[str, Any]) -> None:
        with lock:
            rows[ob.id] = row
            bar.set_postfix_str(ob.id)
            bar.update()

    def finished(ob: Obligation, future: Future[dict[str, Any]]) -> None:
        try:
            row = future.result()
        except Exception as exc:  # the worker died: a failed row, not a lost run
            row = run_failed(ob, f"worker process failed: {exc!r}")
        record(ob, row)

    pool = None
    if jobs > 1 and len(parallel) > 1:
        pool = ProcessPoolExecutor(
            min(jobs, len(parallel)),
            mp_context=_worker_context(check_modules(parallel)),
            initializer=settle_worker,
        )
        for ob in parallel:
            future = pool.submit(_run_by_id, ob.id, config)
            future.add_done_callback(functools.partial(finished, ob))
    in_workers = {ob.id for ob in parallel} if pool is not None else set()
    try:
        for ob in selected:  # the rest here, while the workers run
            if ob.id not in in_workers:
                record(ob, run_obligation(ob, config))
    except BaseException:  # interrupted: the queued checks are not started
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    if pool is not None:
        pool.shutdown(wait=True)  # every worker's row is recorded by then
    bar.close()
    return rows


def kind_counts(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Passed rows by what they show: ``discriminating`` (every control caught),
    ``demonstration``, ``documented``, and ``unpowered`` (a running check that has not shown
    it can fail)."""
    counts = {"discriminating": 0, "demonstration": 0, "documented": 0, "unpowered": 0}
    for r in rows:
        if r["status"] == "documented":
            counts["documented"] += 1
        elif r.get("power_problem"):
            counts["unpowered"] += 1
        elif r.get("kind") == "demonstration":
            counts["demonstration"] += 1
        elif r["status"] == "passed":
            counts["discriminating"] += 1
    return counts


def run_failed(ob: Obligation, why: str) -> dict[str, Any]:
    """The row of an obligation whose check could not run to its end."""
    return {
        "id": ob.id,
        "source": ob.source,
        "claim": ob.claim,
        "method": ob.method.value,
        "status": "failed",
        "seconds": 0.0,
        "cpu_seconds": 0.0,
        "kind": ob.effective_kind.value,
        "reason": ob.reason,
        "detail": why,
        "numbers": {},
        "controls": [],
        "slack": [],
        "tightest": None,
        "power_problem": None,
    }
