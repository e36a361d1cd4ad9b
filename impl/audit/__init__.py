"""dpspec's statistical DP auditor: ε lower bounds with confidence, for any mechanism.

``audit(mechanism, (D, D'), epsilon, delta, samples=…, confidence=…, seed=…)`` returns an
:class:`AuditResult`; ``assert_dp`` wraps it for other projects' test suites; the bug zoo in
:mod:`dpspec.audit.zoo` holds correct and broken mechanisms with their true ε. The public modules:
``loop`` (the audit itself), ``bounds``, ``pair_search`` (finding a pair), ``learners``,
``one_run``, ``libraries``, ``ci`` (``assert_dp``), ``replay`` (the upper side: replaying the
target's own draws), ``power`` (what a budget resolves); the machinery they share (what is
sampled, events, their selection, checkpoints, fingerprints) lives in private modules. The zoo
modules ``zoo``, ``zoo_base`` (the entry record and the Gaussian's exact ε), ``zoo_kinds`` and
``learner_zoo`` are exported whole (their names stay under
them, listed in their ``__all__``) and imported on first use, not with the auditor (they load
the learners).
"""

import importlib
from typing import TYPE_CHECKING, Any

from dpspec.audit._checkpoint import AuditIdentity
from dpspec.audit._events import Event
from dpspec.audit._identity import fingerprint
from dpspec.audit._targets import CallableMechanism, Mechanism, MechanismError, as_mechanism
from dpspec.audit.bounds import cp_lower, cp_upper, epsilon_lower, max_epsilon_lower
from dpspec.audit.ci import (
    DPViolation,
    VoteResult,
    assert_dp,
    majority_false_alarm,
    vote,
    vote_power,
)
from dpspec.audit.learners import LearnerMechanism
from dpspec.audit.libraries import load_factory, load_target
from dpspec.audit.loop import (
    AuditCoverageWarning,
    AuditResult,
    EventBound,
    audit,
    audit_pairs,
    default_selection,
    event_level,
    screen_bound,
)
from dpspec.audit.one_run import (
    OneRunResult,
    learner_one_run,
    one_run_audit,
    one_run_epsilon_lower,
    one_run_pvalue,
)
from dpspec.audit.pair_search import Search
from dpspec.audit.power import delta_resolution, detection_power, resolution
from dpspec.audit.replay import ReplayCall, ReplayResult, replay

if TYPE_CHECKING:
    from dpspec.audit import learner_zoo, zoo, zoo_base, zoo_kinds

#: The submodules exported whole, imported on first access.
_LAZY_MODULES = frozenset({"learner_zoo", "zoo", "zoo_base", "zoo_kinds"})


def __getattr__(name: str) -> Any:
    if name in _LAZY_MODULES:
        return importlib.import_module(f"dpspec.audit.{name}")
    raise AttributeError(f"module 'dpspec.audit' has no attribute {name!r}")


__all__ = [
    "AuditCoverageWarning",
    "AuditIdentity",
    "AuditResult",
    "CallableMechanism",
    "DPViolation",
    "Event",
    "EventBound",
    "LearnerMechanism",
    "Mechanism",
    "MechanismError",
    "OneRunResult",
    "ReplayCall",
    "ReplayResult",
    "Search",
    "VoteResult",
    "as_mechanism",
    "assert_dp",
    "audit",
    "audit_pairs",
    "cp_lower",
    "cp_upper",
    "default_selection",
    "delta_resolution",
    "detection_power",
    "epsilon_lower",
    "event_level",
    "fingerprint",
    "learner_one_run",
    "learner_zoo",
    "load_factory",
    "load_target",
    "majority_false_alarm",
    "max_epsilon_lower",
    "one_run_audit",
    "one_run_epsilon_lower",
    "one_run_pvalue",
    "replay",
    "resolution",
    "screen_bound",
    "vote",
    "vote_power",
    "zoo",
    "zoo_base",
    "zoo_kinds",
]
