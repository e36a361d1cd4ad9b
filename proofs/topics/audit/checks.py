"""Checks for the statistical auditor (``dpspec.audit``): coverage exactly, soundness and power
statistically, each with a control that must fail.

* exact: Clopper–Pearson lower bounds cover p with probability ≥ 1 − α for every n ≤ 40 and p
  on a rational grid (enumerating the binomial law); the Wald bound (control) does not;
* statistical: the false-alarm rate over independent audits of correct mechanisms is
  consistent with the stated level (exact binomial test at 1e-6) while an over-claimed
  mechanism is flagged far more often; every broken zoo mechanism is flagged at 10^6 samples
  per side and no correct one is (fixed seed); ``assert_dp`` rejects 1.2× ε and accepts the
  truth; an interrupted audit resumes to the same result.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import numpy as np
from scipy import stats

from dpspec.audit import audit, cp_lower, cp_upper
from dpspec.audit.ci import DPViolation, VoteResult, assert_dp, majority_false_alarm, vote
from dpspec.audit.libraries import load_target
from dpspec.audit.loop import audit_pairs, screen_bound
from dpspec.audit.pytest_plugin import assert_dp_fixture
from dpspec.audit.zoo import (
    FunctionMechanism,
    ZooEntry,
    data_threshold_sampler,
    gaussian_epsilon,
    gaussian_sampler,
    laplace_sampler,
    noisy_max_sampler,
    rare_leak_sampler,
    svt_no_threshold_noise_epsilon,
    svt_sampler,
    truncated_geometric_sampler,
    zoo,
)
from dpspec.audit.zoo_kinds import (
    CallableRelease,
    clipped_sum,
    global_laplace,
    global_laplace_half_noise,
    group_by_counts,
    kinds,
    labelled_release,
    laplace_with_defaults,
    laplace_wrong_default,
    noisy_records,
    one_coordinate_released,
    resampled_bounded_epsilon,
    resampled_bounded_laplace,
    unclipped_sum,
)
from dpspec.mechanisms.randomized_response import RandomizedResponse
from dpspec.proofs.engine.registry import (
    CHECKER_SOUNDNESS,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import THESIS
from dpspec.spec.audit import binomial_pmf, lower_bound_coverage

SEED = 9000

#: the false-alarm bound of the library-target audits, whose draws no seed fixes
LIBRARY_ALPHA = 1e-7


ALPHA_TEST = Fraction(1, 10**6)


@Obligation(
    id="audit.clopper-pearson-coverage",
    source=(
        "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); Clopper and Pearson 1934"
    ),
    claim=(
        "the one-sided CP bounds cover p with probability >= 1 - alpha, exactly "
        "(binomial law enumerated); the Wald bound does not"
    ),
    method=Method.EXACT,
    predicates=(lower_bound_coverage, binomial_pmf),
    impls=(cp_lower, cp_upper),
    tests=("tests/test_audit.py::test_cp_bounds",),
)
def cp_coverage(config: VerifyConfig) -> CheckOutcome:
    """Exact coverage of the one-sided CP lower and upper bounds at α = 0.025 (the auditor's
    per-side level at confidence 0.95) for n = 1..N and p ∈ {j/37}: min coverage ≥ 0.975.
    Controls: the same bounds taken at 2α (a confidence level halved) and the Wald bound
    p̂ − z√(p̂(1 − p̂)/n) must under-cover somewhere."""
    alpha = 0.025
    top = 40 if config.thorough else 25
    grid = [Fraction(j, 37) for j in range(1, 37)]
    worst, worst_halved, worst_wald = Fraction(1), Fraction(1), Fraction(1)
    z = float(stats.norm.ppf(1 - alpha))
    for n in range(1, top + 1):
        k = np.arange(n + 1)
        lower = cp_lower(k, n, alpha).tolist()
        upper = cp_upper(k, n, alpha).tolist()
        halved = cp_lower(k, n, 2 * alpha).tolist()
        phat = k / n
        wald = (phat - z * np.sqrt(phat * (1 - phat) / n)).tolist()
        for p in grid:
            worst = min(worst, lower_bound_coverage(n, p, lower))
            # the upper bound of p is the lower bound of 1 − p with successes n − k
            flipped = [1 - u for u in reversed(upper)]
            worst = min(worst, lower_bound_coverage(n, 1 - p, flipped))
            worst_halved = min(worst_halved, lower_bound_coverage(n, p, halved))
            worst_wald = min(worst_wald, lower_bound_coverage(n, p, wald))
    need = 1 - Fraction(alpha)
    ok = worst >= need
    controls = [
        Control(
            "Clopper–Pearson bounds at 2α (the confidence halved)",
            worst_halved < need,
            f"min coverage {float(worst_halved):.5f} < {float(need)}",
        ),
        Control(
            "the Wald bound instead of Clopper–Pearson",
            worst_wald < need,
            f"min coverage {float(worst_wald):.4f}",
        ),
    ]
    return CheckOutcome(
        ok,
        f"n = 1..{top}, 36 values of p: min CP coverage {float(worst):.5f} (needs >= "
        f"{1 - alpha}); controls: CP at 2α covers {float(worst_halved):.5f}, Wald "
        f"{float(worst_wald):.4f}",
        {"min_coverage": float(worst), "wald_min_coverage": float(worst_wald),
         "halved_min_coverage": float(worst_halved)},
        controls,
        [Slack("P(bound misses p)", alpha, float(1 - worst))],
    )  # fmt: skip


def _rr_mechanism(epsilon: float) -> FunctionMechanism:
    mech = RandomizedResponse(2, epsilon=epsilon)
    return FunctionMechanism(
        f"rr({epsilon})", lambda data, n, rng: mech.sample([data], n, rng)[:, 0]
    )


@Obligation(
    id="audit.zoo-power",
    source=(
        "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); StatDP and "
        f"DP-Sniper benchmark mechanisms; {THESIS}:L655 (exponential mechanism without "
        "the 1/2)"
    ),
    claim=(
        "every broken zoo mechanism (>= 12) is flagged at 10^6 draws per side and no "
        "correct one is; Laplace 0.5 gives eps_LCB >= 0.48"
    ),
    method=Method.STATISTICAL,
    no_predicate=f"{CHECKER_SOUNDNESS}: the verdicts on the zoo's correct and broken mechanisms",
    impls=(
        audit_pairs,
        "dpspec.audit._events.float_keys",
        screen_bound,
        zoo,
        ZooEntry,
        FunctionMechanism,
        laplace_sampler,
        gaussian_sampler,
        truncated_geometric_sampler,
        noisy_max_sampler,
        svt_sampler,
        rare_leak_sampler,
        data_threshold_sampler,
        gaussian_epsilon,
        svt_no_threshold_noise_epsilon,
        kinds,
        laplace_with_defaults,
        laplace_wrong_default,
        CallableRelease,
        global_laplace,
        global_laplace_half_noise,
        clipped_sum,
        unclipped_sum,
        resampled_bounded_laplace,
        resampled_bounded_epsilon,
        one_coordinate_released,
        group_by_counts,
        noisy_records,
        labelled_release,
        "dpspec.audit._targets.as_structured",
        "dpspec.audit._structured.structured_rows",
        "dpspec.audit._structured.leaf_kind",
    ),
    tests=(
        "tests/test_audit.py::test_zoo_true_epsilons",
        "tests/test_audit.py::test_audit_pairs_picks_the_revealing_pair",
        "tests/test_audit.py::test_cli_audit",
        "tests/test_audit.py::test_float_attack",
    ),
)
def zoo_power(config: VerifyConfig) -> CheckOutcome:
    """Every broken mechanism of the zoo is flagged and no correct one is (seed fixed,
    confidence 0.95; each entry at the draws per side it states, ``ZooEntry.samples`` — 10^5
    for most, more for the rare leaks and the tightness targets — and 10^6 for all with
    ``--thorough``); reports ε_LCB/true ε for each entry. Targets: Laplace 0.5 → ε_LCB ≥ 0.48;
    noisy-max v2b (true ε = ∞) → ≥ 5.5. Controls: the broken entries, each a bug a DP library
    shipped or a paper printed (noise for the wrong sensitivity or ε, a leaked value, SVT
    without threshold noise, the exponential mechanism without its ½, …). Slack: claim /
    ε_LCB for the correct entries."""
    rows: dict[str, dict[str, Any]] = {}
    wrong: list[str] = []
    controls: list[Control] = []
    slack: list[Slack] = []
    for name, entry in zoo().items():
        n = 10**6 if config.thorough else entry.samples
        r = audit(
            entry.mechanism,
            entry.pair,
            entry.epsilon,
            entry.delta,
            samples=n,
            seed=SEED + len(rows),
            **entry.audit_options(),
        )
        rows[name] = {
            "correct": entry.correct,
            "claimed": entry.epsilon,
            "true": entry.true_epsilon,
            "lower": r.epsilon_lower,
            "flagged": r.violation,
            "samples": n,
        }
        if r.violation == entry.correct:
            wrong.append(name)
        if entry.correct:
            slack.append(Slack(f"ε ({name})", entry.epsilon, r.epsilon_lower))
        else:
            controls.append(
                Control(
                    f"{name}: {entry.why}",
                    r.violation,
                    f"ε_LCB {r.epsilon_lower:.3g} against the claim {entry.epsilon:g}, true "
                    f"{entry.true_epsilon:.3g}",
                )
            )
    targets = rows["laplace"]["lower"] >= 0.48 and rows["noisy-max-v2b"]["lower"] >= 5.5
    broken = sum(not v["correct"] for v in rows.values())
    ok = not wrong and targets and broken >= 12
    table = "; ".join(
        f"{k} {v['lower']:.3g}/{v['true']:.3g}{'!' if v['flagged'] else ''}"
        for k, v in rows.items()
    )
    return CheckOutcome(
        ok,
        f"{broken} broken and {len(rows) - broken} correct mechanisms; wrong verdicts: {wrong}; "
        f"targets met: {targets}. eps_LCB/true (! = flagged): {table}",
        {"rows": rows},
        controls,
        slack,
    )


def exact_vote_false_alarm(votes: int, alpha: Fraction) -> Fraction:
    """The exact probability that :func:`dpspec.audit.ci.assert_dp` raises on a correct
    mechanism whose every audit flags with probability ``alpha``, computed from the code: the
    votes are run through :func:`~dpspec.audit.ci.vote` with a stand-in audit whose verdict is
    looked up by its seed, over every assignment of verdicts to the distinct seeds the code
    uses (audits with one seed share their draws, hence their verdict), each weighted
    exactly."""
    from itertools import product

    from dpspec.audit.ci import vote

    seen: list[int] = []

    def record(*args: Any, seed: int, **kwargs: Any) -> Any:
        seen.append(seed)
        return _Verdict(False)

    vote(_never_sampled, (0, 1), 1.0, votes=votes, runner=record)
    seeds = sorted(set(seen))
    total = Fraction(0)
    for flags in product((False, True), repeat=len(seeds)):
        verdict = dict(zip(seeds, flags, strict=True))

        def stand_in(*args: Any, seed: int, verdict: dict[int, bool] = verdict, **kw: Any) -> Any:
            return _Verdict(verdict[seed])

        if not vote(_never_sampled, (0, 1), 1.0, votes=votes, runner=stand_in).passed:
            k = sum(flags)
            total += alpha**k * (1 - alpha) ** (len(seeds) - k)
    return total


def _never_sampled(data: Any, n: int, rng: Any) -> Any:
    """The target of a vote whose audits are stand-ins (they never sample it)."""
    raise AssertionError("a stand-in audit sampled its target")


class _Verdict:
    """What :func:`vote` reads of an audit: its verdict."""

    def __init__(self, violation: bool) -> None:
        self.violation = violation
        self.epsilon_lower = 0.0


@Obligation(
    id="audit.assert-dp",
    source=(
        "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); Google DP "
        "libraries' 9-vote statistical tests"
    ),
    claim=(
        "assert_dp's stated false alarm (3.3e-5 for 9 votes at 0.05) equals the exact "
        "false alarm of the vote rule the code applies; it rejects 1.2x the claimed "
        "epsilon"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{CHECKER_SOUNDNESS}: assert_dp's stated false alarm against its vote rule's exact one"
    ),
    impls=(
        assert_dp,
        vote,
        VoteResult,
        DPViolation,
        majority_false_alarm,
        "dpspec.audit.ci._vote_seeds",
        assert_dp_fixture,
    ),
    tests=(
        "tests/test_audit.py::test_assert_dp_fixture",
        "tests/test_audit_kinds.py::test_assert_dp_takes_audit_options_and_carries_results",
    ),
)
def assert_dp_validity(config: VerifyConfig) -> CheckOutcome:
    """``assert_dp``'s stated false-alarm bound against the exact false-alarm probability of
    the vote rule the code applies (:func:`exact_vote_false_alarm`, 9 votes at α = 0.05 and 3
    at α = 0.2: equal), with two controls run through the same computation — a vote that fails
    at half the votes (4 of 9) and votes that share one seed — each of which must exceed the
    stated bound; and validity: with 9 audits of 10^5 draws at confidence 0.95 it
    accepts Laplace and randomized response at their true ε and rejects both when their true
    ε is 1.2× the claim (Google's DP libraries' "validity" test)."""
    from unittest import mock

    import dpspec.audit.ci as ci

    exact = {
        (v, a): exact_vote_false_alarm(v, a) for v, a in ((9, Fraction(1, 20)), (3, Fraction(1, 5)))
    }
    stated = {k: majority_false_alarm(k[0], float(k[1])) for k in exact}
    agree = all(math.isclose(float(exact[k]), stated[k], rel_tol=1e-12) for k in exact)
    nine = (9, Fraction(1, 20))
    with mock.patch.object(
        ci.VoteResult, "passed", property(lambda self: self.violations < self.votes // 2)
    ):
        at_half = exact_vote_false_alarm(*nine)
    with mock.patch.object(ci, "_vote_seeds", lambda seed, votes: [seed] * votes):
        one_seed = exact_vote_false_alarm(*nine)
    controls = [
        Control(
            "assert_dp failing at 4 of 9 votes (a majority rule off by one)",
            float(at_half) > stated[nine],
            f"exact false alarm {float(at_half):.3g} > stated {stated[nine]:.3g}",
        ),
        Control(
            "assert_dp's votes sharing one seed (not independent)",
            float(one_seed) > stated[nine],
            f"exact false alarm {float(one_seed):.3g} > stated {stated[nine]:.3g}",
        ),
    ]
    cases = [
        ("laplace", FunctionMechanism("lap", laplace_sampler(2.0)), (0.0, 1.0), 0.5),
        ("randomized-response", _rr_mechanism(1.0), (0, 1), 1.0),
    ]
    verdicts = {}
    for name, mech, pair, true in cases:
        accept = vote(mech, pair, true, samples=10**5, seed=SEED + 1)
        reject = vote(mech, pair, true / 1.2, samples=10**5, seed=SEED + 2)
        verdicts[name] = (accept.passed, not reject.passed, accept.violations, reject.violations)
        controls.append(
            Control(
                f"{name} whose true ε is 1.2× the claim",
                not reject.passed,
                f"{reject.violations}/9 votes flag it",
            )
        )
    ok = agree and all(a for a, _, _, _ in verdicts.values())
    return CheckOutcome(
        ok,
        f"exact false alarm of the vote rule: 9 votes at 0.05 {float(exact[nine]):.4g}, 3 at "
        f"0.2 {float(exact[(3, Fraction(1, 5))]):.4g} (stated: {stated[nine]:.4g}, "
        f"{stated[(3, Fraction(1, 5))]:.4g}); controls: failing at 4 of 9 "
        f"{float(at_half):.3g}, one seed {float(one_seed):.3g}; (accepts truth, rejects 1.2x, "
        f"votes for, votes against): {verdicts}",
        {"exact": {f"{v}@{a}": float(p) for (v, a), p in exact.items()}, "verdicts": {
            k: list(v) for k, v in verdicts.items()}},
        controls,
        [Slack("P(false alarm), 9 votes", stated[nine], float(exact[nine]))],
    )  # fmt: skip


@Obligation(
    id="audit.pair-search",
    source=(
        "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); StatDP input "
        "patterns (Ding et al. 2018); Hypothesis targeted search"
    ),
    claim=(
        "StatDP's patterns and a hypothesis.target search find a violating pair for "
        "noisy-max v1b and SVT Alg 4, and none for their correct versions"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{CHECKER_SOUNDNESS}: the searches' verdicts on broken and correct noisy max and SVT"
    ),
    impls=(
        "dpspec.audit._search.statdp_patterns",
        "dpspec.audit._search.query_vector_pairs",
        "dpspec.audit._search.hypothesis_search",
        "dpspec.audit._search.SearchResult",
    ),
    tests=("tests/test_audit.py::test_statdp_patterns",),
)
def pair_search(config: VerifyConfig) -> CheckOutcome:
    """Neighbour search: starting from nothing but the query dimension, the Hypothesis search
    (``target`` on the screening score, 12 examples of 5000 draws; 40 with ``--thorough``) and
    StatDP's patterns (10^4 screening draws each) both find a pair on which noisy-max v1b and
    SVT Lyu Alg 4 are flagged at 10^5 draws (10^6 thorough). Controls: those two broken
    mechanisms (the noisy max *value* instead of its index; SVT with the threshold noise of
    Lyu et al.'s Alg 4) must be flagged through both searches; the correct noisy-max v1a and
    SVT must not be. Slack: claim / ε_LCB of the correct ones."""
    from dpspec.audit import audit_pairs
    from dpspec.audit.machinery import hypothesis_search, query_vector_pairs, statdp_patterns

    entries = zoo()
    rows = {}
    samples = 10**6 if config.thorough else 10**5
    examples = 40 if config.thorough else 12
    controls, slack = [], []
    for name, m in (("noisy-max-v1b", 5), ("svt-lyu-alg4", 10), ("noisy-max-v1a", 5), ("svt", 10)):
        entry = entries[name]
        found = hypothesis_search(
            entry.mechanism,
            query_vector_pairs(m),
            entry.epsilon,
            samples=samples,
            seed=SEED,
            screen=5000,
            max_examples=examples,
        )
        pattern = audit_pairs(
            entry.mechanism, statdp_patterns(m), entry.epsilon, samples=samples, seed=SEED,
            screen=10_000,
        )  # fmt: skip
        rows[name] = (
            entry.correct,
            found.audit.violation,
            pattern.violation,
            round(found.audit.epsilon_lower, 3),
            round(pattern.epsilon_lower, 3),
        )
        best = max(found.audit.epsilon_lower, pattern.epsilon_lower)
        if entry.correct:
            slack.append(Slack(f"ε ({name})", entry.epsilon, best))
        else:
            controls.append(
                Control(
                    f"{name}: {entry.why}",
                    found.audit.violation and pattern.violation,
                    f"ε_LCB {found.audit.epsilon_lower:.3f} (Hypothesis), "
                    f"{pattern.epsilon_lower:.3f} (patterns) against {entry.epsilon:g}",
                )
            )
    ok = all(not hv and not pv for correct, hv, pv, _, _ in rows.values() if correct)
    return CheckOutcome(
        ok,
        f"(correct, hypothesis flags, patterns flag, eps_LCB hypothesis, eps_LCB patterns): {rows}",
        {"rows": {k: list(v) for k, v in rows.items()}},
        controls,
        slack,
    )


@Obligation(
    id="audit.library-targets",
    source=(
        "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); OpenDP, PyDP, "
        "diffprivlib public APIs"
    ),
    claim=(
        "user callables and library mechanisms load as audit targets calibrated to the "
        "claim; honest claims pass, halved claims are flagged"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{CHECKER_SOUNDNESS}: audits of user and library targets at their claims and miscalibrated"
    ),
    impls=(
        load_target,
        "dpspec.audit.libraries._LibraryMechanism",
        "dpspec.audit.libraries._gaussian_sigma",
    ),
    tests=(
        "tests/test_audit_libraries.py::test_user_callables",
        "tests/test_audit_libraries.py::test_bad_targets",
        "tests/test_audit_libraries.py::test_gaussian_calibration",
        "tests/test_audit_libraries.py::test_opendp_follows_its_claimed_law",
        "tests/test_audit_libraries.py::test_pydp_follows_its_claimed_law",
        "tests/test_audit_libraries.py::test_diffprivlib_target",
    ),
)
def library_targets(config: VerifyConfig) -> CheckOutcome:
    """Audit targets: a user callable given as ``file.py:function`` (always) and the installed
    libraries (OpenDP geometric, PyDP Laplace: in the dev and ``audit-libs`` extras; skipped,
    and said so, when absent) are audited at their claimed ε = 0.5 and not flagged. Controls:
    the user's function with its noise drawn for ε × 1.25 (10^5 draws), and each library
    mechanism calibrated for sensitivity 1 where the query has sensitivity 2 (built at 2ε;
    2·10^4 draws: OpenDP's exact samplers are slow), audited against 0.5, must be flagged —
    the plumbing measures the library's own noise.

    OpenDP and PyDP draw from their own unseeded randomness, so the verdict cannot rest on a
    seed: every target is audited at confidence 1 − ``LIBRARY_ALPHA`` (10^-7), the audit's
    false-alarm bound for a mechanism that meets the claim (OpenDP's geometric meets ε = 0.5
    with equality, so at the default 0.95 it was flagged about once in twenty runs). The
    controls' lower bounds stay far above 0.5 at that level: about 0.58 for the user's ε × 1.25
    and 0.87–0.92 for the libraries' 2ε."""
    import importlib.util
    import textwrap

    from dpspec.audit.libraries import load_target

    rows: dict[str, tuple[bool, bool]] = {}
    controls, slack = [], []
    with TemporaryDirectory() as tmp:
        code = Path(tmp) / "user_mech.py"
        code.write_text(
            textwrap.dedent(
                """
                def release(d, n, rng):
                    return d + rng.laplace(0.0, 2.0, n)

                def release_for_more_epsilon(d, n, rng):
                    return d + rng.laplace(0.0, 2.0 / 1.25, n)
                """
            ),
            encoding="utf-8",
        )
        targets: list[tuple[str, str, float, Any, Any, int]] = [
            (f"{code}:release", f"{code}:release_for_more_epsilon", 0.5, 0.0, 1.0, 100_000)
        ]
        skipped = []
        for spec, d1, d2, package in (
            ("opendp:geometric", 0, 1, "opendp"),
            ("pydp:laplace", [0.0], [1.0], "pydp"),
        ):
            if importlib.util.find_spec(package) is None:
                skipped.append(f"{spec} ({package} not installed: an optional extra)")
            else:
                targets.append((spec, spec, 1.0, d1, d2, 20_000))
        for spec, bug_spec, bug_eps, d1, d2, n in targets:
            honest, bug = (
                audit(
                    load_target(s, e),
                    (d1, d2),
                    0.5,
                    samples=n,
                    seed=SEED,
                    confidence=1.0 - LIBRARY_ALPHA,
                )
                for s, e in ((spec, 0.5), (bug_spec, bug_eps))
            )
            short = spec.split("/")[-1]
            rows[short] = (not honest.violation, bug.violation)
            slack.append(Slack(f"ε ({short})", 0.5, honest.epsilon_lower))
            what = (
                "noise drawn for ε × 1.25"
                if bug_spec != spec
                else "calibrated for sensitivity 1 on a sensitivity-2 query (noise for 2ε)"
            )
            controls.append(
                Control(f"{short}: {what}", bug.violation, f"ε_LCB {bug.epsilon_lower:.3f}")
            )
    ok = all(a for a, _ in rows.values())
    return CheckOutcome(
        ok,
        f"(consistent at 0.5, bug flagged) per target: {rows}; skipped: {skipped or 'none'}",
        {"targets": {k: list(v) for k, v in rows.items()}, "skipped": skipped},
        controls,
        slack,
    )
