"""The results section of ``proofs/notes/mutation.md``, written from a ``dpspec mutate`` run.

``python -m dpspec.proofs.engine.mutation_note`` rewrites the part of the note between
:data:`BEGIN` and :data:`END` from ``proofs/notes/mutate.json`` (written by
``dpspec mutate --fail-fast --json proofs/notes/mutate.json``); ``--check`` writes nothing and
exits 1 when the note differs. ``tests/test_mutation_note.py`` runs the same comparison and
checks that the run covers today's catalogue, so no figure in the note is stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dpspec.proofs.engine.mutation import Mutant, catalogue

NOTES = Path(__file__).resolve().parent.parent / "notes"
BEGIN = "<!-- mutate-results:begin (written by python -m dpspec.proofs.engine.mutation_note) -->"
END = "<!-- mutate-results:end -->"


def render(report: dict[str, Any], mutants: Sequence[Mutant]) -> str:
    """The section: the run's summary line and one row per mutant (its kind from the
    catalogue, the obligation that killed it)."""
    kinds = {m.id: m.kind for m in mutants}
    run = report.get("run", {})
    lines = [
        f"`{run.get('command', 'dpspec mutate --fail-fast')}` on {run.get('date', '?')} "
        f"({run.get('machine', 'machine not recorded')}): **{report['killed']}/{report['total']} "
        f"killed**, {report['survived']} survived, {report['stale']} stale, {report['errors']} "
        f"errors, in {report['seconds'] / 60:.1f} min (baseline included; failing on the "
        f"baseline: {', '.join(report['baseline_failed']) or 'none'}).",
        "",
        "| mutant | kind | status | killed by |",
        "|---|---|---|---|",
    ]
    for row in report["mutants"]:
        killers = ", ".join(f"`{k}`" for k in row["killed_by"]) or "—"
        lines.append(
            f"| `{row['id']}` | {kinds.get(row['id'], '?')} | {row['status']} | {killers} |"
        )
    return "\n".join(lines)


def replace_section(note: str, section: str) -> str:
    """``note`` with the text between the markers replaced by ``section``."""
    head, rest = note.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{section}\n{END}{tail}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--note", type=Path, default=NOTES / "mutation.md")
    parser.add_argument("--report", type=Path, default=NOTES / "mutate.json")
    parser.add_argument("--check", action="store_true", help="exit 1 when the note differs")
    args = parser.parse_args(argv)
    report = json.loads(args.report.read_text(encoding="utf-8"))
    note = args.note.read_text(encoding="utf-8")
    updated = replace_section(note, render(report, catalogue()))
    if args.check:
        return int(updated != note)
    args.note.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
