"""Hypothesis over the whole public API: for every public callable found by walking the
package, 100 derandomised cases (``FUZZ_EXAMPLES``), each replacing one declared parameter by a
drawn hostile value — a named refusal or a result free of NaN, never another exception, a
warning or a CPU budget exceeded. One test per family, so a failure names where it is."""

from __future__ import annotations

import pytest

from dpspec.proofs.engine.discovery import public_objects
from dpspec.proofs.engine.sweep import entries, fuzz

#: Cases per public callable (at least 100 in CI).
FUZZ_EXAMPLES = 100


def _families() -> list[str]:
    return sorted({o.package for o in public_objects()})


@pytest.mark.parametrize("family", _families())
def test_every_public_callable_survives_hypothesis(family: str) -> None:
    selected = entries(tuple(o for o in public_objects() if o.package == family))
    tally = fuzz(FUZZ_EXAMPLES, selected)
    assert not tally.failures, tally.failures[:10]
    assert tally.calls >= FUZZ_EXAMPLES * sum(1 for e in selected if e.domains) // 2
