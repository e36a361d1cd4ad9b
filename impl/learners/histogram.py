"""The non-private histogram rule: the baseline PCL privatises (seed 000 Thm 3.4, L230).

h(x) = 1[Σ_{x_i ∈ C(x)} y_i > |C(x)|/2] on the same cubes as PCL (side 1/m, m = ⌈n^{1/(2d)}⌉;
ties and empty cubes → 0). Universally consistent when r → 0 and n r^d → ∞. Not private: it
exists to compare against in ``dpspec consistency`` and the benchmarks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.learners.estimator import (
    BinaryCellClassifier,
    check_binary_labels,
    check_unit_cube,
)
from dpspec.learners.pcl import cells_per_axis_for, cube_index
from dpspec.validation import check_count


class HistogramRuleClassifier(BinaryCellClassifier):
    """Majority vote per cube of side 1/m on [0,1]^d (non-private baseline).

    ``cells_per_axis`` (None: ⌈n^{1/(2d)}⌉, PCL's grid); ``clip`` as in PCL (clip each
    coordinate into [0, 1] instead of rejecting points outside).
    """

    _fitted_attribute = "labels_"

    def __init__(self, cells_per_axis: int | None = None, clip: bool = False) -> None:
        self.cells_per_axis = cells_per_axis
        self.clip = clip

    def fit(self, X: Any, y: Any) -> HistogramRuleClassifier:
        X = check_unit_cube(X, clip=self.clip)
        labels, self.classes_ = check_binary_labels(y, X.shape[0])
        n, d = X.shape
        m = (
            cells_per_axis_for(n, d)
            if self.cells_per_axis is None
            else check_count(self.cells_per_axis, "cells_per_axis")
        )
        if m**d > 2**26:
            raise ValueError(f"cells_per_axis: {m}^{d} cubes are too many for a dense table")
        flat = cube_index(X, m)
        counts = np.bincount(flat, minlength=m**d)
        ones = np.bincount(flat, weights=labels, minlength=m**d)
        self.labels_ = np.asarray(2 * ones > counts)
        self.m_, self.n_features_in_ = m, d
        return self

    def decision_cells(self, X: Any) -> NDArray[np.bool_]:
        """The majority label of each row's cube (ties go to class 0)."""
        self._check_fitted()
        self.check_n_features(X)
        X = check_unit_cube(X, d=self.n_features_in_, clip=self.clip)
        return np.asarray(self.labels_[cube_index(X, self.m_)])

    def grid_labels(self) -> NDArray[np.int64]:
        self._check_fitted()
        return self.labels_.astype(np.int64).reshape((self.m_,) * self.n_features_in_)
