"""The internals of :mod:`dpspec.cover_learners` that other packages rely on, public under one name.

These are the objects the package's own code runs (re-exported, never copies): the exact checks
and the command line drive them directly. They validate nothing themselves (the public entry
points validate before calling them), so they are not part of the user-facing API.
"""

from __future__ import annotations

from dpspec.cover_learners.learners import _CoverExponentialClassifier as CoverExponentialClassifier

__all__ = ["CoverExponentialClassifier"]
