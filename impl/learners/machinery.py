"""The internals of :mod:`dpspec.learners` that other packages rely on, public under one name.

These are the objects the package's own code runs (re-exported, never copies): the exact checks
and the command line drive them directly. They validate nothing themselves (the public entry
points validate before calling them), so they are not part of the user-facing API.
"""

from __future__ import annotations

from dpspec.learners.pcde import _check_points as check_points
from dpspec.learners.pcde import _cube_ids as cube_ids
from dpspec.learners.pcde import _match_rows as match_rows
from dpspec.learners.pcde import _occupied_cubes as occupied_cubes
from dpspec.learners.pcde import _row_keys as row_keys

__all__ = ["check_points", "cube_ids", "match_rows", "occupied_cubes", "row_keys"]
