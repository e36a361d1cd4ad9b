"""``dpspec cover-curve`` and ``dpspec threshold-lower-bound`` (seed 004, Chaudhuri–Hsu).

``cover-curve LEARNER``: exact utility of A1/A1r/A2 on thresholds against the certificate the
learner reports, for a list of sample sizes (exit 0 when every mean failure probability is at
most its certificate, 1 otherwise). ``threshold-lower-bound``: Thm 5's hard family, q_z of A1
and the packing inequality (exit 0 when it holds, 1 when violated). Privacy is ``--epsilon``
(the paper's α; ``--alpha`` is a deprecated alias of ``threshold-lower-bound --epsilon``). Every
option has a declared domain; usage errors (a value outside it, a request beyond the stated
limits) exit 2 with one line naming the option, before any work; I/O errors exit 3.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from typing import Any

from dpspec.proofs.engine.errors import UsageError, check_plot, write_json
from dpspec.proofs.engine.options import WritablePath, add_option
from dpspec.validation import Choice, Domain, Epsilon, InputTypeError, Integer, Real

#: Sample sizes of one curve point: 2 ≤ n ≤ 10^7.
MIN_N, MAX_N = 2, 10**7


@dataclass(frozen=True)
class SampleSizes(Domain):
    """A comma-separated list of at most 16 sample sizes, each an integer in [2, 10^7]."""

    def convert(self, value: Any, name: str) -> list[int]:
        if not isinstance(value, str):
            raise InputTypeError(f"{name}: expected comma-separated integers, got {value!r}")
        pieces = value.split(",")
        if not 1 <= len(pieces) <= 16:
            raise ValueError(f"{name}: 1 to 16 sample sizes expected, got {value!r}")
        return [self._size(piece, name) for piece in pieces]

    @staticmethod
    def _size(piece: str, name: str) -> int:
        try:
            x = float(piece)
        except ValueError:
            raise ValueError(f"{name}: {piece!r} is not a sample size") from None
        if not (math.isfinite(x) and x.is_integer() and MIN_N <= x <= MAX_N):
            raise ValueError(
                f"{name}: sample sizes are integers in [{MIN_N}, {MAX_N:.0e}], got {piece!r}"
            )
        return int(x)

    def refused(self) -> tuple[Any, ...]:
        return ("", "0", "1", "-5", "1e30", "2.5", "a,b", "500,,2000", ",".join(["100"] * 17))

    @property
    def example(self) -> Any:
        return "500,1000"

    def describe(self) -> str:
        return "comma-separated sample sizes in [2, 1e7]"


def _refuse_empty(args: argparse.Namespace, parser_options: tuple[str, ...]) -> None:
    """argparse hands ``--opt=--`` over as an empty list without calling the option's type:
    refuse it as the usage error it is."""
    for option in parser_options:
        if getattr(args, option.lstrip("-").replace("-", "_"), None) == []:
            raise UsageError(f"{option}: expected a value, got '--'")


def _cmd_curve(args: argparse.Namespace) -> int:
    from dpspec.proofs.topics.cover_learners.experiments import (
        curve_limits,
        rows_json,
        utility_curve,
    )

    _refuse_empty(args, ("--n", "--epsilon", "--accuracy", "--noise", "--reps", "--seed"))
    try:
        curve_limits(args.learner, args.n, args.epsilon, args.accuracy, args.reps)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    check_plot(args.plot)
    rows = utility_curve(
        args.learner, args.n, args.epsilon, args.accuracy, args.noise, args.reps, args.seed
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
    from dpspec.proofs.topics.cover_learners.experiments import (
        lower_bound_limits,
        lower_bound_table,
    )

    _refuse_empty(args, ("--epsilon", "--alpha", "--M", "--m", "--accuracy", "--seed"))
    if args.alpha is not None and args.epsilon is not None:
        raise UsageError("--alpha: a deprecated alias of --epsilon; give one of them")
    epsilon = args.alpha if args.alpha is not None else args.epsilon
    epsilon = 0.5 if epsilon is None else epsilon
    if args.m > args.M:
        raise UsageError(f"--m: must be <= --M = {args.M}, got {args.m}")
    try:
        lower_bound_limits(epsilon, args.M, args.accuracy)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.alpha is not None:
        print("dpspec: --alpha is deprecated, use --epsilon (the paper's α)", file=sys.stderr)
    table = lower_bound_table(epsilon, args.M, args.m, args.accuracy, args.seed)
    print(
        f"eta = {table['eta']:.5f}, K = {table['K']} distributions, e^(epsilon m) = "
        f"{table['exp_epsilon_m']:.4g}"
    )
    print("q_z = " + " ".join(f"{q:.3f}" for q in table["q"]))
    print(
        f"sum q_z = {table['sum_q']:.4f} <= e^(epsilon m): "
        f"{table['sum_q'] <= table['exp_epsilon_m']}; packing inequality holds: {table['holds']}"
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
    add_option(
        p, "learner", domain=Choice(options=("a1", "a1r", "a2")), metavar="LEARNER", example="a1"
    )
    add_option(
        p,
        "--n",
        domain=SampleSizes(),
        default=[500, 1000, 2000, 4000],
        help="comma-separated sample sizes in [2, 1e7] (at most 5e7 examples in all)",
    )
    add_option(p, "--epsilon", domain=Epsilon(), default=1.0, help="privacy ε (the paper's α)")
    add_option(
        p,
        "--accuracy",
        domain=Real(lo=0.0, hi=1.0, lo_open=True),
        default=0.2,
        help="accuracy (the paper's ε) in (0, 1]",
    )
    add_option(
        p,
        "--noise",
        domain=Real(lo=0.0, hi=0.5, hi_open=True),
        default=0.1,
        help="label noise in [0, 1/2)",
    )
    add_option(p, "--reps", domain=Integer(lo=1, hi=10**4), default=20, help="samples per n")
    add_option(p, "--seed", domain=Integer(lo=0, hi=2**63 - 1), default=0)
    add_option(
        p,
        "--json",
        domain=WritablePath(),
        default=None,
        metavar="PATH",
        help="write the rows as JSON",
    )
    add_option(
        p,
        "--plot",
        domain=WritablePath(suffixes=(".png", ".pdf", ".svg")),
        default=None,
        metavar="PNG",
        help="plot the curve (needs matplotlib)",
    )
    p.set_defaults(func=_cmd_curve)
    q = sub.add_parser(
        "threshold-lower-bound",
        help="Thm 5 of seed 004: q_z of A1 on the hard family and the packing inequality",
        description="Exit codes: 0 the inequality holds, 1 violated, 2 usage error.",
    )
    add_option(
        q,
        "--epsilon",
        domain=Epsilon(),
        default=None,
        help="privacy ε (the paper's α), default 0.5",
    )
    add_option(q, "--alpha", domain=Epsilon(), default=None, help="deprecated alias of --epsilon")
    add_option(
        q,
        "--M",
        domain=Integer(lo=3, hi=200),
        default=4,
        help="horizon M > 2 (the family has about 4e^(εM) distributions, at most 4096)",
    )
    add_option(q, "--m", domain=Integer(lo=1, hi=200), default=4, help="sample size m <= M")
    add_option(
        q,
        "--accuracy",
        domain=Real(lo=0.0, hi=1.0, lo_open=True),
        default=0.02,
        help="A1's accuracy (the paper's ε)",
    )
    add_option(q, "--seed", domain=Integer(lo=0, hi=2**63 - 1), default=0)
    add_option(
        q,
        "--json",
        domain=WritablePath(),
        default=None,
        metavar="PATH",
        help="write the table as JSON",
    )
    q.set_defaults(func=_cmd_lower_bound)
