"""Private universally consistent learners of seed 000 (PCL, PCDE, PCL2, PCL2b, semi-supervised).

sklearn-compatible estimators: ``fit`` / ``predict`` / ``score`` / ``get_params`` /
``set_params`` with a ``random_state``; they implement the public estimator protocol without
subclassing scikit-learn.
"""

from dpspec.learners.pcde import PrivateHistogramDensity
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.learners.pcl2 import PrivatePackingClassifier, PrivateUnboundedClassifier
from dpspec.learners.semi_supervised import PrivateSemiSupervisedClassifier

__all__ = [
    "PrivateHistogramClassifier",
    "PrivateHistogramDensity",
    "PrivatePackingClassifier",
    "PrivateSemiSupervisedClassifier",
    "PrivateUnboundedClassifier",
]
