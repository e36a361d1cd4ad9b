"""The architecture at the edges, checked from the tree itself (nothing here lists a family).

* a topic imports only the engine, the algorithms (``dpspec``) and the predicates
  (``dpspec.spec``) — never another topic, never the command line;
* the engine never imports the command line or a topic (it discovers topics by name);
* the command line (``impl/cli/``) is the top layer: nothing imports it, and the rest of
  ``impl/`` never imports the proofs tree;
* one name per family: every topic ``T`` of ``proofs/topics/`` has ``tests/test_T.py`` and its
  name in ``impl/`` or ``spec/``; a top-level module of ``impl/`` or ``spec/`` named after no
  family is shared vocabulary — imported by at least two topics or families of ``impl/``;
* the map from folders to import names is written once (``proofs/engine/layout.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOPICS = ROOT / "proofs" / "topics"
ENGINE = ROOT / "proofs" / "engine"


def _topics() -> list[str]:
    return sorted(p.name for p in TOPICS.iterdir() if (p / "obligations.py").is_file())


def _imports(path: Path) -> Iterator[str]:
    """Every module a file imports (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize("topic", _topics())
def test_a_topic_imports_only_engine_impl_and_spec(topic: str) -> None:
    bad = []
    for path in sorted((TOPICS / topic).rglob("*.py")):
        for name in _imports(path):
            if not _within(name, "dpspec.proofs"):
                continue  # dpspec (the algorithms), dpspec.spec, third-party, stdlib
            if _within(name, "dpspec.proofs.engine") or _within(
                name, f"dpspec.proofs.topics.{topic}"
            ):
                continue
            if name in ("dpspec.proofs.topics",):  # the package docstring's own import
                continue
            bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def test_the_engine_imports_no_topic_and_not_the_command_line() -> None:
    bad = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted(ENGINE.rglob("*.py"))
        for name in _imports(path)
        if _within(name, "dpspec.cli") or _within(name, "dpspec.proofs.topics")
    ]
    assert not bad, "\n".join(bad)


def test_the_command_line_is_the_top_layer() -> None:
    """``dpspec.cli`` (``impl/cli/``) may import anything; only the checks of the command line
    (in ``proofs/topics/``) import it, to name what they check, and no other module of
    ``impl/`` imports the proofs tree: the algorithms and the auditor never depend on their
    own checks."""
    cli = ROOT / "impl" / "cli"
    alias = ROOT / "proofs" / "cli" / "__init__.py"  # the deprecated 0.3 name of dpspec.cli
    bad = []
    for tree in ("impl", "spec", "proofs"):
        for path in sorted((ROOT / tree).rglob("*.py")):
            if path.is_relative_to(cli) or path == alias or path.is_relative_to(TOPICS):
                continue
            for name in _imports(path):
                in_impl = tree == "impl" and _within(name, "dpspec.proofs")
                if _within(name, "dpspec.cli") or in_impl:
                    bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def _stems(folder: Path) -> set[str]:
    """Names of the top-level modules and packages of a source folder (aliases excluded)."""
    names = set()
    for p in folder.iterdir():
        if p.name.startswith("_") or p.name == "py.typed":
            continue
        if p.is_dir() and (p / "__init__.py").is_file():
            names.add(p.name)
        elif p.suffix == ".py" and "DEPRECATED_ALIAS_OF" not in p.read_text(encoding="utf-8"):
            names.add(p.stem)
    return names


def _impl_names() -> set[str]:
    """Top-level names of ``impl/`` and the module names inside its packages."""
    impl = ROOT / "impl"
    names = _stems(impl)
    for package in impl.iterdir():
        if package.is_dir() and (package / "__init__.py").is_file():
            names |= _stems(package)
    return names


@pytest.mark.parametrize("topic", _topics())
def test_one_name_per_family_in_all_four_trees(topic: str) -> None:
    assert (ROOT / "tests" / f"test_{topic}.py").is_file(), f"tests/test_{topic}.py is missing"
    assert topic in _impl_names() | _stems(ROOT / "spec"), (
        f"family {topic!r}: no module or package of that name in impl/ or spec/"
    )


def _users(module: str) -> set[str]:
    """The topics, and the other top-level modules and packages of ``impl/``, whose files
    import ``module``."""
    impl = ROOT / "impl"
    places = {f"topic {t}": TOPICS / t for t in _topics()}
    places |= {
        f"impl {n}": impl / n if (impl / n).is_dir() else impl / f"{n}.py" for n in _stems(impl)
    }
    users = set()
    for label, place in places.items():
        files = sorted(place.rglob("*.py")) if place.is_dir() else [place]
        if module.endswith("." + label.split()[1]) and label.startswith("impl"):
            continue  # the module itself
        if any(_within(name, module) for path in files for name in _imports(path)):
            users.add(label)
    return users


@pytest.mark.parametrize(("tree", "prefix"), [("impl", "dpspec"), ("spec", "dpspec.spec")])
def test_a_module_named_after_no_family_is_shared(tree: str, prefix: str) -> None:
    topics = set(_topics())
    lonely = []
    for name in sorted(_stems(ROOT / tree) - topics):
        folder = ROOT / tree / name
        if folder.is_dir() and _stems(folder) & topics:
            continue  # a package of families (impl/learners holds pcl, pcde, pcl2, …)
        if name in ("spec", "strategies") or len(_users(f"{prefix}.{name}")) >= 2:
            # dpspec.spec is the predicates' own tree; dpspec.strategies is for users' tests
            continue
        lonely.append(f"{tree}/{name}: used by {sorted(_users(f'{prefix}.{name}'))}")
    assert not lonely, "a module of one family must carry the family's name:\n" + "\n".join(lonely)


def test_the_folder_map_is_written_once() -> None:
    literal = '"dpspec.proofs": "proofs"'
    holders = [
        str(p.relative_to(ROOT))
        for p in [ROOT / "setup.py", *sorted((ROOT / "proofs").rglob("*.py"))]
        if literal in p.read_text(encoding="utf-8")
    ]
    assert holders == ["proofs/engine/layout.py"], holders


#: Source trees whose modules are held to the size limit.
SOURCE_TREES = ("impl", "spec", "proofs", "tests", "benchmarks")

#: Lines a module may have: beyond, it holds more than a reader can name in one word.
MODULE_LINES = 800


def test_no_module_is_over_800_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for tree in SOURCE_TREES
        for p in sorted((ROOT / tree).rglob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert not long, long


def _documents() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "proofs" / "notes").glob("*.md")),
        *sorted((ROOT / "proofs" / "topics").glob("*/note.md")),
    ]


#: Extensions of file names, which look like ids (``pcl2.py``) but are not.
_FILES = (".py", ".md", ".png", ".json", ".txt", ".html", ".cff", ".toml", ".csv")


def test_every_id_cited_in_the_documents_resolves() -> None:
    """Backticked obligation, erratum and mutant ids in README, the docs pages, the notes and the
    code's docstrings exist (old ids resolve through the legacy map)."""
    import re

    from dpspec.proofs.engine.legacy_ids import LEGACY_ERRATA, LEGACY_IDS, LEGACY_MUTANTS
    from dpspec.proofs.engine.mutation import catalogue
    from dpspec.proofs.engine.registry import ID_PATTERN, errata, obligations

    known = {ob.id for ob in obligations()} | {e.id for e in errata()}
    known |= set(LEGACY_IDS) | set(LEGACY_ERRATA) | set(LEGACY_MUTANTS)
    known |= {m.id for m in catalogue()}
    subjects = {i.split(".")[0] for i in known}
    dangling = []
    code = [p for tree in ("impl", "spec", "proofs") for p in sorted((ROOT / tree).rglob("*.py"))]
    for doc in [*_documents(), *code]:
        for token in re.findall(r"`+([^`\s]+)`+", doc.read_text(encoding="utf-8")):
            if not ID_PATTERN.match(token) or token.startswith(("dpspec", "np.", "numpy")):
                continue
            if token.endswith(_FILES):
                continue
            subject = token.split(".")[0]
            if (subject in subjects or "-" in subject) and token not in known:
                dangling.append(f"{doc.relative_to(ROOT)}: `{token}`")
    assert not dangling, dangling


def test_the_engine_docstring_names_every_engine_module() -> None:
    """``proofs/engine/__init__.py`` lists the engine by job; a module added to the engine
    and left out of that list fails here (the modules are read from the folder)."""
    doc = ast.get_docstring(ast.parse((ENGINE / "__init__.py").read_text(encoding="utf-8")))
    assert doc is not None
    modules = sorted(p.stem for p in ENGINE.glob("*.py") if p.stem != "__init__")
    missing = [m for m in modules if f"``{m}``" not in doc]
    assert not missing, f"engine modules the engine's docstring does not name: {missing}"
