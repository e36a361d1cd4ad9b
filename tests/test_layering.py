"""The shape of the code, checked from the tree itself (nothing here lists a module):

* private is private: no module imports an underscore name (a ``_module`` or a ``_function``)
  from outside the package that holds it — what another package needs is public and
  documented;
* no circle of imports inside a package: the modules of a package form layers (the circles
  not yet layered are listed, with why);
* functions a reader can hold: at most 80 lines and 8 parameters, outside the exceptions
  listed here with their reason;
* one name per meaning: the sample-size domain (every module-level name ending in
  ``SampleSizeArg``) is defined once, in ``dpspec.validation``; the others import it.
"""

from __future__ import annotations

import ast
import runpy
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: import name → folder, the project's one map (read by path, as setup.py does).
ROOTS: dict[str, str] = runpy.run_path(str(ROOT / "proofs" / "engine" / "layout.py"))["ROOTS"]


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: dotted name → (file, is a package)."""
    found: dict[str, tuple[Path, bool]] = {}
    for name, folder in ROOTS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            package = parts[-1] == "__init__"
            dotted = ".".join([name, *(parts[:-1] if package else parts)])
            found.setdefault(dotted, (path, package))
    return found


MODULES = _modules()


def _package(module: str) -> str:
    """The package a module belongs to: itself for a package, else its parent."""
    return module if MODULES[module][1] else module.rpartition(".")[0]


def _owner(module: str) -> str:
    """Who may use the private names of ``module``: its package, or the module alone when
    that package is a root (``dpspec`` itself: every module would be inside it)."""
    package = _package(module)
    return module if package in ROOTS else package


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _imports(path: Path) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(module, names) of every absolute import of dpspec in a file (``import a.b`` gives
    ``("a.b", ())``), inside functions too."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if _within(node.module, "dpspec"):
                yield node.module, tuple(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            yield from ((a.name, ()) for a in node.names if _within(a.name, "dpspec"))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_imports() -> list[str]:
    found = []
    for module, (path, _) in MODULES.items():
        here = _package(module)
        for target, names in _imports(path):
            parts = target.split(".")
            cut = next((i for i, part in enumerate(parts) if _private(part)), None)
            if cut is not None:  # a private module: its package's
                owner = ".".join(parts[:cut])
                if not _within(here, owner):
                    found.append(f"{path.relative_to(ROOT)} imports module {target}")
                continue
            if target not in MODULES:
                continue
            owner = _owner(target)
            for name in names:
                if _private(name) and not (_within(here, owner) or module == owner):
                    found.append(f"{path.relative_to(ROOT)} imports {target}.{name}")
    return found


def test_no_private_name_is_imported_from_outside_its_package() -> None:
    found = _private_imports()
    assert not found, "private names used across packages (make them public):\n" + "\n".join(found)


def _local_graph() -> dict[str, set[str]]:
    """Import edges between the plain modules of one package (inside functions too)."""
    graph: dict[str, set[str]] = {m: set() for m, (_, pkg) in MODULES.items() if not pkg}
    for module in graph:
        for target, names in _imports(MODULES[module][0]):
            for name in (target, *(f"{target}.{n}" for n in names)):
                if name in graph and name != module and _package(name) == _package(module):
                    graph[module].add(name)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


#: Import circles not yet layered, with why each is one (a new circle fails; a circle that is
#: gone must leave this list).
KNOWN_CIRCLES: dict[frozenset[str], str] = {}


def test_no_import_circle_inside_a_package() -> None:
    circles = {frozenset(c) for c in _circles(_local_graph())}
    new = [sorted(c) for c in circles - set(KNOWN_CIRCLES)]
    assert not new, "modules importing each other (layer them):\n" + "\n".join(
        " <-> ".join(c) for c in new
    )
    gone = [sorted(c) for c in set(KNOWN_CIRCLES) - circles]
    assert not gone, f"circles layered since: remove them from KNOWN_CIRCLES: {gone}"


#: The longest function and the most parameters a reader is asked to hold.
MAX_LINES, MAX_PARAMETERS = 80, 8
_CHECK = "a check running its cases, then its controls, in one function (to be split)"
_CATALOGUE = "a catalogue of zoo entries, one call per entry (to become data)"
_ARGPARSE = "argparse declarations, one statement per option"
_OPTIONS = "a public entry whose keyword options are the user's knobs"
_ESTIMATOR = "a scikit-learn estimator: its hyperparameters are its constructor's parameters"
_INNER = "passes a public entry's options on (to be grouped in one object)"

#: Functions over the limits, with the reason (a listed one back under them must leave).
LONG: dict[str, str] = {
    "impl/audit/learner_zoo.py:learner_zoo": _CATALOGUE,
    "impl/audit/zoo.py:zoo": _CATALOGUE,
    "impl/audit/zoo_kinds.py:kinds": _CATALOGUE,
    "impl/audit/loop.py:audit": "the auditor's one entry: arguments, plan, estimation, verdict",
    "impl/cli/audit.py:_cmd_audit": "dpspec audit's steps in order (to be split)",
    "impl/cli/audit.py:register": _ARGPARSE,
    "impl/cli/consistency.py:register": _ARGPARSE,
    "impl/cli/cover_learners.py:register": _ARGPARSE,
    "impl/conform/core.py:plan": "conform's plan: instances, budgets and the false-alarm split",
    "proofs/engine/crosshair.py:_run_chunk": "one CrossHair worker's run and its reading",
    "proofs/engine/enumeration.py:enumerate_law": "the enumerating generator's search loop",
    "proofs/topics/adaptive/checks.py:markov_lemmas": _CHECK,
    "proofs/topics/adaptive/compression_checks.py:concentration_radii": _CHECK,
    "proofs/topics/adaptive/compression_checks.py:rounding_compression": _CHECK,
    "proofs/topics/adaptive/deviating_checks.py:algorithm10_law": _CHECK,
    "proofs/topics/adaptive/deviating_checks.py:algorithm10_privacy": _CHECK,
    "proofs/topics/adaptive/game_checks.py:laplace_privacy": _CHECK,
    "proofs/topics/adaptive/game_checks.py:transfer": _CHECK,
    "proofs/topics/adaptive/lemma_checks.py:lemma_711": _CHECK,
    "proofs/topics/adaptive/lemma_checks.py:predicate_law": _CHECK,
    "proofs/topics/audit/checkpoint_checks.py:_checkpoint_cases": _CHECK,
    "proofs/topics/audit/hostile_checks.py:_explicit_hostile_cases": _CHECK,
    "proofs/topics/audit/hostile_checks.py:hostile_inputs": _CHECK,
    "proofs/topics/audit/learner_checks.py:one_run": _CHECK,
    "proofs/topics/audit/learner_checks.py:repeated_predictions_conformance": _CHECK,
    "proofs/topics/audit/soundness_checks.py:new_families_soundness": _CHECK,
    "proofs/topics/contract/integer_bounds.py:exact_integer_bounds": _CHECK,
    "proofs/topics/cover_learners/geometry.py:cover_grids": _CHECK,
    "proofs/topics/noise/sampler_laws.py:discrete_laplace_law": _CHECK,
    "proofs/topics/pcl/checks.py:pcl_fit_conformance": _CHECK,
    "proofs/topics/pcl2/checks.py:pcl2_score_is_predict": _CHECK,
    "proofs/topics/rectangles/utility.py:pac_utility": _CHECK,
}
MANY: dict[str, str] = {
    "impl/audit/_search.py:hypothesis_search": _INNER,
    "impl/audit/ci.py:assert_dp": _OPTIONS,
    "impl/audit/ci.py:vote": _OPTIONS,
    "impl/audit/learner_zoo.py:add": "the zoo's entry builder: one parameter per column",
    "impl/audit/zoo.py:add": "the zoo's entry builder: one parameter per column",
    "impl/audit/zoo_kinds.py:add": "the zoo's entry builder: one parameter per column",
    "impl/audit/loop.py:_estimate": _INNER,
    "impl/audit/loop.py:audit": _OPTIONS,
    "impl/audit/loop.py:audit_pairs": _OPTIONS,
    "impl/compression/boosting.py:_copies": _INNER,
    "impl/compression/boosting.py:medboost": _OPTIONS,
    "impl/compression/schemes.py:compress": _OPTIONS,
    "impl/conform/core.py:conform": _OPTIONS,
    "impl/conform/core.py:plan": _INNER,
    "impl/cover_learners/learners.py:__init__": _ESTIMATOR,
    "impl/ldp/estimators.py:__init__": _ESTIMATOR,
    "proofs/engine/consistency_runs.py:run_ldp_consistency": _OPTIONS,
    "proofs/topics/ldp/lemmas.py:log_ratio_core": "a CrossHair lemma: its quantities are its "
    "parameters",
}


def _function_sizes() -> Iterator[tuple[str, int, int]]:
    """(``file:function``, lines, parameters besides self/cls) of every function."""
    for tree in ("impl", "spec", "proofs"):
        for path in sorted((ROOT / tree).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    a = node.args
                    count = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                    count += bool(a.vararg) + bool(a.kwarg)
                    if a.args and a.args[0].arg in ("self", "cls"):
                        count -= 1
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    yield f"{path.relative_to(ROOT)}:{node.name}", lines, count


def test_functions_a_reader_can_hold() -> None:
    sizes = list(_function_sizes())
    long = {name for name, lines, _ in sizes if lines > MAX_LINES}
    many = {name for name, _, count in sizes if count > MAX_PARAMETERS}
    assert long <= set(LONG), f"over {MAX_LINES} lines: {sorted(long - set(LONG))}"
    assert many <= set(MANY), f"over {MAX_PARAMETERS} parameters: {sorted(many - set(MANY))}"
    assert set(LONG) <= long, f"back under {MAX_LINES} lines: {sorted(set(LONG) - long)}"
    assert set(MANY) <= many, f"back under the limit: {sorted(set(MANY) - many)}"


def _module_level_definitions(source: str, suffix: str) -> list[str]:
    """Names ending in ``suffix`` that a module's own statements assign (``X = …``,
    ``X: TypeAlias = …``, also under a module-level ``if`` / ``try`` / ``with``; not imports,
    not inside functions or classes)."""
    found: list[str] = []
    pending: list[ast.stmt] = list(ast.parse(source).body)
    while pending:
        node = pending.pop(0)
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.If | ast.Try | ast.With):
            for block in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, block, []):
                    pending.extend(child.body if isinstance(child, ast.ExceptHandler) else [child])
        for target in targets:
            names = target.elts if isinstance(target, ast.Tuple | ast.List) else [target]
            found += [n.id for n in names if isinstance(n, ast.Name) and n.id.endswith(suffix)]
    return found


def test_the_definition_finder_finds_a_second_sample_size() -> None:
    source = (
        "from dpspec.validation import SampleSizeArg\n"
        "if True:\n    LocalSampleSizeArg = int\n"
        "def f() -> None:\n    InnerSampleSizeArg = int\n"
        "OtherSampleSizeArg: object = int\n"
    )
    found = _module_level_definitions(source, "SampleSizeArg")
    assert sorted(found) == ["LocalSampleSizeArg", "OtherSampleSizeArg"]


def test_one_sample_size_domain() -> None:
    """One definition of the sample-size domain in the whole package (impl, spec, proofs):
    a work limit of an entry is a named constant refused in its body, not a second domain."""
    found = [
        f"{module}.{name}"
        for module, (path, _) in MODULES.items()
        for name in _module_level_definitions(path.read_text(encoding="utf-8"), "SampleSizeArg")
    ]
    assert found == ["dpspec.validation.SampleSizeArg"], (
        f"sample-size domains defined outside dpspec.validation (import the one): {found}"
    )
