"""Learner conformance: an independent PCL re-implementation conforms to PCL's
exact decision law and consistency trend; its three buggy variants do not."""

from __future__ import annotations

import pytest

from dpspec.conform import conform
from tests.conform_pcl_reimplementation import BUGS, KBinsPCL


def test_kbins_reimplementation_conforms() -> None:
    """Full budget (power >= 0.99 against ε × 1.1), privacy audit, consistency trend."""
    result = conform(KBinsPCL(epsilon=1.0), "pcl", epsilon=1.0, idealised=True, audit_samples=4000)
    assert result.verdict == "conforms", "\n".join(result.lines())
    assert all(r.power >= 0.99 for r in result.instances)
    trend = result.instances[0].guarantees[0]
    assert trend["holds"], trend


@pytest.mark.parametrize("bug", BUGS)
def test_kbins_bugs_deviate(bug: str) -> None:
    """Each bug is rejected by the law test (budget for power 0.5 against ε × 1.1: the bugs are
    larger, and the report states the exact power against each of them); dropping the ½ also
    breaks the consistency trend."""
    trend = bug == "half-dropped"
    result = conform(
        KBinsPCL(epsilon=1.0, bug=bug),
        "pcl",
        epsilon=1.0,
        idealised=True,
        trend=trend,
        audit_samples=1000,
        power=0.5,
    )
    assert result.verdict != "conforms", "\n".join(result.lines())
    flagged = [r for r in result.instances if r.verdict != "conforms"]
    assert flagged and all(r.fit.rejected for r in flagged)
    assert "largest discrepancy" in flagged[0].why()
    if trend:
        assert not result.instances[0].guarantees[0]["holds"]
