"""The documentation builds: ``mkdocs build --strict`` (warnings are errors: a broken link, a
missing page in the nav, a docstring mkdocstrings cannot render) exits 0, and every public
subpackage and module of dpspec has an API page.

"Public" is found by walking the package, not listed here: every module or subpackage that
``pkgutil.iter_modules`` finds directly under ``dpspec`` and under ``dpspec.spec`` whose name
does not start with ``_``. Each must be named by a ``::: dpspec.<name>`` directive (the
mkdocstrings syntax) in a page under ``docs/api/``."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import dpspec
import dpspec.spec

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"
_DIRECTIVE = re.compile(r"^:::\s+([\w.]+)\s*$", re.M)


def _public_modules() -> list[str]:
    found = []
    for package in (dpspec, dpspec.spec):
        found += [
            f"{package.__name__}.{m.name}"
            for m in pkgutil.iter_modules(package.__path__)
            if not m.name.startswith("_")
        ]
    return sorted(found)


def _documented() -> set[str]:
    return {
        name for page in API.rglob("*.md") for name in _DIRECTIVE.findall(page.read_text("utf-8"))
    }


def test_the_walk_finds_the_public_modules() -> None:
    """Control for the walk: it sees subpackages and modules of both trees, and no private one."""
    public = _public_modules()
    assert {"dpspec.audit", "dpspec.learners", "dpspec.spec.privacy"} <= set(public)
    assert "dpspec.spec" in public and not any("._" in name for name in public)


def test_every_public_module_has_an_api_page() -> None:
    missing = sorted(set(_public_modules()) - _documented())
    assert not missing, f"no `::: <name>` directive in docs/api/ for {missing}"


def test_the_directive_pattern_needs_a_line_of_its_own(tmp_path: Path) -> None:
    """Control: the directive pattern finds a name only on a line of its own, so a page that
    merely mentions ``::: dpspec.audit`` in prose does not count."""
    page = tmp_path / "x.md"
    page.write_text("Use `::: dpspec.audit` to render it.\n\n::: dpspec.noise\n", "utf-8")
    assert _DIRECTIVE.findall(page.read_text("utf-8")) == ["dpspec.noise"]


def test_mkdocs_builds_strict(tmp_path: Path) -> None:
    """``mkdocs build --strict`` over mkdocs.yml at the repository root exits 0."""
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    assert (tmp_path / "index.html").exists()
    assert (tmp_path / "api" / "audit" / "index.html").exists()
