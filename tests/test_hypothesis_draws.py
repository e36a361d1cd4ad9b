"""The check processes' Hypothesis draws do not depend on which modules they loaded before
(``dpspec.proofs.engine.verify.hypothesis_without_local_constants``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers

from dpspec.proofs.engine.verify import hypothesis_without_local_constants

#: An integer only the scratch module below holds, below every other constant of the pool (so
#: that it moves every other one up a place in Hypothesis's sorted pool).
MARK = -731_902_464_517


@pytest.fixture
def restored(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Hypothesis's constant collection as it was, after the test."""
    monkeypatch.setattr(providers, "_get_local_constants", providers._get_local_constants)
    yield
    providers.CONSTANTS_CACHE.cache.clear()


def _load_marked_module(
    folder: Path, name: str, mark: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    (folder / f"{name}.py").write_text(f"VALUE = {mark}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    importlib.import_module(name)


def _draws() -> list[int]:
    seen: list[int] = []

    @settings(
        max_examples=300,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.integers(-(10**12), 10**13))
    def record(x: int) -> None:
        seen.append(x)

    record()
    return seen


def _draws_around_a_new_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, switch: Callable[[], None], mark: int
) -> tuple[list[int], list[int]]:
    switch()
    before = _draws()
    _load_marked_module(tmp_path, f"scratch_constants_{tmp_path.name}", mark, monkeypatch)
    return before, _draws()


@pytest.mark.usefixtures("restored")
def test_a_module_loaded_between_two_runs_changes_no_draw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, after = _draws_around_a_new_module(
        tmp_path, monkeypatch, hypothesis_without_local_constants, MARK
    )
    assert before == after
    assert MARK not in providers._get_local_constants().integers


@pytest.mark.usefixtures("restored")
def test_without_the_switch_the_new_module_changes_the_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: Hypothesis as shipped adds the new module's constant to what it draws (a
    mark of its own, below the other test's, which may already be in the pool)."""
    before, after = _draws_around_a_new_module(tmp_path, monkeypatch, lambda: None, MARK - 1)
    assert MARK - 1 in providers._get_local_constants().integers
    assert before != after
