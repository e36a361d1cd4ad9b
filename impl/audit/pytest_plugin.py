"""A pytest fixture for DP assertions, installed with dpspec (a ``pytest11`` entry point named
as this module, so listing it in a ``conftest.py``'s ``pytest_plugins`` too loads it once); use
the ``assert_dp`` fixture in tests::

    def test_my_mechanism_is_dp(assert_dp):
        assert_dp(MyMechanism(epsilon=1.0), (D, D_prime), epsilon=1.0)

The fixture is :func:`dpspec.audit.ci.assert_dp` (majority of 9 audits, false alarm ≤ 3.3e-5
at the defaults, deterministic with the default seed). pytest is not a dependency of dpspec:
without it this module imports and defines nothing (it is only ever loaded by pytest).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

from dpspec.audit.ci import VoteResult, assert_dp


def _fixture() -> Callable[..., VoteResult]:
    """The :func:`dpspec.audit.ci.assert_dp` function."""

    def check(*args: Any, **kwargs: Any) -> VoteResult:
        return assert_dp(*args, **kwargs)

    return check


if importlib.util.find_spec("pytest") is not None:
    import pytest

    #: the fixture ``assert_dp`` (pytest finds it by this module's attribute)
    assert_dp_fixture = pytest.fixture(name="assert_dp")(_fixture)
