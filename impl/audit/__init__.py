"""dpspec's statistical DP auditor: ε lower bounds with confidence, for any mechanism.

``audit(mechanism, (D, D'), epsilon, delta, samples, confidence, seed)`` returns an
:class:`AuditResult`; ``assert_dp`` wraps it for other projects' test suites; the bug zoo in
:mod:`dpspec.audit.zoo` holds correct and broken mechanisms with their true ε.
"""

from dpspec.audit.ci import DPViolation, assert_dp
from dpspec.audit.core import (
    AuditResult,
    CallableMechanism,
    Event,
    Mechanism,
    as_mechanism,
    audit,
    audit_pairs,
    cp_lower,
    cp_upper,
    epsilon_lower,
)

__all__ = [
    "AuditResult",
    "CallableMechanism",
    "DPViolation",
    "Event",
    "Mechanism",
    "as_mechanism",
    "assert_dp",
    "audit",
    "audit_pairs",
    "cp_lower",
    "cp_upper",
    "epsilon_lower",
]
