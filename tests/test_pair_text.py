"""The pair line of an audit report: short pairs as written, large ones by shape and the one
record where D and D' differ (a numpy repr cut mid-row said neither)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from dpspec.audit._pair_text import describe_pair


def test_short_pairs_are_written_out() -> None:
    assert describe_pair(((0, 0, 1), (0, 1, 1))) == "D = (0, 0, 1), D' = (0, 1, 1)"
    assert describe_pair(([0.2], [0.2, 1.0])) == "D = [0.2], D' = [0.2, 1.0]"


def test_a_large_labelled_pair_names_the_differing_record() -> None:
    rng = np.random.default_rng(0)
    X = rng.random((500, 2))
    y = (X[:, 0] > 0.5).astype(int)
    y2 = y.copy()
    y2[417] = 1 - y[417]
    text = describe_pair(((X, y), (X, y2)))
    assert text.startswith("D: 500×2, 500, D': 500×2, 500; record 417: ")
    assert f"{y[417]}) -> (" in text and text.endswith(f", {y2[417]})") and "\n" not in text
    assert "more records" not in text


def test_add_remove_pairs_name_the_added_record() -> None:
    d = np.arange(200.0)
    text = describe_pair((d, np.append(d, 7.5)))
    assert text.endswith("D' adds 1 (first: 7.5)") and "record" not in text.split(";")[1]
    assert describe_pair((np.append(d, 7.5), d)).endswith("D' removes 1 (first: 7.5)")


def test_the_cli_learner_audit_prints_the_pair_on_one_line() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "dpspec.cli",
            "audit",
            "learner:pcl-last-label",
            "--samples",
            "200",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    ).stdout
    (line,) = [s for s in out.splitlines() if s.startswith("pair: ")]
    assert "record 499:" in line and "array(" not in line and line.endswith("(given)")
