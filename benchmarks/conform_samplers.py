"""Run ``dpspec conform`` on the batch samplers users actually use; write the table.

    python benchmarks/conform_samplers.py                      # numpy, then Opacus and jax_privacy
    python benchmarks/conform_samplers.py --library numpy      # one library, in this interpreter
    python benchmarks/conform_samplers.py --from-results       # the table from the saved results

Each entry of :data:`ENTRIES` is a sampler in the form ``f(n, rate_or_size, steps, rng)`` (a
library's sampler wrapped in three lines; its own generator seeded from the ``rng`` dpspec
passes) judged by :func:`dpspec.conform.conform` against the scheme it is used as (seed 0,
the algorithms' default parameters: Poisson n = 1000, q = 0.01, 4 steps; fixed size n = 1000,
b = 10, 4 steps; shuffling n = 1000, b = 100, two epochs). Results are saved in
``benchmarks/results/conform_samplers.json`` and the table ``proofs/notes/conformance-samplers.md``
is regenerated from that file. Opacus (with CPU torch) and jax_privacy are run in their own
virtualenvs, given by ``--opacus-python`` / ``--jax-python`` (default ``/tmp/venv-opacus`` and
``/tmp/venv-jaxp``, each with ``pip install -e <this checkout> opacus`` / ``jax-privacy``);
a library whose interpreter is missing or fails to import it is listed as not run, with why.
Library runs are not part of ``dpspec verify``. Times are wall-clock on a shared 2-core
machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "conform_samplers.json"
TABLE = ROOT / "proofs" / "notes" / "conformance-samplers.md"
LIBRARIES = ("numpy", "opacus", "jax_privacy")
PYTHONS = {"opacus": "/tmp/venv-opacus/bin/python", "jax_privacy": "/tmp/venv-jaxp/bin/python"}
COMMAND = "python benchmarks/conform_samplers.py"


@dataclass(frozen=True)
class Entry:
    """One library sampler as a conform target: ``build()`` returns the target."""

    library: str
    name: str
    algorithm: str
    build: Callable[[], Callable[..., Any]]
    expected: str
    why: str


def _numpy_recipes() -> dict[str, Callable[..., Any]]:
    from dpspec.proofs.topics.conform import samplers as recipes

    return {
        f.__name__: f
        for f in (
            recipes.poisson_recipe,
            recipes.binomial_then_fresh_subset,
            recipes.binomial_then_one_permutation,
            recipes.fixed_size_as_poisson,
            recipes.fixed_size_recipe,
            recipes.with_replacement,
            recipes.shuffle_recipe,
            recipes.shuffle_reusing_permutation,
        )
    }


def _numpy(name: str) -> Callable[[], Callable[..., Any]]:
    return lambda: _numpy_recipes()[name]


def _torch_generator(rng: np.random.Generator) -> Any:
    import torch

    g = torch.Generator()
    g.manual_seed(int(rng.integers(2**62)))
    return g


def _opacus_poisson() -> Callable[..., Any]:
    from opacus.utils.uniform_sampler import UniformWithReplacementSampler

    def target(n: int, q: float, steps: int, rng: np.random.Generator) -> list[Any]:
        sampler = UniformWithReplacementSampler(
            num_samples=n, sample_rate=q, generator=_torch_generator(rng), steps=steps
        )
        return list(sampler)

    return target


def _torch_shuffle() -> Callable[..., Any]:
    from torch.utils.data import BatchSampler, RandomSampler

    def target(n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
        sampler = BatchSampler(
            RandomSampler(range(n), generator=_torch_generator(rng)), b, drop_last=False
        )
        out: list[Any] = []
        while len(out) < steps:  # each iteration of the sampler is one epoch
            out += list(sampler)
        return out[:steps]

    return target


def _torch_randperm_prefix() -> Callable[..., Any]:
    import torch

    def target(n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
        g = _torch_generator(rng)
        return [torch.randperm(n, generator=g)[:b].numpy() for _ in range(steps)]

    return target


def _jax(kind: str, **options: Any) -> Callable[[], Callable[..., Any]]:
    def build() -> Callable[..., Any]:
        from jax_privacy import batch_selection as bs

        def target(n: int, r: Any, steps: int, rng: np.random.Generator) -> list[Any]:
            if kind == "poisson":
                strategy: Any = bs.CyclicPoissonSampling(
                    sampling_prob=r, iterations=steps, **options
                )
            elif kind == "fixed":
                strategy = bs.FixedBatchSampling(batch_size=r, iterations=steps)
            else:
                strategy = bs.BallsInBinsSampling(iterations=steps, cycle_length=n // r)
            return list(strategy.batch_iterator(n, rng=rng))

        return target

    return build


ENTRIES: tuple[Entry, ...] = (
    Entry("numpy", "rng.random(n) < q", "poisson-batches", _numpy("poisson_recipe"),
          "conforms", "Poisson"),
    Entry("numpy", "rng.binomial(n, q) then rng.choice(n, k, replace=False)", "poisson-batches",
          _numpy("binomial_then_fresh_subset"), "conforms", "Poisson in law"),
    Entry("numpy", "rng.binomial(n, q) records of one rng.permutation(n) per epoch "
          "(jax_privacy #121)", "poisson-batches", _numpy("binomial_then_one_permutation"),
          "deviates", "no record in two steps of an epoch"),
    Entry("numpy", "rng.choice(n, round(n q), replace=False)", "poisson-batches",
          _numpy("fixed_size_as_poisson"), "deviates", "a fixed size is not Poisson"),
    Entry("numpy", "rng.choice(n, b, replace=False)", "fixed-size-batches",
          _numpy("fixed_size_recipe"), "conforms", "fixed size"),
    Entry("numpy", "np.unique(rng.integers(0, n, b))", "fixed-size-batches",
          _numpy("with_replacement"), "deviates", "with replacement"),
    Entry("numpy", "rng.permutation(n) split into n/b batches, each epoch", "shuffled-batches",
          _numpy("shuffle_recipe"), "conforms", "shuffling"),
    Entry("numpy", "one rng.permutation(n) reused every epoch", "shuffled-batches",
          _numpy("shuffle_reusing_permutation"), "deviates", "not a fresh permutation"),
    Entry("opacus", "opacus.utils.uniform_sampler.UniformWithReplacementSampler",
          "poisson-batches", _opacus_poisson, "conforms", "Poisson (torch.rand < q)"),
    Entry("opacus", "torch BatchSampler(RandomSampler(range(n)), b, drop_last=False)",
          "shuffled-batches", _torch_shuffle, "conforms", "shuffling"),
    Entry("opacus", "torch.randperm(n)[:b] per step", "fixed-size-batches",
          _torch_randperm_prefix, "conforms", "fixed size"),
    Entry("jax_privacy", "batch_selection.CyclicPoissonSampling(sampling_prob=q)",
          "poisson-batches", _jax("poisson"), "conforms", "Poisson (Binomial count, fresh subset)"),
    Entry("jax_privacy", "CyclicPoissonSampling(sampling_prob=q, truncated_batch_size=12)",
          "poisson-batches", _jax("poisson", truncated_batch_size=12), "deviates",
          "truncation (documented): not Poisson when it binds"),
    Entry("jax_privacy", "CyclicPoissonSampling(sampling_prob=q, cycle_length=2)",
          "poisson-batches", _jax("poisson", cycle_length=2), "deviates",
          "cyclic (documented): a record in every other step only"),
    Entry("jax_privacy", "batch_selection.FixedBatchSampling(batch_size=b)",
          "fixed-size-batches", _jax("fixed"), "conforms", "fixed size"),
    Entry("jax_privacy", "BallsInBinsSampling(cycle_length=n/b) as shuffling",
          "shuffled-batches", _jax("balls"), "deviates",
          "balls in bins (documented): independent bins, not a permutation"),
)  # fmt: skip


def _version(library: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    names = {"numpy": ("numpy",), "opacus": ("opacus", "torch"), "jax_privacy": ("jax-privacy",)}
    found = []
    for name in names[library]:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} missing")
    return ", ".join(found)


def run_library(library: str) -> list[dict[str, Any]]:
    """Every entry of ``library`` run in this interpreter; one row per entry."""
    from dpspec.conform import conform

    rows = []
    version = _version(library)
    for entry in ENTRIES:
        if entry.library != library:
            continue
        start = time.perf_counter()
        result = conform(entry.build(), entry.algorithm, seed=0)
        seconds = time.perf_counter() - start
        bad = [r for r in result.instances if r.verdict != "conforms"]
        print(f"{entry.name}: {result.verdict} ({seconds:.1f}s)", file=sys.stderr)
        rows.append(
            {
                "library": library,
                "version": version,
                "sampler": entry.name,
                "algorithm": entry.algorithm,
                "params": {k: str(v) for k, v in result.params.items()},
                "verdict": result.verdict,
                "expected": entry.expected,
                "why_expected": entry.why,
                "instances": len(result.instances),
                "deviating": [r.label for r in bad],
                "first_finding": (bad[0].why() if bad else result.instances[0].why())[:220],
                "draws": sum(r.draws for r in result.instances),
                "min_power": min(r.power for r in result.instances),
                "seconds": round(seconds, 2),
            }
        )
    return rows


def run_elsewhere(library: str, python: str) -> list[dict[str, Any]] | str:
    """``library``'s entries run by ``python`` (its virtualenv); the rows, or why not."""
    if not Path(python).exists():
        return f"not run: no interpreter {python} (create it: see the module docstring)"
    probe = subprocess.run(
        [python, "-c", f"import {library}, dpspec.conform.samplers"],
        capture_output=True,
        text=True,
    )
    if probe.returncode:
        return f"not run: {library} does not import in {python}: {probe.stderr.strip()[-200:]}"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "rows.json"
        done = subprocess.run(
            [python, __file__, "--library", library, "--json", str(out)], text=True
        )
        if done.returncode:
            return f"not run: the run in {python} failed (exit {done.returncode})"
        rows: list[dict[str, Any]] = json.loads(out.read_text())
        return rows


def table(results: dict[str, Any]) -> str:
    lines = [
        "# Batch samplers of DP-SGD libraries, judged by `dpspec conform`",
        "",
        f"Generated by `{results['command']}` on {results['date']} (seed 0; "
        "`benchmarks/conform_samplers.py`, results in `benchmarks/results/conform_samplers.json`); "
        "Opacus with torch (from PyPI, run on the CPU) and jax_privacy each in a throwaway "
        "virtualenv (`pip install -e . opacus`, `pip install -e . jax-privacy`: a few minutes "
        "each).",
        "Each sampler is run as the scheme its accountant assumes (column *as*) with the "
        "algorithms' default parameters (Poisson n = 1000, q = 0.01, 4 steps; fixed size "
        "n = 1000, b = 10, 4 steps; shuffling n = 1000, b = 100, two epochs) and on the "
        "catalogue's tiny instances (the full joint law of the epoch, exact in Fractions). "
        "False alarm <= 1e-6 per run; each instance's budget has power >= 0.99 against the "
        "scheme off by 10% (odds q/(1 − q) × 1.1 and / 1.1; b ± 1; for shuffling a fresh subset "
        "per batch and the first permutation reused; on the tiny fixed-size and shuffling "
        "instances record 0 1.1 times likelier). *Expected* is what the library documents "
        "(or, for the numpy recipes, what the recipe is).",
        "",
        "| library | sampler | as | verdict | expected | instances deviating | first finding "
        "| draws | s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for library in LIBRARIES:
        got = results["libraries"].get(library)
        if isinstance(got, str):
            lines.append(f"| {library} | — | — | {got} | | | | | |")
            continue
        for r in got or []:
            finding = r["first_finding"].replace("|", "\\|")
            deviating = ", ".join(r["deviating"]).replace("|", "\\|") or "none"
            lines.append(
                f"| {library} ({r['version']}) | {r['sampler']} | {r['algorithm']} | "
                f"**{r['verdict']}** | {r['expected']} ({r['why_expected']}) | "
                f"{len(r['deviating'])}/{r['instances']}: {deviating} | {finding} | "
                f"{r['draws']} | {r['seconds']} |"
            )
    lines += [
        "",
        "A *conforms* verdict says the sampler is indistinguishable from the scheme at this "
        "budget (deviations smaller than the resolution may pass); *deviates* names the "
        "instances whose exact law rejected it. The library samplers draw from their own "
        "generators seeded from dpspec's `numpy.random.Generator` (torch: one "
        "`torch.Generator` per epoch, seeded with `rng.integers(2**62)`).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", choices=LIBRARIES)
    parser.add_argument("--json", help="write the rows of --library here (used by the run)")
    parser.add_argument("--from-results", action="store_true")
    parser.add_argument("--opacus-python", default=PYTHONS["opacus"])
    parser.add_argument("--jax-python", default=PYTHONS["jax_privacy"])
    args = parser.parse_args(argv)
    if args.library and args.json:
        Path(args.json).write_text(json.dumps(run_library(args.library), indent=1))
        return 0
    if not args.from_results:
        pythons = {"opacus": args.opacus_python, "jax_privacy": args.jax_python}
        chosen = (args.library,) if args.library else LIBRARIES
        found: dict[str, Any] = {}
        if RESULTS.exists():
            found = json.loads(RESULTS.read_text()).get("libraries", {})
        for library in chosen:
            found[library] = (
                run_library(library)
                if library == "numpy"
                else run_elsewhere(library, pythons[library])
            )
        results = {
            "command": COMMAND + (f" --library {args.library}" if args.library else ""),
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "libraries": found,
        }
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    TABLE.write_text(table(json.loads(RESULTS.read_text())))
    print(f"wrote {TABLE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
