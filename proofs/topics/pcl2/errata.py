"""Statements of the seeds false as printed, in this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Erratum
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id="pcl2.erratum.bayes-consistency-lemma-A.8-proof",
        source=f"{BAYES_CONSISTENCY}:L462-476 (Lemma A.8, last line of its proof)",
        printed="the proof of Lemma A.8 ends with ρ(a, b) ≤ r for a, b in one Voronoi cell",
        corrected="ρ(a, b) ≤ 2r (the lemma's statement, diam ≤ 2r, is true; constant 2 is sharp)",
        counterexample=(
            "centres (¼,¼), (¾,¼), (¼,¾), (¾,¾) are a maximal ½-packing of [0,1]²; (0,0) and "
            "(0.49,0.49) share a cell at distance 0.693 > ½; in 1-D {0.95, 2.85} in [0, 3.8] has "
            "a cell of diameter 1.9 = 2r·0.95"
        ),
        tests=("tests/test_pcl2.py::test_lemma_a8_last_line_counterexample",),
        obligation="pcl2.packing.cell-diameter",
    ),
)
