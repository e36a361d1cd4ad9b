"""``dpspec mutate``: the catalogue is current, the engine runs the mutated copy and judges it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from dpspec.cli import main
from dpspec.proofs.engine.edits import Edit
from dpspec.proofs.engine.mutation import (
    Mutant,
    MutateOptions,
    StaleMutant,
    apply_mutation,
    build_scratch,
    catalogue,
    exit_code,
    linked_obligations,
    module_of,
    probe_imports,
    run_mutants,
    select_mutants,
    snapshot,
    source_root,
)

ROOT = source_root()
MUTANTS = catalogue()
BY_ID = {m.id: m for m in MUTANTS}
#: The exponential mechanism's ½ dropped: a bug control of mechanisms.exponential.lemma-binding,
#: the catalogued mutant exp.half-dropped before (the id still selects it).
HALF = select_mutants("exp.half-dropped")[0]


def test_catalogue_size_and_ids() -> None:
    assert len(MUTANTS) >= 30
    assert len(BY_ID) == len(MUTANTS), "mutant ids must be unique"
    for m in MUTANTS:
        assert m.file.startswith(("impl/", "spec/", "proofs/")), m.id
        assert m.file.endswith(".py"), m.id
        assert m.edit.original != m.edit.replacement, m.id
        assert m.description and m.kind, m.id


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.id for m in MUTANTS])
def test_mutated_file_still_compiles(mutant: Mutant) -> None:
    text = (ROOT / mutant.file).read_text(encoding="utf-8")
    mutated = apply_mutation(text, mutant)  # a stale snippet raises StaleEdit: a failure
    compile(mutated, mutant.file, "exec")


def test_module_of_follows_the_package_dirs() -> None:
    assert module_of("impl/mechanisms/exponential.py") == "dpspec.mechanisms.exponential"
    assert module_of("impl/audit/core.py") == "dpspec.audit.core"
    assert module_of("impl/strategies/__init__.py") == "dpspec.strategies"
    assert module_of("spec/privacy.py") == "dpspec.spec.privacy"
    with pytest.raises(ValueError, match="file"):
        module_of("tests/test_x.py")


def test_links_name_the_mutated_module() -> None:
    linked = linked_obligations("impl/mechanisms/exponential.py")
    assert "mechanisms.exponential.privacy" in linked
    assert "ldp.ldp-randomiser.privacy" not in linked


def test_an_obligation_is_linked_to_its_controls_modules() -> None:
    """A bug control's module links its obligation, so the mutant the control becomes runs it
    (``spec/adaptive.py`` is in no obligation's impls or entry points)."""
    assert "adaptive.markov-chain.lemma-7.3.3" in linked_obligations("spec/adaptive.py")


def test_stale_snippet_raises() -> None:
    module = "dpspec.noise"
    with pytest.raises(StaleMutant, match="stale mutant x: snippet occurs 0 times"):
        apply_mutation("a = 1\n", Mutant("x", Edit(module, "b = 2", "b = 3", "d")))
    with pytest.raises(StaleMutant, match="2 times"):
        apply_mutation("a = 1\na = 1\n", Mutant("x", Edit(module, "a = 1", "a = 2", "d")))


def test_scratch_copy_is_what_python_imports(tmp_path: Path) -> None:
    """The shim must win over the editable install: every import name resolves inside it."""
    src = snapshot(ROOT, tmp_path)
    scratch = build_scratch(src, tmp_path / "s")
    found = probe_imports(scratch)
    assert set(found) == {
        "dpspec.spec",
        "dpspec",
        "dpspec.audit",
        "dpspec.proofs",
        "dpspec.strategies",
    }
    for file in found.values():
        assert Path(file).is_relative_to(scratch)


def test_engine_kills_the_missing_half_and_reports_stale() -> None:
    """Known outcomes: dropping the exponential mechanism's 1/2 is killed today by an exact
    obligation; a snippet that is not in the file is reported stale (exit 3); a no-op edit
    (a comment) is not killed (negative control: kills come from the mutated behaviour)."""
    half = HALF
    comment = half.edit.original + "  # unchanged behaviour"
    noop = Mutant("noop.comment", replace(half.edit, replacement=comment, bug="must survive"))
    stale = Mutant("stale.example", replace(half.edit, original="no such code here"))
    report = run_mutants(
        [half, noop, stale], options=MutateOptions(jobs=2, progress=False, fail_fast=True)
    )
    rows = {r["id"]: r for r in report["mutants"]}
    assert rows[half.id]["killed"], rows[half.id]
    assert set(rows[half.id]["killed_by"]) <= set(rows[half.id]["linked"])
    assert not rows["noop.comment"]["killed"] and rows["noop.comment"]["status"] == "survived"
    assert rows["stale.example"]["stale"] and rows["stale.example"]["status"] == "stale"
    assert "stale mutant" in rows["stale.example"]["detail"]
    assert report["total"] == 3 and report["killed"] == 1
    assert exit_code(report) == 3
    assert exit_code({"mutants": [rows[half.id]]}) == 0
    assert exit_code({"mutants": [rows[half.id], rows["noop.comment"]]}) == 1


def test_cli_usage_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", "--only", "no-such-mutant-id"]) == 2
    assert "--only" in capsys.readouterr().err
    assert main(["mutate", "--jobs", "0"]) == 2
    out = tmp_path / "m.json"
    code = main(
        [
            "mutate",
            "--only",
            "exp.half-dropped",
            "--fail-fast",
            "--no-baseline",
            "--no-progress",
            "--json",
            str(out),
        ]
    )
    report = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0
    assert report["total"] == 1 and report["killed"] == 1
    row = report["mutants"][0]
    assert set(row) >= {"id", "file", "description", "killed", "killed_by", "stale", "seconds"}
    assert row["id"] == HALF.id  # the old id selects the control it became
    assert report["fail_fast"] and len(row["killed_by"]) == 1


def test_verify_ids_selects_exactly_and_refuses_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--no-progress", "--ids", "no-such-obligation"]) == 2
    assert "--ids" in capsys.readouterr().err
    assert main(["verify", "--no-progress", "--ids", "privacy.dp.group-privacy"]) == 0
    out = capsys.readouterr().out
    assert "privacy.dp.group-privacy" in out and "1 passed" in out
