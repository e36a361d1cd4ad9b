"""The audit note's measured numbers are the recorded run's: the block between its markers is
what ``benchmarks/bench_audit.py`` renders from ``benchmarks/results/audit_note.json``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from dpspec.audit.zoo import zoo
from dpspec.proofs.engine.registry import obligations

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> object:
    spec = importlib.util.spec_from_file_location("bench_audit", ROOT / "benchmarks/bench_audit.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_measured_block_is_the_recorded_run() -> None:
    bench = _bench()
    results = json.loads((ROOT / "benchmarks/results/audit_note.json").read_text())
    seeds_path = ROOT / "benchmarks/results/audit_zoo_seeds.json"
    seeds = json.loads(seeds_path.read_text()) if seeds_path.exists() else None
    note = (ROOT / "proofs/topics/audit/note.md").read_text()
    _, _, rest = note.partition(bench.BEGIN)  # type: ignore[attr-defined]
    block, _, _ = rest.partition(bench.END)  # type: ignore[attr-defined]
    assert block == bench.render(results, seeds)  # type: ignore[attr-defined]


def test_recorded_run_covers_the_current_registry_and_zoo() -> None:
    """A stale record (an obligation or zoo entry added or renamed since) fails here."""
    results = json.loads((ROOT / "benchmarks/results/audit_note.json").read_text())
    ids = {ob.id for ob in obligations() if ob.topic == "audit" and ob.runs}
    assert set(results) == ids
    rows = results["audit.zoo-power"]["numbers"]["rows"]
    entries = zoo()
    assert set(rows) == set(entries)
    for name, row in rows.items():
        assert row["claimed"] == entries[name].epsilon and row["correct"] == entries[name].correct
    assert all(r["passed"] for r in results.values())
