"""Finding the neighbouring datasets on which a learner leaks most: canary patterns and a
Hypothesis search, as :mod:`dpspec.audit._search` does for query vectors.

From a background dataset (X, y) on [0, 1]^d the candidates are pairs (D, D') with their probe
points (the canary's locations), datasets given as (X, y, probe) so that
:class:`~dpspec.audit.learners.LearnerMechanism` releases predictions there:

* **label flips** of the most isolated records (substitution: one label changes) — a record
  alone in its cell is what a histogram learner reveals most;
* **extreme canaries**: a record at each corner of the cube (2^d corners for d ≤ 3, else the
  two diagonal ones) with either label, substituted for the most isolated record
  (``relation="substitution"``) or added (``"add-remove"``) — extreme records move data-derived
  bounds and partitions;
* **cell boundaries**: for a grid of m cells per axis, a record at k/m moved to just below k/m
  (substitution across the boundary);
* :func:`canary_pair_strategy` — Hypothesis draws the canary's location and label and the
  record it replaces; :func:`~dpspec.audit._search.hypothesis_search` steers it with
  ``hypothesis.target`` toward pairs with a large screening bound.

Choosing a pair uses screening draws that the final audit does not reuse
(:func:`~dpspec.audit.core.audit_pairs`), so the final bound keeps its confidence statement.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np
from hypothesis import strategies as st
from numpy.typing import NDArray

from dpspec.validation import check_count

Pair = tuple[tuple[Any, Any, Any], tuple[Any, Any, Any]]
RELATIONS = ("substitution", "add-remove")


def _background(X: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    Xa = np.asarray(X, dtype=np.float64)
    ya = np.asarray(y)
    if Xa.ndim != 2 or Xa.shape[0] < 2 or ya.shape != (Xa.shape[0],):
        raise ValueError("X: expected a 2-D background dataset of >= 2 records with labels y")
    if not np.all((Xa >= 0) & (Xa <= 1)):
        raise ValueError("X: the canary patterns assume records in [0, 1]^d")
    return Xa, ya.astype(np.int64)


def isolated_records(X: NDArray[np.float64], k: int) -> NDArray[np.int64]:
    """Indices of the k records farthest from their nearest other record (Chebyshev
    distance; O(n log n) with a k-d tree)."""
    from scipy.spatial import cKDTree

    dist, _ = cKDTree(X).query(X, k=2, p=np.inf)
    return np.argsort(-dist[:, 1], kind="stable")[:k].astype(np.int64)


def _corners(d: int) -> list[NDArray[np.float64]]:
    if d <= 3:
        return [np.array(c, dtype=np.float64) for c in product((0.0, 1.0), repeat=d)]
    return [np.zeros(d), np.ones(d)]


def canary_pairs(
    X: Any, y: Any, relation: str = "substitution", grid: int | None = None, isolated: int = 3
) -> list[Pair]:
    """The canary patterns of the module docstring as (D, D') pairs of (X, y, probe)."""
    Xb, yb = _background(X, y)
    if relation not in RELATIONS:
        raise ValueError(f"relation: expected one of {RELATIONS}, got {relation!r}")
    k = check_count(isolated, "isolated")
    lonely = isolated_records(Xb, min(k, Xb.shape[0]))
    pairs: list[Pair] = []

    def sub(i: int, x: NDArray[np.float64], label: int) -> Pair:
        X2, y2 = Xb.copy(), yb.copy()
        X2[i], y2[i] = x, label
        probe = np.vstack([Xb[i], x])
        return (Xb, yb, probe), (X2, y2, probe)

    for i in lonely.tolist():  # label flips of isolated records
        pairs.append(sub(i, Xb[i], 1 - int(yb[i])))
    for corner in _corners(Xb.shape[1]):
        for label in (0, 1):
            if relation == "substitution":
                pairs.append(sub(int(lonely[0]), corner, label))
            else:
                probe = corner[None, :]
                D = (np.vstack([Xb, corner]), np.append(yb, label), probe)
                pairs.append((D, (Xb, yb, probe)))
    if grid is not None and relation == "substitution":
        m = check_count(grid, "grid")
        for k_cut in (1, m // 2, m - 1):
            if 0 < k_cut < m:
                at = np.full(Xb.shape[1], k_cut / m)
                below = np.nextafter(at, 0.0)
                a, b = sub(int(lonely[0]), at, 1), sub(int(lonely[0]), below, 1)
                probe = np.vstack([at, below])
                pairs.append(((a[1][0], a[1][1], probe), (b[1][0], b[1][1], probe)))
    return pairs


def canary_pair_strategy(X: Any, y: Any, relation: str = "substitution") -> st.SearchStrategy[Pair]:
    """Pairs from a background (X, y): a canary at a Hypothesis-drawn location of [0, 1]^d
    (corners, faces and cell boundaries are among the floats Hypothesis tries first) with a
    drawn label, substituted for a drawn record or added; the probe is the canary's location
    (and the replaced record's)."""
    Xb, yb = _background(X, y)
    if relation not in RELATIONS:
        raise ValueError(f"relation: expected one of {RELATIONS}, got {relation!r}")
    d = Xb.shape[1]
    unit = st.floats(0.0, 1.0, allow_nan=False, allow_infinity=False)
    index = st.integers(0, Xb.shape[0] - 1)

    def build(args: tuple[list[float], int, int]) -> Pair:
        where, label, i = args
        x = np.array(where, dtype=np.float64)
        if relation == "add-remove":
            probe = x[None, :]
            return (np.vstack([Xb, x]), np.append(yb, label), probe), (Xb, yb, probe)
        X2, y2 = Xb.copy(), yb.copy()
        X2[i], y2[i] = x, label
        probe = np.vstack([Xb[i], x])
        return (Xb, yb, probe), (X2, y2, probe)

    return st.tuples(st.lists(unit, min_size=d, max_size=d), st.integers(0, 1), index).map(build)
