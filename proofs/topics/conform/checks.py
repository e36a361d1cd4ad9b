"""Checks of ``dpspec conform`` on dpspec's own implementations (``note.md``).

``own_implementations_conform``: for **every** algorithm of the catalogue (walked, not listed),
``conform`` runs dpspec's own implementation through its public entry point at the catalogue's
parameters; each must conform on every instance with a computed power ≥ 0.99 against ε × 1.1.
The control is the same implementation at ε × 1.1 (a 10% scale bug), run through ``conform``
against the ε law: each must be reported as deviating. The computed power is then verified
empirically: the law test is run R times on fresh draws of the ε × 1.1 implementation at the
instance's budget (the first instance of each algorithm; every instance with ``--thorough``);
the power claim is refuted when the rejections are below the 1e-6 quantile
of Binomial(R, 0.99).

``gof_false_alarm_and_power``: the law test's exact guarantees on multinomial counts drawn from
the law itself (false alarm) and from the ε × 1.1 law (power), checked against their bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from dpspec.conform import catalogue, conform, empirical_power
from dpspec.conform.core import ConformResult
from dpspec.conform.gof import ALPHA, POWER, count_test, draws_for_power, event_family
from dpspec.proofs.engine.registry import CheckOutcome, Control, Slack, VerifyConfig

#: the parameters each algorithm is run at (ε = 1 unless the algorithm is parametrised else)
PARAMS: dict[str, dict[str, Any]] = {
    "discrete-laplace": {"scale": 2.0},
    "bernoulli-exp": {},
    "pcl": {"epsilon": 1.0, "trend": False},
}
#: replicates of the ε × 1.1 implementation per instance (the empirical power)
REPLICATES = (20, 200)
#: audit draws per side in the obligation (the audit's own soundness is the audit topic's)
AUDIT_SAMPLES = 10_000
#: audit draws per side when running the ε × 1.1 control (its verdict comes from the law test)
CONTROL_AUDIT_SAMPLES = 2_000


def _params(name: str, thorough: bool) -> dict[str, Any]:
    p = dict(PARAMS.get(name, {"epsilon": 1.0}))
    if name == "pcl" and thorough:
        p["trend"] = True
    return p


def _power_floor(reps: int, power: float = POWER, level: float = 1e-6) -> int:
    """The smallest rejection count not refuting "power ≥ ``power``" at ``level``: the power
    claim fails when P(Binomial(reps, power) ≤ rejections) < level."""
    k = 0
    while stats.binom.cdf(k, reps, power) < level:
        k += 1
    return k


def own_implementations_conform(config: VerifyConfig) -> CheckOutcome:
    reps = REPLICATES[1] if config.thorough else REPLICATES[0]
    floor = _power_floor(reps)
    rows: list[str] = []
    numbers: dict[str, Any] = {"replicates": reps, "rejections_needed": floor}
    controls: list[Control] = []
    slack: list[Slack] = []
    ok = True
    for name, algo in catalogue().items():
        params = _params(name, config.thorough)
        resolved = algo.resolve(dict(params))
        fast = algo.learner and not config.thorough
        own = algo.fast_reference(resolved) if fast else algo.reference(resolved)  # type: ignore[attr-defined]
        result = conform(own, name, audit_samples=AUDIT_SAMPLES, **params)
        bug = algo.fast_reference(resolved, 1.1) if algo.learner else algo.reference(resolved, 1.1)  # type: ignore[attr-defined]
        control = conform(bug, name, audit_samples=CONTROL_AUDIT_SAMPLES, **params)
        powered = all(r.power >= POWER for r in result.instances)
        empirical = []
        checked = list(zip(algo.instances(resolved), result.instances, strict=True))
        for inst, report in checked if config.thorough else checked[:1]:
            hits, _ = empirical_power(
                bug, inst.law, inst.data, report.draws, result.alpha / _tests(result), reps, seed=7
            )
            empirical.append(hits)
        verified = all(h >= floor for h in empirical)
        ok &= result.conforms and powered and verified and not control.conforms
        controls.append(
            Control(
                f"{name}: dpspec's own implementation at ε × 1.1 (a 10% scale bug)",
                not control.conforms,
                f"verdict {control.verdict}: {control.instances[0].why()[:160]}",
            )
        )
        numbers[name] = _numbers(result, control, empirical)
        if result.instances[0].privacy is not None:
            worst = max(r.privacy["epsilon_lower"] for r in result.instances if r.privacy)
            slack.append(
                Slack(
                    f"ε ({name})", result.instances[0].privacy["epsilon_claimed"], max(worst, 0.0)
                )
            )
        rows.append(
            f"{name}: {result.verdict}, power {min(r.power for r in result.instances):.4f}, "
            f"ε×1.1 rejected {sum(empirical)}/{reps * len(empirical)}, control {control.verdict}"
        )
    return CheckOutcome(ok, "; ".join(rows), numbers, controls, slack)


def _tests(result: ConformResult) -> int:
    claim = result.instances[0].privacy is not None
    return len(result.instances) * (2 if claim else 1)


def _numbers(result: ConformResult, control: ConformResult, empirical: list[int]) -> dict[str, Any]:
    return {
        "verdict": result.verdict,
        "control_verdict": control.verdict,
        "draws": [r.draws for r in result.instances],
        "power_eps_x1.1": [r.power for r in result.instances],
        "empirical_rejections_eps_x1.1": empirical,
        "pvalues": [r.fit.pvalue for r in result.instances],
        "epsilon_lower": [
            r.privacy["epsilon_lower"] if r.privacy else None for r in result.instances
        ],
    }


def gof_false_alarm_and_power(config: VerifyConfig) -> CheckOutcome:
    """On each algorithm's first instance: R multinomial samples from the law are tested at a
    level α' = 0.01 (so that false alarms are observable): the false-alarm rate must not exceed
    α' significantly (binomial test at 1e-6); R samples from the ε × 1.1 law at the budget
    sized for power 0.99 at α = 1e-6 must be rejected at least as often as the Binomial(R, 0.99)
    1e-6 quantile. The control is the same test with its Bonferroni factor dropped (each event
    at α' instead of α'/K): its false-alarm rate must exceed α' — the union bound is what keeps
    the stated level."""
    reps = 400 if config.thorough else 50
    rng = np.random.default_rng(20261124)
    loose = 0.01
    rows, numbers, ok, control_alarms, control_total = [], {}, True, 0, 0
    floor = _power_floor(reps)
    for name, algo in catalogue().items():
        inst = algo.instances(algo.resolve(dict(_params(name, False))))[0]
        law, events = inst.law, event_family(inst.law)
        n, _ = draws_for_power(law, inst.variant.probs, ALPHA, POWER)
        alarms = power_hits = unadjusted = 0
        for _ in range(reps):
            null = rng.multinomial(n, law.probs)
            alt = rng.multinomial(n, inst.variant.probs)
            alarms += count_test(law, events, null, n)[0] <= loose
            unadjusted += count_test(law, events, null, n, union=False)[0] <= loose
            impossible = bool(alt[law.probs == 0].sum())
            power_hits += impossible or count_test(law, events, alt, n)[0] <= ALPHA
        too_many = stats.binom.sf(alarms - 1, reps, loose) < 1e-6
        ok &= not too_many and power_hits >= floor
        control_alarms += unadjusted
        control_total += reps
        numbers[name] = {
            "draws": n,
            "false_alarms": alarms,
            "power_hits": power_hits,
            "unadjusted_false_alarms": unadjusted,
            "reps": reps,
        }
        rows.append(
            f"{name}: {alarms}/{reps} false alarms at α'={loose}, "
            f"{power_hits}/{reps} rejections of ε×1.1"
        )
    control_caught = control_alarms > loose * control_total * 3
    ok &= control_caught
    return CheckOutcome(
        ok,
        "; ".join(rows),
        numbers,
        [
            Control(
                "the law test without its union bound (each event at α instead of α/K)",
                control_caught,
                f"{control_alarms}/{control_total} false alarms at α' = {loose}",
            )
        ],
        [
            Slack(
                "false alarm",
                loose,
                max(
                    sum(v["false_alarms"] for v in numbers.values()) / max(control_total, 1), 1e-12
                ),
            )
        ],
    )
