"""The fork server of ``dpspec mutate``: a child runs the scratch copy it is given (never the
installed dpspec), gives the target's exit code, and is killed at its timeout."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dpspec.proofs.engine.fork_server import RAISED, WRONG_COPY
from dpspec.proofs.engine.mutation import (
    ForkServer,
    build_scratch,
    run_verify_in,
    snapshot,
    source_root,
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("fork")
    return build_scratch(snapshot(source_root(), work), work / "s")


@pytest.fixture(scope="module")
def server() -> Iterator[ForkServer]:
    started = ForkServer()
    yield started
    started.close()


def test_child_runs_the_scratch_copy(scratch: Path, server: ForkServer) -> None:
    (scratch / "where_probe.py").write_text(
        "import dpspec, sys\n"
        "def main(argv):\n"
        "    print(dpspec.__file__)\n"
        "    return int(argv[0])\n",
        encoding="utf-8",
    )
    code, timed_out, output = server.run(scratch, "where_probe:main", ["7"], 60.0)
    assert (code, timed_out) == (7, False)
    assert Path(output.strip()).is_relative_to(scratch)


def test_a_root_without_the_copy_is_refused(tmp_path: Path, server: ForkServer) -> None:
    """A root holding no dpspec would import the installed one: the child refuses to run."""
    code, timed_out, output = server.run(tmp_path, "json:dumps", [], 60.0)
    assert (code, timed_out) == (WRONG_COPY, False)
    assert "not the copy" in output


def test_a_raising_target_and_a_hung_one(scratch: Path, server: ForkServer) -> None:
    (scratch / "bad_probe.py").write_text(
        "import time\n"
        "def boom(argv):\n"
        "    raise RuntimeError('planted')\n"
        "def hang(argv):\n"
        "    time.sleep(60)\n",
        encoding="utf-8",
    )
    code, timed_out, output = server.run(scratch, "bad_probe:boom", [], 60.0)
    assert (code, timed_out) == (RAISED, False)
    assert "RuntimeError: planted" in output
    start = time.monotonic()
    code, timed_out, _ = server.run(scratch, "bad_probe:hang", [], 1.0)
    assert timed_out and time.monotonic() - start < 30
    # the server still answers after a killed child
    code, timed_out, _ = server.run(scratch, "bad_probe:boom", [], 60.0)
    assert (code, timed_out) == (RAISED, False)


def test_the_same_rows_as_a_fresh_interpreter(scratch: Path, server: ForkServer) -> None:
    """One obligation run through the server and through a fresh interpreter: the same rows."""
    ids = ["mechanisms.exponential.privacy", "rectangles.predict-boundary"]
    forked = run_verify_in(scratch, ids, 300.0, fail_fast=True, server=server)
    rows_forked = json.loads((scratch / "verify.json").read_text(encoding="utf-8"))
    fresh = run_verify_in(scratch, ids, 300.0, fail_fast=True)
    rows_fresh = json.loads((scratch / "verify.json").read_text(encoding="utf-8"))
    assert forked.error == fresh.error == ""
    assert forked.passed == fresh.passed == ids
    keep = ("id", "status", "detail")
    assert [{k: r[k] for k in keep} for r in rows_forked["obligations"]] == [
        {k: r[k] for k in keep} for r in rows_fresh["obligations"]
    ]


def test_without_fork_each_mutant_gets_a_fresh_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where ``os.fork`` is missing no fork server starts, and the mutant is still judged (run
    in a fresh interpreter)."""
    import os

    from dpspec.proofs.engine import mutation

    monkeypatch.delattr(os, "fork")
    monkeypatch.setattr(mutation, "ForkServer", None)  # starting one would fail loudly
    half = mutation.select_mutants("exp.half-dropped")[0]  # now a bug control's id
    options = mutation.MutateOptions(jobs=1, progress=False, fail_fast=True, baseline=False)
    report = mutation.run_mutants([half], options=options)
    assert report["killed"] == 1, report["mutants"]
