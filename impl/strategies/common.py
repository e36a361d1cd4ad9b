"""Type variables, defaults and argument checks shared by the strategies."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from dpspec.spec.neighbours import Relation

R = TypeVar("R", bound=Hashable)


X = TypeVar("X", bound=Hashable)


Y = TypeVar("Y", bound=Hashable)


Out = TypeVar("Out", bound=Hashable)


#: A continuous dataset: ``float64`` array of shape ``(n,)`` or ``(n, dim)``.
FloatArray = npt.NDArray[np.float64]


DEFAULT_MIN_SIZE = 0


DEFAULT_MAX_SIZE = 8


def check_sizes(min_size: int, max_size: int) -> None:
    if min_size < 0:
        raise ValueError(f"min_size: must be >= 0, got {min_size}")
    if max_size < min_size:
        raise ValueError(f"max_size: must be >= min_size = {min_size}, got {max_size}")


def check_records(records: Sequence[Any], name: str) -> tuple[Any, ...]:
    out = tuple(records)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: records must be distinct")
    return out


def check_bounds(min_value: float, max_value: float) -> None:
    if not (math.isfinite(min_value) and math.isfinite(max_value)):
        raise ValueError(f"min_value: bounds must be finite, got [{min_value}, {max_value}]")
    if max_value < min_value:
        raise ValueError(f"max_value: must be >= min_value = {min_value}, got {max_value}")


def check_relation(relation: Relation | str) -> Relation:
    try:
        return Relation(relation)
    except ValueError:
        raise ValueError(f"relation: unknown neighbouring relation {relation!r}") from None
