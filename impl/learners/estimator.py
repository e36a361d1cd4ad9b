"""The public scikit-learn estimator protocol, written out (no sklearn import needed).

``get_params`` reads the ``__init__`` signature; ``set_params`` sets attributes of the same
name; ``random_state`` follows sklearn: None (fresh entropy), an int, or a numpy Generator.
"""

from __future__ import annotations

import inspect
import warnings
from abc import ABC, abstractmethod
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import Checked, InputTypeError, as_finite_array

try:  # scikit-learn is optional: when installed, our errors are its errors too
    from sklearn.exceptions import DataConversionWarning as _ConversionBase
    from sklearn.exceptions import NotFittedError as _NotFittedBase
except ImportError:  # pragma: no cover - exercised only without scikit-learn

    class _NotFittedBase(ValueError, AttributeError):  # type: ignore[no-redef]
        pass

    class _ConversionBase(UserWarning):  # type: ignore[no-redef]
        pass


class NotFittedError(_NotFittedBase):  # type: ignore[misc]
    """Raised when a model is used before ``fit``: a ValueError and an AttributeError, and
    scikit-learn's ``NotFittedError`` when scikit-learn is installed."""


class DataConversionWarning(_ConversionBase):  # type: ignore[misc]
    """Warned when y arrives as a column vector and is ravelled (sklearn's warning class when
    scikit-learn is installed)."""


class EstimatorProtocol(Checked):
    """get_params / set_params / __repr__ from the constructor signature.

    The constructor only stores its arguments (scikit-learn's convention); ``fit`` checks them
    against their declared domains first (``validate_params_at = "fit"``, see
    :class:`dpspec.validation.Checked`).
    """

    validate_params_at = "fit"

    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [
            p.name
            for p in sig.parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]

    def check_n_features(self, X: Any) -> None:
        """ValueError when X's number of columns differs from the one seen in ``fit``."""
        try:
            shape = np.asarray(X).shape
        except (ValueError, TypeError) as exc:
            raise InputTypeError(f"X: cannot be read as an array ({exc})") from exc
        expected = getattr(self, "n_features_in_", None)
        if expected is not None and len(shape) == 2 and shape[1] != expected:
            raise ValueError(
                f"X: X has {shape[1]} features, but {type(self).__name__} is expecting "
                f"{expected} features as input"
            )

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> EstimatorProtocol:
        valid = self._param_names()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(f"{key}: not a parameter of {type(self).__name__}")
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def __sklearn_tags__(self) -> Any:  # scikit-learn >= 1.6 asks estimators for their tags
        from sklearn.utils import ClassifierTags, Tags, TargetTags

        tags = Tags(estimator_type=None, target_tags=TargetTags(required=False))
        if getattr(self, "_estimator_type", None) == "classifier":
            tags.estimator_type = "classifier"
            tags.classifier_tags = ClassifierTags(multi_class=False)
            tags.target_tags.required = True
        return tags


class BinaryCellClassifier(EstimatorProtocol, ABC):
    """A binary classifier whose hypothesis is one released bit per cell of a partition.

    Subclasses set ``_fitted_attribute`` (an attribute ``fit`` creates) and implement
    ``decision_cells``; ``predict`` maps the bits back to ``classes_``, ``score`` is accuracy.
    """

    _estimator_type = "classifier"
    _fitted_attribute = "classes_"

    def _check_fitted(self) -> None:
        if not hasattr(self, self._fitted_attribute):
            raise NotFittedError(f"self: this {type(self).__name__} is not fitted; call fit")

    @abstractmethod
    def decision_cells(self, X: Any) -> NDArray[np.bool_]:
        """The released bit h(x) ∈ {0, 1} for each row of X (same answer on every call)."""

    def predict(self, X: Any) -> NDArray[Any]:
        self._check_fitted()
        self.check_n_features(X)
        classes: NDArray[Any] = getattr(self, "classes_")  # noqa: B009 - set by fit
        return np.asarray(classes[self.decision_cells(X).astype(np.int64)])

    def score(self, X: Any, y: Any) -> float:
        """Accuracy on (X, y)."""
        predicted = self.predict(X)
        return float(np.mean(predicted == check_score_labels(y, predicted.shape[0])))


def check_score_labels(y: Any, n: int) -> NDArray[Any]:
    """y for ``score``: n labels (1-D, or a column vector), else a ValueError naming y."""
    if y is None:
        raise ValueError("y: requires y to be passed, but the target y is None")
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(
            f"y: expected a 1-D array of {n} labels (one per row of X), got shape {arr.shape}"
        )
    return arr


def model_key(random_state: Any) -> int:
    """A 63-bit key for a model's counter-based noise from sklearn's ``random_state``."""
    if random_state is None:
        return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**63 - 1))
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        if int(random_state) < 0:
            raise ValueError(f"random_state: must be >= 0, got {random_state}")
        if int(random_state) >= 2**128:
            raise ValueError(
                f"random_state: must be < 2^128 (the Philox key size), got {random_state}"
            )
        return int(random_state)
    raise InputTypeError(
        f"random_state: expected None, an int or a numpy Generator, got {random_state!r}"
    )


def check_binary_labels(
    y: Any, n: int, x_name: str = "X"
) -> tuple[NDArray[np.int64], NDArray[Any]]:
    """Labels as 0/1 and the two classes they stand for (sorted); ValueError otherwise."""
    if y is None:
        raise ValueError("y: requires y to be passed, but the target y is None")
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change the "
            "shape of y to (n_samples,), for example using ravel().",
            DataConversionWarning,
            stacklevel=3,
        )
        arr = arr.ravel()
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(
            f"y: expected a 1-D array of {n} labels (one per row of {x_name}), got shape "
            f"{arr.shape}"
        )
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)):
            raise ValueError("y: contains NaN or infinite values")
        if np.unique(arr).size > 2 and not np.all(arr == np.round(arr)):
            raise ValueError("y: Unknown label type: continuous (binary labels expected)")
    if arr.dtype.kind in "cV":
        raise InputTypeError(f"y: labels of dtype {arr.dtype} are not supported")
    try:
        classes, encoded = np.unique(arr, return_inverse=True)
    except TypeError as exc:
        kinds = sorted({type(v).__name__ for v in arr.tolist()})
        raise InputTypeError(
            f"y: labels of mixed types ({', '.join(kinds)}) cannot be ordered; use one type"
        ) from exc
    if classes.size > 2:
        raise ValueError(
            "y: Only binary classification is supported. The type of the target is "
            f"multiclass ({classes.size} classes)."
        )
    if classes.size == 1:
        classes = np.array([classes[0], classes[0]]) if classes[0] != 0 else np.array([0, 1])
        encoded = (arr == classes[1]).astype(np.int64)
    return encoded.astype(np.int64), classes


def check_unit_cube(
    X: Any, name: str = "X", d: int | None = None, clip: bool = False
) -> NDArray[np.float64]:
    """A 2-D finite float array with every coordinate in [0, 1].

    ``clip=True`` maps every coordinate into [0, 1] by clipping instead of rejecting points
    outside. Clipping is a fixed public map applied to each record on its own, so neighbouring
    datasets stay neighbouring and every privacy guarantee of the learner is unchanged.
    """
    if hasattr(X, "toarray") or hasattr(X, "tocsr"):
        raise ValueError(f"{name}: sparse input is not supported; pass a dense array")
    try:
        arr = np.asarray(X)
    except (ValueError, TypeError) as exc:
        raise InputTypeError(f"{name}: cannot be read as an array ({exc})") from exc
    if arr.dtype != np.float64:
        arr = as_finite_array(arr, name, ndim=2).astype(np.float64)
    elif arr.ndim != 2 or arr.size == 0:
        as_finite_array(arr, name, ndim=2)  # raises the named error for shape / emptiness
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"{name}: expected {d} features, got {arr.shape[1]}")
    if clip:
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name}: contains NaN or infinite values")
        clipped: NDArray[np.float64] = np.clip(arr, 0.0, 1.0)
        return clipped
    # one pass: NaN fails both comparisons, so this also rejects non-finite values
    if not np.all((arr >= 0.0) & (arr <= 1.0)):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name}: contains NaN or infinite values")
        raise ValueError(
            f"{name}: points outside [0, 1]^d (the learner's domain; rescale with a public "
            "map or pass clip=True)"
        )
    return arr
