"""``dpspec prove``: run CrossHair over the lemma layer and report every condition.

A *condition* is one ``post:`` line of a PEP 316 docstring contract. The runner splits the
functions with a contract over at most two worker processes
(:mod:`dpspec.proofs.engine.crosshair_worker`, one interpreter and one CrossHair import per worker);
a worker analyses each condition in turn — CrossHair's own per-condition analysis — and reports
CrossHair's machine-readable lines ``<file>:<line>: <info|error>: <message>`` together with
the condition's CPU time. The line of a message identifies the condition:

* ``info: Confirmed over all paths.`` → ``confirmed``: every execution path satisfying the
  preconditions was explored and the condition held on all of them;
* any other ``info:`` (``Not confirmed.``, ``Unable to meet precondition.``) → ``unconfirmed``:
  the CPU budget ran out, or no input met the preconditions — no proof; the message states the
  budget and the CPU time used;
* ``error:`` → ``counterexample``, with CrossHair's message (the failing call) kept verbatim.
  An error on a line that is not a ``post:`` line (an exception raised for some input that
  meets the preconditions) becomes an extra ``counterexample`` record for its function.

The budget is machine-independent in what it counts: ``per_condition_timeout`` and
``per_path_timeout`` are CPU seconds of the worker (not wall time, so a loaded machine does not
shorten them), the per-path limit defaults to the whole budget, and CrossHair's
``max_uninteresting_iterations`` heuristic is off, so a condition is confirmed exactly when its
(seeded, deterministic) path search is exhausted within the budget. The lemmas are sized so that
each condition needs at most a fifth of the default 40 s budget (``proofs/notes/lemmas.md``).

A condition CrossHair said nothing about (crash, kill, wall-time guard) is ``unconfirmed``
with the reason. ``seconds`` is the condition's own CPU time; ``budget`` its CPU budget.

:func:`evaluate_contract` evaluates the same docstring contract on concrete inputs; the
property tests of the lemmas use it, so the tests and the prover read one statement.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypedDict

from tqdm import tqdm

from dpspec.proofs.engine.registry import (
    CROSSHAIR_BUDGET,
    TOPICS_PACKAGE,
    Check,
    CheckOutcome,
    Control,
    Obligation,
    VerifyConfig,
    topics,
)

Status = Literal["confirmed", "unconfirmed", "counterexample"]


def lemma_modules() -> tuple[str, ...]:
    """The lemma layer: every topic's ``lemmas`` module (``dpspec.proofs.topics.<t>.lemmas``)."""
    return tuple(
        f"{TOPICS_PACKAGE}.{topic}.lemmas"
        for topic in topics()
        if importlib.util.find_spec(f"{TOPICS_PACKAGE}.{topic}.lemmas") is not None
    )


#: Default CPU budget per condition (s), and how many worker processes run at once.
DEFAULT_BUDGET = CROSSHAIR_BUDGET


DEFAULT_JOBS = 2

_MESSAGE = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<kind>info|error|warning): (?P<text>.*)$")


_CONFIRMED = "Confirmed over all paths."


class ConditionRecord(TypedDict):
    """One condition's outcome, as it appears in ``ProveReport.to_json()["conditions"]``."""

    id: str
    function: str
    status: Status
    seconds: float
    message: str
    line: int
    condition: str
    budget: float


@dataclass(frozen=True)
class Condition:
    """A ``post:`` line found statically in a function's docstring."""

    function: str  # display name: ``module.function`` or ``file_stem.function``
    index: int  # 1-based position among the function's post-conditions
    line: int  # absolute source line of the ``post:`` text
    text: str  # the condition expression

    @property
    def id(self) -> str:
        return f"{self.function}#post{self.index}"


@dataclass(frozen=True)
class LemmaFunction:
    """A top-level function with at least one ``post:`` condition, and how to target it."""

    name: str
    display: str
    target: str  # what to pass to ``crosshair check``
    source: Path
    first_line: int
    last_line: int
    conditions: tuple[Condition, ...]


@dataclass
class ProveReport:
    """All condition records of a ``run_prove`` call, in source order, and the wall time."""

    conditions: list[ConditionRecord] = field(default_factory=list)
    seconds: float = 0.0
    per_condition_timeout: float = DEFAULT_BUDGET
    per_path_timeout: float = DEFAULT_BUDGET

    def _count(self, status: Status) -> int:
        return sum(1 for c in self.conditions if c["status"] == status)

    @property
    def confirmed(self) -> int:
        return self._count("confirmed")

    @property
    def unconfirmed(self) -> int:
        return self._count("unconfirmed")

    @property
    def counterexamples(self) -> int:
        return self._count("counterexample")

    @property
    def all_confirmed(self) -> bool:
        """True when there is at least one condition and every one is confirmed."""
        return bool(self.conditions) and self.confirmed == len(self.conditions)

    def to_json(self) -> dict[str, Any]:
        """``{"conditions": [...], "confirmed", "unconfirmed", "counterexamples", ...}``."""
        return {
            "conditions": [dict(c) for c in self.conditions],
            "confirmed": self.confirmed,
            "unconfirmed": self.unconfirmed,
            "counterexamples": self.counterexamples,
            "seconds": round(self.seconds, 3),
            "per_condition_timeout": self.per_condition_timeout,
            "per_path_timeout": self.per_path_timeout,
            "max_cpu_seconds": self.max_cpu_seconds,
        }

    @property
    def max_cpu_seconds(self) -> float:
        """The largest CPU time any condition took (compare with the budget)."""
        return max((c["seconds"] for c in self.conditions), default=0.0)


def contract_lines(docstring: str) -> list[tuple[int, str, str]]:
    """``(line offset, "pre" | "post", expression)`` for each contract line of a raw docstring.

    The offset counts lines from the docstring's first line, so it maps to a source line when
    added to the line the string literal starts on.
    """
    out: list[tuple[int, str, str]] = []
    for offset, raw in enumerate(docstring.splitlines()):
        stripped = raw.strip()
        for kind in ("pre", "post"):
            if stripped.startswith(f"{kind}:"):
                out.append((offset, kind, stripped[len(kind) + 1 :].strip()))
    return out


def _resolve(target: str) -> tuple[Path, str, str | None, bool]:
    """``(source file, display prefix, only this function or None, is_file)`` for a target.

    A target is a module name (``dpspec.proofs.topics.privacy.lemmas``), a function in one
    (``dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_bound``), a file path
    (``tests/false_lemmas.py``) or
    a function in a file (``tests/false_lemmas.py:name``).
    """
    path_part, _, func_part = target.partition(".py:")
    if func_part or target.endswith(".py") or os.path.sep in target:
        file = Path(path_part + ".py" if func_part else target)
        if not file.is_file():
            raise FileNotFoundError(f"target: no such file {file}")
        return file.resolve(), file.stem, func_part or None, True
    candidates: list[tuple[str, str | None]] = [(target, None)]
    if "." in target:
        parent, _, name = target.rpartition(".")
        candidates.append((parent, name))
    for module, only in candidates:
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            return Path(spec.origin), module, only, False
    raise ModuleNotFoundError(f"target: cannot find module or function {target!r}")


def discover(target: str) -> list[LemmaFunction]:
    """The functions with ``post:`` conditions in a module / file target, in source order."""
    source, prefix, only, is_file = _resolve(target)
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    found: list[LemmaFunction] = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or (only is not None and node.name != only):
            continue
        if _enumerated(node):
            continue  # a finite domain is declared: exact enumeration settles it
        first = node.body[0] if node.body else None
        if not (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            continue
        display = f"{prefix}.{node.name}"
        start = first.value.lineno
        posts = [
            (start + offset, expr)
            for offset, kind, expr in contract_lines(first.value.value)
            if kind == "post"
        ]
        if not posts:
            continue
        conditions = tuple(
            Condition(display, k, line, expr) for k, (line, expr) in enumerate(posts, start=1)
        )
        check_target = f"{source}:{node.lineno}" if is_file else display
        found.append(
            LemmaFunction(
                node.name,
                display,
                check_target,
                source,
                node.lineno,
                node.end_lineno or node.lineno,
                conditions,
            )
        )
    if only is not None and not found:
        raise LookupError(f"target: {target!r} has no function {only!r} with post-conditions")
    return found


def _enumerated(node: ast.FunctionDef) -> bool:
    """Whether a lemma declares a finite domain (``@over(...)``, see
    :mod:`dpspec.proofs.engine.finite`): CrossHair is then not asked."""
    return any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "over"
        for d in node.decorator_list
    )


def evaluate_contract(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> bool | None:
    """Run ``fn`` on concrete arguments and evaluate its docstring contract.

    Returns ``None`` when a ``pre:`` condition is false (the input is outside the lemma),
    ``True`` when every ``post:`` condition holds and ``False`` otherwise. Exceptions raised by
    ``fn`` on an admissible input propagate: CrossHair counts those as failures too. The
    expressions see the function's module globals, its arguments by name and ``__return__``.
    """
    bound = inspect.signature(fn).bind(*args, **kwargs)
    bound.apply_defaults()
    namespace: dict[str, Any] = {**fn.__globals__, **bound.arguments}
    lines = contract_lines(inspect.getdoc(fn) or "")
    for _, kind, expr in lines:
        if kind == "pre" and not eval(expr, namespace):
            return None
    namespace["__return__"] = fn(*bound.args, **bound.kwargs)
    return all(bool(eval(expr, namespace)) for _, kind, expr in lines if kind == "post")


def _status_of(kind: str, text: str) -> Status:
    if kind == "error":
        return "counterexample"
    return "confirmed" if text == _CONFIRMED else "unconfirmed"


def _same_file(reported: str, source: Path) -> bool:
    try:
        return os.path.samefile(reported, source)
    except OSError:
        return Path(reported).name == source.name


def _worker_command(targets: Sequence[str], budget: float, per_path: float) -> list[str]:
    return [
        sys.executable,
        "-m",
        "dpspec.proofs.engine.crosshair_worker",
        f"--budget={budget:g}",
        f"--per-path={per_path:g}",
        *targets,
    ]


def _run_chunk(
    functions: Sequence[LemmaFunction],
    budget: float,
    per_path: float,
    on_condition: Callable[[], None],
) -> list[ConditionRecord]:
    """One worker process (:mod:`dpspec.proofs.engine.crosshair_worker`) for several functions; the
    records come back in the functions' order, conditions in source order."""
    by_source: dict[tuple[Path, int], Condition] = {
        (fn.source, c.line): c for fn in functions for c in fn.conditions
    }
    results: dict[str, ConditionRecord] = {}
    extras: dict[str, list[ConditionRecord]] = {}
    n_conditions = sum(len(fn.conditions) for fn in functions)
    # The budget is CPU time; the wall limit only catches a hung or starved process.
    wall_limit = 120.0 + 4.0 * budget * n_conditions
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    start = time.perf_counter()
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as err:
        proc = subprocess.Popen(
            _worker_command([fn.target for fn in functions], budget, per_path),
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
        )
        timer = threading.Timer(wall_limit, proc.kill)
        timer.start()
        try:
            assert proc.stdout is not None
            for raw in proc.stdout:
                try:
                    payload = json.loads(raw)
                except ValueError:
                    continue
                cpu = float(payload["cpu"])
                found = _lookup(by_source, payload["filename"], payload["post_line"])
                if found is None:
                    continue
                source, condition = found
                for message in payload["lines"]:
                    match = _MESSAGE.match(message)
                    if match is None:
                        continue
                    line, kind, text = int(match["line"]), match["kind"], match["text"]
                    at_post = line == condition.line and _same_file(match["path"], source)
                    if at_post and condition.id not in results:
                        explained = _explain(kind, text, cpu, budget, per_path)
                        results[condition.id] = _record(
                            condition, _status_of(kind, text), cpu, explained, budget
                        )
                    elif kind == "error":
                        extras.setdefault(condition.function, []).append(
                            ConditionRecord(
                                id=f"{condition.function}#error@{Path(match['path']).name}:{line}",
                                function=condition.function,
                                status="counterexample",
                                seconds=round(cpu, 3),
                                message=text,
                                line=line,
                                condition="(no exception for admissible inputs)",
                                budget=budget,
                            )
                        )
                if condition.id not in results:
                    results[condition.id] = _record(
                        condition,
                        "counterexample" if condition.function in extras else "unconfirmed",
                        cpu,
                        "an admissible input raises (see the #error record)"
                        if condition.function in extras
                        else _explain("info", "crosshair gave no verdict.", cpu, budget, per_path),
                        budget,
                    )
                on_condition()
            proc.wait()
        finally:
            killed = not timer.is_alive() and proc.returncode not in (0, 1)
            timer.cancel()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        err.seek(0)
        stderr_tail = [s for s in err.read().strip().splitlines() if s.strip()][-1:]
    detail = f"exit {proc.returncode}" + (f": {stderr_tail[0].strip()}" if stderr_tail else "")
    if killed:
        reason = f"crosshair worker killed after {wall_limit:.0f}s wall time"
    else:
        reason = f"no report from the crosshair worker ({detail})"
    records: list[ConditionRecord] = []
    for fn in functions:
        for condition in fn.conditions:
            if condition.id in results:
                records.append(results[condition.id])
            else:
                elapsed = time.perf_counter() - start
                records.append(_record(condition, "unconfirmed", elapsed, reason, budget))
                on_condition()
        records.extend(extras.get(fn.display, []))
    return records


def _lookup(
    by_source: dict[tuple[Path, int], Condition], filename: str, line: int
) -> tuple[Path, Condition] | None:
    """The discovered condition a worker record is about (file compared by identity)."""
    for (source, at), condition in by_source.items():
        if at == line and _same_file(filename, source):
            return source, condition
    return None


def _explain(kind: str, text: str, cpu: float, budget: float, per_path: float) -> str:
    if kind == "error" or text == _CONFIRMED:
        return text
    return f"{text} CPU budget {budget:g}s per condition ({per_path:g}s per path), {cpu:.1f}s used"


def _record(
    condition: Condition, status: Status, seconds: float, message: str, budget: float
) -> ConditionRecord:
    return ConditionRecord(
        id=condition.id,
        function=condition.function,
        status=status,
        seconds=round(seconds, 3),
        message="" if status == "confirmed" else message,
        line=condition.line,
        condition=condition.text,
        budget=budget,
    )


def _chunks(functions: Sequence[LemmaFunction], jobs: int) -> list[list[LemmaFunction]]:
    """Split the functions over ``jobs`` workers: contiguous runs of about equal condition
    counts, so each worker imports few modules and the workers finish at similar times."""
    total = sum(len(fn.conditions) for fn in functions)
    out: list[list[LemmaFunction]] = [[] for _ in range(max(1, jobs))]
    done = 0
    for fn in functions:
        k = min(len(out) - 1, done * len(out) // max(1, total))
        out[k].append(fn)
        done += len(fn.conditions)
    return [chunk for chunk in out if chunk]


def run_prove(
    modules: Sequence[str] | None = None,
    per_condition_timeout: float = DEFAULT_BUDGET,
    progress: bool = True,
    jobs: int | None = None,
    per_path_timeout: float | None = None,
) -> ProveReport:
    """Run CrossHair on every contract of ``modules`` and return one record per condition.

    ``modules`` holds module names, ``module.function`` names, file paths or
    ``file.py:function`` (see :func:`discover`). ``per_condition_timeout`` is the CPU budget
    of each condition (s) and ``per_path_timeout`` that of one path (default: the whole
    budget, so no path is cut short on a slow machine). The functions are split over ``jobs``
    worker processes (default 2, at most the number of CPUs). ``progress`` shows a tqdm bar on
    stderr, advancing per condition.
    """
    targets = lemma_modules() if modules is None else modules
    functions = [fn for target in targets for fn in discover(target)]
    total = sum(len(fn.conditions) for fn in functions)
    per_path = per_condition_timeout if per_path_timeout is None else per_path_timeout
    workers = max(1, min(jobs or DEFAULT_JOBS, os.cpu_count() or 1, len(functions) or 1))
    bar = tqdm(total=total, desc="crosshair", unit="cond", disable=not progress, file=sys.stderr)
    lock = threading.Lock()

    def tick() -> None:
        with lock:
            bar.update(1)

    start = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(_run_chunk, chunk, per_condition_timeout, per_path, tick)
                for chunk in _chunks(functions, workers)
            ]
            records = [rec for future in futures for rec in future.result()]
    finally:
        bar.close()
    return ProveReport(records, time.perf_counter() - start, per_condition_timeout, per_path)


def summarise(
    function_id: str, records: Sequence[ConditionRecord], seconds: float
) -> dict[str, Any]:
    """One record for a function's (or one condition's) records.

    ``status`` is ``counterexample`` if any condition has one, else ``unconfirmed`` if any is
    unconfirmed (or there is none), else ``confirmed``; ``max_cpu_seconds`` is the largest CPU
    time of a condition and ``budget`` its CPU budget; ``conditions`` holds the records.
    """
    statuses = {r["status"] for r in records}
    status: Status = (
        "counterexample"
        if "counterexample" in statuses
        else "unconfirmed"
        if "unconfirmed" in statuses or not records
        else "confirmed"
    )
    message = "; ".join(f"{r['id']}: {r['message']}" for r in records if r["status"] != "confirmed")
    return {
        "id": function_id,
        "function": function_id.partition("#")[0],
        "status": status,
        "seconds": round(seconds, 3),
        "max_cpu_seconds": max((r["seconds"] for r in records), default=0.0),
        "budget": max((r["budget"] for r in records), default=0.0),
        "message": message,
        "conditions": [dict(r) for r in records],
    }


def check_condition(function_qualname: str, timeout: float = DEFAULT_BUDGET) -> dict[str, Any]:
    """Check one lemma function (``module.function``, ``file.py:function``, or a condition id
    ``module.function#postK``) in one worker and summarise it (:func:`summarise`; ``seconds``
    is the wall time)."""
    qualname, _, post = function_qualname.partition("#")
    start = time.perf_counter()
    report = run_prove((qualname,), per_condition_timeout=timeout, progress=False, jobs=1)
    records = report.conditions
    if post:
        records = [r for r in records if r["id"] == function_qualname]
        if not records:
            raise LookupError(f"function_qualname: no condition {function_qualname!r}")
    return summarise(function_qualname, records, time.perf_counter() - start)


#: One CrossHair run per (lemma module, budget) and process: ``dpspec verify`` checks several
#: obligations of one module, and each obligation reads its own conditions from the shared run.
_MODULE_RUNS: dict[tuple[str, float], ProveReport] = {}


#: Runs started in the background by :func:`prefetch_crosshair`, set when their report is in.
_PENDING: dict[tuple[str, float], threading.Event] = {}


_LOCK = threading.Lock()


def module_report(module: str, budget: float) -> ProveReport:
    """The CrossHair report of every lemma of ``module`` at CPU ``budget`` (run once, cached
    for the rest of the process; two workers), waiting for a background run if one is under
    way."""
    from dpspec.proofs.engine.crosshair import run_prove

    key = (module, float(budget))
    with _LOCK:
        pending = _PENDING.get(key)
    if pending is not None:
        pending.wait()
    with _LOCK:
        if key not in _MODULE_RUNS:
            _MODULE_RUNS[key] = run_prove((module,), per_condition_timeout=budget, progress=False)
        return _MODULE_RUNS[key]


def prefetch_crosshair(selected: Sequence[Obligation], budget: float) -> None:
    """Start, in a background thread, one CrossHair run (two workers) over every lemma module
    the ``selected`` CrossHair obligations need and their negation files, so that it overlaps
    with the other checks of ``dpspec verify``; each obligation's check later reads its own
    module's conditions (:func:`module_report` waits for the run while it is under way)."""
    from dpspec.proofs.engine.crosshair import run_prove

    modules: list[str] = []
    for ob in selected:
        if ob.lemmas and ob.lemma_module not in modules and discover(ob.lemma_module):
            modules.append(ob.lemma_module)
    modules += [str(negation_file(m)) for m in list(modules)]
    with _LOCK:
        modules = [m for m in modules if (m, float(budget)) not in _MODULE_RUNS | _PENDING]
        events = {m: threading.Event() for m in modules}
        for m, event in events.items():
            _PENDING[(m, float(budget))] = event
    if not modules:
        return

    def work() -> None:
        # one run over every module (two worker processes in all, not two per module), then
        # each module's records under its own key
        try:
            report = run_prove(modules, per_condition_timeout=budget, progress=False)
            for m in modules:
                names = {c.function for fn in discover(m) for c in fn.conditions}
                own = [r for r in report.conditions if r["function"] in names]
                with _LOCK:
                    _MODULE_RUNS[(m, float(budget))] = ProveReport(
                        own, report.seconds, report.per_condition_timeout, report.per_path_timeout
                    )
        finally:
            with _LOCK:
                for m in modules:
                    _PENDING.pop((m, float(budget)), None)
            for event in events.values():
                event.set()

    threading.Thread(target=work, name="crosshair-prefetch", daemon=True).start()


def crosshair_check(functions: str | tuple[str, ...], module: str) -> Check:
    """A check that passes when every condition of the lemma(s) ``module.function`` is
    confirmed by CrossHair within the CPU budget ``config.crosshair_timeout``; the detail gives
    the largest CPU time of a condition against that budget."""
    names = (functions,) if isinstance(functions, str) else functions
    qualnames = tuple(f"{module}.{name}" for name in names)

    def run(config: VerifyConfig) -> CheckOutcome:
        report = module_report(module, config.crosshair_timeout)
        negated = negation_report(module, config.crosshair_timeout)
        stem = negation_file(module).stem
        controls = [
            Control(
                f"{r['function'].rsplit('.', 1)[-1]} (a condition negated: the lemma vacuous or "
                "unexplored)",
                r["status"] == "counterexample",
                f"CrossHair: {r['status']} in {r['seconds']:.2f}s CPU",
            )
            for r in negated.conditions
            if any(r["function"].startswith(f"{stem}.{name}__negated_") for name in names)
        ]
        records = [r for r in report.conditions if r["function"] in qualnames]
        missing = [q for q in qualnames if not any(r["function"] == q for r in records)]
        rec = summarise(" + ".join(qualnames), records, report.seconds)
        passed = rec["status"] == "confirmed" and not missing
        detail = (
            f"crosshair: {rec['status']}, {len(records)} condition(s), max "
            f"{rec['max_cpu_seconds']:.2f}s CPU of a {config.crosshair_timeout:g}s budget"
            + (f"; no conditions found for {missing}" if missing else "")
            + (f"; {rec['message']}" if rec["message"] else "")
        )
        return CheckOutcome(
            passed,
            detail,
            {
                "status": rec["status"],
                "max_cpu_seconds": rec["max_cpu_seconds"],
                "budget": config.crosshair_timeout,
                "conditions": {r["id"]: r["status"] for r in records},
            },
            controls,
        )

    run.__name__ = f"crosshair_{'_'.join(names)}"
    return run


# ---------------------------------------------------------------------------------------------
# Controls of the lemma layer: every condition negated must be refuted


_NEGATION_FILES: dict[str, Path] = {}


def negation_file(module: str) -> Path:
    """A scratch copy of a lemma module in which every lemma's contract conditions are gone
    and, for each ``post:`` line k of each lemma f, a function ``f__negated_k`` is appended:
    f's own code with its ``pre:`` lines and the single line ``post: not (<line k>)``. CrossHair
    must refute each of them — else the lemma holds vacuously (no input meets its
    preconditions) or its search never reaches the line. The copies call contract-free
    functions only (every contract of the scratch module is stripped but theirs), so no callee
    contract can hide a path."""
    if module in _NEGATION_FILES:
        return _NEGATION_FILES[module]
    source, _, _, _ = _resolve(module)
    lines = source.read_text(encoding="utf-8").splitlines()
    functions = discover(module)
    stripped = [line for line in lines if not line.strip().startswith("post:")]
    out = [*stripped, ""]
    for fn in functions:
        segment = lines[fn.first_line - 1 : fn.last_line]
        for k, condition in enumerate(fn.conditions, start=1):
            copy: list[str] = []
            for line in segment:
                text = line.strip()
                if text.startswith("post:"):
                    if text[len("post:") :].strip() == condition.text and not any(
                        c.startswith("post:") and "not (" in c for c in copy
                    ):
                        indent = line[: len(line) - len(line.lstrip())]
                        copy.append(f"{indent}post: not ({condition.text})")
                    continue
                copy.append(line)
            copy[0] = copy[0].replace(f"def {fn.name}(", f"def {fn.name}__negated_{k}(", 1)
            out += ["", "", *copy]
    folder = Path(tempfile.mkdtemp(prefix="dpspec-negations-"))
    path = folder / f"negated_{module.rsplit('.', 2)[-2]}.py"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    _NEGATION_FILES[module] = path
    return path


def negation_report(module: str, budget: float) -> ProveReport:
    """CrossHair's report on :func:`negation_file` of ``module`` (cached for the process)."""
    return module_report(str(negation_file(module)), budget)
