"""dpspec installs from the wheel a clone builds, as docs/verifying.md ("Verifying your
implementation") says (dpspec is not on PyPI): ``pip wheel --no-deps -w dist .`` builds it, and
the installed copy — outside the source tree — imports, carries the data files it reads at run
time (the proofs' notes, the report schema) and runs a ``verify`` topic to a pass."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (built,) = out.glob("dpspec-*-py3-none-any.whl")
    return built


def test_the_wheel_carries_the_data_files(wheel: Path) -> None:
    """Every file under proofs/notes that the code reads is in the wheel (the report schema
    among them), and the typing marker."""
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        f"dpspec/proofs/notes/{p.name}"
        for p in (ROOT / "proofs" / "notes").iterdir()
        if p.suffix in {".md", ".json"}
    }
    assert "dpspec/proofs/notes/verify-report.schema.json" in shipped
    assert shipped <= names, sorted(shipped - names)
    assert "dpspec/proofs/py.typed" in names or "dpspec/py.typed" in names


def test_the_installed_wheel_runs_outside_the_clone(wheel: Path, tmp_path: Path) -> None:
    """Installed into an empty target directory and run from elsewhere: dpspec is imported from
    the installed copy (not the clone), finds its schema and passes ``verify --only noise``."""
    target = tmp_path / "site"
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    probe = (
        "import dpspec, pathlib; p = pathlib.Path(dpspec.__file__).parent;"
        "print(p); print((p / 'proofs' / 'notes' / 'verify-report.schema.json').is_file())"
    )
    where = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
        env=env,
    )
    assert where.returncode == 0, where.stderr
    location, schema = where.stdout.split()
    assert Path(location).is_relative_to(target), location
    assert schema == "True"
    run = subprocess.run(
        [sys.executable, "-m", "dpspec.cli", "verify", "--only", "noise", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=tmp_path,
        env=env,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
