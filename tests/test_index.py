"""The committed registry index (``proofs/index.json``, what ``dpspec list``, ``errata`` and
``report`` read) is exactly what the declarations give now: a stale index fails here."""

from __future__ import annotations

from dpspec.proofs.engine.index import INDEX, entries, fresh, indexed_errata, render
from dpspec.proofs.engine.registry import errata, obligations


def test_the_committed_index_is_fresh() -> None:
    assert INDEX.read_text(encoding="utf-8") == render(fresh()), (
        "proofs/index.json is stale: run python -m dpspec.proofs.engine.index"
    )


def test_the_index_reads_back_as_the_registry() -> None:
    assert [e.id for e in entries()] == [ob.id for ob in obligations()]
    by_id = {ob.id: ob for ob in obligations()}
    for entry in entries():
        ob = by_id[entry.id]
        assert entry.predicates == ob.predicates and entry.checks == ob.checks, entry.id
        assert entry.citations == ob.citations and entry.effective_kind == ob.effective_kind
    assert indexed_errata() == errata()
