"""Excess risk at ε = 1 of dpspec's private learners against diffprivlib, on problems with
known Bayes error (exact excess risk for grid learners, sampled on 2·10^5 points otherwise).

Run: ``python benchmarks/bench_consistency.py [--n 1000000] [--reps 3] [--json out.json]``.
diffprivlib rows appear only where diffprivlib imports (it needs scikit-learn < 1.8: use a
separate environment, see shared/notes/peers.md).
"""

from __future__ import annotations

import argparse
import json

from dpspec.consistency import PROBLEMS
from dpspec.proofs.topics.consistency.experiments import make_classifier, run_consistency

LEARNERS = ("pcl", "pcl2", "pcl2b", "histogram", "diffprivlib-gnb", "diffprivlib-logreg")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rows = []
    print(f"{'problem':<14}{'learner':<22}{'excess risk':>12}{'fit s':>9}  exact")
    for pname, cls in PROBLEMS.items():
        for learner in LEARNERS:
            try:
                make_classifier(learner, args.epsilon, args.n, 0)  # unknown/missing → ValueError
                res = run_consistency(
                    cls(),
                    lambda e, n, s, learner=learner: make_classifier(learner, e, n, s),
                    [args.n],
                    args.epsilon,
                    args.reps,
                    seed=1,
                    progress=False,
                )[0]
            except ValueError as exc:
                print(f"{pname:<14}{learner:<22}{'skipped':>12}  ({exc})")
                continue
            risk, secs = res.excess_risk, res.fit_seconds
            print(f"{pname:<14}{learner:<22}{risk:12.4f}{secs:9.3f}  {res.exact}")
            rows.append({"problem": pname, "learner": learner, **res.to_json()})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"n": args.n, "epsilon": args.epsilon, "rows": rows}, fh, indent=2)


if __name__ == "__main__":
    main()
