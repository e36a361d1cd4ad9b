"""The schema of a ``dpspec verify --json`` report, and the check ``dpspec report --from`` runs.

:data:`SCHEMA` is a JSON Schema (draft 2020-12 keywords: ``type``, ``properties``,
``required``, ``items``, ``enum``, ``minimum``, ``minItems``, ``maxItems``) of the fields the
report reads; it is published beside the package as ``proofs/notes/verify-report.schema.json``
(``python -m dpspec.proofs.engine.report_schema`` writes it; a test checks the file equals it).
:func:`problems` checks a parsed report against it with a small interpreter of exactly those
keywords, and adds what a schema cannot say: ids are unique, and at least one id is a
registered obligation. Every problem names the field (``obligations[3].seconds``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: where the schema is published
PUBLISHED = Path(__file__).resolve().parent.parent / "notes" / "verify-report.schema.json"
#: the largest number of rows a report may hold (the registry has a few hundred)
MAX_ROWS = 100_000

_NUMBER = {"type": "number"}
_CONTROL = {
    "type": "object",
    "required": ["caught"],
    "properties": {"bug": {"type": "string"}, "caught": {"type": "boolean"},
                   "measured": {"type": "string"}},
}  # fmt: skip
_SLACK = {
    "type": "object",
    "required": ["quantity", "claim", "measured"],
    "properties": {
        "quantity": {"type": "string"},
        "claim": _NUMBER,
        "measured": _NUMBER,
        "ratio": _NUMBER,
        "bracket": {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 2},
    },
}
_ROW = {
    "type": "object",
    "required": ["id", "status"],
    "properties": {
        "id": {"type": "string"},
        "status": {"enum": ["passed", "failed", "documented"]},
        "seconds": {"type": "number", "minimum": 0},
        "cpu_seconds": {"type": "number", "minimum": 0},
        "detail": {"type": "string"},
        "controls": {"type": "array", "items": _CONTROL},
        "slack": {"type": "array", "items": _SLACK},
        "tightest": {"type": ["object", "null"], **{k: _SLACK[k] for k in ("required",
                                                                              "properties")}},
    },
}  # fmt: skip
#: the schema of a verify report (the fields ``dpspec report`` reads)
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "dpspec verify --json report",
    "type": "object",
    "required": ["obligations"],
    "properties": {
        "obligations": {"type": "array", "items": _ROW, "maxItems": MAX_ROWS},
        "passed": {"type": "integer", "minimum": 0},
        "failed": {"type": "integer", "minimum": 0},
        "documented": {"type": "integer", "minimum": 0},
        "seconds": {"type": "number", "minimum": 0},
        "thorough": {"type": "boolean"},
    },
}


def _kind_ok(value: Any, kind: str) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":  # finite, or ±inf as Python's json writes it (a ratio with 0)
        return (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and not (isinstance(value, float) and math.isnan(value))
        )
    raise ValueError(f"schema: unknown type {kind!r}")


def _check(value: Any, schema: dict[str, Any], where: str) -> Iterable[str]:
    """The problems of ``value`` against ``schema`` (the keywords of the module docstring)."""
    kinds = schema.get("type")
    if kinds is not None:
        allowed = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_kind_ok(value, k) for k in allowed):
            yield f"{where}: expected {' or '.join(allowed)}, got {type(value).__name__}"
            return
    if "enum" in schema and value not in schema["enum"]:
        yield f"{where}: expected one of {schema['enum']}, got {value!r:.40}"
        return
    if "minimum" in schema and isinstance(value, int | float) and value < schema["minimum"]:
        yield f"{where}: must be >= {schema['minimum']}, got {value!r}"
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                yield f"{where}: missing {key!r}"
        for key, inner in schema.get("properties", {}).items():
            if key in value:
                yield from _check(value[key], inner, f"{where}.{key}")
    if isinstance(value, list):
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            yield f"{where}: more than {schema['maxItems']} items ({len(value)})"
            return
        if "minItems" in schema and len(value) < schema["minItems"]:
            yield f"{where}: fewer than {schema['minItems']} items ({len(value)})"
        if "items" in schema:
            for i, item in enumerate(value):
                yield from _check(item, schema["items"], f"{where}[{i}]")


def problems(report: Any, registered: Iterable[str]) -> list[str]:
    """Every way ``report`` is not a verify report this registry can render: the schema's
    problems, duplicate ids, and no id a registered obligation (at most 5 listed)."""
    found = list(_check(report, SCHEMA, "report"))
    if found:
        return found[:5]
    rows = report["obligations"]
    seen: dict[str, int] = {}
    for i, row in enumerate(rows):
        if row["id"] in seen:
            found.append(
                f"obligations[{i}].id: {row['id']!r} repeats obligations[{seen[row['id']]}]"
            )
        seen.setdefault(row["id"], i)
    known = set(registered)
    if rows and not any(r["id"] in known for r in rows):
        found.append(
            "obligations: no id is a registered obligation (a report of another registry?)"
        )
    return found[:5]


def published_text() -> str:
    """The schema file's text."""
    return json.dumps(SCHEMA, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    PUBLISHED.write_text(published_text(), encoding="utf-8")
