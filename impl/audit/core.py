"""The auditor's names gathered in one place (the import path of dpspec 0.2).

The auditor lives in modules a reader can name: :mod:`dpspec.audit._targets` (what is sampled
and the outputs it can represent), :mod:`dpspec.audit.bounds` (Clopper–Pearson and ε_LCB),
:mod:`dpspec.audit._events` (events), :mod:`dpspec.audit._selection` (candidate-event families
and the choice of events), :mod:`dpspec.audit._checkpoint` (resumable state and what it is for),
:mod:`dpspec.audit._identity` (fingerprints of targets) and :mod:`dpspec.audit.loop` (the audit
loop: arguments, estimation, the verdict). ``from dpspec.audit.core import audit`` keeps
working; new code imports from :mod:`dpspec.audit`.
"""

from __future__ import annotations

from dpspec.audit._checkpoint import CHECKPOINT_FORMAT, KEY_VARIABLE, AuditIdentity
from dpspec.audit._domains import MAX_SAMPLES
from dpspec.audit._events import EVENT_KINDS, Event, float_keys
from dpspec.audit._selection import MAX_ATOMS
from dpspec.audit._targets import (
    CallableMechanism,
    Mechanism,
    MechanismError,
    as_mechanism,
    describe_sampling,
)
from dpspec.audit.bounds import cp_lower, cp_upper, epsilon_lower, max_epsilon_lower
from dpspec.audit.loop import (
    BLOCK,
    MAX_JOBS,
    MAX_SELECTION,
    AuditResult,
    audit,
    audit_pairs,
    default_selection,
    event_level,
    screen_bound,
)
from dpspec.validation import check_confidence, check_seed

__all__ = [
    "BLOCK",
    "CHECKPOINT_FORMAT",
    "EVENT_KINDS",
    "KEY_VARIABLE",
    "MAX_ATOMS",
    "MAX_JOBS",
    "MAX_SAMPLES",
    "MAX_SELECTION",
    "AuditIdentity",
    "AuditResult",
    "CallableMechanism",
    "Event",
    "Mechanism",
    "MechanismError",
    "as_mechanism",
    "audit",
    "audit_pairs",
    "check_confidence",
    "check_seed",
    "cp_lower",
    "cp_upper",
    "default_selection",
    "describe_sampling",
    "epsilon_lower",
    "event_level",
    "float_keys",
    "max_epsilon_lower",
    "screen_bound",
]
