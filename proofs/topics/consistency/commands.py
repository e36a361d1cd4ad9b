"""``dpspec consistency LEARNER``: the error of a learner along an n-grid, and its trend.

Seed 000 Thm 3.2, 4.3, A.12, A.15 (``000_dff3c4dc97cf0e21.txt:L208``, L522, L572) and seed 003
Thm 2–4 are limits; the command fits on fresh samples for each n and repetition, prints the
exact (or sampled) error per n and decides the trend with
:func:`dpspec.spec.consistency.consistency_trend` (Jonckheere–Terpstra, exact one-sided p-value
over every (n, repetition) value, level ``--alpha``; the final mean must be ≤ ``--tolerance``).

Exit codes: 0 the trend holds (or one n only: nothing to decide), 1 the trend is not
established, 2 a bad argument (checked before any fit, one line on stderr naming the option),
3 an internal error.
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections.abc import Sequence
from typing import Any

from dpspec.proofs.engine.consistency_runs import N_MAX, REPS_MAX
from dpspec.proofs.engine.errors import (
    EXIT_OK,
    EXIT_VIOLATION,
    UsageError,
    check_plot,
    write_json,
)

#: largest test sample for sampled errors
TEST_SIZE_MAX = 10**7


#: largest ε (LDP α): e^ε must stay a finite float (e^709.8 overflows)
EPSILON_MAX = 700.0


#: learners spending more than ε in total: (factor, reason); ε · factor must stay ≤ EPSILON_MAX
EPSILON_FACTOR = {"pcl2b": (2, "its two releases spend 2·epsilon")}


#: smallest ε: the exact samplers round ε down to a multiple of 2^-32 (it must stay > 0)
EPSILON_MIN = 2.0**-32


#: seeds are non-negative integers below 2^63
SEED_MAX = 2**63 - 1


LDP_DIMENSIONS = (1, 2, 3)


def _sizes(text: str) -> list[int]:
    """``--n``: comma-separated sizes (``1e3`` allowed), integers in [1, N_MAX], increasing."""
    sizes: list[int] = []
    for part in text.split(","):
        item = part.strip()
        try:
            value = float(item)
        except ValueError:
            raise UsageError(f"--n: expected comma-separated sizes, got {text!r}") from None
        if not math.isfinite(value) or value != math.floor(value):
            raise UsageError(f"--n: sizes must be whole numbers, got {item!r}")
        if not 1 <= value <= N_MAX:
            raise UsageError(f"--n: sizes must be in [1, {N_MAX:.0e}], got {item!r}")
        sizes.append(int(value))
    if any(b <= a for a, b in itertools.pairwise(sizes)):
        raise UsageError(f"--n: sizes must be strictly increasing, got {sizes}")
    return sizes


def _in_range(value: float, option: str, low: float, high: float, low_open: bool) -> None:
    ok = math.isfinite(value) and (low < value if low_open else low <= value) and value <= high
    if not ok:
        bracket = "(" if low_open else "["
        raise UsageError(f"{option}: must be in {bracket}{low:g}, {high:g}], got {value!r}")


def _count(value: int, option: str, low: int, high: int) -> None:
    if not low <= value <= high:
        raise UsageError(f"{option}: must be an integer in [{low}, {high}], got {value}")


def validate(args: argparse.Namespace) -> tuple[list[int], str, str]:
    """Check every option before any fit: (sizes, learner kind, distribution name).

    The kind is ``classifier``, ``density`` or ``ldp``. Raises :class:`UsageError`."""
    from dpspec.consistency import PROBLEMS
    from dpspec.densities import DENSITIES as DENSITY_LAWS
    from dpspec.proofs.engine.consistency_runs import LDP_KINDS
    from dpspec.proofs.topics.consistency.experiments import CLASSIFIERS, DENSITIES
    from dpspec.spec.consistency import JT_WORK_LIMIT

    learners = (*CLASSIFIERS, *DENSITIES, *LDP_KINDS)
    if args.learner not in learners:
        raise UsageError(f"learner: unknown {args.learner!r}; choose from {sorted(learners)}")
    ns = _sizes(args.n)
    _in_range(args.epsilon, "--epsilon", EPSILON_MIN, EPSILON_MAX, low_open=False)
    if args.learner in EPSILON_FACTOR:
        factor, reason = EPSILON_FACTOR[args.learner]
        if args.epsilon * factor > EPSILON_MAX:
            raise UsageError(
                f"--epsilon: {args.learner} needs epsilon <= {EPSILON_MAX / factor:g} ({reason} "
                f"<= {EPSILON_MAX:g}), got {args.epsilon!r}"
            )
    _count(args.reps, "--reps", 1, REPS_MAX)
    _count(args.test_size, "--test-size", 1, TEST_SIZE_MAX)
    _count(args.seed, "--seed", 0, SEED_MAX)
    if not (math.isfinite(args.alpha) and 0 < args.alpha < 1):
        raise UsageError(f"--alpha: must be in (0, 1), got {args.alpha!r}")
    if not (math.isfinite(args.tolerance) and args.tolerance >= 0):
        raise UsageError(f"--tolerance: must be a finite number >= 0, got {args.tolerance!r}")
    total = len(ns) * args.reps
    pairs = (total * total - len(ns) * args.reps * args.reps) // 2
    if len(ns) >= 2 and total * max(pairs, 1) > JT_WORK_LIMIT:
        raise UsageError(
            f"--reps: {args.reps} repetitions at {len(ns)} sizes exceed the exact trend test's "
            f"limit (values x pairs <= {JT_WORK_LIMIT:.0e})"
        )
    if len(ns) >= 2:  # the most extreme arrangement has p = Π n_i! / N! (module docstring)
        smallest = math.factorial(args.reps) ** len(ns) / math.factorial(total)
        if smallest >= args.alpha:
            raise UsageError(
                f"--reps: {len(ns)} sizes x {args.reps} repetitions cannot reach --alpha "
                f"{args.alpha:g} (smallest exact p-value {smallest:.3g}); add sizes or repetitions"
            )
    if args.learner in LDP_KINDS:
        d = 1 if args.d is None else args.d
        if d not in LDP_DIMENSIONS:
            raise UsageError(f"--d: must be one of {LDP_DIMENSIONS}, got {d}")
        name = f"sine-d{d}"
        if args.distribution not in (None, "sine", name):
            raise UsageError(
                f"--distribution: {args.learner} runs on the sine problem only ('sine'), "
                f"got {args.distribution!r}"
            )
        kind = "ldp"
    else:
        if args.d is not None:
            raise UsageError(
                f"--d: only for ldp-regression, ldp-classifier and partitioning, not {args.learner}"
            )
        if args.learner in DENSITIES:
            name = "normal" if args.distribution is None else args.distribution
            if name not in DENSITY_LAWS:
                raise UsageError(
                    f"--distribution: unknown density {name!r}; choose from {sorted(DENSITY_LAWS)}"
                )
            if ns[0] < 2:  # δ = n^-2 must be < 1
                raise UsageError(f"--n: pcde needs n >= 2 (it runs at delta = n^-2), got {ns[0]}")
            kind = "density"
        else:
            name = "checkerboard" if args.distribution is None else args.distribution
            if name not in PROBLEMS:
                raise UsageError(
                    f"--distribution: unknown {name!r}; choose from {sorted(PROBLEMS)}"
                )
            kind = "classifier"
    check_plot(args.plot)
    return ns, kind, name


def _cmd_consistency(args: argparse.Namespace) -> int:
    from dpspec.proofs.engine.consistency_runs import plot_rows, run_ldp_consistency
    from dpspec.proofs.topics.consistency.experiments import (
        make_classifier,
        make_problem,
        run_consistency,
        run_density_consistency,
    )
    from dpspec.spec.consistency import consistency_trend

    ns, kind, dist = validate(args)
    progress = not args.no_progress
    if kind == "ldp":
        d = 1 if args.d is None else args.d
        rows = run_ldp_consistency(
            args.learner, d, ns, args.epsilon, args.reps, args.seed, progress
        )
        metric = "excess_risk" if args.learner == "ldp-classifier" else "l2_error"
    elif kind == "density":
        rows = run_density_consistency(
            ns, args.epsilon, args.reps, args.seed, progress, density=dist
        )
        metric = "l1_distance"
    else:
        try:  # optional dependencies (diffprivlib) are reported before any fit
            make_classifier(args.learner, args.epsilon, ns[0], 0)
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
        rows = run_consistency(
            make_problem(dist),
            lambda eps, n, seed: make_classifier(args.learner, eps, n, seed),
            ns,
            args.epsilon,
            args.reps,
            args.seed,
            test_size=args.test_size,
            progress=progress,
        )
        metric = "excess_risk"
    print(f"{args.learner} on {dist}, epsilon={args.epsilon}, {args.reps} reps ({metric})")
    print(f"{'n':>10}  {'mean':>9}  {'95% CI':>21}  {'fit s':>7}  {'predict s':>9}  exact")
    for r in rows:
        lo, hi = r.excess_risk_ci
        print(
            f"{r.n:>10}  {r.excess_risk:9.4f}  [{lo:9.4f}, {hi:9.4f}]  {r.fit_seconds:7.3f}"
            f"  {r.predict_seconds:9.3f}  {r.exact}"
        )
    trend = None
    if len(rows) >= 2:
        trend = consistency_trend([r.values for r in rows], args.alpha, args.tolerance)
        print(
            f"trend: decreasing={trend.decreasing} (Jonckheere-Terpstra exact one-sided "
            f"p={trend.pvalue:.3g}, S={trend.statistic}/{trend.max_statistic}, "
            f"alpha={trend.alpha}), final mean <= {trend.tolerance}: {trend.below_tolerance}"
        )
    payload: dict[str, Any] = {
        "learner": args.learner,
        "distribution": dist,
        "epsilon": args.epsilon,
        "metric": metric,
        "rows": [r.to_json() for r in rows],
        "trend": None if trend is None else trend.__dict__,
    }
    write_json(args.json, payload)
    if args.plot:
        plot_rows(rows, f"{args.learner} on {dist}, eps={args.epsilon}", args.plot)
    return EXIT_VIOLATION if trend is not None and not trend.holds else EXIT_OK


def register(sub: Any) -> None:
    """Add the ``consistency`` subcommand to the ``dpspec`` parser's subparsers ``sub``."""
    cons = sub.add_parser(
        "consistency",
        help="excess risk (or L1 / L2 error) along an n-grid, and its trend",
        description="Exit codes: 0 the trend holds, 1 trend not established, 2 usage error, "
        "3 internal error.",
    )
    cons.add_argument(
        "learner",
        help="pcl, pcl2, pcl2b, pcde, histogram, diffprivlib-gnb/-logreg, ldp-regression, "
        "ldp-classifier, partitioning",
    )
    cons.add_argument(
        "--distribution",
        default=None,
        help="classifiers: checkerboard (default)|circle|threshold|gaussian-mixture; pcde: "
        "normal (default)|student-t|cauchy|normal-2d|student-t-2d; ldp-*: sine (the only one)",
    )
    cons.add_argument(
        "--n",
        default="1000,10000,100000",
        help=f"comma-separated increasing sample sizes in [1, {N_MAX:.0e}]",
    )
    cons.add_argument(
        "--epsilon",
        type=float,
        default=1.0,
        help=f"epsilon in [2^-32, {EPSILON_MAX:g}] (the LDP level for the LDP estimators)",
    )
    cons.add_argument("--d", type=int, default=None, help="dimension 1, 2 or 3 (ldp-* only)")
    cons.add_argument("--reps", type=int, default=5, help=f"repetitions per n, 1..{REPS_MAX}")
    cons.add_argument("--seed", type=int, default=0, help="integer >= 0")
    cons.add_argument(
        "--test-size", type=int, default=200_000, help="test points for sampled errors"
    )
    cons.add_argument(
        "--alpha",
        type=float,
        default=1e-3,
        help="level of the exact Jonckheere-Terpstra trend test, in (0, 1)",
    )
    cons.add_argument("--tolerance", type=float, default=0.05, help="final mean bound (>= 0)")
    cons.add_argument("--json", metavar="PATH", help="write the rows as JSON")
    cons.add_argument("--plot", metavar="PNG", help="plot the error vs n (log x)")
    cons.add_argument("--no-progress", action="store_true", help="no progress bar")
    cons.set_defaults(func=_cmd_consistency)


def main_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``consistency`` arguments alone (for tests of :func:`validate`)."""
    parser = argparse.ArgumentParser(prog="dpspec")
    register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["consistency", *argv])
