"""``dpspec consistency LEARNER``: the error of a learner along an n-grid, and its trend.

Seed 000 Thm 3.2, 4.3, A.12, A.15 (``000_dff3c4dc97cf0e21.txt:L208``, L522, L572) and seed 003
Thm 2–4 are limits; the command fits on fresh samples for each n and repetition, prints the
exact (or sampled) error per n and decides the trend with
:func:`dpspec.spec.consistency.consistency_trend` (Jonckheere–Terpstra, exact one-sided p-value
over every (n, repetition) value, level ``--alpha``; the final mean must be ≤ ``--tolerance``).

Every option is declared with its domain (:func:`dpspec.proofs.engine.options.add_option`), so
a value outside it is a usage error before any work; the options that depend on each other
(learner and distribution, the trend test's size) are checked next, still before any fit.

Exit codes: 0 the trend holds (or one n only: nothing to decide), 1 the trend is not
established, 2 a bad argument (checked before any fit, one line on stderr naming the option),
3 an internal error.
"""

from __future__ import annotations

import argparse
import itertools
import math
from dataclasses import dataclass
from typing import Any

from dpspec.proofs.engine.consistency_runs import LDP_KINDS, N_MAX, REPS_MAX
from dpspec.proofs.engine.errors import (
    EXIT_OK,
    EXIT_VIOLATION,
    UsageError,
    check_plot,
    write_json,
)
from dpspec.proofs.engine.options import WritablePath, add_option
from dpspec.proofs.topics.consistency.experiments import CLASSIFIERS, DENSITIES
from dpspec.validation import Choice, Domain, Integer, Real

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

#: every learner the command runs
LEARNERS = (*CLASSIFIERS, *DENSITIES, *LDP_KINDS)


@dataclass(frozen=True)
class SampleSizes(Domain):
    """``--n``: comma-separated sample sizes (``1e3`` allowed), integers in [1, N_MAX],
    strictly increasing."""

    def convert(self, value: Any, name: str) -> list[int]:
        if not isinstance(value, str):
            raise ValueError(f"{name}: expected comma-separated sizes, got {value!r}")
        sizes: list[int] = []
        for part in value.split(","):
            item = part.strip()
            try:
                number = float(item)
            except ValueError:
                raise ValueError(f"{name}: expected comma-separated sizes, got {value!r}") from None
            if not math.isfinite(number) or number != math.floor(number):
                raise ValueError(f"{name}: sizes must be whole numbers, got {item!r}")
            if not 1 <= number <= N_MAX:
                raise ValueError(f"{name}: sizes must be in [1, {N_MAX:.0e}], got {item!r}")
            sizes.append(int(number))
        if any(b <= a for a, b in itertools.pairwise(sizes)):
            raise ValueError(f"{name}: sizes must be strictly increasing, got {sizes}")
        return sizes

    def refused(self) -> tuple[Any, ...]:
        return ("", "0", "1e30", "1.5", "nan", "100,10", "a,b", "100,,1000", "-5")

    @property
    def example(self) -> Any:
        return "1000,10000"

    def describe(self) -> str:
        return f"comma-separated increasing sizes in [1, {N_MAX:.0e}]"


def _distributions() -> tuple[str, ...]:
    """The problem names the command accepts (classifiers, densities, and the LDP sine)."""
    from dpspec.consistency import PROBLEMS
    from dpspec.densities import DENSITIES as DENSITY_LAWS

    return (*PROBLEMS, *DENSITY_LAWS, "sine", *(f"sine-d{d}" for d in LDP_DIMENSIONS))


def validate(args: argparse.Namespace) -> tuple[list[int], str, str]:
    """The options that depend on each other, before any fit: (sizes, learner kind,
    distribution name). Each option's own domain was checked by argparse (``add_option``).

    The kind is ``classifier``, ``density`` or ``ldp``. Raises :class:`UsageError`."""
    from dpspec.consistency import PROBLEMS
    from dpspec.densities import DENSITIES as DENSITY_LAWS
    from dpspec.spec.consistency import JT_WORK_LIMIT

    ns: list[int] = args.n
    if args.learner in EPSILON_FACTOR:
        factor, reason = EPSILON_FACTOR[args.learner]
        if args.epsilon * factor > EPSILON_MAX:
            raise UsageError(
                f"--epsilon: {args.learner} needs epsilon <= {EPSILON_MAX / factor:g} ({reason} "
                f"<= {EPSILON_MAX:g}), got {args.epsilon!r}"
            )
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
    add_option(
        cons,
        "learner",
        domain=Choice(options=LEARNERS),
        example="pcl",
        help="pcl, pcl2, pcl2b, pcde, histogram, diffprivlib-gnb/-logreg, ldp-regression, "
        "ldp-classifier, partitioning",
    )
    add_option(
        cons,
        "--distribution",
        domain=Choice(options=_distributions(), optional=True),
        default=None,
        help="classifiers: checkerboard (default)|circle|threshold|gaussian-mixture; pcde: "
        "normal (default)|student-t|cauchy|normal-2d|student-t-2d; ldp-*: sine (the only one)",
    )
    add_option(
        cons,
        "--n",
        domain=SampleSizes(),
        default=SampleSizes().check("1000,10000,100000", "--n"),
        help=f"comma-separated increasing sample sizes in [1, {N_MAX:.0e}]",
    )
    add_option(
        cons,
        "--epsilon",
        domain=Real(lo=EPSILON_MIN, hi=EPSILON_MAX),
        default=1.0,
        help=f"epsilon in [2^-32, {EPSILON_MAX:g}] (the LDP level for the LDP estimators)",
    )
    add_option(
        cons,
        "--d",
        domain=Integer(lo=min(LDP_DIMENSIONS), hi=max(LDP_DIMENSIONS), optional=True),
        default=None,
        help="dimension 1, 2 or 3 (ldp-* only)",
    )
    add_option(
        cons,
        "--reps",
        domain=Integer(lo=1, hi=REPS_MAX),
        default=5,
        help=f"repetitions per n, 1..{REPS_MAX}",
    )
    add_option(cons, "--seed", domain=Integer(lo=0, hi=SEED_MAX), default=0, help="integer >= 0")
    add_option(
        cons,
        "--test-size",
        domain=Integer(lo=1, hi=TEST_SIZE_MAX),
        default=200_000,
        help="test points for sampled errors",
    )
    add_option(
        cons,
        "--alpha",
        domain=Real(lo=0.0, hi=1.0, lo_open=True, hi_open=True),
        default=1e-3,
        help="level of the exact Jonckheere-Terpstra trend test, in (0, 1)",
    )
    add_option(
        cons,
        "--tolerance",
        domain=Real(lo=0.0),
        default=0.05,
        help="final mean bound (>= 0)",
    )
    add_option(
        cons,
        "--json",
        domain=WritablePath(),
        default=None,
        metavar="PATH",
        help="write the rows as JSON",
    )
    add_option(
        cons,
        "--plot",
        domain=WritablePath(suffixes=(".png",)),
        default=None,
        metavar="PNG",
        help="plot the error vs n (log x)",
    )
    cons.add_argument("--no-progress", action="store_true", help="no progress bar")
    cons.set_defaults(func=_cmd_consistency)
