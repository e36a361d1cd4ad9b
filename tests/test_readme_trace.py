"""README's "Tracing a guarantee" is true: the files it names exist, there are at most four,
each holds the names README gives it, and the first is where the registry says the traced
obligation is declared."""

from __future__ import annotations

import re
from pathlib import Path

from dpspec.proofs.engine.registry import by_id

ROOT = Path(__file__).resolve().parent.parent


def _trace() -> tuple[str, list[tuple[str, list[str]]]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Tracing a guarantee", 1)[1].split("\n## ", 1)[0]
    traced = re.search(r"\(`([a-z0-9.-]+)`\) in", section)
    assert traced, "the section names the traced obligation's id"
    steps = re.split(r"\n(?=\d+\. )", section.split("\n\n", 2)[2].split("\n\n", 1)[0])
    found = []
    for step in steps:
        path, rest = re.match(r"\d+\. `([^`]+)`:(.*)", step, re.S).groups()  # type: ignore[union-attr]
        names = re.findall(r"`@?([A-Za-z_][A-Za-z0-9_]*)", rest)
        found.append((path, names))
    return traced.group(1), found


def test_the_trace_resolves_in_at_most_four_files() -> None:
    ob_id, steps = _trace()
    assert 1 <= len(steps) <= 4, steps
    for path, names in steps:
        text = (ROOT / path).read_text(encoding="utf-8")
        missing = [n for n in names if not re.search(rf"\b{re.escape(n)}\b", text)]
        assert not missing, f"{path} does not hold {missing}"
    ob = by_id(ob_id)
    module = ob.declared_at.split(":")[0]
    declared = ROOT / "proofs" / Path(*module.split(".")[2:]).with_suffix(".py")
    assert declared == ROOT / steps[0][0], (declared, steps[0][0])
    assert f'id="{ob_id}"' in (ROOT / steps[0][0]).read_text(encoding="utf-8")
