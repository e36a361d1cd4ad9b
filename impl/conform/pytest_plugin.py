"""The ``dpspec_conforms`` pytest marker and fixture: conformance in a library's own CI.

Installed with dpspec (entry point ``pytest11``), so nothing needs configuring::

    @pytest.mark.dpspec_conforms("discrete-laplace", scale=2)
    def test_my_sampler_is_discrete_laplace(dpspec_conforms):
        dpspec_conforms(my_sampler)            # f(value, size, rng), a .sample/.randomise object…

The fixture runs :func:`dpspec.conform.conform` with the marker's algorithm and parameters
(or with those passed to it: ``dpspec_conforms(target, "randomized-response", epsilon=1, k=4)``)
and fails the test with the report when the verdict is not "conforms" (false alarm ≤ 1e-6; the
run is seeded, so a seeded target gives the same verdict every time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

MARKER = "dpspec_conforms"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(algorithm, **params): the dpspec_conforms fixture judges its target against "
        "this algorithm of dpspec conform's catalogue",
    )


class ConformanceFailure(AssertionError):
    """A target that does not conform; the message is the whole report."""


@pytest.fixture(name=MARKER)
def dpspec_conforms_fixture(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``dpspec_conforms(target[, algorithm, **params])`` → the ConformResult, or a failure."""
    marker = request.node.get_closest_marker(MARKER)

    def check(target: Any, algorithm: str | None = None, **params: Any) -> Any:
        from dpspec.conform import conform

        name = algorithm
        merged: dict[str, Any] = {}
        if marker is not None:
            if name is None and marker.args:
                name = marker.args[0]
            merged.update(marker.kwargs)
        merged.update(params)
        if name is None:
            raise TypeError(
                f"{MARKER}: name the algorithm in @pytest.mark.{MARKER}(...) or in the call"
            )
        result = conform(target, name, **merged)
        if not result.conforms:
            raise ConformanceFailure("\n".join(result.lines()))
        return result

    return check
