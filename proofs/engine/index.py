"""The registry's index, ``proofs/index.json``: every obligation's declaration as data, and
the errata, for the commands that only read the registry (``dpspec list``, ``dpspec errata``,
``dpspec report``) — the registry itself imports every check module of every topic.

The index is generated from the declarations: ``python -m dpspec.proofs.engine.index``
rewrites it (``--check`` exits 1 when it is stale), and ``tests/test_index.py`` fails when the
committed index differs from a fresh one, as README's tables are checked.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from dpspec.proofs.engine.registry import Citation, Erratum, Kind, Method, citations_of

#: The committed index (package data of ``dpspec.proofs``).
INDEX = Path(__file__).resolve().parent.parent / "index.json"


@dataclass(frozen=True)
class Entry:
    """An obligation as the index keeps it: its declaration's fields (links as dotted names),
    the check functions it runs (``module:function``) and where it is declared."""

    id: str
    topic: str
    source: str
    claim: str
    method: Method
    kind: Kind
    reason: str
    no_predicate: str
    predicates: tuple[str, ...]
    impls: tuple[str, ...]
    entry_points: tuple[str, ...]
    lemmas: tuple[str, ...]
    tests: tuple[str, ...]
    privacy: bool
    binding: str
    checks: tuple[str, ...]
    controls: tuple[str, ...]
    declared_at: str

    @property
    def citations(self) -> tuple[Citation, ...]:
        return citations_of(self.source)

    @property
    def effective_kind(self) -> Kind:
        return self.kind


def fresh() -> dict[str, Any]:
    """The index of the registry as it is declared now (imports every topic)."""
    from dpspec.proofs.engine.registry import errata, obligations

    rows = [
        {
            "id": ob.id,
            "topic": ob.topic,
            "source": ob.source,
            "claim": ob.claim,
            "method": ob.method.value,
            "kind": ob.effective_kind.value,
            "reason": ob.reason,
            "no_predicate": ob.no_predicate,
            "predicates": list(ob.predicates),
            "impls": list(ob.impls),
            "entry_points": list(ob.entry_points),
            "lemmas": list(ob.lemmas),
            "tests": list(ob.tests),
            "privacy": ob.privacy,
            "binding": ob.binding,
            "checks": list(ob.checks),
            "controls": [c.bug for c in ob.bug_controls],
            "declared_at": ob.declared_at,
        }
        for ob in obligations()
    ]
    return {"obligations": rows, "errata": [dataclasses.asdict(e) for e in errata()]}


def render(index: dict[str, Any]) -> str:
    """The index as the committed file holds it."""
    return json.dumps(index, indent=1, ensure_ascii=False) + "\n"


@cache
def _read() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(INDEX.read_text(encoding="utf-8"))
    return loaded


@cache
def entries() -> tuple[Entry, ...]:
    """The obligations of the committed index, in registry order."""
    out = []
    for row in _read()["obligations"]:
        fields = {**row, "method": Method(row["method"]), "kind": Kind(row["kind"])}
        for name in ("predicates", "impls", "entry_points", "lemmas", "tests", "checks"):
            fields[name] = tuple(row[name])
        fields["controls"] = tuple(row["controls"])
        out.append(Entry(**fields))
    return tuple(out)


@cache
def indexed_errata() -> tuple[Erratum, ...]:
    """The errata of the committed index."""
    return tuple(Erratum(**{**e, "tests": tuple(e["tests"])}) for e in _read()["errata"])


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the index (``--check``: exit 1, naming the file, when it is stale)."""
    parser = argparse.ArgumentParser(prog="python -m dpspec.proofs.engine.index")
    parser.add_argument("--check", action="store_true", help="only check that it is fresh")
    args = parser.parse_args(argv)
    text = render(fresh())
    if args.check:
        stale = not INDEX.is_file() or INDEX.read_text(encoding="utf-8") != text
        if stale:
            print(f"{INDEX} is stale: run python -m dpspec.proofs.engine.index", file=sys.stderr)
        return int(stale)
    INDEX.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
