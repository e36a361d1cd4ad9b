"""The public scikit-learn estimator protocol, written out (no sklearn import needed).

``get_params`` reads the ``__init__`` signature; ``set_params`` sets attributes of the same
name; ``random_state`` follows sklearn: None (fresh entropy), an int, or a numpy Generator.
"""

from __future__ import annotations

import inspect
import warnings
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.validation import (
    Anything,
    Array,
    Checked,
    FlagArg,
    InputTypeError,
    Integer,
    NameArg,
    RandomStateArg,
    as_finite_array,
    checked,
    example,
)

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


def _rows(X: ArrayLike) -> NDArray[np.float64]:
    """An argument its domain converted to a float64 array, typed as one (no copy)."""
    return np.asarray(X, dtype=np.float64)


def _dense(value: Any, name: str) -> Any:
    """``value``, or a ValueError naming ``name`` for a sparse matrix (scipy's or similar)."""
    if hasattr(value, "toarray") or hasattr(value, "tocsr"):
        raise ValueError(f"{name}: sparse input is not supported; pass a dense array")
    return value


@dataclass(frozen=True)
class _Points(Array):
    """Points of ℝ^d: a dense, non-empty 2-D array of finite reals, converted exactly to
    float64 (a float64 array is not copied). ``unit``: points of [0, 1]^d, whose coordinates
    the learner reads in the same pass as it grids them (:func:`cube_keys`), so only the shape
    and type are checked here and the values (finite, in [0, 1] or clipped) there."""

    ndim: int | None = 2
    unit: bool = False

    def convert(self, value: Any, name: str) -> Any:
        if self.unit:
            return _unit_cube_array(value, name)
        arr = as_finite_array(_dense(value, name), name, ndim=2)
        return arr if arr.dtype == np.float64 else arr.astype(np.float64)

    def describe(self) -> str:
        where = "[0, 1]^d" if self.unit else "ℝ^d"
        return f"a non-empty 2-D array of points of {where} (rows: points)"


@dataclass(frozen=True)
class _Labels(Array):
    """Class labels (numbers or strings), one per row: a 1-D array or a column vector, checked
    for two classes by ``fit``; a missing y gets scikit-learn's message."""

    kind: str = "label"

    def convert(self, value: Any, name: str) -> Any:
        if value is None:
            raise ValueError(f"{name}: requires y to be passed, but the target y is None")
        if isinstance(value, str | bytes | dict) or np.isscalar(value):  # no array protocol
            raise InputTypeError(
                f"{name}: expected an array of labels (one per row), got "
                f"{type(value).__name__} {value!r:.40}"
            )
        return super().convert(value, name)


#: Points of [0, 1]^d (rows), values checked while they are gridded.
UnitCubeArg = Annotated[ArrayLike, _Points(unit=True)]
#: Points of ℝ^d (rows): a finite 2-D array.
PointsArg = Annotated[ArrayLike, _Points()]
#: Points of ℝ^d, or None.
OptionalPointsArg = Annotated[ArrayLike | None, _Points(optional=True)]
#: Class labels, one per row (a 1-D array or a column vector; two classes, checked by ``fit``).
LabelsArg = Annotated[ArrayLike, _Labels()]
#: Labels, or None (a density estimator ignores them).
OptionalLabelsArg = Annotated[ArrayLike | None, _Labels(optional=True)]
#: The value a validator judges (its own refusal names the parameter).
JudgedArg = Annotated[Any, Anything(why="the value this check judges", clean=[0, 1, 1])]
#: A number of rows.
RowsArg = Annotated[int, Integer(0, hi=2**62, clean=3)]
#: A number of features, or None.
OptionalFeaturesArg = Annotated[int | None, Integer(1, hi=2**20, optional=True)]


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
    def decision_cells(self, X: PointsArg) -> NDArray[np.bool_]:
        """The released bit h(x) ∈ {0, 1} for each row of X (same answer on every call)."""

    def predict(self, X: PointsArg) -> NDArray[Any]:
        """classes_[h(x)] for each row of X."""
        self._check_fitted()
        self.check_n_features(X)
        classes: NDArray[Any] = getattr(self, "classes_")  # noqa: B009 - set by fit
        return np.asarray(classes[self.decision_cells(X).astype(np.int64)])

    def score(self, X: PointsArg, y: LabelsArg) -> float:
        """Accuracy on (X, y)."""
        predicted = self.predict(X)
        return float(np.mean(predicted == _score_labels(y, predicted.shape[0])))


def _score_labels(y: Any, n: int) -> NDArray[Any]:
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


@example(__call__={"y": [0, 1, 1], "n": 3})
@checked
def check_score_labels(y: JudgedArg, n: RowsArg) -> NDArray[Any]:
    """y for ``score``: n labels (1-D, or a column vector), else a ValueError naming y."""
    return _score_labels(y, n)


@checked
def model_key(random_state: RandomStateArg) -> int:
    """A 63-bit key for a model's counter-based noise from sklearn's ``random_state``: the seed
    itself (an int < 2^128, Philox's key size), 63 bits drawn from a Generator, or 63 bits of
    fresh entropy for None."""
    return _model_key(random_state)


def _model_key(random_state: Any) -> int:
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


@example(__call__={"y": [0, 1, 1], "n": 3})
@checked
def check_binary_labels(
    y: JudgedArg, n: RowsArg, x_name: NameArg = "X"
) -> tuple[NDArray[np.int64], NDArray[Any]]:
    """Labels as 0/1 and the two classes they stand for (sorted); ValueError otherwise."""
    positive, classes = _binary_labels(y, n, x_name, stacklevel=5)
    return positive.astype(np.int64), classes


@example(__call__={"y": [0, 1, 1], "n": 3})
@checked
def check_binary_label_mask(
    y: JudgedArg, n: RowsArg, x_name: NameArg = "X"
) -> tuple[NDArray[np.bool_], NDArray[Any]]:
    """:func:`check_binary_labels` with the labels as a mask y == classes[1] (no int copy)."""
    return _binary_labels(y, n, x_name, stacklevel=5)


def _binary_labels(
    y: Any, n: int, x_name: str, stacklevel: int
) -> tuple[NDArray[np.bool_], NDArray[Any]]:
    """(y == classes[1], classes): the checks and encoding of :func:`check_binary_labels`.

    Numeric labels taking exactly two values are encoded in O(n) without sorting (min, max and
    two comparisons: lo < hi are the classes when every label is one of them); anything else
    (one value, three or more, strings, objects) takes the general path through ``np.unique``,
    whose classes and errors are the same.
    """
    if y is None:
        raise ValueError("y: requires y to be passed, but the target y is None")
    arr = np.asarray(y)
    column = arr.ndim == 2 and arr.shape[1] == 1
    encoded = _encoded_labels(arr.ravel() if column else arr, n, x_name)
    if column:  # accepted, with scikit-learn's warning (after every check passed)
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change the "
            "shape of y to (n_samples,), for example using ravel().",
            DataConversionWarning,
            stacklevel=stacklevel,
        )
    return encoded


def _encoded_labels(
    arr: NDArray[Any], n: int, x_name: str
) -> tuple[NDArray[np.bool_], NDArray[Any]]:
    """:func:`_binary_labels` on the labels as an array (a column vector ravelled)."""
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(
            f"y: expected a 1-D array of {n} labels (one per row of {x_name}), got shape "
            f"{arr.shape}"
        )
    if arr.dtype.kind in "biuf" and arr.size:
        lo, hi = arr.min(), arr.max()
        if arr.dtype.kind == "f" and not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError("y: contains NaN or infinite values")  # NaN propagates to min/max
        positive = arr == hi
        if lo != hi and np.count_nonzero(positive) + np.count_nonzero(arr == lo) == n:
            return positive, np.array([lo, hi], dtype=arr.dtype)
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
        # one label seen: the encoding must not depend on which (a neighbour that flips one
        # label of an all-ones sample sees both): labels 0 or 1 keep the classes {0, 1}
        if classes[0] in (0, 1):
            return np.asarray(arr == 1), np.array([0, 1], dtype=arr.dtype)
        classes = np.array([classes[0], classes[0]])
        return np.asarray(arr == classes[1]), classes
    return encoded.reshape(-1) == 1, classes


_CUBE_EXAMPLE = [[0.1, 0.9], [0.5, 0.5]]


@example(__call__={"X": _CUBE_EXAMPLE})
@checked
def check_unit_cube(
    X: JudgedArg, name: NameArg = "X", d: OptionalFeaturesArg = None, clip: FlagArg = False
) -> NDArray[np.float64]:
    """A 2-D finite float array with every coordinate in [0, 1].

    ``clip=True`` maps every coordinate into [0, 1] by clipping instead of rejecting points
    outside. Clipping is a fixed public map applied to each record on its own, so neighbouring
    datasets stay neighbouring and every privacy guarantee of the learner is unchanged.
    """
    return _unit_values(_unit_cube_array(X, name, d), name, clip)


@example(__call__={"X": _CUBE_EXAMPLE})
@checked
def unit_cube_array(
    X: JudgedArg, name: NameArg = "X", d: OptionalFeaturesArg = None
) -> NDArray[np.float64]:
    """X as a non-empty 2-D float64 array (with ``d`` columns): the checks of
    :func:`check_unit_cube` that do not read the coordinates. A float64 array is not copied."""
    return _unit_cube_array(X, name, d)


def _unit_cube_array(X: Any, name: str = "X", d: int | None = None) -> NDArray[np.float64]:
    _dense(X, name)
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
    return arr


@example(__call__={"block": _CUBE_EXAMPLE})
@checked
def check_unit_values(
    block: JudgedArg, name: NameArg = "X", clip: FlagArg = False, whole: JudgedArg = None
) -> NDArray[np.float64]:
    """``block`` (non-empty rows of the array ``whole``, by default itself) when every
    coordinate is in [0, 1]; with ``clip`` a clipped copy when some is outside; else a
    ValueError naming ``name``. Errors describe ``whole``, so checking it block by block
    raises what one check of the whole array raises.

    Two reductions decide the common case: min ≥ 0 and max ≤ 1 (NaN propagates through both,
    so it fails the test, as ±inf does).
    """
    rows = _unit_cube_array(block, name)
    return _unit_values(rows, name, clip, None if whole is None else _unit_cube_array(whole, name))


def _unit_values(
    block: NDArray[np.float64],
    name: str = "X",
    clip: bool = False,
    whole: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """:func:`check_unit_values` on a float64 block (the loop of :func:`cube_keys` calls it
    once per block, unchecked)."""
    lo, hi = block.min(), block.max()
    if lo >= 0.0 and hi <= 1.0:
        return block
    finite = bool(np.isfinite(lo) and np.isfinite(hi))
    if clip:
        if not finite:
            raise ValueError(f"{name}: contains NaN or infinite values")
        clipped: NDArray[np.float64] = np.clip(block, 0.0, 1.0)
        return clipped
    if not (finite if whole is None else np.all(np.isfinite(whole))):
        raise ValueError(f"{name}: contains NaN or infinite values")
    raise ValueError(
        f"{name}: points outside [0, 1]^d (the learner's domain; rescale with a public "
        "map or pass clip=True)"
    )
