"""Methods renamed in 0.3: the old name forwards to the new one with a DeprecationWarning
until 0.4 (README, "Renamed in 0.3")."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any


def renamed(new: str, old: str) -> Callable[..., Any]:
    """A method ``old`` that warns and calls ``self.<new>`` with the same arguments; marked
    ``__deprecated_alias_of__`` so that discovery and the hostile sweep skip it."""

    def alias(self: Any, *args: Any, **kwargs: Any) -> Any:
        warnings.warn(
            f"{type(self).__name__}.{old} is deprecated; use {new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(self, new)(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated alias of :meth:`{new}` (renamed in 0.3)."
    alias.__deprecated_alias_of__ = new  # type: ignore[attr-defined]
    return alias
