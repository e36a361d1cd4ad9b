"""The tables of the docs' "Benchmarks" page, written from the benchmark scripts' results JSONs.

Run: ``python benchmarks/readme_tables.py`` rewrites the part of docs/benchmarks.md between the
markers ``<!-- benchmarks:begin -->`` and ``<!-- benchmarks:end -->`` from
``benchmarks/results/*.json``; ``--check`` writes nothing and exits 1 when the page differs
(``tests/test_readme_tables.py`` runs the same comparison, so no figure on the page is stale).
``--page`` names another page to write.

One table per benchmark family, each from the files its scripts write; a family whose JSON
does not exist is left out:

* samplers (``samplers.json``, ``bench_samplers.py``): samples/s and the ratio to numpy's float
  Laplace of the same run;
* PCL (``pcl_*.json``, ``bench_pcl.py``): fit + predict against the bare numpy histogram rule;
* the exponential median (``exponential_median*.json``) and the rectangle learner
  (``rectangles*.json``): their rows' scalar fields as written.

A results JSON states its machine under ``"machine"`` (:func:`machine`, which the scripts call)
and may state the command that regenerates it under ``"command"``; otherwise the table says
the machine was not recorded and gives the script's documented command.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PAGE = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- benchmarks:begin (written by python benchmarks/readme_tables.py) -->"
END = "<!-- benchmarks:end -->"

Row = dict[str, Any]


def machine() -> dict[str, Any]:
    """The machine a benchmark runs on: logical cores, CPU model, Python and numpy versions."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cores": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "numpy": np.__version__,
    }


def describe_machine(info: Any) -> str:
    if not isinstance(info, dict):
        return "not recorded"
    return (
        f"{info.get('cores', '?')} cores, {info.get('cpu', '?')}, Python "
        f"{info.get('python', '?')}, numpy {info.get('numpy', '?')}"
    )


def number(value: Any, digits: int = 3) -> str:
    """A value for a table cell: floats to ``digits`` significant digits, the rest as text."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}".replace(",", " ")
    return f"{value:.{digits}g}"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(r) + " |" for r in rows]


def rows_of(data: Any) -> list[Row]:
    """The row dicts of a results JSON: a list of rows, ``{"rows": [...]}``, or one row."""
    if isinstance(data, list):
        return [r for r in data if isinstance(r, dict)]
    if isinstance(data, dict) and isinstance(data.get("rows"), list):
        return [r for r in data["rows"] if isinstance(r, dict)]
    return [data] if isinstance(data, dict) else []


def footer(files: list[tuple[Path, Any]], default_command: str | None) -> list[str]:
    """The machine(s) and the command(s) regenerating a table's rows."""
    machines = sorted({describe_machine(machine_of(data)) for _, data in files})
    commands = sorted(
        {
            f"`{c}`" if c else "command not recorded"
            for c in (command_of(data) or default_command for _, data in files)
        }
    )
    names = ", ".join(f"`{path.name}`" for path, _ in files)
    return [
        "",
        *prose(f"From {names}; machine: {'; '.join(machines)}. Regenerate: {'; '.join(commands)}."),
    ]


def prose(text: str) -> list[str]:
    """A paragraph wrapped at 100 columns (the docs' width), never inside a `code` span."""
    parts = text.split("`")
    for i in range(1, len(parts), 2):  # odd parts are code: keep their spaces unbreakable
        parts[i] = parts[i].replace(" ", "\0")
    wrapped = textwrap.wrap("`".join(parts), 100, break_long_words=False, break_on_hyphens=False)
    return [line.replace("\0", " ") for line in wrapped]


def machine_of(data: Any) -> Any:
    if isinstance(data, dict) and "machine" in data:
        return data["machine"]
    found = [r.get("machine") for r in rows_of(data) if "machine" in r]
    return found[0] if found else None


def command_of(data: Any) -> str | None:
    if isinstance(data, dict) and isinstance(data.get("command"), str):
        return str(data["command"])
    found = [r["command"] for r in rows_of(data) if isinstance(r.get("command"), str)]
    return str(found[0]) if found else None


def samplers_table(files: list[tuple[Path, Any]]) -> list[str]:
    """Samples/s of each sampler and its ratio to numpy's float Laplace in the same run."""
    lines = ["### Samplers", ""]
    for path, data in files:
        rows = rows_of(data)
        rate = {
            str(r.get("sampler", r.get("name", "?"))): float(r["samples_per_second"])
            for r in rows
            if isinstance(r.get("samples_per_second"), (int, float))
        }
        reference = next((v for k, v in rate.items() if k.lower().startswith("numpy laplace")), 0)
        spread = {
            str(r.get("sampler", r.get("name", "?"))): r.get("spread")
            for r in rows
            if isinstance(r.get("spread"), (int, float))
        }
        body = [
            [
                name,
                f"{value / 1e6:.3g} M/s",
                f"{value / reference:.2f}" if reference else "—",
                f"{spread[name]:.2f}" if name in spread else "—",
            ]
            for name, value in rate.items()
        ]
        size = data.get("n") if isinstance(data, dict) else None
        if size is not None:
            lines += [
                f"{number(size)} draws per call, best of the script's interleaved rounds "
                "(spread: slowest / fastest round).",
                "",
            ]
        lines += table(["sampler", "throughput", "× numpy float Laplace", "spread"], body)
        lines += footer([(path, data)], f"python benchmarks/bench_samplers.py --json {rel(path)}")
    return lines


def pcl_table(files: list[tuple[Path, Any]]) -> list[str]:
    """PCL fit + predict against the bare numpy histogram rule (bench_pcl.py)."""
    body = []
    for _, row in sorted(files, key=lambda f: (f[1].get("n", 0), f[1].get("d", 0))):
        body.append(
            [
                number(row.get("n")),
                number(row.get("d")),
                f"{number(row.get('cells_per_axis'))}^{row.get('d')}",
                f"{row['histogram_seconds'] * 1e3:.1f}",
                f"{row['histogram_blocked_seconds'] * 1e3:.1f}"
                if "histogram_blocked_seconds" in row
                else "—",
                f"{row['pcl_seconds'] * 1e3:.1f}",
                ratio_cell(row, ""),
                ratio_cell(row, "_blocked"),
                number(row.get("load_average_at_start", "—"), 2),
            ]
        )
    lines = [
        "### PCL fit + predict against the bare histogram rule",
        "",
        *prose(
            "`PrivateHistogramClassifier(epsilon=1).fit(X, y).predict(Xt)` (exact discrete noise, "
            "input validation) against the same rule in bare numpy (float Laplace noise on the "
            "cube margins, sign per cube, predict by cube lookup) on the same n training and n "
            "test points; the plain rule computes the cube index in one numpy expression, the "
            "blocked one a block of rows at a time as PCL does. Best of the repeats, interleaved "
            "in one run; in brackets the per-repeat ratios' min / median / max, and the load "
            "average when the run started (the machine is shared)."
        ),
        "",
    ]
    lines += table(
        [
            "n",
            "d",
            "cubes",
            "bare rule ms",
            "bare rule, blocked ms",
            "PCL ms",
            "PCL ÷ bare",
            "PCL ÷ blocked",
            "load",
        ],
        body,
    )
    return lines + footer(files, "python benchmarks/bench_pcl.py --out benchmarks/results")


def ratio_cell(row: Row, base: str) -> str:
    """Best-of ratio in bold, then the per-repeat ratios' min / median / max."""
    if f"ratio{base}" not in row:
        return "—"
    spread = [row.get(f"pair_ratio{base}_{stat}") for stat in ("min", "median", "max")]
    cell = f"**{row[f'ratio{base}']:.2f}**"
    if all(isinstance(v, (int, float)) for v in spread):
        cell += " (" + " / ".join(f"{v:.2f}" for v in spread if v is not None) + ")"
    return cell


def generic_table(title: str, script: str | None) -> Callable[[list[tuple[Path, Any]]], list[str]]:
    """A table of the scalar fields of every row, in the order the script wrote them."""

    def render(files: list[tuple[Path, Any]]) -> list[str]:
        rows = [r for _, data in files for r in rows_of(data)]
        columns: list[str] = []
        for r in rows:
            for key, value in r.items():
                scalar = isinstance(value, (int, float, str, bool)) or value is None
                if scalar and key != "command" and key not in columns:
                    columns.append(key)
        body = [[number(r.get(c, "")) for c in columns] for r in rows]
        return [f"### {title}", "", *table(columns, body), *footer(files, script)]

    return render


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


#: (file pattern, renderer) in the order the tables appear.
FAMILIES: tuple[tuple[str, Callable[[list[tuple[Path, Any]]], list[str]]], ...] = (
    ("samplers.json", samplers_table),
    ("pcl_*.json", pcl_table),
    (
        "rectangles.json",
        generic_table(
            "The exponential median and the rectangle learner (thesis ch. 5)",
            "python benchmarks/bench_rectangles.py --json benchmarks/results/rectangles.json",
        ),
    ),
)


def render(results: Path = RESULTS) -> str:
    """The section's text between the markers, from the JSONs in ``results``."""
    lines = prose(
        "Generated by `python benchmarks/readme_tables.py` from `benchmarks/results/*.json`; "
        "each table names its machine and the command that regenerates its rows."
    )
    for pattern, renderer in FAMILIES:
        files = [
            (path, json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(results.glob(pattern))
        ]
        if files:
            lines += ["", *renderer(files)]
    return "\n".join(lines)


def replace_section(page: str, section: str) -> str:
    """The page's text with the part between the markers replaced by ``section``."""
    if page.count(BEGIN) != 1 or page.count(END) != 1:
        raise ValueError(f"expected one {BEGIN!r} and one {END!r}")
    head, rest = page.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{section}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--page", type=Path, default=PAGE, help="default: %(default)s")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    try:
        current = args.page.read_text(encoding="utf-8")
        updated = replace_section(current, render(args.results))
    except (OSError, ValueError) as exc:
        print(f"readme_tables: {args.page}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if updated != current:
            print(f"{args.page}: the benchmark tables are stale", file=sys.stderr)
            return 1
        return 0
    if updated != current:
        args.page.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
