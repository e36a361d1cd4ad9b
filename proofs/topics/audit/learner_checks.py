"""Checks for auditing whole learners: the learner zoo (power and tightness), soundness over
repeated audits, the vectorised repeated fits bound to ``fit``, and one-run auditing.

* statistical: every broken learner of :mod:`dpspec.audit.learner_zoo` is flagged and no
  correct one is (fixed seed); PCL's audit reaches ≥ 0.95 of its exact ε; over ≥ 200 audits of
  tight correct learners the false-alarm rate is consistent with ≤ 0.05 (exact binomial test
  at 1e-6) while PCL with half its noise is flagged at a rate that test rejects;
* conformance: ``repeated_predictions`` (what the learner auditor samples) draws from the
  exact law of ``fit(X, y).predict(probe)`` (chi-square at 1e-6, 2ε control with its power);
* one-run: over 200 one-run audits of PCL (true add/remove ε = ε/2 exactly) the false-alarm
  rate is consistent with ≤ 0.05, the half-noise control is flagged, and the bound approaches
  the true ε as the number of canaries grows.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit import audit, audit_pairs
from dpspec.audit.learner_zoo import (
    DataRangeHistogramClassifier,
    DoubledEpsilonDensity,
    HalvedNoiseHistogramClassifier,
    LastLabelHistogramClassifier,
    LearnerEntry,
    data_range_epsilon,
    learner_zoo,
    released_counts_at,
)
from dpspec.audit.learners import LearnerMechanism
from dpspec.audit.libraries import load_factory
from dpspec.audit.one_run import (
    OneRunResult,
    learner_one_run,
    one_run_audit,
    one_run_epsilon_lower,
    one_run_pvalue,
)
from dpspec.learners.pcde import PrivateHistogramDensity
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.proofs.engine.conformance import conformance, conformance_rng, draws, outcome
from dpspec.proofs.engine.registry import (
    CHECKER_SOUNDNESS,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.spec.audit import false_alarm_rate_acceptable
from dpspec.spec.privacy import bernoulli_product

SEED = 9100
ALPHA_TEST = Fraction(1, 10**6)


@Obligation(
    id="audit.learner-targets",
    source=(
        "auditing.md (learner audits: fit on D and D', compare the release); seed 000 "
        "Alg 2-3 (PCL, PCDE); seed 004 Fig. 1 and 3 (A1, A2)"
    ),
    claim=(
        "learners audited through the path the auditor chooses: a real fit + release per "
        "draw, except for estimators of exactly a class whose repeated_predictions is "
        "conformance-bound to fit (PCL; subclasses and wrappers run their own fit); "
        "broken learners (half noise, a data-dependent partition, a subclass whose "
        "predict leaks a label, PCDE at 2 eps, A2 used as fully private) are flagged, "
        "correct ones are not, and PCL's eps_LCB reaches >= 0.95 of its exact eps"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{CHECKER_SOUNDNESS}: the verdicts on the learner zoo's correct and broken learners"
    ),
    impls=(
        LearnerMechanism,
        "dpspec.audit.learners._shortcut_of",
        LastLabelHistogramClassifier,
        learner_zoo,
        LearnerEntry,
        HalvedNoiseHistogramClassifier,
        DataRangeHistogramClassifier,
        DoubledEpsilonDensity,
        released_counts_at,
        data_range_epsilon,
        load_factory,
        "dpspec.audit.libraries._model_canary_pair",
        "dpspec.audit.libraries._diffprivlib_model",
        "dpspec.audit.learners._legacy_random_state",
    ),
    entry_points=(PrivateHistogramClassifier.repeated_predictions, PrivateHistogramDensity.fit),
    tests=(
        "tests/test_audit_learners.py::test_learner_mechanism_releases",
        "tests/test_audit_learners.py::test_learner_mechanism_arguments",
        "tests/test_audit_checkpoint.py::test_a_subclass_is_audited_through_its_own_predict",
        "tests/test_audit_checkpoint.py::test_wrappers_and_replaced_methods_take_the_real_path",
        "tests/test_audit_checkpoint.py::test_cli_real_fits_switch",
        "tests/test_audit_learners.py::test_cli_learner_usage_errors",
        "tests/test_audit_learners.py::test_cli_class_target_is_built_at_the_claim",
        "tests/test_audit_learners.py::test_learner_zoo_true_epsilons",
        "tests/test_audit_learners.py::test_cli_audits_learners",
    ),
)
def learner_zoo_power(config: VerifyConfig) -> CheckOutcome:
    """Audit every learner of the zoo on its canary pair at confidence 0.95 (seed fixed) through
    the path the auditor chooses for it (``LearnerMechanism.sampling``): learners sampled
    through a conformance-bound shortcut at 10^5 fits per side, the others through their real
    ``fit`` + release at the fits per side their entry states (``LearnerEntry.samples``,
    200–1500; ×4 with ``--thorough``). Pass: broken learners flagged, correct ones not,
    PCL's ε_LCB ≥ 0.95 × its exact ε, and every subclass of a listed class (the last-label
    PCL) audited through its own ``fit``/``predict``. Controls: the broken learners — each a
    real bug of a learner (half its noise, a data-dependent partition, a leaking ``predict``,
    ε counted once for two cubes, a label-private learner used as private) — must be flagged.
    Slack: claim / ε_LCB for the correct learners with a known ε."""
    from dpspec.audit.learners import VECTORISED_CLASSES

    scale = 4 if config.thorough else 1
    rows = []
    ok = True
    controls: list[Control] = []
    slack: list[Slack] = []
    for name, entry in learner_zoo().items():
        path = entry.mechanism.sampling()
        vectorised = path.startswith("vectorised")
        n, sel = entry.samples * scale, (20_000 if vectorised else 150)
        r = audit(
            entry.mechanism,
            entry.pair,
            entry.epsilon,
            entry.delta,
            samples=n,
            selection=sel,
            seed=SEED,
        )
        good = r.violation != entry.correct
        estimator = entry.mechanism.factory(0)
        cls = type(estimator)
        parent_listed = any(
            f"{base.__module__}.{base.__qualname__}" in VECTORISED_CLASSES
            for base in cls.__mro__[1:]
        )
        own = f"{cls.__module__}.{cls.__qualname__}"
        if parent_listed and own not in VECTORISED_CLASSES:
            good = good and not vectorised  # a subclass runs its own fit and predict
        if name == "pcl":
            good = good and r.epsilon_lower >= 0.95 * (entry.true_epsilon or math.inf)
        ok = ok and good
        if entry.correct and entry.true_epsilon is not None:
            slack.append(Slack(f"ε ({name})", entry.epsilon, r.epsilon_lower))
        if not entry.correct:
            controls.append(
                Control(
                    f"{name}: {entry.why}",
                    r.violation,
                    f"ε_LCB {r.epsilon_lower:.3f} against the claim {entry.epsilon:g} "
                    f"({n} draws per side, {path.split(' (')[0]})",
                )
            )
        rows.append(
            {
                "name": name,
                "correct": entry.correct,
                "true_epsilon": entry.true_epsilon,
                "epsilon_lower": r.epsilon_lower,
                "flagged": r.violation,
                "samples": n,
                "sampling": r.sampling,
                "seconds": r.seconds,
                "ok": good,
            }
        )
    summary = "; ".join(
        f"{r['name']}: ε_LCB {r['epsilon_lower']:.3f} (true "
        f"{'≤ claim' if r['true_epsilon'] is None else format(r['true_epsilon'], '.3g')}, "
        f"{'flagged' if r['flagged'] else 'consistent'}, "
        f"{'shortcut' if str(r['sampling']).startswith('vectorised') else 'real fits'}"
        f"{'' if r['ok'] else ', WRONG'})"
        for r in rows
    )
    return CheckOutcome(ok, summary, {"rows": rows}, controls, slack)


def learner_soundness(config: VerifyConfig) -> CheckOutcome:
    """R = 240 audits (600 with ``--thorough``) of tight correct learners — PCL and idealised
    PCL, each claimed at its exact ε on its pair — with 10^4 fits per side (selection 10^4):
    the violation count must be consistent with a rate ≤ 0.05 (exact binomial test, false
    rejection ≤ 1e-6). Control: PCL with half its noise claimed at ε = 1 (true 2), 1 audit in
    4, must be flagged at a rate the same test rejects."""
    audits = 600 if config.thorough else 240
    zoo = learner_zoo(n_pcl=2000)
    tight = [zoo["pcl"], zoo["pcl-idealised"]]
    broken = zoo["pcl-half-noise"]
    violations = control = n_control = 0
    for r in range(audits):
        entry = tight[r % 2]
        assert entry.true_epsilon is not None
        violations += audit(
            entry.mechanism,
            entry.pair,
            entry.true_epsilon,
            samples=10_000,
            selection=10_000,
            seed=SEED + r,
        ).violation
        if r % 4 == 0:
            n_control += 1
            control += audit(
                broken.mechanism,
                broken.pair,
                1.0,
                samples=10_000,
                selection=10_000,
                seed=SEED + 10**6 + r,
            ).violation
    level = Fraction(1, 20)
    ok_rate = false_alarm_rate_acceptable(violations, audits, level, ALPHA_TEST)
    rejected = not false_alarm_rate_acceptable(control, n_control, level, ALPHA_TEST)
    return CheckOutcome(
        ok_rate and rejected,
        f"{violations}/{audits} false alarms on tight correct learners (consistent with <= "
        f"0.05: {ok_rate}); half-noise PCL flagged {control}/{n_control} (rejected: {rejected})",
        {
            "audits": audits,
            "violations": violations,
            "control": control,
            "control_audits": n_control,
        },
    )


def _classes_defining(method: str) -> list[str]:
    """Every class of the ``dpspec`` package (walked, not listed) whose own body defines
    ``method``, by qualified name. ``__main__`` modules are programs (importing one runs it:
    ``dpspec.cli.__main__`` would run the command line on this process's arguments), not
    walked."""
    import importlib
    import inspect
    import pkgutil

    import dpspec

    found = set()
    for info in pkgutil.walk_packages(dpspec.__path__, "dpspec."):
        if info.name.startswith(("dpspec.proofs", "dpspec.spec", "dpspec.strategies")):
            continue
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional dependency's module
            continue
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == info.name and method in vars(cls):
                found.add(f"{cls.__module__}.{cls.__qualname__}")
    return sorted(found)


@Obligation(
    id="audit.learner-repeated-fits",
    source="seed 000 Alg 2 (PCL, L193-200); auditing.md (vectorised learner audits)",
    claim=(
        "PCL's repeated_predictions (what the learner auditor samples) draws from the "
        "exact law of fit(X, y).predict(probe), probes in one cube sharing its noise"
    ),
    method=Method.STATISTICAL,
    predicates=(bernoulli_product,),
    impls=(PrivateHistogramClassifier.repeated_predictions,),
    tests=("tests/test_audit_learners.py::test_repeated_predictions_match_fit",),
    binding="differential: pcl.privacy",
)
def repeated_predictions_conformance(config: VerifyConfig) -> CheckOutcome:
    """Every class the learner auditor samples through ``repeated_predictions``
    (:data:`dpspec.audit.learners.VECTORISED_CLASSES`) against its exact law: probes at the 4
    cube centres of a 4-cube grid (one empty) plus a second point in cube 0 (it must share cube
    0's noise: same bit), exact and idealised noise, 20 000 repetitions, and the same law for
    2000 real ``fit(X, y).predict(probe)`` (exact noise): the shortcut and ``fit`` draw from
    one law. The law is ∏ Bernoulli(``release_law``). Controls: the shortcut with its noise
    drawn for ε × 1.25 must be rejected (chi-square at 1e-6). Discovery: every class of the
    package that defines ``repeated_predictions`` must be listed, and every listed class must
    name this obligation."""
    from dpspec.audit.learners import VECTORISED_CLASSES
    from dpspec.audit.machinery import listed_class as _listed_class

    X = np.array([[0.1], [0.2], [0.15], [0.5], [0.45], [0.55], [0.6], [0.4]])
    y = np.array([1, 1, 0, 0, 0, 1, 0, 0])
    probe = np.array([[0.125], [0.375], [0.625], [0.875], [0.05]])
    reps = draws(config, 20_000)
    fits = 8000 if config.thorough else 2000
    defining = _classes_defining("repeated_predictions")
    unlisted = [name for name in defining if name not in VECTORISED_CLASSES]
    wrong_id = [n for n, ob in VECTORISED_CLASSES.items() if ob != "audit.learner-repeated-fits"]
    reports = []
    for k, name in enumerate(sorted(VECTORISED_CLASSES)):
        cls = _listed_class(name)
        if cls is None:
            unlisted.append(f"{name} (does not resolve)")
            continue
        short = name.rsplit(".", 1)[-1]
        for idealised in (False, True):

            def law(eps: float, cls: Any = cls, idealised: bool = idealised) -> dict[Any, Any]:
                clf = cls(eps, idealised=idealised, cells_per_axis=4)
                base = bernoulli_product(clf.release_law(X, y))
                return {(*key, key[0]): p for key, p in base.items()}  # probe 5 is in cube 0

            def shortcut(eps: float, tag: int, cls: Any = cls, idealised: bool = idealised) -> Any:
                def run(n: int) -> NDArray[np.int64]:
                    clf = cls(eps, idealised=idealised, cells_per_axis=4)
                    bits = clf.repeated_predictions(X, y, probe, n, conformance_rng(tag))
                    return np.asarray(bits, dtype=np.int64)

                return run

            tag = 9100 + 10 * k + idealised
            report = conformance(
                f"{short}.repeated_predictions ({'idealised' if idealised else 'exact'})",
                law(1.0),
                shortcut(1.0, tag),
                shortcut(1.25, tag + 5),
                law(1.25),
                reps,
            )
            report.control_bug = "noise for ε × 1.25"
            reports.append(report)

        def real_fits(n: int, cls: Any = cls, tag: int = 9300 + k) -> NDArray[np.int64]:
            seeds = conformance_rng(tag).integers(0, 2**62, size=n)
            rows = [
                cls(1.0, cells_per_axis=4, random_state=int(s)).fit(X, y).predict(probe)
                for s in seeds
            ]
            return np.asarray(rows, dtype=np.int64)

        exact_law = {
            (*key, key[0]): p
            for key, p in bernoulli_product(cls(1.0, cells_per_axis=4).release_law(X, y)).items()
        }
        control_law = {
            (*key, key[0]): p
            for key, p in bernoulli_product(cls(1.25, cells_per_axis=4).release_law(X, y)).items()
        }
        report = conformance(
            f"{short} fit + predict (exact)",
            exact_law,
            real_fits,
            shortcut(1.25, 9400 + k),
            control_law,
            fits,
        )
        report.control_bug = "noise for ε × 1.25"
        reports.append(report)
    result = outcome(reports, extra_ok=not unlisted and not wrong_id)
    result.detail = (
        f"{len(VECTORISED_CLASSES)} classes sampled through the shortcut, {len(defining)} "
        f"defining it in the package (unlisted: {unlisted}; naming another obligation: "
        f"{wrong_id}); " + result.detail
    )
    result.numbers["defining"] = defining
    return result


def _one_run_bed(
    grid: int, background: int, m: int, seed: int
) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """Background points on the left half of the unit square, m canaries (label 1) at the
    centres of distinct cubes of the right half of a grid × grid partition: each canary alone
    in its cube."""
    rng = np.random.default_rng(seed)
    Xb = rng.random((background, 2)) * np.array([0.5, 1.0])
    yb = (rng.random(background) < 0.5).astype(np.int64)
    cells = rng.choice((grid // 2) * grid, size=m, replace=False)
    cx, cy = grid // 2 + cells // grid, cells % grid
    Xc = np.stack([(cx + 0.5) / grid, (cy + 0.5) / grid], axis=1)
    return (Xb, yb), (Xc, np.ones(m, dtype=np.int64))


def _randomized_response_canaries(epsilon: float) -> Any:
    """``train_and_score`` whose score of canary i is its inclusion bit kept with probability
    e^ε/(1 + e^ε) and flipped otherwise: each canary's score is ε-randomized response of its
    coin, the case in which the one-run bound is attained (a guessed canary is right with
    probability exactly e^ε/(1 + e^ε), independently of the others)."""

    def train_and_score(included: NDArray[np.bool_], rng: np.random.Generator) -> Any:
        keep = rng.random(included.size) < 1.0 / (1.0 + math.exp(-epsilon))
        return np.where(keep, included, ~included).astype(np.float64)

    return train_and_score


@Obligation(
    id="audit.one-run",
    source=(
        "Steinke, Nasr and Jagielski 2023 (arXiv:2305.08846), privacy auditing with one "
        "training run: W <= Bin(r, e^eps/(1+e^eps)); seed 000 Alg 2 (PCL) as the test "
        "bed"
    ),
    claim=(
        "one-run audits where the binomial bound is attained have a false-alarm rate "
        "consistent with <= 0.2 at confidence 0.8 over 1000 runs (the confidence halved "
        "is rejected), flag PCL with half its noise, and reach >= 0.85 of PCL's "
        "add/remove eps at m = 10^4"
    ),
    method=Method.STATISTICAL,
    predicates=(false_alarm_rate_acceptable,),
    impls=(one_run_audit, learner_one_run, one_run_epsilon_lower, one_run_pvalue, OneRunResult),
    entry_points=(PrivateHistogramClassifier.fit,),
    tests=(
        "tests/test_audit_learners.py::test_one_run_bound_inverts_the_binomial_tail",
        "tests/test_audit_learners.py::test_one_run_arguments",
        "tests/test_audit_learners.py::test_one_run_scores_are_read_from_the_model",
    ),
)
def one_run(config: VerifyConfig) -> CheckOutcome:
    """One-run auditing (Steinke, Nasr and Jagielski 2023).

    (a) Soundness, powered: R = 1000 one-run audits (3000 with ``--thorough``) of m = 1000
    randomized-response canaries at ε = 1 (the bound is attained: W ~ Bin(r, e/(1 + e))
    exactly with guesses (250, 250)), claimed at their true ε, at confidence 0.8: the
    false-alarm count must be consistent with ≤ 0.2 (exact binomial test at 1e-6; power
    against 0.4 stated). Controls: the confidence silently halved (the Clopper–Pearson bound
    taken at 2α) must be rejected by that test; and a real learner bug, PCL with half its noise
    (add/remove ε = 1 against the claim 1/2), must be flagged. (b) The PCL test bed (ε = 1, a
    fixed grid: add/remove ε exactly 1/2, lone canaries): ε_LB at m = 10^4 (10^5 with
    ``--thorough``) reaches ≥ 0.85 × 1/2 (0.9 at 10^5) without a false alarm. (c) The δ form:
    p-values with δ > 0 are ≥ the pure ones and the bound is ≤."""
    from unittest import mock

    import dpspec.audit.one_run as one_run_module
    from dpspec.audit.bounds import cp_lower
    from dpspec.audit.one_run import one_run_audit

    runs = 3000 if config.thorough else 1000
    confidence = 0.8
    target = _randomized_response_canaries(1.0)
    alarms = halved = 0
    for r in range(runs):
        result = one_run_audit(
            target, 1000, 1.0, guesses=(250, 250), confidence=confidence, seed=SEED + r
        )
        alarms += result.violation
        with mock.patch.object(one_run_module, "_cp_lower", lambda k, n, a: cp_lower(k, n, 2 * a)):
            halved += one_run_audit(
                target, 1000, 1.0, guesses=(250, 250), confidence=confidence, seed=SEED + r
            ).violation
    from dpspec.proofs.topics.audit.soundness_checks import rate_test

    sound, power = rate_test(alarms, runs, 1 - confidence)
    halved_rejected = not rate_test(halved, runs, 1 - confidence)[0]
    m = 10**5 if config.thorough else 10**4
    bg, canaries = _one_run_bed(300 if m <= 10**4 else 500, 10**4, m, SEED)
    grid = 300 if m <= 10**4 else 500

    def pcl(seed: int) -> PrivateHistogramClassifier:
        return PrivateHistogramClassifier(1.0, cells_per_axis=grid, random_state=seed)

    def half(seed: int) -> HalvedNoiseHistogramClassifier:
        return HalvedNoiseHistogramClassifier(1.0, cells_per_axis=grid, random_state=seed)

    tight = learner_one_run(pcl, bg, canaries, 0.5, seed=SEED)
    leaky = learner_one_run(half, bg, canaries, 0.5, seed=SEED)
    need = 0.9 if m >= 10**5 else 0.85
    close = not tight.violation and tight.epsilon_lower >= need * 0.5
    pure = [one_run_pvalue(1000, 1000, 600, e) for e in (0.2, 0.4)]
    with_delta = [one_run_pvalue(1000, 1000, 600, e, 1e-5) for e in (0.2, 0.4)]
    delta_ok = all(b >= a for a, b in zip(pure, with_delta, strict=True)) and (
        one_run_epsilon_lower(600, 1000, 0.95, 1e-5, 1000) <= one_run_epsilon_lower(600, 1000, 0.95)
    )
    ok = sound and close and delta_ok
    controls = [
        Control(
            "one-run bound with the confidence silently halved (Clopper–Pearson at 2α)",
            halved_rejected,
            f"{halved}/{runs} false alarms",
        ),
        Control(
            "PCL with half its noise (add/remove ε = 1) audited against ε = 1/2",
            leaky.violation,
            f"ε_LB {leaky.epsilon_lower:.3f} at m = {m}",
        ),
    ]
    return CheckOutcome(
        ok,
        f"{alarms}/{runs} false alarms on attained randomized-response canaries at confidence "
        f"0.8 (consistent with <= 0.2: {sound}; power against 0.4: {power:.4f}); confidence "
        f"halved: {halved}/{runs} (rejected: {halved_rejected}); PCL test bed m = {m}: ε_LB "
        f"{tight.epsilon_lower:.3f} of the true 0.5 (needs >= {need * 0.5:.3f}); half-noise "
        f"PCL: ε_LB {leaky.epsilon_lower:.3f} (flagged: {leaky.violation}); δ form no tighter "
        f"than pure: {delta_ok}",
        {
            "runs": runs,
            "false_alarms": alarms,
            "halved_false_alarms": halved,
            "power_at_2alpha": power,
            "tightness": {str(m): tight.epsilon_lower},
        },
        controls,
        [
            Slack("P(false alarm), randomized-response canaries", 1 - confidence, alarms / runs),
            Slack("ε (PCL test bed)", 0.5, tight.epsilon_lower),
        ],
    )


@Obligation(
    id="audit.learner-pair-search",
    source=(
        "auditing.md (neighbour search); StatDP-style patterns for learners (isolated "
        "records, extreme canaries, cell boundaries); Hypothesis targeted search"
    ),
    claim=(
        "from a background dataset alone, canary patterns and a hypothesis.target search "
        "find a violating pair for PCL with half its noise and none for PCL"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{CHECKER_SOUNDNESS}: PCL with half its noise found by both searches, PCL by neither"
    ),
    impls=(
        "dpspec.audit._learner_search.canary_pairs",
        "dpspec.audit._learner_search.canary_pair_strategy",
        "dpspec.audit._learner_search.isolated_records",
    ),
    tests=("tests/test_audit_learners.py::test_canary_pairs",),
)
def learner_pair_search(config: VerifyConfig) -> CheckOutcome:
    """Neighbour search for learners from a background dataset alone (200 points on
    [0.05, 0.95]², grid 8 × 8): the canary patterns (label flips of isolated records, corner
    canaries, cell boundaries) screened with 5000 fits per side each, and a Hypothesis search
    over canary location, label and replaced record (15 examples, 5000 fits each), then a final
    audit with 30 000 fresh fits per side. PCL with half its noise must be flagged by both;
    PCL by neither."""
    from dpspec.audit.learners import LearnerMechanism
    from dpspec.audit.machinery import canary_pair_strategy, canary_pairs, hypothesis_search

    rng = np.random.default_rng(SEED)
    X = rng.random((200, 2)) * 0.9 + 0.05
    y = (X[:, 0] > 0.5).astype(np.int64)
    pairs = canary_pairs(X, y, grid=8)

    def pcl(seed: int) -> PrivateHistogramClassifier:
        return PrivateHistogramClassifier(1.0, cells_per_axis=8, random_state=seed)

    def half(seed: int) -> HalvedNoiseHistogramClassifier:
        return HalvedNoiseHistogramClassifier(1.0, cells_per_axis=8, random_state=seed)

    rows = {}
    for name, factory in (("pcl", pcl), ("pcl-half-noise", half)):
        mech = LearnerMechanism(factory, name=name)
        patterns = audit_pairs(mech, pairs, 1.0, samples=30_000, screen=5000, seed=SEED)
        found = hypothesis_search(
            mech,
            canary_pair_strategy(X, y),
            1.0,
            samples=30_000,
            screen=5000,
            max_examples=15,
            seed=SEED,
        )
        rows[name] = (
            patterns.epsilon_lower,
            patterns.violation,
            found.audit.epsilon_lower,
            found.audit.violation,
        )
    ok = not rows["pcl"][1] and not rows["pcl"][3]
    broken = rows["pcl-half-noise"]
    controls = [
        Control(
            "PCL with half its noise (calibrated to sensitivity 1, not 2), pair searched",
            broken[1] and broken[3],
            f"ε_LCB {broken[0]:.3f} (patterns), {broken[2]:.3f} (Hypothesis) against 1",
        )
    ]
    slack = [Slack("ε (pcl, pair searched)", 1.0, max(rows["pcl"][0], rows["pcl"][2]))]
    return CheckOutcome(
        ok,
        "; ".join(
            f"{k}: patterns ε_LCB {v[0]:.3f} ({'flagged' if v[1] else 'consistent'}), "
            f"Hypothesis ε_LCB {v[2]:.3f} ({'flagged' if v[3] else 'consistent'})"
            for k, v in rows.items()
        )
        + f"; {len(pairs)} patterns",
        {"rows": {k: list(v) for k, v in rows.items()}, "patterns": len(pairs)},
        controls,
        slack,
    )
