"""Every Python snippet in README.md and in the docs pages (``docs/**/*.md``, found by globbing)
runs as written, in a fresh namespace (no name a reader would have to guess). Three kinds, told
apart by their text:

* a module file (its first line is ``# pkg/name.py``): written under a throwaway directory on
  ``PYTHONPATH``, as the walk-through's ``mydp/mech.py`` (README's 5-minute path and
  docs/verifying.md show the same file; copies of one path must be identical);
* a test file (it defines ``test_`` functions): run by pytest in a subprocess with dpspec's
  installed plugins and the module files importable, every test passing;
* anything else: executed.

The walk-through's shell commands (``dpspec audit mydp.mech:...``) run too, with the exit codes
the text states. Snippets marked ``<!-- readme-example: NAME -->`` are run, with their printed
output checked, by the test of their own section (e.g. tests/test_replay.py's bracket example
in docs/auditing.md)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: README first, then every page of the docs, found by globbing (no list to keep).
DOCUMENTS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
_BLOCK = re.compile(
    r"(<!-- readme-example: [\w-]+ -->\n)?( *)```(python|bash)\n(.*?)^ *```", re.S | re.M
)
_MODULE_HEADER = re.compile(r"# ([\w/]+\.py)\b")
_TEST_FUNCTION = re.compile(r"^def (test_\w+)\(", re.M)
_EXIT_COMMENT = re.compile(r"#\s*exit (\d)")


def _blocks(language: str, documents: list[Path] = DOCUMENTS) -> list[tuple[str, str]]:
    """(``file:line``, dedented text) of the unmarked blocks in ``language`` of ``documents``."""
    found = []
    for doc in documents:
        text = doc.read_text(encoding="utf-8")
        name = doc.relative_to(ROOT).as_posix()
        found += [
            (f"{name}:{text.count(chr(10), 0, m.start()) + 1}", textwrap.dedent(m.group(4)))
            for m in _BLOCK.finditer(text)
            if m.group(1) is None and m.group(3) == language
        ]
    return found


SNIPPETS = _blocks("python")
MODULES = [(where, code) for where, code in SNIPPETS if _MODULE_HEADER.match(code)]
TESTS = [(where, code) for where, code in SNIPPETS if _TEST_FUNCTION.search(code)]
SCRIPTS = [s for s in SNIPPETS if s not in MODULES and s not in TESTS]


def _module_tree(root: Path) -> Path:
    """The documents' module files written under ``root``; returns ``root``."""
    for _, code in MODULES:
        header = _MODULE_HEADER.match(code)
        assert header is not None
        target = root / header.group(1)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    return root


def _environment(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root), *filter(None, [env.get("PYTHONPATH")])])
    return env


def test_the_documents_have_their_snippets() -> None:
    """Control for the extraction: the snippets are found (the walk-through's module and test
    file in README and in docs/verifying.md, the library-CI test of docs/conformance.md, the
    API examples of the docs), so a changed fence or a moved page cannot silently empty this
    test."""
    assert len(DOCUMENTS) > 1, "docs/*.md: the pages are found"
    assert len(SCRIPTS) >= 7
    for doc in ("README.md", "docs/verifying.md"):
        assert [w for w, _ in MODULES if w.startswith(f"{doc}:")], doc
        assert [w for w, _ in TESTS if w.startswith(f"{doc}:")], doc
    assert [w for w, _ in TESTS if w.startswith("docs/conformance.md:")]


def test_copies_of_a_module_file_are_identical() -> None:
    """The walk-through's module is shown in README and in docs/verifying.md: the copies of one
    path agree, so the file written for the tests is the one both pages show."""
    by_path: dict[str, set[str]] = {}
    for _, code in MODULES:
        header = _MODULE_HEADER.match(code)
        assert header is not None
        by_path.setdefault(header.group(1), set()).add(code)
    assert all(len(codes) == 1 for codes in by_path.values()), sorted(by_path)


@pytest.mark.parametrize("where, code", SCRIPTS, ids=[where for where, _ in SCRIPTS])
def test_snippet_runs_as_written(where: str, code: str) -> None:
    exec(compile(code, where, "exec"), {"__name__": "readme_" + re.sub(r"\W", "_", where)})


def test_the_test_snippets_pass_under_pytest(tmp_path: Path) -> None:
    """The documents' test files (the walk-through's tests/test_dp.py and the library-CI
    snippet) pass under pytest with the marker and fixtures dpspec installs (nothing
    configured), the walk-through's module importable: every test function they define passes
    (a file shown twice, identically, runs once)."""
    root = _module_tree(tmp_path / "project")
    tests = root / "tests"
    tests.mkdir()
    expected = 0
    distinct = {code: where for where, code in reversed(TESTS)}
    for code, where in distinct.items():
        name = re.sub(r"\W", "_", where.removesuffix(".md").replace(".md:", "_"))
        (tests / f"test_{name}.py").write_text(code, encoding="utf-8")
        expected += len(_TEST_FUNCTION.findall(code))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=root,
        env=_environment(root),
    )
    assert run.returncode == 0 and f"{expected} passed" in run.stdout, run.stdout + run.stderr


def _walkthrough_commands(documents: list[Path] = DOCUMENTS) -> list[tuple[str, int]]:
    """The ``dpspec audit mydp...`` commands of the documents' bash blocks with the exit code
    each one's comment states (continuation lines joined), each distinct command once."""
    found: list[tuple[str, int]] = []
    for _, block in _blocks("bash", documents):
        joined = re.sub(r"\\\n\s*", " ", block)
        for command in joined.splitlines():
            code = _EXIT_COMMENT.search(command)
            if command.startswith("dpspec audit mydp.") and code is not None:
                stated = (" ".join(command[: code.start()].split()), int(code.group(1)))
                if stated not in found:
                    found.append(stated)
    return found


COMMANDS = _walkthrough_commands()


@pytest.mark.parametrize("command, code", COMMANDS, ids=[c.split()[2] for c, _ in COMMANDS])
def test_the_walkthrough_commands_exit_as_stated(tmp_path: Path, command: str, code: int) -> None:
    """The walk-through's shell commands exit as the text says (0: consistent, 1: VIOLATION)."""
    root = _module_tree(tmp_path)
    argv = shlex.split(command)
    assert argv[0] == "dpspec"
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from dpspec.cli import main; sys.exit(main())",
            *argv[1:],
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=root,
        env=_environment(root),
    )
    assert run.returncode == code, run.stdout + run.stderr


def test_the_walkthrough_has_both_verdicts() -> None:
    """Control for the command extraction: README and docs/verifying.md each state one command
    that passes and one that fails."""
    for doc in (README, ROOT / "docs" / "verifying.md"):
        assert sorted(code for _, code in _walkthrough_commands([doc])) == [0, 1], doc
    assert sorted(code for _, code in COMMANDS) == [0, 1]


def test_a_snippet_with_an_undefined_name_fails() -> None:
    """Control: the runner does fail on a snippet that uses a name it never defines."""
    with pytest.raises(NameError):
        exec(compile("clf.fit(X, y)", "README.md:0", "exec"), {})
