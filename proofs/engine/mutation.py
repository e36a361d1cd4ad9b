"""Mutation testing: apply privacy-critical mutations to a scratch copy and run ``dpspec verify``.

Each :class:`Mutant` is an id and an :class:`~dpspec.proofs.engine.edits.Edit`: one short
snippet of one function, class or module of ``impl/`` replaced by a plausible privacy bug. The
catalogue (:func:`catalogue`) is every topic's ``MUTANTS`` and every obligation's bug controls
(:func:`controls`, kind ``"control"``: the edits ``dpspec verify`` plants in the process, made
here in the file); a catalogued mutant is no control's edit again (a test). For every mutant the
engine

1. copies ``spec/``, ``impl/``, ``proofs/`` of one snapshot of the tree into a scratch directory
   laid out as the importable package ``dpspec`` (``impl/`` as ``dpspec/``, ``spec/`` and
   ``proofs/`` inside it), a regular package that
   wins over the installed editable one on ``PYTHONPATH``;
2. applies the edit in its target's span of the copied file (the snippet must occur exactly
   once there, else the mutant is reported *stale* and nothing runs);
3. runs ``python -m dpspec.cli verify --ids ...`` there, restricted to the obligations the
   registry links to the mutated module (an obligation is linked when a dotted name of its
   ``impls``, ``entry_points`` or bug-control targets lies in the module, textually or by the
   module that defines the named object); ``--all-obligations`` runs the whole registry instead
   and reports failing obligations that are not linked (a missing link in the registry).

A mutant is *killed* when at least one obligation fails on the mutated copy that passes on the
unmutated copy of the same snapshot (the baseline run; an obligation that already fails there
cannot kill anything and is listed under ``baseline_failed``). ``proofs/notes/mutation.md``
has the catalogue and the results.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dpspec.proofs.engine.edits import Edit, StaleEdit
from dpspec.proofs.engine.errors import InternalError, write_json
from dpspec.proofs.engine.layout import ROOTS
from dpspec.proofs.engine.legacy_ids import LEGACY_MUTANTS
from dpspec.proofs.engine.preload import PRELOAD
from dpspec.proofs.engine.registry import Obligation, obligations, topic_module, topics

#: Source folders copied into the scratch package (``impl/`` is the package ``dpspec`` itself).
SOURCE_FOLDERS = tuple(sorted({folder.split("/")[0] for folder in ROOTS.values()}))


#: Folder → import prefix, the mounted folders inside others first (``layout.ROOTS``).
_IMPORT_PREFIXES = tuple(
    sorted(((folder, name) for name, folder in ROOTS.items()), key=lambda fp: -len(fp[0]))
)


DEFAULT_TIMEOUT = 600.0


class StaleMutant(StaleEdit):
    """The mutant's snippet does not occur exactly once in its target's span."""


def source_root() -> Path:
    """The folder holding ``spec/``, ``impl/``, ``proofs/`` of the installed dpspec."""
    import dpspec.proofs

    here = Path(dpspec.proofs.__file__).resolve().parent.parent
    if not all((here / name).is_dir() for name in SOURCE_FOLDERS):
        raise FileNotFoundError(f"root: no spec/, impl/, proofs/ under {here}")
    return here


def module_of(file: str) -> str:
    """Dotted import name of a repo-relative source file (``impl/noise.py`` → dpspec.noise)."""
    path = Path(file)
    if path.suffix != ".py":
        raise ValueError(f"file: not a Python file: {file!r}")
    parts = path.with_suffix("").as_posix()
    for folder, prefix in _IMPORT_PREFIXES:
        if parts == folder or parts.startswith(folder + "/"):
            rest = parts[len(folder) :].strip("/").split("/") if parts != folder else []
            if rest and rest[-1] == "__init__":
                rest = rest[:-1]
            return ".".join([prefix, *[r for r in rest if r]])
    raise ValueError(f"file: {file!r} is not under spec/, impl/ or proofs/")


def _defining_module(name: str) -> str | None:
    """The module that defines the object a dotted name points to (None when unresolvable)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        module = getattr(obj, "__module__", None)
        if module is None and cut == len(parts):
            return ".".join(parts)
        return module if isinstance(module, str) else None
    return None


def _in_module(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


def linked_obligations(file: str, registry: Sequence[Obligation] | None = None) -> list[str]:
    """Ids of the obligations whose ``impls``, ``entry_points`` or bug controls' targets name
    code in ``file``."""
    module = module_of(file)
    out = []
    for ob in obligations() if registry is None else registry:
        names = (*ob.impls, *ob.entry_points, *(c.target for c in ob.bug_controls))
        if any(_in_module(n, module) for n in names) or any(
            (m := _defining_module(n)) is not None and _in_module(m, module) for n in names
        ):
            out.append(ob.id)
    return out


def apply_mutation(text: str, mutant: Mutant) -> str:
    """``text`` (the mutant's file) with its edit made in the target's span; :class:`StaleMutant`
    unless the snippet occurs exactly once there."""
    try:
        return mutant.edit.apply(text)
    except StaleEdit as exc:
        raise StaleMutant(f"stale mutant {mutant.id}: {exc}") from exc


def snapshot(root: Path, into: Path) -> Path:
    """Copy ``spec/``, ``impl/``, ``proofs/`` of ``root`` to ``into/src`` (one consistent state)."""
    src = into / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in SOURCE_FOLDERS:
        shutil.copytree(root / name, src / name, ignore=ignore)
    return src


def build_scratch(src: Path, into: Path) -> Path:
    """A scratch root whose ``dpspec`` package is a copy of ``src`` laid out as ``layout.ROOTS``
    says (a mounted folder inside a copied one becomes a link); returns the root."""
    for name, folder in sorted(ROOTS.items(), key=lambda nf: len(nf[0])):  # parents first
        target = into.joinpath(*name.split("."))
        if target.exists():  # inside a folder copied already: link the import name to it
            continue
        inner = [n for n, f in ROOTS.items() if f != folder and f.startswith(folder + "/")]
        shutil.copytree(src / folder, target)
        for n in inner:
            link = into.joinpath(*n.split("."))
            link.symlink_to(target / Path(ROOTS[n]).relative_to(folder), target_is_directory=True)
    return into


def scratch_file(root: Path, file: str) -> Path:
    """Where a repo-relative source file lies in a scratch root (``impl/x.py`` is
    ``dpspec/x.py``: the folder's import name as a path)."""
    path = Path(file).as_posix()
    for folder, name in _IMPORT_PREFIXES:
        if path.startswith(folder + "/"):
            return root.joinpath(*name.split("."), path[len(folder) + 1 :])
    raise ValueError(f"file: {file!r} is not under {', '.join(SOURCE_FOLDERS)}")


def scratch_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    rest = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(root) + (os.pathsep + rest if rest else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def probe_imports(root: Path) -> dict[str, str]:
    """Where each dpspec import name resolves in a scratch root (must be inside the root)."""
    code = (
        "import json, dpspec, dpspec.spec, dpspec.audit, dpspec.proofs, dpspec.strategies;"
        "print(json.dumps({m.__name__: m.__file__ for m in (dpspec, dpspec.spec, "
        "dpspec.audit, dpspec.proofs, dpspec.strategies)}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env=scratch_env(root),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if out.returncode != 0:
        raise InternalError(f"scratch import probe failed: {out.stderr.strip()[-500:]}")
    found: dict[str, str] = json.loads(out.stdout)
    for name, file in found.items():
        if not Path(file).is_relative_to(root):
            raise InternalError(f"scratch import probe: {name} resolves to {file}, not the copy")
    return found


@dataclass
class VerifyRun:
    """The outcome of one ``dpspec verify`` run in a scratch copy."""

    failed: list[str]
    passed: list[str]
    returncode: int
    seconds: float
    timed_out: bool = False
    error: str = ""
    seconds_by_id: dict[str, float] = field(default_factory=dict)


def run_verify_in(
    root: Path,
    ids: Sequence[str],
    timeout: float,
    fail_fast: bool = False,
    *,
    server: ForkServer | None = None,
    jobs: int = 1,
) -> VerifyRun:
    """``dpspec verify --ids ...`` in ``root`` (``jobs`` worker processes); which obligations
    failed.

    ``fail_fast``: run the obligations one by one in the given order through the same
    ``run_verify`` and stop at the first failure (:func:`worker_main`). ``server``: run in a
    child of that :class:`ForkServer` instead of a fresh interpreter (the same code runs; only
    the third-party imports are shared).
    """
    out_json = root / "verify.json"
    joined = ",".join(ids)
    if fail_fast:
        target, argv = "dpspec.proofs.engine.mutation:worker_main", [joined, str(out_json)]
    else:
        target = "dpspec.cli:main"
        argv = ["verify", "--no-progress", "--jobs", str(jobs), "--json", str(out_json)]
        argv += ["--ids", joined]
    start = time.perf_counter()
    if server is not None:
        returncode, timed_out, output = server.run(root, target, argv, timeout)
    else:
        module, _, name = target.partition(":")
        code = f"import sys; from {module} import {name}; sys.exit({name}(sys.argv[1:]))"
        try:
            proc = subprocess.run(
                [sys.executable, "-c", code, *argv],
                cwd=root,
                env=scratch_env(root),
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
            returncode, timed_out, output = proc.returncode, False, proc.stderr or proc.stdout
        except subprocess.TimeoutExpired:
            returncode, timed_out, output = -1, True, ""
    seconds = time.perf_counter() - start
    if timed_out:
        return VerifyRun([], [], returncode, seconds, True, f"timeout {timeout:g}s")
    if returncode not in (0, 1) or not out_json.exists():
        tail = output.strip().splitlines()[-3:]
        return VerifyRun([], [], returncode, seconds, False, " | ".join(tail))
    report = json.loads(out_json.read_text(encoding="utf-8"))
    rows = report["obligations"]
    failed = [r["id"] for r in rows if r["status"] == "failed"]
    passed = [r["id"] for r in rows if r["status"] != "failed"]
    run = VerifyRun(failed, passed, returncode, seconds)
    run.seconds_by_id = {r["id"]: float(r["seconds"]) for r in rows}
    return run


class ForkServer:
    """``fork_server.py`` in a subprocess: runs targets in forked children that share its
    third-party imports but import ``dpspec`` from their own scratch root."""

    def __init__(self) -> None:
        script = Path(__file__).with_name("fork_server.py")
        self.proc = subprocess.Popen(
            [sys.executable, "-P", str(script), *PRELOAD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        if not self.stdout.readline():
            raise InternalError(f"the fork server did not start (exit {self.proc.wait()})")

    def run(
        self, root: Path, target: str, argv: Sequence[str], timeout: float
    ) -> tuple[int, bool, str]:
        """Run ``target(argv)`` in a child in ``root``: exit code, timed out, its output."""
        log = root / "run.log"
        request = {
            "root": str(root),
            "target": target,
            "argv": list(argv),
            "timeout": timeout,
            "log": str(log),
        }
        self.stdin.write(json.dumps(request) + "\n")
        self.stdin.flush()
        line = self.stdout.readline()
        if not line:
            raise InternalError(f"the fork server stopped (exit {self.proc.wait()})")
        answer = json.loads(line)
        output = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        return int(answer["returncode"]), bool(answer["timed_out"]), output

    def close(self) -> None:
        self.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def worker_main(argv: Sequence[str]) -> int:
    """Run the comma-separated obligation ids ``argv[0]`` in order, stop at the first failure,
    write the rows as ``dpspec verify --json`` does to ``argv[1]``; exit 1 on a failure."""
    from dpspec.proofs.engine.registry import VerifyConfig
    from dpspec.proofs.engine.verify import run_verify

    ids, out = [i for i in argv[0].split(",") if i], argv[1]
    rows: list[dict[str, Any]] = []
    for ob_id in ids:
        rows += run_verify(VerifyConfig(), progress=False, ids=[ob_id])["obligations"]
        if rows[-1]["status"] == "failed":
            break
    write_json(out, {"obligations": rows})
    return 1 if rows and rows[-1]["status"] == "failed" else 0


@dataclass
class MutantResult:
    mutant: Mutant
    killed: bool = False
    killed_by: list[str] = field(default_factory=list)
    stale: bool = False
    status: str = "survived"
    linked: list[str] = field(default_factory=list)
    unlinked_killers: list[str] = field(default_factory=list)
    seconds: float = 0.0
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.mutant.id,
            "file": self.mutant.file,
            "description": self.mutant.description,
            "killed": self.killed,
            "killed_by": self.killed_by,
            "stale": self.stale,
            "status": self.status,
            "linked": self.linked,
            "unlinked_killers": self.unlinked_killers,
            "seconds": round(self.seconds, 3),
            "detail": self.detail,
        }


def judge(
    result: MutantResult, run: VerifyRun, baseline_failed: Iterable[str], linked: Iterable[str]
) -> MutantResult:
    """Fill ``result`` from a verify run: killed by obligations that pass on the baseline."""
    result.seconds = run.seconds
    if run.timed_out:
        result.status, result.detail = "timeout", run.error
        return result
    if run.error:
        result.status, result.detail = "error", f"verify exited {run.returncode}: {run.error}"
        return result
    skip, link = set(baseline_failed), set(linked)
    result.killed_by = [i for i in run.failed if i not in skip]
    result.unlinked_killers = [i for i in result.killed_by if i not in link]
    result.killed = bool(result.killed_by)
    result.status = "killed" if result.killed else "survived"
    if not result.linked:
        result.detail = "no obligation is linked to this module"
    return result


def topic_mutants() -> tuple[Mutant, ...]:
    """Every topic's ``MUTANTS``, topics in name order."""
    found: list[Mutant] = []
    for topic in topics():
        module = topic_module(topic, "mutants")
        if module is not None:
            found.extend(module.MUTANTS)
    return tuple(found)


def controls(registry: Sequence[Obligation] | None = None) -> tuple[Mutant, ...]:
    """Every obligation's bug controls as mutants of kind ``"control"``, the ``k``-th control of
    obligation ``ob`` as ``<ob.id>.control-<k>`` (from 1); a control that is the same change as
    an earlier one (two obligations planting one bug) is listed once."""
    found: list[Mutant] = []
    for ob in obligations() if registry is None else registry:
        for k, edit in enumerate(ob.bug_controls, 1):
            if not any(edit.same_change(m.edit) for m in found if m.file == edit.file):
                found.append(Mutant(f"{ob.id}.control-{k}", edit, "control"))
    return tuple(found)


def catalogue() -> tuple[Mutant, ...]:
    """What ``dpspec mutate`` runs: the topics' mutants, then the bug controls."""
    return (*topic_mutants(), *controls())


def select_mutants(
    only: str | None = None, mutants: Sequence[Mutant] | None = None
) -> list[Mutant]:
    """The mutants of ``mutants`` (default: the whole catalogue) whose id contains ``only`` (an
    id a mutant had before it became a bug control stands for the control's)."""
    pool = catalogue() if mutants is None else mutants
    only = LEGACY_MUTANTS.get(only, only) if only is not None else None
    return [m for m in pool if only is None or only in m.id]


@dataclass(frozen=True)
class MutateOptions:
    """How :func:`run_mutants` runs: ``jobs`` scratch runs at once; ``all_obligations`` runs
    the whole registry on every mutant (else the obligations linked to its module);
    ``baseline`` runs the unmutated copy too; ``timeout`` seconds per run; ``fail_fast`` runs
    the baseline first, then each mutant's obligations cheapest first (baseline seconds),
    skipping those failing on the baseline and stopping at the first failure, so
    ``killed_by`` names one obligation."""

    jobs: int = 2
    all_obligations: bool = False
    baseline: bool = True
    timeout: float = DEFAULT_TIMEOUT
    progress: bool = True
    fail_fast: bool = False


@dataclass
class _Plan:
    """The mutants of one run: every result, and the runnable ones with their mutated text
    and the obligations to run."""

    results: list[MutantResult]
    runnable: list[tuple[MutantResult, str, list[str]]]

    @property
    def needed(self) -> list[str]:
        """The obligations some mutant runs (what the baseline must run)."""
        return sorted({i for _, _, ids in self.runnable for i in ids})


def _plan(
    mutants: Sequence[Mutant], src: Path, all_ids: list[str], every_obligation: bool
) -> _Plan:
    """Apply each mutant to the snapshot ``src`` (a stale one is reported, not run) and link it
    to the obligations of its module."""
    plan = _Plan([], [])
    links: dict[str, list[str]] = {}
    registry = obligations()
    for m in mutants:
        res = MutantResult(m)
        plan.results.append(res)
        try:
            text = apply_mutation((src / m.file).read_text(encoding="utf-8"), m)
        except (StaleEdit, OSError, SyntaxError) as exc:
            res.stale, res.status = True, "stale"
            res.detail = str(exc) if isinstance(exc, StaleMutant) else f"{m.file}: {exc}"
            continue
        if m.file not in links:
            links[m.file] = [i for i in linked_obligations(m.file, registry) if i in all_ids]
        res.linked = links[m.file]
        ids = all_ids if every_obligation else res.linked
        if not ids:
            res.detail = "no obligation is linked to this module"
            continue
        plan.runnable.append((res, text, ids))
    return plan


class _Runs:
    """Scratch runs of ``dpspec verify``: each in its own copy of the snapshot ``src`` under
    ``work``, forked from a pool of fork servers (a fresh interpreter where fork is missing)."""

    def __init__(self, src: Path, work: Path, options: MutateOptions) -> None:
        self.src, self.work, self.options = src, work, options
        self.servers: queue.SimpleQueue[ForkServer] = queue.SimpleQueue()
        self.started: list[ForkServer] = []

    def start_servers(self) -> None:
        if hasattr(os, "fork"):  # else a fresh interpreter per run
            self.started += [ForkServer() for _ in range(max(1, self.options.jobs))]
        for server in self.started:
            self.servers.put(server)

    def close(self) -> None:
        for server in self.started:
            server.close()

    def run(
        self, index: int, res: MutantResult | None, text: str, ids: list[str], alone: bool = False
    ) -> VerifyRun:
        """``ids`` on a scratch copy with ``res``'s mutation in place (the unmutated copy for
        None); ``alone``: nothing else runs, so the run's own workers use every job."""
        scratch = build_scratch(self.src, self.work / f"m{index}")
        if res is not None:
            scratch_file(scratch, res.mutant.file).write_text(text, encoding="utf-8")
        fast, timeout = self.options.fail_fast and res is not None, self.options.timeout
        try:
            if alone:
                return run_verify_in(scratch, ids, timeout, fail_fast=fast, jobs=self.options.jobs)
            if not self.started:  # no fork on this platform: a fresh interpreter per run
                return run_verify_in(scratch, ids, timeout, fail_fast=fast)
            server = self.servers.get()
            try:
                return run_verify_in(scratch, ids, timeout, fail_fast=fast, server=server)
            finally:
                self.servers.put(server)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def _baseline_of(run: VerifyRun) -> VerifyRun:
    """The baseline run, refused when it did not run (every verdict is judged against it)."""
    if run.error or run.timed_out:
        raise InternalError(f"baseline verify failed to run: {run.error}")
    return run


def run_mutants(
    mutants: Sequence[Mutant],
    *,
    root: Path | None = None,
    options: MutateOptions = MutateOptions(),
    on_result: Callable[[MutantResult], None] | None = None,
) -> dict[str, Any]:
    """Run every mutant in its own scratch copy (:class:`MutateOptions` says how); the report
    of ``dpspec mutate --json``. ``on_result`` is told each judged mutant."""
    from tqdm import tqdm

    root = source_root() if root is None else root
    all_ids = [ob.id for ob in obligations() if ob.runs]
    start = time.perf_counter()
    baseline: VerifyRun | None = None
    with tempfile.TemporaryDirectory(prefix="dpspec-mutate-") as tmp:
        src = snapshot(root, Path(tmp))
        plan = _plan(mutants, src, all_ids, options.all_obligations)
        needed = sorted(plan.needed, key=all_ids.index)
        wants_baseline = options.baseline and bool(needed)
        bar = tqdm(
            total=len(plan.runnable) + wants_baseline,
            desc="mutate",
            unit="mutant",
            disable=not options.progress,
            file=sys.stderr,
        )
        runs = _Runs(src, Path(tmp), options)
        probe_imports(build_scratch(src, Path(tmp) / "probe"))
        if options.fail_fast and wants_baseline:
            baseline = _baseline_of(runs.run(-1, None, "", needed, alone=True))
            bar.set_postfix_str("baseline")
            bar.update(1)
            cost, failed = baseline.seconds_by_id, set(baseline.failed)
            plan.runnable = [
                (res, text, sorted((i for i in ids if i not in failed), key=cost.__getitem__))
                for res, text, ids in plan.runnable
            ]
        runs.start_servers()
        try:
            baseline = _run_all(runs, plan, needed, wants_baseline, baseline, bar, on_result)
        finally:
            runs.close()
        bar.close()
    return _report(plan.results, options, baseline, time.perf_counter() - start)


def _run_all(
    runs: _Runs,
    plan: _Plan,
    needed: list[str],
    wants_baseline: bool,
    baseline: VerifyRun | None,
    bar: Any,
    on_result: Callable[[MutantResult], None] | None,
) -> VerifyRun | None:
    """Run the baseline (unless it ran already) and every runnable mutant, ``jobs`` at once;
    a mutant is judged once the baseline is known. The baseline run."""
    base_done = baseline is not None or not wants_baseline

    def judged(res: MutantResult, run: VerifyRun) -> None:
        judge(res, run, [] if baseline is None else baseline.failed, res.linked)
        if on_result is not None:
            on_result(res)

    with ThreadPoolExecutor(max_workers=max(1, runs.options.jobs)) as pool:
        futures: dict[Future[VerifyRun], MutantResult | None] = {}
        if not base_done:
            futures[pool.submit(runs.run, -1, None, "", needed)] = None
        for k, (res, text, ids) in enumerate(plan.runnable):
            futures[pool.submit(runs.run, k, res, text, ids)] = res
        pending: list[tuple[MutantResult, VerifyRun]] = []
        for fut in as_completed(futures):
            res_or_none, run = futures[fut], fut.result()
            bar.set_postfix_str("baseline" if res_or_none is None else res_or_none.mutant.id)
            bar.update(1)
            if res_or_none is None:
                baseline, base_done = _baseline_of(run), True
                for waiting in pending:
                    judged(*waiting)
                pending.clear()
            elif base_done:
                judged(res_or_none, run)
            else:
                pending.append((res_or_none, run))
    return baseline


def _report(
    results: list[MutantResult], options: MutateOptions, baseline: VerifyRun | None, seconds: float
) -> dict[str, Any]:
    """The ``dpspec mutate --json`` report of the judged ``results``."""
    return {
        "mutants": [r.to_json() for r in results],
        "killed": sum(r.killed for r in results),
        "total": len(results),
        "survived": sum(r.status == "survived" for r in results),
        "stale": sum(r.stale for r in results),
        "errors": sum(r.status in ("error", "timeout") for r in results),
        "baseline": options.baseline,
        "baseline_failed": [] if baseline is None else baseline.failed,
        "baseline_seconds": round(0.0 if baseline is None else baseline.seconds, 3),
        "all_obligations": options.all_obligations,
        "fail_fast": options.fail_fast,
        "seconds": round(seconds, 3),
    }


def exit_code(report: dict[str, Any]) -> int:
    """0 every mutant killed; 1 a mutant survived (or hung); 3 a stale mutant or an error."""
    from dpspec.proofs.engine.errors import EXIT_INTERNAL, EXIT_OK, EXIT_VIOLATION

    rows = report["mutants"]
    if any(r["stale"] or r["status"] == "error" for r in rows):
        return EXIT_INTERNAL
    if any(not r["killed"] for r in rows):
        return EXIT_VIOLATION
    return EXIT_OK


@dataclass(frozen=True)
class Mutant:
    """One mutation ``dpspec mutate`` runs: ``edit`` made in a scratch copy of its file;
    ``kind`` sorts it in the note (``"control"``: an obligation's bug control)."""

    id: str
    edit: Edit
    kind: str = ""

    @property
    def file(self) -> str:
        """The repo-relative file the edit is made in."""
        return self.edit.file

    @property
    def description(self) -> str:
        """What is wrong with the mutated code (the edit's ``bug``)."""
        return self.edit.bug
