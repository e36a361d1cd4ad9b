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

import dpspec.conform.gaussian
import dpspec.conform.gof
import dpspec.conform.laws
import dpspec.conform.learners
import dpspec.conform.mechanisms
from dpspec.conform import ConformResult, catalogue, conform, plan, reference
from dpspec.conform.adapters import Sampler, TargetError, as_sampler
from dpspec.conform.base import EPSILON_FACTOR, Algorithm, Instance, Param
from dpspec.conform.catalogue import algorithm
from dpspec.conform.core import ConformanceFailure, InstanceReport, Plan
from dpspec.conform.gof import ALPHA, POWER
from dpspec.conform.libraries import LibraryTarget
from dpspec.conform.machinery import count_test as _count_test
from dpspec.conform.machinery import draws_for_power as _draws_for_power
from dpspec.conform.machinery import empirical_power as _empirical_power
from dpspec.conform.machinery import event_family as _event_family
from dpspec.conform.pytest_plugin import pytest_configure
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.mechanisms.discrete_laplace import DiscreteLaplaceMechanism
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.mechanisms.laplace import LaplaceMechanism
from dpspec.mechanisms.randomized_response import RandomizedResponse
from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.noise import bernoulli_exp_neg, discrete_laplace
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CHECKER_SOUNDNESS,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY
from dpspec.spec.privacy import hockey_stick, max_likelihood_ratio

#: the parameters each algorithm is run at (ε = 1 unless the algorithm is parametrised else)
PARAMS: dict[str, dict[str, Any]] = {
    "discrete-laplace": {"scale": 2.0},
    "lattice-laplace": {"epsilon": 1.0, "granularity": 2.0**-20},
    "bernoulli-exp": {},
    "pcl": {"epsilon": 1.0, "trend": False},
    # the batch samplers (no ε): small realistic instances (proofs/topics/conform/samplers.py)
    "poisson-batches": {"n": 200, "q": 0.05, "steps": 3},
    "fixed-size-batches": {"n": 200, "b": 10, "steps": 3},
    "shuffled-batches": {"n": 200, "b": 20},
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


#: The code of ``dpspec conform`` its statistical obligations exercise.
_CONFORM_CODE = (
    conform,
    plan,
    Plan,
    InstanceReport,
    ConformResult,
    ConformanceFailure,
    catalogue,
    algorithm,
    reference,
    Param,
    Instance,
    Algorithm,
    dpspec.conform.mechanisms,
    dpspec.conform.gaussian,
    dpspec.conform.learners,
    TargetError,
    Sampler,
    as_sampler,
    LibraryTarget,
    pytest_configure,
)


@Obligation(
    id="conform.own-implementations",
    source=(
        f"{BAYES_CONSISTENCY}:L119-147 (Def 2.2, Alg 1); {BAYES_CONSISTENCY}:L193-208 "
        "(Alg 2); dpspec conform's catalogue"
    ),
    claim=(
        "dpspec's own implementation of every algorithm of the conform catalogue "
        "conforms to its exact law with computed power >= 0.99 against epsilon x 1.1, "
        "verified empirically; the same implementation at epsilon x 1.1 is reported as "
        "deviating"
    ),
    method=Method.STATISTICAL,
    predicates=(max_likelihood_ratio, hockey_stick),
    impls=(*_CONFORM_CODE, dpspec.conform.laws),
    entry_points=(
        DiscreteLaplaceMechanism.sample,
        LaplaceMechanism.sample,
        ExponentialMechanism.sample,
        RandomizedResponse.randomise,
        StabilityHistogram.sample,
        bernoulli_exp_neg,
        discrete_laplace,
        PrivateHistogramClassifier.repeated_predictions,
    ),
    tests=(
        "tests/test_conform.py::test_own_implementations_conform",
        "tests/test_conform.py::test_epsilon_variant_deviates",
    ),
    binding="differential: audit.learner-repeated-fits (repeated_predictions = fit + predict)",
    bug_controls=(
        BugControl(
            "dpspec.conform.mechanisms._DiscreteLaplace._instances",
            "q**factor",
            "q ** (factor**2)",
            (
                "the laws of the resolution at ε × 1.21 and ε / 1.21 instead of ε × 1.1 and ε "
                "/ 1.1 (the budget too small: power against ε × 1.1 overstated)"
            ),
        ),
    ),
)
def own_implementations_conform(config: VerifyConfig) -> CheckOutcome:
    """Every algorithm of the catalogue conforms with its computed power verified empirically,
    and its ε × 1.1 control deviates (the module docstring). Under a bug control the controls
    are not run and the check ends at the first algorithm that does not conform, is not
    powered or whose power is refuted."""
    reps = REPLICATES[1] if config.thorough else REPLICATES[0]
    floor = _power_floor(reps)
    rows: list[str] = []
    numbers: dict[str, Any] = {"replicates": reps, "rejections_needed": floor}
    controls: list[Control] = []
    slack: list[Slack] = []
    ok = True
    for name, algo in catalogue().items():
        params = _params(name, config.thorough)
        fast = algo.learner and not config.thorough
        own = _reference(name, 1.0, params, fast) if fast else reference(name, **params)
        result = conform(own, name, audit_samples=AUDIT_SAMPLES, **params)
        bug = _reference(name, EPSILON_FACTOR, params, algo.learner)
        control = (
            None
            if config.under_control
            else conform(bug, name, audit_samples=CONTROL_AUDIT_SAMPLES, **params)
        )
        powered = all(r.power >= POWER for r in result.instances)
        stop_if_failed(
            config, result.conforms and powered, f"{name}: {result.verdict}, powered {powered}"
        )
        empirical = []
        instances = algo._instances(algo._resolve(dict(params)))
        checked = list(zip(instances, result.instances, strict=True))
        alpha_each = result.alpha / _tests(result)
        for inst, report in checked if config.thorough else checked[:1]:
            hits = _empirical_power(
                bug, inst.law, inst.data, report.draws, alpha_each, reps, seed=7
            )
            empirical.append(hits)
        verified = all(h >= floor for h in empirical)
        if control is None:  # under a bug control: the claim held on this algorithm
            stop_if_failed(config, verified, f"{name}: ε×1.1 rejected {empirical} < {floor}/{reps}")
            continue
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
        if not ok:
            break  # the first algorithm that fails decides; the rest would only add time
    return CheckOutcome(ok, "; ".join(rows), numbers, controls, slack)


def _tests(result: ConformResult) -> int:
    """The number of tests the run's false alarm is split over (a law test per instance, and
    an audit per instance when the algorithm claims privacy)."""
    claim = result.instances[0].privacy is not None
    return len(result.instances) * (2 if claim else 1)


def _reference(name: str, factor: float, params: dict[str, Any], fast: bool) -> Any:
    """dpspec's own implementation at ε × ``factor``; ``fast``: PCL through
    ``repeated_predictions``, the law of repeated ``fit`` + ``predict`` (bound to them by
    ``audit.learner-repeated-fits``), 10^3 times faster."""
    algo = catalogue()[name]
    resolved = algo._resolve(dict(params))
    if fast:
        return algo._fast_reference(resolved, factor)  # type: ignore[attr-defined]
    return algo._reference(resolved, factor)


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


@Obligation(
    id="conform.gof-guarantees",
    source="dpspec conform's law test (union bound over exact binomial events)",
    claim=(
        "the law test's false alarm stays within its level and its power against epsilon "
        "x 1.1 reaches the computed 0.99, on multinomial counts from the exact laws"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{CHECKER_SOUNDNESS}: the law test's false-alarm rate and power on exact-law counts"
    ),
    impls=(dpspec.conform.gof, dpspec.conform.laws),
    tests=("tests/test_conform.py::test_power_bound_is_exact_for_one_event",),
    bug_controls=(
        BugControl(
            "dpspec.conform.gof._count_test",
            "k = len(events.names) if union else 1",
            "k = 1",
            "the union bound dropped: each of the K events tested at α instead of α/K",
        ),
    ),
)
def gof_false_alarm_and_power(config: VerifyConfig) -> CheckOutcome:
    """On each algorithm's first instance: R multinomial samples from the law are tested at a
    level α' = 0.01 (so that false alarms are observable): the false-alarm rate must not exceed
    α' significantly (binomial test at 1e-6); R samples from the ε × 1.1 law at the budget
    sized for power 0.99 at α = 1e-6 must be rejected at least as often as the Binomial(R, 0.99)
    1e-6 quantile. The control is the same test with its Bonferroni factor dropped (each event
    at α' instead of α'/K): its false-alarm rate must exceed α' — the union bound is what keeps
    the stated level. Under a bug control the unadjusted test is not run and the check ends
    at the first algorithm whose false alarm or power fails."""
    reps = 400 if config.thorough else 50
    rng = np.random.default_rng(20261124)
    loose = 0.01
    rows, numbers, ok, control_alarms, control_total = [], {}, True, 0, 0
    floor = _power_floor(reps)
    for name, algo in catalogue().items():
        inst = algo._instances(algo._resolve(_params(name, False)))[0]
        law, events = inst.law, _event_family(inst.law)
        n, _ = _draws_for_power(law, inst.variant.probs, ALPHA, POWER)
        # drawn in the order of one test per replicate (the law's counts, then ε × 1.1's);
        # the R samples of each law are the columns of one (L, R) count matrix, tested at once
        samples = [
            (rng.multinomial(n, law.probs), rng.multinomial(n, inst.variant.probs))
            for _ in range(reps)
        ]
        null, alt = (np.stack(side, axis=1) for side in zip(*samples, strict=True))
        draws = np.full(reps, n, dtype=np.int64)
        alarms = int(np.sum(_count_test(law, events, null, draws)[0] <= loose))
        unadjusted = 0
        if not config.under_control:
            unadjusted = int(np.sum(_count_test(law, events, null, draws, union=False)[0] <= loose))
        impossible = alt[law.probs == 0].sum(axis=0) > 0
        power_hits = int(np.sum(impossible | (_count_test(law, events, alt, draws)[0] <= ALPHA)))
        too_many = stats.binom.sf(alarms - 1, reps, loose) < 1e-6
        ok &= not too_many and power_hits >= floor
        stop_if_failed(config, ok, f"{name}: {alarms}/{reps} false alarms, {power_hits} hits")
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
    if config.under_control:  # every algorithm held (a failing one ended the check above)
        return CheckOutcome(True, "under a bug control: " + "; ".join(rows))
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


#: the resolution the obligation asks for; the replicates per direction on every algorithm,
#: and on the discrete Laplace (default run, ``--thorough``)
RESOLUTION_ASKED = 0.05
RESOLUTION_REPLICATES = {"every": (30, 1000), "discrete-laplace": (300, 1000)}


@Obligation(
    id="conform.resolution",
    source="dpspec conform's resolution (the bracket: every pass states what it could see)",
    claim=(
        "resolution=r sizes every instance's budget for power >= 0.99 against the "
        "algorithm at epsilon x (1 + r) and epsilon / (1 + r), and states it: a discrete "
        "Laplace at scale x 1.05 (and / 1.05) is caught at >= 0.99 over seeds at "
        "resolution 0.05, the same bug 5% either way of every algorithm of the catalogue "
        "too"
    ),
    method=Method.STATISTICAL,
    no_predicate=f"{CHECKER_SOUNDNESS}: the planned power against dpspec's own code off by 1 ± r",
    impls=_CONFORM_CODE,
    entry_points=(DiscreteLaplaceMechanism.sample, plan, conform),
    tests=(
        "tests/test_conform.py::test_resolution_sizes_the_budget_it_states",
        "tests/test_conform.py::test_resolution_beyond_the_limit_is_refused_with_the_estimate",
    ),
    bug_controls=(
        BugControl(
            plan,
            "r = RESOLUTION if resolution is None else float(resolution)",
            "r = RESOLUTION",
            "the resolution asked for ignored (the budget of the default 10%)",
        ),
        BugControl(
            plan,
            "factors = (1 + r, 1 / (1 + r))",
            "factors = (1 + 2 * r, 1 / (1 + 2 * r))",
            "the budget sized for twice the resolution it states",
        ),
    ),
)
def resolution_is_resolved(config: VerifyConfig) -> CheckOutcome:
    """``resolution=`` sizes the budget it states, for every algorithm of the catalogue
    (walked): ``plan(..., resolution=0.05)`` at the catalogue's parameters states r = 0.05 and
    a computed power ≥ 0.99 against the algorithm at ε × 1.05 and ε / 1.05 on every instance;
    dpspec's own implementation at each of those two factors (a 5% scale bug either way), run
    R times through the law test at the planned budget on the first instance, is rejected at
    least as often as the 1e-6 quantile of Binomial(R, 0.99) (the power claim is refuted at
    false alarm 1e-6 otherwise). With ``--thorough`` the same at the default resolution (0.1,
    what a pass without ``resolution=`` states), R = 1000 throughout. The default budget's
    rejections of the 5% bug are reported beside (what a default pass does not resolve), and
    dpspec's own discrete Laplace run through ``conform(..., resolution=0.05)`` must conform
    and state r = 0.05. The check stops at the first algorithm that fails; under a bug
    control at the first claim that fails (the stated resolution and power, each factor's
    rejections, the own run at 0.05), and the default budget's rejections are not run."""
    which = 1 if config.thorough else 0
    rows: list[str] = []
    numbers: dict[str, Any] = {}
    ok = True
    worst = 1.0
    for name, algo in catalogue().items():
        reps = RESOLUTION_REPLICATES.get(name, RESOLUTION_REPLICATES["every"])[which]
        floor = _power_floor(reps)
        params = _params(name, False)
        own = _reference(name, 1.0, params, algo.learner)
        seen: dict[str, Any] = {"replicates": reps, "rejections_needed": floor}
        for asked in (RESOLUTION_ASKED, None) if config.thorough else (RESOLUTION_ASKED,):
            p = plan(own, name, audit_samples=AUDIT_SAMPLES, resolution=asked, **params)
            r = RESOLUTION_ASKED if asked is not None else 0.1
            stated = abs(p.resolution - r) < 1e-12 and all(pw >= POWER for pw in p.powers)
            stop_if_failed(config, stated, f"{name}: resolution {p.resolution:g}, {p.powers}")
            inst = p.instances[0]
            hits = []
            for f in (1 + r, 1 / (1 + r)):
                hits.append(
                    _empirical_power(
                        _reference(name, f, params, algo.learner),
                        inst.law,
                        inst.data,
                        p.draws[0],
                        p.alpha_each,
                        reps,
                        seed=5,
                    )
                )
                stop_if_failed(config, hits[-1] >= floor, f"{name}: × {f:g}: {hits[-1]}/{reps}")
            ok &= stated and min(hits) >= floor
            worst = min(worst, min(hits) / reps)
            seen[f"resolution {r:g}"] = {
                "stated": p.resolution,
                "draws": p.draws,
                "computed_power": p.powers,
                "deviations_tv": p.deviations,
                "rejections_up_down": hits,
            }
        rows.append(f"{name}: r {p.resolution:g} ({p.draws[0]} draws): {hits}/{reps} rejected")
        if name == "discrete-laplace":
            run = conform(
                own, name, audit_samples=AUDIT_SAMPLES, resolution=RESOLUTION_ASKED, **params
            )
            said = all(r.resolution == RESOLUTION_ASKED for r in run.instances)
            ok &= run.conforms and run.resolution == RESOLUTION_ASKED and said
            stop_if_failed(config, ok, f"{name} at resolution 0.05: {run.verdict}")
            if config.under_control:
                continue  # the default budget's rejections are reported, not claimed
            seen["own implementation at resolution 0.05"] = run.verdict
            default = plan(own, name, audit_samples=AUDIT_SAMPLES, **params)
            inst = default.instances[0]
            bug = _reference(name, 1 / (1 + RESOLUTION_ASKED), params, False)
            missed = reps - _empirical_power(
                bug, inst.law, inst.data, default.draws[0], default.alpha_each, reps, seed=6
            )
            seen["default budget, scale x 1.05"] = {"draws": default.draws, "passed": missed}
            rows.append(f"at the default budget scale × 1.05 passes {missed}/{reps}")
        numbers[name] = seen
        if not ok:
            break
    return CheckOutcome(ok, "; ".join(rows), numbers, [], [Slack("power", POWER, worst)])
