"""One edit type: every bug control of the registry and every mutant of the catalogue is an
:class:`~dpspec.proofs.engine.edits.Edit` that resolves, and no catalogued mutant is a bug
control's edit again (``dpspec mutate`` runs the controls itself)."""

from __future__ import annotations

import numpy as np
import pytest

from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.proofs.engine.controls import BugControl, planted
from dpspec.proofs.engine.edits import Edit, StaleEdit, locate
from dpspec.proofs.engine.legacy_ids import LEGACY_MUTANTS
from dpspec.proofs.engine.mutation import (
    catalogue,
    controls,
    select_mutants,
    source_root,
    topic_mutants,
)
from dpspec.proofs.engine.registry import obligations

ROOT = source_root()
#: Every edit declared anywhere: each topic's mutants and each obligation's bug controls.
EDITS: list[tuple[str, Edit]] = [
    *((m.id, m.edit) for m in topic_mutants()),
    *(
        (f"{ob.id}.control-{k}", control)
        for ob in obligations()
        for k, control in enumerate(ob.bug_controls, 1)
    ),
]


def test_a_bug_control_is_an_edit() -> None:
    assert BugControl is Edit
    control = next(c for ob in obligations() for c in ob.bug_controls)
    assert isinstance(control, Edit) and isinstance(control.target, str)


@pytest.mark.parametrize("edit", [e for _, e in EDITS], ids=[i for i, _ in EDITS])
def test_every_edit_resolves(edit: Edit) -> None:
    """The target is found and ``original`` occurs exactly once in its span. A failure means
    the code moved: update the snippet (or the target) to the current code."""
    first, last = edit.span
    assert 1 <= first <= last
    edit.check()


def test_the_span_is_the_definition_or_the_whole_module() -> None:
    method = Edit(ExponentialMechanism.pmf, "x", "y", "d")
    assert method.file == "impl/mechanisms/exponential.py"
    assert method.location == locate("dpspec.mechanisms.exponential.ExponentialMechanism.pmf")
    source = (method.location.module, method.location.qualname)
    assert source == ("dpspec.mechanisms.exponential", "ExponentialMechanism.pmf")
    text = "class ExponentialMechanism:\n    @property\n    def pmf(self):\n        return 1\n"
    assert method.location.span_in(text) == (2, 4)  # its decorator included
    module = Edit("dpspec.mechanisms.exponential", "x", "y", "d")
    assert module.location.qualname == "" and module.location.span_in("a\nb\n") == (1, 2)


def test_a_snippet_outside_the_span_is_stale() -> None:
    """``original`` must occur once in the target's span, not merely in its file: a line of a
    neighbouring method is refused, and the edit is made in the span only."""
    source = (ROOT / "impl/mechanisms/exponential.py").read_text(encoding="utf-8")
    assert source.count("def sample(") == 1
    with pytest.raises(StaleEdit, match="0 times"):
        Edit(ExponentialMechanism.pmf, "def sample(", "def sampled(", "d").apply(source)
    edit = Edit(ExponentialMechanism.sample, "def sample(", "def sampled(", "d")
    assert edit.apply(source) == source.replace("def sample(", "def sampled(")


def test_same_change_ignores_spacing_and_context() -> None:
    control = select_mutants("exp.half-dropped")[0].edit
    wider = Edit(control.target, f"    {control.original}\n", f"    {control.replacement}\n", "x")
    assert control.same_change(wider) and wider.same_change(control)
    other = Edit(control.target, control.original, control.original + " + 0", "a no-op")
    assert not control.same_change(other)


def test_no_catalogued_mutant_is_a_bug_control() -> None:
    """A topic's mutant whose edit is some obligation's bug control is run twice for nothing:
    ``dpspec mutate`` runs every control (delete the mutant, alias its id in
    ``legacy_ids.LEGACY_MUTANTS``)."""
    found = [c for ob in obligations() for c in ob.bug_controls]
    twice = [
        m.id for m in topic_mutants() for c in found if m.file == c.file and m.edit.same_change(c)
    ]
    assert not twice, twice


def test_every_control_is_catalogued_once() -> None:
    """The catalogue holds each bug control, as ``<obligation>.control-<k>`` of kind control
    (two obligations planting the same bug: once)."""
    catalogued = {m.id: m for m in catalogue()}
    derived = controls()
    assert all(m.kind == "control" and catalogued[m.id] == m for m in derived)
    for ob in obligations():
        for control in ob.bug_controls:
            assert any(m.edit.same_change(control) for m in derived if m.file == control.file)


def test_the_old_ids_of_mutants_name_their_controls() -> None:
    """Each mutant id retired for a control names a catalogued control and is no current id."""
    ids = {m.id: m for m in catalogue()}
    assert not set(LEGACY_MUTANTS) & set(ids)
    assert all(ids[new].kind == "control" for new in LEGACY_MUTANTS.values())
    assert [m.id for m in select_mutants("exp.half-dropped")] == [
        LEGACY_MUTANTS["exp.half-dropped"]
    ]


def test_a_control_plants_in_the_process() -> None:
    """``planted`` still makes the edit of a function target in the running package."""
    control = select_mutants("exp.half-dropped")[0].edit

    def weights() -> int:
        return ExponentialMechanism(lambda d: np.array([0, 1]), 1, epsilon=1.0)._den

    before = weights()
    with planted(control):
        assert weights() == before // 2
    assert weights() == before
