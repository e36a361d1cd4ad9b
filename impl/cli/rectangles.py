"""``dpspec rectangles``: RandMargins against the interior-point baseline and the non-private
learner on random realizable data (thesis ch. 5).

Prints, per sample size n, the mean exact error (mass of the symmetric difference under the
uniform law on {0..X}^d) of the three learners over ``--reps`` draws, and the privacy each
private learner claims. Exit 0 on success, 2 on usage errors (one line naming the option, before
any work: every option has a declared domain, and the request's memory and work are estimated
against their limits), 3 on I/O errors.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dpspec.proofs.engine.errors import UsageError, check_plot, write_json
from dpspec.proofs.engine.options import JSON_HELP, WritablePath, add_option
from dpspec.validation import MEMORY_LIMIT, Delta, Domain, Epsilon, Integer

#: Largest sample size one run draws.
MAX_N = 10**7
#: Bytes per coordinate one repetition holds at once (X, the labels, the positives, fit's
#: refined copy and masks, the baseline's sorted columns).
BYTES_PER_COORDINATE = 48
#: Coordinates one command may draw in all (reps × Σn × d): about 100 s on one core.
MAX_COORDINATES = 2**31


@dataclass(frozen=True)
class SampleSizes(Domain):
    """Comma-separated sample sizes, each an integer in [1, 10^7] (1e4 is accepted)."""

    def convert(self, value: Any, name: str) -> tuple[int, ...]:
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{name}: expected comma-separated integers, got {value!r}")
        sizes = []
        for part in value.split(","):
            try:
                number = Fraction(part.strip())
            except (ValueError, ZeroDivisionError):
                raise ValueError(
                    f"{name}: expected comma-separated integers, got {value!r}"
                ) from None
            if number.denominator != 1 or not 1 <= number <= MAX_N:
                raise ValueError(f"{name}: sample sizes must be integers in [1, 1e7], got {part!r}")
            sizes.append(int(number))
        return tuple(sizes)

    def hostile(self) -> tuple[Any, ...]:
        return ("", "0", "-5", "1.5", "1e8", "a,b", "100,", "nan", "inf", "1/0")

    @property
    def example(self) -> Any:
        return "2000"

    def describe(self) -> str:
        return "comma-separated sample sizes in [1, 1e7]"


def _check_request(args: argparse.Namespace) -> None:
    """Refuse, before any work, a request beyond the memory or work limit, or a level below
    what the interior-point algorithm accepts (one line naming the option)."""
    largest = max(args.n)
    memory = BYTES_PER_COORDINATE * largest * args.d
    if memory > MEMORY_LIMIT:
        raise UsageError(
            f"--n: n = {largest} points in d = {args.d} dimensions need ~{memory / 2**30:.3g} GiB "
            f"({BYTES_PER_COORDINATE} bytes per coordinate); the limit is "
            f"{MEMORY_LIMIT / 2**30:.3g} GiB"
        )
    work = args.reps * sum(args.n) * args.d
    if work > MAX_COORDINATES:
        raise UsageError(
            f"--n: reps × Σn × d = {work:.3g} coordinates to draw and fit (about "
            f"{work * 5e-8:.0f} s); the limit is 2^31 ≈ {MAX_COORDINATES:.3g}"
        )
    from dpspec.rectangles import baseline_step, per_call_level

    try:
        per_call_level(args.epsilon, args.delta, args.d)
        baseline_step(args.epsilon, args.delta, args.d)
    except ValueError as exc:
        raise UsageError(f"--epsilon: {str(exc).split(': ', 1)[-1]}") from None


def _cmd_rectangles(args: argparse.Namespace) -> int:
    _check_request(args)
    check_plot(args.plot)
    import numpy as np

    from dpspec.rectangles import (
        PrivateRectangleClassifier,
        baseline_step,
        interior_point_baseline,
        nonprivate_rectangle,
    )
    from dpspec.spec.rectangles import rectangle_error

    rng = np.random.default_rng(args.seed)
    target = rng.integers(args.grid_max // 2, args.grid_max + 1, size=args.d)
    rows = []
    step = baseline_step(args.epsilon, args.delta, args.d)
    clf = PrivateRectangleClassifier(args.epsilon, args.delta, args.grid_max)
    for n in args.n:
        errs: dict[str, list[float]] = {"randmargins": [], "baseline": [], "nonprivate": []}
        for r in range(args.reps):
            X = rng.integers(0, args.grid_max + 1, size=(n, args.d))
            y = np.all(target >= X, axis=1).astype(np.int64)
            clf.set_params(random_state=args.seed + r)
            clf.fit(X, y)
            errs["randmargins"].append(
                float(rectangle_error(target.tolist(), clf.p_.tolist(), args.grid_max))
            )
            positives = X[y == 1]
            base = interior_point_baseline(
                positives, args.grid_max, args.epsilon, args.delta, 0.05, rng
            )
            errs["baseline"].append(
                float(rectangle_error(target.tolist(), base.tolist(), args.grid_max))
            )
            exact = nonprivate_rectangle(positives)
            errs["nonprivate"].append(
                float(rectangle_error(target.tolist(), exact.tolist(), args.grid_max))
            )
        rows.append({"n": n, **{k: float(np.mean(v)) for k, v in errs.items()}})
    print(
        f"d = {args.d}, X = {args.grid_max}, target (ε, δ) = ({args.epsilon}, {args.delta}); "
        f"RandMargins accounting: {clf.accounting_} (ε per call {clf.epsilon_call_:.4g}); "
        f"baseline ε per call {step:.4g} (advanced composition over d calls, or ε/d)"
    )
    print(f"{'n':>9} {'RandMargins':>12} {'baseline':>10} {'non-private':>12}")
    for row in rows:
        print(
            f"{row['n']:>9} {row['randmargins']:>12.4g} {row['baseline']:>10.4g} "
            f"{row['nonprivate']:>12.4g}"
        )
    write_json(args.json, {"d": args.d, "grid_max": args.grid_max, "rows": rows})
    if args.plot:
        _plot(rows, args.plot, args.d)
    return 0


def _plot(rows: list[dict[str, Any]], path: str, d: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ns = [r["n"] for r in rows]
    for key in ("randmargins", "baseline", "nonprivate"):
        ax.plot(ns, [max(r[key], 1e-6) for r in rows], "o-", label=key)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("error")
    ax.set_title(f"rectangles, d = {d}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def register(sub: Any) -> None:
    """Add ``rectangles`` to the ``dpspec`` subparsers."""
    p = sub.add_parser(
        "rectangles",
        help="RandMargins vs the interior-point baseline and the non-private learner (ch. 5)",
        description="Exit codes: 0 done, 2 usage error, 3 internal error.",
    )
    add_option(p, "--d", domain=Integer(1, hi=1000), default=3, help="dimension")
    add_option(
        p, "--grid-max", domain=Integer(1, hi=2**16), default=1023, help="X: the grid {0..X}^d"
    )
    add_option(p, "--n", domain=SampleSizes(), default=(20000, 80000), help="comma-separated sizes")
    add_option(p, "--epsilon", domain=Epsilon(), default=1.0, help="target ε (add/remove)")
    add_option(p, "--delta", domain=Delta(), default=1e-6, help="target δ (the baseline's)")
    add_option(p, "--reps", domain=Integer(1, hi=1000), default=3, help="repetitions per n")
    add_option(p, "--seed", domain=Integer(0, hi=2**63 - 1), default=0, help="seed")
    add_option(p, "--json", domain=WritablePath(), default=None, metavar="PATH", help=JSON_HELP)
    add_option(p, "--plot", domain=WritablePath(suffixes=(".png",)), default=None, metavar="PNG")
    p.set_defaults(func=_cmd_rectangles)
