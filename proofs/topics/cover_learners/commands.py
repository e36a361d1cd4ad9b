"""``dpspec cover-curve`` and ``dpspec threshold-lower-bound`` (seed 004, Chaudhuri–Hsu).

``cover-curve LEARNER``: exact utility of A1/A1r/A2 on thresholds against the certificate the
learner reports, for a list of sample sizes (exit 0 when every mean failure probability is at
most its certificate, 1 otherwise). ``threshold-lower-bound``: Thm 5's hard family, q_z of A1
and the packing inequality (exit 0 when it holds, 1 when violated). Usage errors exit 2 with one
line naming the option; I/O errors exit 3.
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction
from typing import Any

from dpspec.proofs.engine.errors import UsageError, check_plot, check_writable, write_json


def _positive(value: float, option: str, top: float | None = None) -> None:
    if not (math.isfinite(value) and value > 0 and (top is None or value <= top)):
        bound = f" and <= {top}" if top is not None else ""
        raise UsageError(f"{option}: must be finite, > 0{bound}, got {value!r}")


def _cmd_curve(args: argparse.Namespace) -> int:
    from dpspec.proofs.topics.cover_learners.experiments import rows_json, utility_curve

    try:
        ns = [int(v) for v in args.n.split(",")]
    except ValueError:
        raise UsageError(f"--n: expected comma-separated integers, got {args.n!r}") from None
    if not ns or any(not 2 <= n <= 10**7 for n in ns):
        raise UsageError(f"--n: sample sizes must be in [2, 1e7], got {args.n!r}")
    _positive(args.epsilon, "--epsilon", 700)
    _positive(args.accuracy, "--accuracy", 1)
    if not 0 <= args.noise < 0.5:
        raise UsageError(f"--noise: must be in [0, 1/2), got {args.noise!r}")
    if not 1 <= args.reps <= 10**4:
        raise UsageError(f"--reps: must be in [1, 10000], got {args.reps}")
    check_writable(args.json)
    check_plot(args.plot)
    rows = utility_curve(
        args.learner, ns, args.epsilon, args.accuracy, args.noise, args.reps, args.seed
    )
    print(f"{'n':>9} {'|G|':>6} {'P(excess>eps)':>14} {'E[excess]':>10} {'certificate':>12}")
    for r in rows:
        print(
            f"{r.n:>9} {r.candidates:>6} {r.failure:>14.4g} {r.excess:>10.4g} "
            f"{r.certificate:>12.4g}"
        )
    ok = all(r.failure <= r.certificate for r in rows)
    write_json(args.json, {"learner": args.learner, "rows": rows_json(rows), "ok": ok})
    if args.plot:
        _plot(rows, args.learner, args.plot)
    return 0 if ok else 1


def _plot(rows: Any, learner: str, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ns = [r.n for r in rows]
    ax.plot(ns, [max(r.failure, 1e-300) for r in rows], "o-", label="exact P(excess > ε)")
    ax.plot(ns, [min(r.certificate, 1.0) for r in rows], "s--", label="certificate δ_cert")
    ax.plot(ns, [r.excess for r in rows], "^-", label="E[excess]")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_title(f"{learner.upper()} on thresholds")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _cmd_lower_bound(args: argparse.Namespace) -> int:
    from dpspec.proofs.topics.cover_learners.experiments import lower_bound_table

    _positive(args.alpha, "--alpha", 5)
    if not 1 <= args.M <= 40:
        raise UsageError(f"--M: must be in [1, 40], got {args.M}")
    if not 1 <= args.m <= args.M:
        raise UsageError(f"--m: must be in [1, M], got {args.m}")
    _positive(args.accuracy, "--accuracy", 1)
    check_writable(args.json)
    table = lower_bound_table(
        Fraction(args.alpha).limit_denominator(10**6), args.M, args.m, args.accuracy, args.seed
    )
    print(
        f"eta = {table['eta']:.5f}, K = {table['K']} distributions, e^(alpha m) = "
        f"{table['exp_alpha_m']:.4g}"
    )
    print("q_z = " + " ".join(f"{q:.3f}" for q in table["q"]))
    print(
        f"sum q_z = {table['sum_q']:.4f} <= e^(alpha m): {table['sum_q'] <= table['exp_alpha_m']}"
        f"; packing inequality holds: {table['holds']}"
    )
    write_json(args.json, table)
    return 0 if table["holds"] else 1


def register(sub: Any) -> None:
    """Add ``cover-curve`` and ``threshold-lower-bound`` to the ``dpspec`` subparsers."""
    p = sub.add_parser(
        "cover-curve",
        help="A1/A1r/A2 (seed 004): exact utility vs n against the certificate",
        description="Exit codes: 0 every failure probability within its certificate, 1 not, "
        "2 usage error, 3 internal error.",
    )
    p.add_argument("learner", metavar="LEARNER", choices=("a1", "a1r", "a2"))
    p.add_argument("--n", default="500,1000,2000,4000", help="comma-separated sample sizes")
    p.add_argument("--epsilon", type=float, default=1.0, help="privacy α > 0")
    p.add_argument("--accuracy", type=float, default=0.2, help="accuracy ε in (0, 1]")
    p.add_argument("--noise", type=float, default=0.1, help="label noise in [0, 1/2)")
    p.add_argument("--reps", type=int, default=20, help="samples per n")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="PATH", help="write the rows as JSON")
    p.add_argument("--plot", metavar="PNG", help="plot the curve (needs matplotlib)")
    p.set_defaults(func=_cmd_curve)
    q = sub.add_parser(
        "threshold-lower-bound",
        help="Thm 5 of seed 004: q_z of A1 on the hard family and the packing inequality",
        description="Exit codes: 0 the inequality holds, 1 violated, 2 usage error.",
    )
    q.add_argument("--alpha", type=float, default=0.5, help="privacy α in (0, 5]")
    q.add_argument("--M", type=int, default=4, help="horizon M (the family's size grows as e^(αM))")
    q.add_argument("--m", type=int, default=4, help="sample size m <= M")
    q.add_argument("--accuracy", type=float, default=0.02, help="A1's accuracy ε")
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--json", metavar="PATH", help="write the table as JSON")
    q.set_defaults(func=_cmd_lower_bound)
