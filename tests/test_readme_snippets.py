"""Every Python snippet in README runs as written, in a fresh namespace (no name a reader would
have to guess). Three kinds, told apart by their text:

* a module file (its first line is ``# pkg/name.py``): written under a throwaway directory on
  ``PYTHONPATH``, as the walk-through's ``mydp/mech.py``;
* a test file (it defines ``test_`` functions): run by pytest in a subprocess with dpspec's
  installed plugins and the module files importable, every test passing;
* anything else: executed.

The walk-through's shell commands (``dpspec audit mydp.mech:...``) run too, with the exit codes
README states. Snippets marked ``<!-- readme-example: NAME -->`` are run, with their printed
output checked, by the test of their own section (e.g. tests/test_replay.py's bracket
example)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
_BLOCK = re.compile(
    r"(<!-- readme-example: [\w-]+ -->\n)?( *)```(python|bash)\n(.*?)^ *```", re.S | re.M
)
_MODULE_HEADER = re.compile(r"# ([\w/]+\.py)\b")
_TEST_FUNCTION = re.compile(r"^def (test_\w+)\(", re.M)
_EXIT_COMMENT = re.compile(r"#\s*exit (\d)")


def _blocks(language: str) -> list[tuple[int, str]]:
    """(line, dedented text) of README's unmarked blocks in ``language``."""
    text = README.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start()) + 1, textwrap.dedent(m.group(4)))
        for m in _BLOCK.finditer(text)
        if m.group(1) is None and m.group(3) == language
    ]


SNIPPETS = _blocks("python")
MODULES = [(line, code) for line, code in SNIPPETS if _MODULE_HEADER.match(code)]
TESTS = [(line, code) for line, code in SNIPPETS if _TEST_FUNCTION.search(code)]
SCRIPTS = [s for s in SNIPPETS if s not in MODULES and s not in TESTS]


def _module_tree(root: Path) -> Path:
    """README's module files written under ``root``; returns ``root``."""
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


def test_readme_has_its_snippets() -> None:
    """Control for the extraction: README's snippets are found (the walk-through's module and
    test file, the library-CI test, the API examples), so a changed fence cannot silently empty
    this test."""
    assert len(SCRIPTS) >= 7
    assert len(MODULES) == 1 and len(TESTS) == 2


@pytest.mark.parametrize("line, code", SCRIPTS, ids=[f"README.md:{line}" for line, _ in SCRIPTS])
def test_snippet_runs_as_written(line: int, code: str) -> None:
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": f"readme_{line}"})


def test_the_test_snippets_pass_under_pytest(tmp_path: Path) -> None:
    """README's test files (the walk-through's tests/test_dp.py and the library-CI snippet)
    pass under pytest with the marker and fixtures dpspec installs (nothing configured), the
    walk-through's module importable: every test function they define passes."""
    root = _module_tree(tmp_path / "project")
    tests = root / "tests"
    tests.mkdir()
    expected = 0
    for line, code in TESTS:
        (tests / f"test_readme_{line}.py").write_text(code, encoding="utf-8")
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


def _walkthrough_commands() -> list[tuple[str, int]]:
    """The ``dpspec audit mydp...`` commands of README's bash blocks with the exit code each
    one's comment states (continuation lines joined)."""
    found = []
    for _, block in _blocks("bash"):
        joined = re.sub(r"\\\n\s*", " ", block)
        for command in joined.splitlines():
            code = _EXIT_COMMENT.search(command)
            if command.startswith("dpspec audit mydp.") and code is not None:
                found.append((command[: code.start()].strip(), int(code.group(1))))
    return found


COMMANDS = _walkthrough_commands()


@pytest.mark.parametrize("command, code", COMMANDS, ids=[c.split()[2] for c, _ in COMMANDS])
def test_the_walkthrough_commands_exit_as_stated(tmp_path: Path, command: str, code: int) -> None:
    """The walk-through's shell commands exit as README says (0: consistent, 1: VIOLATION)."""
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
    """Control for the command extraction: one command README says passes, one it says fails."""
    assert sorted(code for _, code in COMMANDS) == [0, 1]


def test_a_snippet_with_an_undefined_name_fails() -> None:
    """Control: the runner does fail on a snippet that uses a name it never defines."""
    with pytest.raises(NameError):
        exec(compile("clf.fit(X, y)", "README.md:0", "exec"), {})
