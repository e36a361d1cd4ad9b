"""``dpspec rectangles``: RandMargins against the interior-point baseline and the non-private
learner on random realizable data (thesis ch. 5).

Prints, per sample size n, the mean exact error (mass of the symmetric difference under the
uniform law on {0..X}^d) of the three learners over ``--reps`` draws, and the privacy each
private learner claims. Exit 0 on success, 2 on usage errors (one line naming the option), 3 on
I/O errors.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from dpspec.proofs.engine.errors import UsageError, check_plot, check_writable, write_json


def _cmd_rectangles(args: argparse.Namespace) -> int:
    if not 1 <= args.d <= 1000:
        raise UsageError(f"--d: must be in [1, 1000], got {args.d}")
    if not 1 <= args.grid_max <= 2**16:
        raise UsageError(f"--grid-max: must be in [1, 65536], got {args.grid_max}")
    try:
        ns = [int(v) for v in args.n.split(",")]
    except ValueError:
        raise UsageError(f"--n: expected comma-separated integers, got {args.n!r}") from None
    if not ns or any(not 1 <= n <= 10**7 for n in ns):
        raise UsageError(f"--n: sample sizes must be in [1, 1e7], got {args.n!r}")
    if not (math.isfinite(args.epsilon) and 0 < args.epsilon <= 700):
        raise UsageError(f"--epsilon: must be in (0, 700], got {args.epsilon!r}")
    if not 1 <= args.reps <= 1000:
        raise UsageError(f"--reps: must be in [1, 1000], got {args.reps}")
    check_writable(args.json)
    check_plot(args.plot)
    import numpy as np

    from dpspec.rectangles import (
        PrivateRectangleClassifier,
        interior_point_baseline,
        nonprivate_rectangle,
    )
    from dpspec.spec.composition import per_step_epsilon
    from dpspec.spec.rectangles import rectangle_error

    rng = np.random.default_rng(args.seed)
    target = rng.integers(args.grid_max // 2, args.grid_max + 1, size=args.d)
    rows = []
    step = per_step_epsilon(args.epsilon, args.d, args.delta)
    for n in ns:
        errs: dict[str, list[float]] = {"randmargins": [], "baseline": [], "nonprivate": []}
        for r in range(args.reps):
            X = rng.integers(0, args.grid_max + 1, size=(n, args.d))
            y = np.all(target >= X, axis=1).astype(np.int64)
            clf = PrivateRectangleClassifier(
                args.epsilon, args.delta, args.grid_max, random_state=args.seed + r
            ).fit(X, y)
            errs["randmargins"].append(
                float(rectangle_error(target.tolist(), clf.p_.tolist(), args.grid_max))
            )
            base = interior_point_baseline(X[y == 1], args.grid_max, step, 0.05, rng)
            errs["baseline"].append(
                float(rectangle_error(target.tolist(), base.tolist(), args.grid_max))
            )
            exact = nonprivate_rectangle(X[y == 1])
            errs["nonprivate"].append(
                float(rectangle_error(target.tolist(), exact.tolist(), args.grid_max))
            )
        rows.append({"n": n, **{k: float(np.mean(v)) for k, v in errs.items()}})
    print(
        f"d = {args.d}, X = {args.grid_max}, target (ε, δ) = ({args.epsilon}, {args.delta}); "
        f"RandMargins accounting: {clf.accounting_} (ε per call {clf.epsilon_call_:.4g}); "
        f"baseline ε per call {step:.4g} (advanced composition over d calls)"
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
    p.add_argument("--d", type=int, default=3, help="dimension")
    p.add_argument("--grid-max", type=int, default=1023, help="X: the grid {0..X}^d")
    p.add_argument("--n", default="20000,80000", help="comma-separated sample sizes")
    p.add_argument("--epsilon", type=float, default=1.0)
    p.add_argument("--delta", type=float, default=1e-6)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="PATH")
    p.add_argument("--plot", metavar="PNG")
    p.set_defaults(func=_cmd_rectangles)
