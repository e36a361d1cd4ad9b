"""A pytest fixture for DP assertions: add ``pytest_plugins = ["dpspec.audit.pytest_plugin"]``
to your ``conftest.py`` and use the ``assert_dp`` fixture in tests::

    def test_my_mechanism_is_dp(assert_dp):
        assert_dp(MyMechanism(epsilon=1.0), (D, D_prime), epsilon=1.0)

The fixture is :func:`dpspec.audit.ci.assert_dp` (majority of 9 audits, false alarm ≤ 3.3e-5
at the defaults, deterministic with the default seed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dpspec.audit.ci import VoteResult, assert_dp


@pytest.fixture(name="assert_dp")
def assert_dp_fixture() -> Callable[..., VoteResult]:
    """The :func:`dpspec.audit.ci.assert_dp` function."""

    def check(*args: Any, **kwargs: Any) -> VoteResult:
        return assert_dp(*args, **kwargs)

    return check
