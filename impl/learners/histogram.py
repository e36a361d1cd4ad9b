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
    check_binary_label_mask,
    unit_cube_array,
)
from dpspec.learners.pcl import cells_per_axis_for, cube_keys
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
        X = unit_cube_array(X)
        labels, self.classes_ = check_binary_label_mask(y, X.shape[0])
        n, d = X.shape
        m = (
            cells_per_axis_for(n, d)
            if self.cells_per_axis is None
            else check_count(self.cells_per_axis, "cells_per_axis")
        )
        if m**d > 2**26:
            raise ValueError(f"cells_per_axis: {m}^{d} cubes are too many for a dense table")
        # key y·m^d + cube (coordinates checked in the same pass): one bincount counts both labels
        per_key = np.bincount(
            cube_keys(X, m, lead=labels, name="X", clip=self.clip), minlength=2 * m**d
        )
        self.labels_ = np.asarray(per_key[m**d :] > per_key[: m**d])
        self.m_, self.n_features_in_ = m, d
        return self

    def decision_cells(self, X: Any) -> NDArray[np.bool_]:
        """The majority label of each row's cube (ties go to class 0)."""
        self._check_fitted()
        self.check_n_features(X)
        X = unit_cube_array(X, d=self.n_features_in_)
        return np.asarray(self.labels_[cube_keys(X, self.m_, name="X", clip=self.clip)])

    def grid_labels(self) -> NDArray[np.int64]:
        self._check_fitted()
        return self.labels_.astype(np.int64).reshape((self.m_,) * self.n_features_in_)
