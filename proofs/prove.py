"""``dpspec prove``: run CrossHair over the lemma layer and report every condition.

A *condition* is one ``post:`` line of a PEP 316 docstring contract. For each function with
a contract the runner starts one

    python -m crosshair check TARGET --report_all --per_condition_timeout=N

process (TARGET is ``module.function``, or ``path.py:LINE`` for a file), several at a time
(one per core), and parses CrossHair's machine-readable lines
``<file>:<line>: <info|error>: <message>``. The line of a message identifies the condition:

* ``info: Confirmed over all paths.`` → ``confirmed``: every execution path satisfying the
  preconditions was explored and the condition held on all of them;
* any other ``info:`` (``Not confirmed.``, ``Unable to meet precondition.``) → ``unconfirmed``:
  the time ran out, or no input met the preconditions — no proof;
* ``error:`` → ``counterexample``, with CrossHair's message (the failing call) kept verbatim.
  An error on a line that is not a ``post:`` line (an exception raised for some input that
  meets the preconditions) becomes an extra ``counterexample`` record for its function.

A condition CrossHair said nothing about (crash, kill, process timeout) is ``unconfirmed``
with the reason. ``seconds`` is the wall time from the start of the function's CrossHair
process to the condition's message. CrossHair explores a function's paths once for all of its
post-conditions and reports them together, so the conditions of one function share that time
(interpreter start-up included); summing ``seconds`` over conditions overcounts.

:func:`evaluate_contract` evaluates the same docstring contract on concrete inputs; the
property tests of the lemmas use it, so the tests and the prover read one statement.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
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

Status = Literal["confirmed", "unconfirmed", "counterexample"]

#: The lemma layers: ``dpspec.proofs.lemmas`` (privacy core) and every sibling module whose
#: name starts with ``lemmas_`` (one per topic, e.g. compression, local privacy).
DEFAULT_MODULES: tuple[str, ...] = (
    "dpspec.proofs.lemmas",
    *(
        f"dpspec.proofs.{path.stem}"
        for path in sorted(Path(__file__).resolve().parent.glob("lemmas_*.py"))
    ),
)

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
    per_condition_timeout: float = 20.0

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
        }


# ---------------------------------------------------------------------------------------------
# Contracts: static discovery (line numbers) and concrete evaluation
# ---------------------------------------------------------------------------------------------


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

    A target is a module name (``dpspec.proofs.lemmas``), a function in one
    (``dpspec.proofs.lemmas.laplace_loss_bound``), a file path (``tests/false_lemmas.py``) or
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
    return all(
        bool(eval(expr, namespace))
        for _, kind, expr in lines
        if kind == "post"
    )


# ---------------------------------------------------------------------------------------------
# Running CrossHair
# ---------------------------------------------------------------------------------------------


def _status_of(kind: str, text: str) -> Status:
    if kind == "error":
        return "counterexample"
    return "confirmed" if text == _CONFIRMED else "unconfirmed"


def _same_file(reported: str, source: Path) -> bool:
    try:
        return os.path.samefile(reported, source)
    except OSError:
        return Path(reported).name == source.name


def _run_function(
    fn: LemmaFunction,
    per_condition_timeout: float,
    on_condition: Callable[[], None],
) -> list[ConditionRecord]:
    """One ``crosshair check`` process for one function; records in condition order."""
    command = [
        sys.executable,
        "-m",
        "crosshair",
        "check",
        fn.target,
        "--report_all",
        f"--per_condition_timeout={per_condition_timeout:g}",
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    by_line = {c.line: c for c in fn.conditions}
    results: dict[int, ConditionRecord] = {}
    extras: list[ConditionRecord] = []
    # CrossHair's per-condition timeout is CPU time; the wall limit only catches a hung process.
    wall_limit = 60.0 + 3.0 * per_condition_timeout * len(fn.conditions)
    start = time.perf_counter()
    killed = False
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as err:
        proc = subprocess.Popen(
            command,
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
                match = _MESSAGE.match(raw.rstrip("\n"))
                if match is None:
                    continue
                now = time.perf_counter()
                line, kind, text = int(match["line"]), match["kind"], match["text"]
                condition = by_line.get(line) if _same_file(match["path"], fn.source) else None
                if condition is not None and line not in results:
                    results[line] = _record(condition, _status_of(kind, text), now - start, text)
                    on_condition()
                elif kind == "error":
                    extras.append(
                        ConditionRecord(
                            id=f"{fn.display}#error@{Path(match['path']).name}:{line}",
                            function=fn.display,
                            status="counterexample",
                            seconds=round(now - start, 3),
                            message=text,
                            line=line,
                            condition="(no exception for admissible inputs)",
                        )
                    )
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
    found_error = extras or any(r["status"] == "counterexample" for r in results.values())
    if killed:
        reason = f"crosshair process killed after {wall_limit:.0f}s wall time"
    elif found_error:
        reason = f"not settled: crosshair stopped at a counterexample of this function ({detail})"
    elif proc.returncode == 0:
        reason = f"crosshair reported nothing ({detail}; e.g. no input meets the preconditions)"
    else:
        reason = f"no report from crosshair ({detail})"
    records: list[ConditionRecord] = []
    for condition in fn.conditions:
        if condition.line in results:
            records.append(results[condition.line])
        else:
            records.append(_record(condition, "unconfirmed", time.perf_counter() - start, reason))
            on_condition()
    return records + extras


def _record(condition: Condition, status: Status, seconds: float, message: str) -> ConditionRecord:
    return ConditionRecord(
        id=condition.id,
        function=condition.function,
        status=status,
        seconds=round(seconds, 3),
        message="" if status == "confirmed" else message,
        line=condition.line,
        condition=condition.text,
    )


def run_prove(
    modules: Sequence[str] = DEFAULT_MODULES,
    per_condition_timeout: float = 20.0,
    progress: bool = True,
    jobs: int | None = None,
) -> ProveReport:
    """Run CrossHair on every contract of ``modules`` and return one record per condition.

    ``modules`` holds module names, ``module.function`` names, file paths or
    ``file.py:function`` (see :func:`discover`). Functions are checked in parallel, ``jobs``
    processes at a time (default: the number of CPUs). ``progress`` shows a tqdm bar on
    stderr, advancing per condition.
    """
    functions = [fn for target in modules for fn in discover(target)]
    total = sum(len(fn.conditions) for fn in functions)
    workers = max(1, min(jobs or os.cpu_count() or 1, len(functions) or 1))
    bar = tqdm(total=total, desc="crosshair", unit="cond", disable=not progress, file=sys.stderr)
    lock = threading.Lock()

    def tick() -> None:
        with lock:
            bar.update(1)

    start = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(_run_function, fn, per_condition_timeout, tick) for fn in functions
            ]
            records = [rec for future in futures for rec in future.result()]
    finally:
        bar.close()
    return ProveReport(records, time.perf_counter() - start, per_condition_timeout)


def check_condition(function_qualname: str, timeout: float = 20.0) -> dict[str, Any]:
    """Check one lemma function (``module.function``, ``file.py:function``, or a condition id
    ``module.function#postK``) and summarise it as one record.

    The summary's ``status`` is ``counterexample`` if any of its conditions has one, else
    ``unconfirmed`` if any is unconfirmed, else ``confirmed``; ``seconds`` is the wall time
    and ``conditions`` holds the per-condition records.
    """
    qualname, _, post = function_qualname.partition("#")
    start = time.perf_counter()
    report = run_prove((qualname,), per_condition_timeout=timeout, progress=False, jobs=1)
    records = report.conditions
    if post:
        records = [r for r in records if r["id"] == function_qualname]
        if not records:
            raise LookupError(f"function_qualname: no condition {function_qualname!r}")
    statuses = {r["status"] for r in records}
    status: Status = (
        "counterexample"
        if "counterexample" in statuses
        else "unconfirmed"
        if "unconfirmed" in statuses or not records
        else "confirmed"
    )
    message = "; ".join(
        f"{r['id']}: {r['message']}" for r in records if r["status"] != "confirmed"
    )
    return {
        "id": function_qualname,
        "function": qualname,
        "status": status,
        "seconds": round(time.perf_counter() - start, 3),
        "message": message,
        "conditions": [dict(r) for r in records],
    }

