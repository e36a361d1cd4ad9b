"""``dpspec adaptive``: the adaptive game of thesis ch. 7 on a Markov chain (Ω = {0..m−1},
potentials in [1, 1.1]): the aggregation attack against exact, Laplace (advanced composition),
rounding and sample-splitting answers — the statistical error of the overfitting query, the
picture of why DP helps. Exit 0 done, 2 usage error (one line naming the option), 3 I/O error.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from dpspec.proofs.engine.errors import UsageError, check_writable, write_json


def _cmd_adaptive(args: argparse.Namespace) -> int:
    from dpspec.proofs.topics.adaptive.experiments import MECHANISMS, attack_errors

    mechanisms = MECHANISMS if args.mechanism == "all" else (args.mechanism,)
    if not 2 <= args.values <= 64:
        raise UsageError(f"--values: must be in [2, 64], got {args.values}")
    if not args.values + 1 <= args.k <= 10_000:
        raise UsageError(f"--k: must be in [values + 1, 10000], got {args.k}")
    if not args.k <= args.n <= 10**6:
        raise UsageError(f"--n: must be in [k, 1e6], got {args.n}")
    if not (math.isfinite(args.epsilon) and 0 < args.epsilon <= 700):
        raise UsageError(f"--epsilon: must be in (0, 700], got {args.epsilon!r}")
    if not 1 <= args.reps <= 1000:
        raise UsageError(f"--reps: must be in [1, 1000], got {args.reps}")
    check_writable(args.json)
    rows = [
        attack_errors(m, args.values, args.n, args.k, args.epsilon, args.reps, args.seed)
        for m in mechanisms
    ]
    print(f"Markov chain n = {args.n}, Ω = {args.values} values, k = {args.k}, ε = {args.epsilon}")
    print(f"{'mechanism':>10} {'statistical error of the attack':>32} {'worst empirical':>16}")
    for r in rows:
        print(
            f"{r['mechanism']:>10} {r['final_statistical_error']:>32.4g} "
            f"{r['worst_empirical_error']:>16.4g}"
        )
    write_json(args.json, {"rows": rows})
    return 0


def register(sub: Any) -> None:
    """Add ``adaptive`` to the ``dpspec`` subparsers."""
    p = sub.add_parser(
        "adaptive",
        help="the adaptive game of thesis ch. 7: the aggregation attack vs each mechanism",
        description="Exit codes: 0 done, 2 usage error, 3 internal error.",
    )
    p.add_argument(
        "--mechanism", default="all", choices=("all", "exact", "laplace", "rounding", "split")
    )
    p.add_argument("--values", type=int, default=16)
    p.add_argument("--n", type=int, default=2000)
    p.add_argument("--k", type=int, default=17)
    p.add_argument("--epsilon", type=float, default=1.0)
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="PATH")
    p.set_defaults(func=_cmd_adaptive)
