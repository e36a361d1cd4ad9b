"""The tables of docs/benchmarks.md are exactly what ``benchmarks/readme_tables.py`` writes from
the committed results JSONs: a figure changed by hand, or a results file regenerated without
rewriting the page, fails here."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _readme_tables() -> ModuleType:
    path = ROOT / "benchmarks" / "readme_tables.py"
    spec = importlib.util.spec_from_file_location("readme_tables", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("readme_tables", module)
    spec.loader.exec_module(module)
    return module


def test_benchmarks_page_is_generated() -> None:
    tables = _readme_tables()
    assert tables.PAGE == ROOT / "docs" / "benchmarks.md"
    page = tables.PAGE.read_text(encoding="utf-8")
    assert page == tables.replace_section(page, tables.render()), (
        "docs/benchmarks.md's tables differ from the results JSONs: run "
        "python benchmarks/readme_tables.py"
    )


def test_a_stale_figure_is_detected(tmp_path: Path) -> None:
    """Control: one PCL timing changed in a results file makes --check fail (exit 1)."""
    tables = _readme_tables()
    results = tmp_path / "results"
    results.mkdir()
    for source in sorted((ROOT / "benchmarks" / "results").glob("pcl_*.json")):
        (results / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    first = sorted(results.glob("pcl_*.json"))
    assert first, "benchmarks/results/pcl_*.json: the PCL results are committed"
    page = tmp_path / "benchmarks.md"
    page.write_text(f"# x\n\n{tables.BEGIN}\n{tables.END}\n", encoding="utf-8")
    argv = ["--page", str(page), "--results", str(results)]
    assert tables.main(argv) == 0 and tables.main([*argv, "--check"]) == 0
    row = json.loads(first[0].read_text(encoding="utf-8"))
    row["pcl_seconds"] *= 1.5
    row["ratio"] *= 1.5
    first[0].write_text(json.dumps(row), encoding="utf-8")
    assert tables.main([*argv, "--check"]) == 1


def test_missing_families_are_left_out(tmp_path: Path) -> None:
    """A family whose JSON does not exist has no table; the others keep theirs."""
    tables = _readme_tables()
    (tmp_path / "rectangles.json").write_text(
        json.dumps([{"n": 1000, "d": 10, "seconds": 0.5, "machine": tables.machine()}]),
        encoding="utf-8",
    )
    text = tables.render(tmp_path)
    assert "### The exponential median and the rectangle learner" in text
    assert "| 1 000 | 10 | 0.5 |" in text
    assert "### Samplers" not in text and "### PCL" not in text
