"""The internals of :mod:`dpspec.mechanisms` that other packages rely on, public under one name.

These are the objects the package's own code runs (re-exported, never copies): the exact checks
and the command line drive them directly. They validate nothing themselves (the public entry
points validate before calling them), so they are not part of the user-facing API.
"""

from __future__ import annotations

from dpspec.mechanisms.stability_histogram import _cell_counts as cell_counts

__all__ = ["cell_counts"]
