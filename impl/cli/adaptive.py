"""``dpspec adaptive``: the adaptive game of thesis ch. 7 on a Markov chain (Ω = {0..m−1},
potentials in [1, 1.1]): the aggregation attack against exact, Laplace (composition within
(ε, 1e-6)), rounding and sample-splitting answers — the statistical error of the overfitting
query, the picture of why DP helps. Every option has a declared domain; the cross-option limits
(k > |Ω|, n ≥ k, the number of answers and of sampled coordinates) are checked before any work.
Exit 0 done, 2 usage error (one line naming the option), 3 internal or I/O error.
"""

from __future__ import annotations

import argparse
from typing import Any

from dpspec.proofs.engine.errors import UsageError, write_json
from dpspec.proofs.engine.options import WritablePath, add_option
from dpspec.validation import LIMITS, Epsilon, Integer

#: Answers one run may compute (mechanisms × reps × k); beyond, the run is refused up front.
MAX_ANSWERS = 2**18


def _cmd_adaptive(args: argparse.Namespace) -> int:
    from dpspec.adaptive import LaplaceAnswers
    from dpspec.proofs.topics.adaptive.experiments import MECHANISMS, attack_errors

    mechanisms = MECHANISMS if args.mechanism == "all" else (args.mechanism,)
    if not args.values + 1 <= args.k:
        raise UsageError(f"--k: must be >= values + 1 = {args.values + 1}, got {args.k}")
    if not args.k <= args.n:
        raise UsageError(f"--n: must be >= k = {args.k}, got {args.n}")
    answers = len(mechanisms) * args.reps * args.k
    if answers > MAX_ANSWERS:
        raise UsageError(
            f"--reps: the run needs {answers} answers (mechanisms × reps × k); the limit is "
            f"{MAX_ANSWERS}"
        )
    if args.reps * args.n > LIMITS["draws"]:
        raise UsageError(
            f"--n: the run samples reps × n = {args.reps * args.n} coordinates; the limit is "
            f"{LIMITS['draws']}"
        )
    if "laplace" in mechanisms:
        try:
            LaplaceAnswers(args.n, args.k, args.epsilon, 1e-6)
        except ValueError as exc:
            raise UsageError(f"--epsilon: {str(exc).removeprefix('epsilon: ')}") from None
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
    add_option(p, "--values", domain=Integer(lo=2, hi=64), default=16, help="|Ω|")
    add_option(p, "--n", domain=Integer(lo=1, hi=10**6), default=2000, help="sample size")
    add_option(p, "--k", domain=Integer(lo=3, hi=10_000), default=17, help="rounds")
    add_option(p, "--epsilon", domain=Epsilon(), default=1.0, help="the game's ε (δ = 1e-6)")
    add_option(p, "--reps", domain=Integer(lo=1, hi=1000), default=20, help="chains sampled")
    add_option(p, "--seed", domain=Integer(lo=0, hi=2**63 - 1), default=0)
    add_option(p, "--json", domain=WritablePath(), default=None, metavar="PATH")
    p.set_defaults(func=_cmd_adaptive)
