"""``dpspec report``: the guarantee table — theorem, seed and line, predicate, entry point, method,
status, time — as Markdown and as a self-contained HTML page, with the errata and the map from
the ids of dpspec 0.1. An obligation that names no spec predicate shows ``— (<reason>)`` in the
predicate column: its ``no_predicate``, what its property is checked against instead.

The registry gives every column but status and time; those come from a ``dpspec verify --json``
report (``--from``) or from running ``dpspec verify`` first.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dpspec.proofs.engine.index import Entry, entries, indexed_errata
from dpspec.proofs.engine.legacy_ids import LEGACY_ERRATA, LEGACY_IDS
from dpspec.proofs.engine.registry import Erratum

COLUMNS = (
    "id",
    "theorem",
    "seed:lines",
    "predicate",
    "entry point",
    "method",
    "kind",
    "controls caught",
    "slack",
    "status",
    "s",
)


@dataclass(frozen=True)
class Row:
    """One guarantee of the table."""

    id: str
    theorem: str
    where: str
    predicate: str
    entry: str
    method: str
    kind: str
    controls: str
    slack: str
    status: str
    seconds: str

    def cells(self) -> tuple[str, ...]:
        return (
            self.id,
            self.theorem,
            self.where,
            self.predicate,
            self.entry,
            self.method,
            self.kind,
            self.controls,
            self.slack,
            self.status,
            self.seconds,
        )


def _short(dotted: str) -> str:
    """``dpspec.learners.pcl.PrivateHistogramClassifier.fit`` → ``PrivateHistogramClassifier.fit``
    (the module path is in the registry; the table shows what a reader looks for)."""
    parts = dotted.split(".")
    keep = [p for p in parts if p[:1].isupper()] or parts[-1:]
    tail = parts[parts.index(keep[0]) :] if keep[0] in parts else keep
    return ".".join(tail)


def row(ob: Entry, result: dict[str, Any] | None) -> Row:
    """The table row of one obligation, with its verify result when there is one."""
    cites = ob.citations
    theorem = "; ".join(c.theorem for c in cites if c.theorem) or ob.source
    where = "; ".join(
        f"{c.seed[:3]}:L{c.first}" + (f"-{c.last}" if c.last != c.first else "") for c in cites
    )
    predicate = (
        ", ".join(_short(p) for p in ob.predicates)
        or ", ".join(ob.lemmas)
        or (f"— ({ob.no_predicate})" if ob.no_predicate else "—")
    )
    entry = ", ".join(_short(e) for e in ob.entry_points) or ", ".join(
        _short(i) for i in ob.impls[:2]
    )
    status = "not run" if result is None else str(result.get("status", "not run"))
    seconds = "" if result is None else f"{float(result.get('seconds', 0.0)):.2f}"
    kind = ob.effective_kind.value
    if ob.reason:
        kind += f" ({ob.reason})"
    controls, slack = "—", "—"
    if result is not None:
        found = result.get("controls") or []
        if found:
            caught = sum(bool(c.get("caught")) for c in found)
            controls = f"{caught}/{len(found)}"
        tight = result.get("tightest")
        if isinstance(tight, dict):
            slack = f"{tight['quantity']}: {tight['claim']:.4g} vs {tight['measured']:.4g}"
            if isinstance(tight.get("bracket"), list) and len(tight["bracket"]) == 2:
                low, high = tight["bracket"]
                slack += f" (audit: ε ∈ [{low:.4g}, {high:.4g}])"
    return Row(
        ob.id,
        theorem,
        where or "—",
        predicate,
        entry or "—",
        ob.method.value,
        kind,
        controls,
        slack,
        status,
        seconds,
    )


def build_rows(verify: dict[str, Any] | None) -> list[Row]:
    results = {r["id"]: r for r in (verify or {}).get("obligations", [])}
    return [row(ob, results.get(ob.id)) for ob in entries()]


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(rows: Sequence[Row], errata_rows: Sequence[Erratum], title: str) -> str:
    """The report as Markdown (GitHub tables)."""
    out = [f"# {title}", ""]
    counts: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for r in rows:
        counts[r.status] = counts.get(r.status, 0) + 1
        kinds[r.kind.split(" (")[0]] = kinds.get(r.kind.split(" (")[0], 0) + 1
    out.append(
        f"{len(rows)} guarantees: "
        + ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        + "; by kind: "
        + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
        + ". Seeds: 000 = Bousquet et al. 2022 (DP Bayes consistency), 002 = Sadigurschi's "
        "thesis, 003 = Berrett–Györfi–Walk 2021, 004 = Chaudhuri–Hsu 2011."
    )
    out += ["", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(_md_cell(c) for c in r.cells()) + " |" for r in rows]
    out += ["", "## Errata (statements false as printed)", ""]
    out += ["| id | source | printed | corrected | counterexample |", "|---|---|---|---|---|"]
    for e in errata_rows:
        cells = (e.id, e.source, e.printed, e.corrected, e.counterexample)
        out.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    out += [
        "",
        "## Ids of dpspec 0.1 and 0.2 (they still resolve)",
        "",
        "| old id | id |",
        "|---|---|",
    ]
    mapping = {**LEGACY_IDS, **LEGACY_ERRATA}
    out += [f"| `{old}` | `{new}` |" for old, new in sorted(mapping.items())]
    return "\n".join(out) + "\n"


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; font-size: 0.85em; margin-bottom: 2em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.5em; vertical-align: top; text-align: left; }
th { background: #f0f0f0; position: sticky; top: 0; }
td.passed { background: #e6f4e6; } td.failed { background: #fbe3e3; }
td.documented { background: #eef; } code { font-size: 0.95em; }
"""


def html_page(rows: Sequence[Row], errata_rows: Sequence[Erratum], title: str) -> str:
    """The report as one self-contained HTML page (inline style, no scripts, no links out)."""
    esc = html.escape
    head = "".join(f"<th>{esc(c)}</th>" for c in COLUMNS)
    body = []
    for r in rows:
        cells = r.cells()
        tds = "".join(
            f'<td class="{esc(r.status)}">{esc(c)}</td>'
            if i == COLUMNS.index("status")
            else f"<td>{esc(c)}</td>"
            for i, c in enumerate(cells)
        )
        body.append(f"<tr>{tds}</tr>")
    err = "".join(
        "<tr>"
        + "".join(
            f"<td>{esc(c)}</td>" for c in (e.id, e.source, e.printed, e.corrected, e.counterexample)
        )
        + "</tr>"
        for e in errata_rows
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{esc(title)}</h1><table><thead><tr>{head}</tr></thead><tbody>"
        + "".join(body)
        + "</tbody></table><h2>Errata (statements false as printed)</h2><table><thead><tr>"
        "<th>id</th><th>source</th><th>printed</th><th>corrected</th><th>counterexample</th>"
        f"</tr></thead><tbody>{err}</tbody></table></body></html>\n"
    )


def report(verify: dict[str, Any] | None, title: str) -> tuple[str, str]:
    """(Markdown, HTML) of the registry with the statuses of ``verify`` (None: not run)."""
    rows = build_rows(verify)
    return markdown(rows, indexed_errata(), title), html_page(rows, indexed_errata(), title)
