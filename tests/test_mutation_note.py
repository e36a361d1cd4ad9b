"""The results section of ``proofs/notes/mutation.md`` is written from a ``dpspec mutate`` run
of today's catalogue (``proofs/notes/mutate.json``), so no figure in the note is stale."""

from __future__ import annotations

import json
from pathlib import Path

from dpspec.proofs.engine import mutation_note
from dpspec.proofs.engine.mutation import catalogue

NOTES = Path(__file__).resolve().parent.parent / "proofs" / "notes"


def test_the_run_covers_todays_catalogue() -> None:
    report = json.loads((NOTES / "mutate.json").read_text(encoding="utf-8"))
    ran = [row["id"] for row in report["mutants"]]
    assert sorted(ran) == sorted(m.id for m in catalogue()), (
        "proofs/notes/mutate.json is not a run of today's catalogue: run dpspec mutate "
        "--fail-fast --json proofs/notes/mutate.json, then "
        "python -m dpspec.proofs.engine.mutation_note"
    )
    assert report["killed"] == report["total"] == len(ran)


def test_the_note_is_written_from_the_run() -> None:
    assert mutation_note.main(["--check"]) == 0, (
        "proofs/notes/mutation.md differs from proofs/notes/mutate.json: run "
        "python -m dpspec.proofs.engine.mutation_note"
    )


def test_a_stale_figure_is_detected(tmp_path: Path) -> None:
    """Control: one more survivor in the run makes --check fail."""
    report = json.loads((NOTES / "mutate.json").read_text(encoding="utf-8"))
    note = tmp_path / "mutation.md"
    note.write_text(f"# x\n\n{mutation_note.BEGIN}\n{mutation_note.END}\n", encoding="utf-8")
    run = tmp_path / "mutate.json"
    run.write_text(json.dumps(report), encoding="utf-8")
    argv = ["--note", str(note), "--report", str(run)]
    assert mutation_note.main(argv) == 0 and mutation_note.main([*argv, "--check"]) == 0
    report["killed"] -= 1
    report["survived"] += 1
    run.write_text(json.dumps(report), encoding="utf-8")
    assert mutation_note.main([*argv, "--check"]) == 1
