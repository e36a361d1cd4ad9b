"""Auditor benchmarks: tightness ε_LCB / true ε along N, wall time against bare sampling, and
the false-alarm rate of many audits of correct mechanisms.

Run: ``python benchmarks/bench_audit.py [--max-n 10000000] [--audits 1000] [--json out.json]``;
``--rare 40``: only the power against rare leaks (p = 1e-4, 1e-5 at 20/p, 30/p, 50/p draws);
``--zoo-seeds 40``: the zoo entries of the auditor's target kinds (``--all-entries``: every
entry) over 40 seeds (flag rates of correct and broken entries, ε_LCB / true ε), written to
``benchmarks/results/audit_zoo_seeds.json``; ``--note``: runs the
audit topic's registered checks and writes ``benchmarks/results/audit_note.json`` and the
measured tables of ``proofs/topics/audit/note.md`` (between its ``measured`` markers) from it.
Cases follow ``shared/notes/auditing.md`` (ideal values there are for the best fixed event).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

from dpspec.audit import audit
from dpspec.audit.zoo import (
    FunctionMechanism,
    gaussian_epsilon,
    laplace_sampler,
    noisy_max_sampler,
    rare_leak_sampler,
    svt_sampler,
    zoo,
)

ZEROS5, ONES5 = (0,) * 5, (1,) * 5
SVT_PAIR = ((1,) * 5 + (0,) * 5, (0,) * 5 + (1,) * 5)


def cases() -> list[tuple[str, Any, tuple[Any, Any], float, float, float]]:
    """(name, mechanism, pair, claimed ε, δ, true ε)."""
    rr = zoo()["randomized-response"].mechanism
    return [
        ("laplace eps=0.5", FunctionMechanism("l", laplace_sampler(2.0)), (0.0, 1.0), 0.5, 0, 0.5),
        ("laplace eps=0.1", FunctionMechanism("l", laplace_sampler(10.0)), (0.0, 1.0), 0.1, 0, 0.1),
        ("randomized response eps=1", rr, (0, 1), 1.0, 0, 1.0),
        (
            "histogram scale eps (0.7)",
            FunctionMechanism("h", laplace_sampler(0.7)),
            ((1, 0, 0, 0, 0), (2, 0, 0, 0, 0)),
            0.7,
            0,
            1 / 0.7,
        ),
        (
            "noisy max v2b (0.7)",
            FunctionMechanism("v2b", noisy_max_sampler("exponential", 2 / 0.7, "value")),
            (ZEROS5, ONES5),
            0.7,
            0,
            math.inf,
        ),
        (
            "SVT Lyu alg 4 (0.1)",
            FunctionMechanism("s4", svt_sampler(4 / 0.1, 4 / 0.3)),
            SVT_PAIR,
            0.1,
            0,
            0.175,
        ),
        (
            "SVT correct (0.1)",
            FunctionMechanism("s1", svt_sampler(2 / 0.1, 4 / 0.1)),
            SVT_PAIR,
            0.1,
            0,
            0.1,
        ),
        (
            "gaussian sigma=4.845 (1, 1e-5)",
            FunctionMechanism("g", lambda d, n, r: d + r.normal(0, 4.845, n)),
            (0.0, 1.0),
            1.0,
            1e-5,
            gaussian_epsilon(4.845, 1e-5),
        ),
        (
            "gaussian sigma=1 (1, 1e-5)",
            FunctionMechanism("g1", lambda d, n, r: d + r.normal(0, 1.0, n)),
            (0.0, 1.0),
            1.0,
            1e-5,
            gaussian_epsilon(1.0, 1e-5),
        ),
        (
            "rare leak, pure claim (0.5)",
            FunctionMechanism("rl", rare_leak_sampler(2.0, 1e-3)),
            (0.0, 1.0),
            0.5,
            0,
            math.inf,
        ),
    ]


def tightness(max_n: int, seed: int) -> list[dict[str, Any]]:
    rows = []
    ns = [n for n in (10**4, 10**5, 10**6, 10**7) if n <= max_n]
    for name, mech, pair, eps, delta, true in cases():
        for n in ns:
            start = time.perf_counter()
            r = audit(mech, pair, eps, delta, samples=n, seed=seed)
            rows.append(
                {
                    "case": name,
                    "n": n,
                    "claimed": eps,
                    "delta": delta,
                    "true": true,
                    "epsilon_lower": r.epsilon_lower,
                    "ratio_to_true": r.epsilon_lower / true if math.isfinite(true) else None,
                    "violation": r.violation,
                    "seconds": time.perf_counter() - start,
                }
            )
            print(
                f"{name:34s} n={n:>9}  eps_LCB={r.epsilon_lower:8.4f}  true={true:8.4g}  "
                f"flag={r.violation!s:5}  {rows[-1]['seconds']:.2f}s",
                flush=True,
            )
    return rows


def wall_time(seed: int) -> dict[str, float]:
    """Laplace ε = 0.5, 10^6 per side: audit vs bare sampling of 2·10^6 draws (median of 5)."""
    mech = FunctionMechanism("l", laplace_sampler(2.0))
    audit(mech, (0.0, 1.0), 0.5, samples=10**6, seed=seed)  # warm-up
    a, b, lows = [], [], []
    rng = np.random.default_rng(seed)
    for k in range(5):
        t = time.perf_counter()
        lows.append(audit(mech, (0.0, 1.0), 0.5, samples=10**6, seed=seed + k).epsilon_lower)
        a.append(time.perf_counter() - t)
        t = time.perf_counter()
        mech.sample(0.0, 10**6, rng)
        mech.sample(1.0, 10**6, rng)
        b.append(time.perf_counter() - t)
    out = {
        "audit_seconds": float(np.median(a)),
        "bare_seconds": float(np.median(b)),
        "min_epsilon_lower": float(min(lows)),
    }
    out["ratio"] = out["audit_seconds"] / out["bare_seconds"]
    print(
        f"wall time: audit {out['audit_seconds']:.3f}s, bare {out['bare_seconds']:.3f}s, "
        f"ratio {out['ratio']:.2f}; eps_LCB over 5 seeds >= {out['min_epsilon_lower']:.4f}"
    )
    return out


def false_alarms(audits: int, n: int, seed: int) -> dict[str, Any]:
    """Violation rate over independent audits of tight correct mechanisms (claim = truth)."""
    entries = zoo()
    mechs = [
        entries[k] for k in ("laplace", "randomized-response", "histogram", "svt", "noisy-max-v1a")
    ]
    flagged = 0
    for k in range(audits):
        e = mechs[k % len(mechs)]
        flagged += audit(
            e.mechanism, e.pair, e.epsilon, e.delta, samples=n, seed=seed + k
        ).violation
    print(f"false alarms: {flagged}/{audits} at {n} draws per side (level 0.05)")
    return {"audits": audits, "samples": n, "violations": flagged}


def rare_power(seeds: int) -> list[dict[str, Any]]:
    """Fraction of audits (confidence 0.95) flagging a Laplace(1) release that leaks its raw
    input w.p. p, claimed ε = 1, at c/p draws per side, over ``seeds`` seeds."""
    rows = []
    for p in (1e-4, 1e-5):
        mech = FunctionMechanism("leak", rare_leak_sampler(1.0, p))
        for c in (20, 30, 50):
            flagged = sum(
                audit(mech, (0.0, 1.0), 1.0, samples=round(c / p), seed=s).violation
                for s in range(seeds)
            )
            rows.append({"leak": p, "draws_times_p": c, "flagged": flagged, "audits": seeds})
            print(rows[-1], flush=True)
    return rows


def zoo_seeds(seeds: int, everything: bool = False) -> list[dict[str, Any]]:
    """The zoo entries of the auditor's target kinds (every entry with ``everything``) audited over
    ``seeds`` seeds at max(its draws, 10^5) per side (10^6 for the (ε, δ) Gaussians, whose
    tails need them): how often each is flagged, and its smallest and median ε_LCB / true ε
    (finite true ε only)."""
    from dpspec.audit.zoo_kinds import kinds

    wanted = {e.name for e in kinds()}
    rows = []
    for name, e in zoo().items():
        if not everything and name not in wanted:
            continue
        n = max(e.samples, 10**5)
        if name.startswith("gaussian-3d"):
            n = 10**6
        lows, flags = [], 0
        start = time.perf_counter()
        for s in range(seeds):
            r = audit(
                e.mechanism, e.pair, e.epsilon, e.delta, samples=n, seed=10_000 + s,
                **e.audit_options(),
            )  # fmt: skip
            flags += r.violation
            lows.append(r.epsilon_lower)
        finite = math.isfinite(e.true_epsilon)
        ratios = sorted(v / e.true_epsilon for v in lows) if finite else []
        rows.append(
            {
                "name": name,
                "correct": e.correct,
                "claimed": e.epsilon,
                "delta": e.delta,
                "true_epsilon": e.true_epsilon if finite else "inf",
                "samples": n,
                "seeds": seeds,
                "flagged": flags,
                "min_ratio": ratios[0] if ratios else None,
                "median_ratio": ratios[len(ratios) // 2] if ratios else None,
                "min_epsilon_lower": min(lows),
                "seconds": time.perf_counter() - start,
            }
        )
        print(rows[-1], flush=True)
    return rows


NOTE = "proofs/topics/audit/note.md"
NOTE_JSON = "benchmarks/results/audit_note.json"
BEGIN, END = (
    "<!-- measured: begin (python benchmarks/bench_audit.py --note) -->",
    "<!-- measured: end -->",
)


def note_results() -> dict[str, Any]:
    """Run the audit topic's registered checks (default configuration) and keep their
    details and numbers."""
    from dpspec.proofs.engine.registry import VerifyConfig, obligations
    from dpspec.proofs.engine.verify import check_of

    out: dict[str, Any] = {}
    for ob in obligations():
        if ob.topic != "audit" or not ob.runs:
            continue
        start = time.process_time()
        check = check_of(ob)
        assert check is not None
        outcome = check(VerifyConfig())
        out[ob.id] = {
            "passed": outcome.passed,
            "detail": outcome.detail,
            "numbers": outcome.numbers,
            "controls": [[c.bug, c.caught, c.measured] for c in outcome.controls],
            "slack": [[sl.quantity, sl.claim, sl.measured] for sl in outcome.slack],
            "cpu_seconds": time.process_time() - start,
        }
        print(ob.id, outcome.passed, flush=True)
    return out


def _fmt(x: Any, digits: int = 3) -> str:
    if isinstance(x, str):
        return x
    if x is None:
        return "—"
    if isinstance(x, float) and not math.isfinite(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{digits}g}" if isinstance(x, float) else str(x)


def render(results: dict[str, Any], seeds: list[dict[str, Any]] | None) -> str:
    """The measured tables of the note, from the results of :func:`note_results` (and of
    :func:`zoo_seeds` when given)."""
    lines = ["", "| obligation | status | CPU s | tightest slack | controls caught |",
             "|---|---|---|---|---|"]  # fmt: skip
    for oid, r in results.items():
        tight = min(r["slack"], key=lambda s: s[1] / s[2] if s[2] > 0 else math.inf, default=None)
        slack = "—" if tight is None else f"{tight[0]}: {_fmt(tight[1])} / {_fmt(tight[2])}"
        caught = f"{sum(c[1] for c in r['controls'])}/{len(r['controls'])}"
        status = "pass" if r["passed"] else "FAIL"
        lines.append(f"| `{oid}` | {status} | {r['cpu_seconds']:.2f} | {slack} | {caught} |")
    zoo_rows = results.get("audit.zoo-power", {}).get("numbers", {}).get("rows", {})
    if zoo_rows:
        lines += ["", "Bug zoo at its stated draws per side (`audit.zoo-power`, seed fixed):", "",
                  "| entry | correct | claim | true ε | ε_LCB | draws | flagged |",
                  "|---|---|---|---|---|---|---|"]  # fmt: skip
        for name, v in zoo_rows.items():
            lines.append(
                f"| {name} | {'yes' if v['correct'] else 'no'} | {_fmt(v['claimed'])} | "
                f"{_fmt(v['true'])} | {_fmt(v['lower'])} | {v['samples']} | "
                f"{'**yes**' if v['flagged'] else 'no'} |"
            )
    if seeds:
        n = seeds[0]["seeds"]
        lines += ["", f"Zoo entries over {n} seeds (`--zoo-seeds {n}`):", "",
                  "| entry | correct | flagged | min ε_LCB/true | median | draws |",
                  "|---|---|---|---|---|---|"]  # fmt: skip
        for row in seeds:
            lines.append(
                f"| {row['name']} | {'yes' if row['correct'] else 'no'} | "
                f"{row['flagged']}/{row['seeds']} | {_fmt(row['min_ratio'])} | "
                f"{_fmt(row['median_ratio'])} | {row['samples']} |"
            )
    lines += ["", "Details of each check as it ran:", ""]
    for oid, r in results.items():
        lines.append(f"* `{oid}`: {r['detail']}")
    return "\n".join(lines) + "\n"


def write_note(results: dict[str, Any], seeds: list[dict[str, Any]] | None) -> None:
    """Replace the measured block of the note by :func:`render`."""
    with open(NOTE, encoding="utf-8") as fh:
        text = fh.read()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    with open(NOTE, "w", encoding="utf-8") as fh:
        fh.write(head + BEGIN + render(results, seeds) + END + tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--rare", type=int, metavar="SEEDS", help="only the rare-leak power table over SEEDS"
    )
    parser.add_argument("--max-n", type=int, default=10**7)
    parser.add_argument("--audits", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default="benchmarks/results/audit.json")
    parser.add_argument("--zoo-seeds", type=int, metavar="SEEDS")
    parser.add_argument("--all-entries", action="store_true", help="--zoo-seeds: every entry")
    parser.add_argument("--note", action="store_true")
    parser.add_argument(
        "--render", action="store_true", help="--note from the recorded results, not a new run"
    )
    args = parser.parse_args()
    seeds_path = "benchmarks/results/audit_zoo_seeds.json"
    if args.zoo_seeds:
        with open(seeds_path, "w", encoding="utf-8") as fh:
            json.dump(zoo_seeds(args.zoo_seeds, args.all_entries), fh, indent=2)
        return
    if args.note or args.render:
        if args.render:
            with open(NOTE_JSON, encoding="utf-8") as fh:
                results = json.load(fh)
        else:
            results = note_results()
            with open(NOTE_JSON, "w", encoding="utf-8") as fh:
                json.dump(results, fh, indent=2, default=str)
        try:
            with open(seeds_path, encoding="utf-8") as fh:
                seeds = json.load(fh)
        except FileNotFoundError:
            seeds = None
        write_note(results, seeds)
        return
    if args.rare:
        with open("benchmarks/results/audit_rare.json", "w", encoding="utf-8") as fh:
            json.dump(rare_power(args.rare), fh, indent=2)
        return
    payload = {
        "wall_time": wall_time(args.seed),
        "tightness": tightness(args.max_n, args.seed),
        "false_alarms": false_alarms(args.audits, 20_000, args.seed),
    }
    with open(args.json, "w", encoding="utf-8") as fh:
        json.dump(payload, fh, indent=2, default=str)


if __name__ == "__main__":
    main()
