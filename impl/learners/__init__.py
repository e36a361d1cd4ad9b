"""Private universally consistent learners of seed 000 (PCL, PCDE, PCL2, PCL2b, semi-supervised),
and DP-SGD for a linear model (``DPSGDRegressor``: Poisson or shuffled batches).

sklearn-compatible estimators: ``fit`` / ``predict`` / ``score`` / ``get_params`` /
``set_params`` with a ``random_state``; they implement the public estimator protocol without
subclassing scikit-learn. Beside them: the non-private histogram rule they are compared with,
the public packings PCL2 partitions by, the grid formulas, the exact selection sampler, and the
input checks and estimator protocol every learner of dpspec shares.
"""

from dpspec.learners.dpsgd import DPSGDRegressor
from dpspec.learners.estimator import (
    BinaryCellClassifier,
    DataConversionWarning,
    EstimatorProtocol,
    NotFittedError,
    check_binary_label_mask,
    check_binary_labels,
    check_score_labels,
    check_unit_cube,
    check_unit_values,
    model_key,
    unit_cube_array,
)
from dpspec.learners.histogram import HistogramRuleClassifier
from dpspec.learners.packing import (
    CubicLattice,
    greedy_maximal_packing,
    nearest_centre,
    pairwise_distances,
)
from dpspec.learners.pcde import PrivateHistogramDensity, side_for
from dpspec.learners.pcl import PrivateHistogramClassifier, cells_per_axis_for, cube_index
from dpspec.learners.pcl2 import (
    PrivatePackingClassifier,
    PrivateUnboundedClassifier,
    hypothesis_bits,
    lattice_cells_per_axis,
    packing_radius,
    release_histogram,
)
from dpspec.learners.semi_supervised import (
    Dichotomies,
    PrivateSemiSupervisedClassifier,
    dichotomies,
    exponential_choice,
    joint_level,
)

__all__ = [
    "BinaryCellClassifier",
    "CubicLattice",
    "DPSGDRegressor",
    "DataConversionWarning",
    "Dichotomies",
    "EstimatorProtocol",
    "HistogramRuleClassifier",
    "NotFittedError",
    "PrivateHistogramClassifier",
    "PrivateHistogramDensity",
    "PrivatePackingClassifier",
    "PrivateSemiSupervisedClassifier",
    "PrivateUnboundedClassifier",
    "cells_per_axis_for",
    "check_binary_label_mask",
    "check_binary_labels",
    "check_score_labels",
    "check_unit_cube",
    "check_unit_values",
    "cube_index",
    "dichotomies",
    "exponential_choice",
    "greedy_maximal_packing",
    "hypothesis_bits",
    "joint_level",
    "lattice_cells_per_axis",
    "model_key",
    "nearest_centre",
    "packing_radius",
    "pairwise_distances",
    "release_histogram",
    "side_for",
    "unit_cube_array",
]
