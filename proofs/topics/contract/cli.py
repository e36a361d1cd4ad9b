"""Hostile command lines: every ``dpspec`` command answers with an exit code a CI can trust.

Exit codes (``proofs/engine/errors.py``): 0 holds / consistent, 1 violation, 2 usage error, 3
internal error. For each hostile argv below the command must exit with the expected code and,
for 2 and 3, print exactly one line on stderr and no traceback. Most cases run ``main()`` in
process (output captured); a few run the installed console script as a subprocess so the exit
code the shell sees is checked too.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from dpspec.cli import main
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.errors import check_writable, one_line_errors
from dpspec.proofs.engine.registry import CONTRACT, CheckOutcome, Method, Obligation, VerifyConfig

#: (argv, expected exit code) — ``{tmp}`` is a writable scratch folder, ``{file}`` a regular
#: file in it (so ``{file}/x.json`` cannot be created).
CASES: tuple[tuple[tuple[str, ...], int], ...] = (
    (("list", "--json", ""), 2),
    (("list", "--json", "{tmp}"), 2),
    (("list", "--json", "{file}/x.json"), 2),
    (("list", "--json", "/dev/full"), 3),
    (("errata", "--json", "{tmp}"), 2),
    (("errata", "--json", "{file}/x.json"), 2),
    (("verify", "--json", "{tmp}", "--only", "no-such-obligation"), 2),
    (("verify", "--crosshair-timeout", "nan", "--only", "lemma"), 2),
    (("verify", "--crosshair-timeout", "-1", "--only", "lemma"), 2),
    (("verify", "--only", "no-such-obligation"), 0),
    (("prove", "--json", "{file}/x.json"), 2),
    (("prove", "--timeout", "0"), 2),
    (("prove", "--module", "no.such.module"), 2),
    (("no-such-command",), 2),
    (("verify", "--thorough=yes"), 2),
    (("audit", "builtin:no-such-mechanism"), 2),
    (("audit", "builtin:laplace", "--samples", "-5"), 2),
    (("audit", "builtin:laplace", "--samples", "1e30"), 2),
    (("audit", "builtin:laplace", "--seed", "-1"), 2),
    (("audit", "builtin:laplace", "--confidence", "1.5"), 2),
    (("audit", "builtin:laplace", "--epsilon", "nan"), 2),
    (("audit", "builtin:laplace", "--json", "{file}/x.json"), 2),
    (("audit", "builtin:laplace", "--checkpoint", "{file}/x.ckpt"), 2),
    (("audit", "no_such_module_xyz:f"), 2),
    (("consistency", "pcl", "--n", "0"), 2),
    (("consistency", "pcl", "--n", "1e30"), 2),
    (("consistency", "pcl", "--epsilon", "nan"), 2),
    (("consistency", "pcl", "--reps", "0"), 2),
    (("consistency", "bogus"), 2),
    (("consistency", "pcl", "--distribution", "bogus"), 2),
    (("consistency", "ldp-regression", "--distribution", "bogus"), 2),
    (("consistency", "pcl", "--alpha", "2"), 2),
    (("compress", "thresholds", "--m", "-5"), 2),
    (("compress", "thresholds", "--seed", "-1"), 2),
    (("compress", "thresholds", "--gamma", "1e-6"), 2),
    (("compress", "bv", "--subsample", "0"), 2),
    (("compress", "thresholds", "--json", "{file}/x.json"), 2),
    (("mutate", "--jobs", "0"), 2),
    (("mutate", "--json", "{file}/x.json"), 2),
)


#: Cases also run as a subprocess of the installed ``dpspec`` console script.
SUBPROCESS = (
    (("list", "--json", "{tmp}"), 2),
    (("audit", "builtin:laplace", "--samples", "-5"), 2),
    (("consistency", "bogus"), 2),
)


def _argv(argv: tuple[str, ...], tmp: Path, file: Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)).replace("{file}", str(file)) for a in argv]


def _in_process(argv: list[str]) -> tuple[int, str]:
    from dpspec.proofs.engine.command import run_dpspec as main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own exit (e.g. --help) is not expected here
            code = int(exc.code or 0) if isinstance(exc.code, int) else 2
    return code, err.getvalue()


def _subprocess(argv: list[str]) -> tuple[int, str]:
    script = Path(sys.executable).with_name("dpspec")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "dpspec.cli"]
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    done = subprocess.run(
        [*cmd, *argv], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    return done.returncode, done.stderr


def _problem(code: int, stderr: str, expected: int) -> str | None:
    if code != expected:
        return f"exit {code}, expected {expected}: {stderr.strip()[:160]!r}"
    if "Traceback" in stderr:
        return "traceback on stderr"
    if expected in (2, 3):
        lines = [ln for ln in stderr.splitlines() if ln.strip()]
        if len(lines) != 1:
            return f"{len(lines)} lines on stderr, expected 1: {stderr.strip()[:160]!r}"
    return None


@Obligation(
    id="contract.cli.exit-codes",
    source="dpspec standard: exit codes 0 holds, 1 violation, 2 usage error, 3 internal error",
    claim="hostile command lines get their exit code and one line on stderr, no traceback",
    method=Method.PROPERTY,
    no_predicate=f"{CONTRACT}: exit codes and one-line errors",
    impls=(main, check_writable),
    entry_points=(main,),
    tests=("tests/test_contract_cli.py::test_usage_errors",),
    bug_controls=(
        BugControl(
            one_line_errors,
            "parser.exit(EXIT_USAGE,",
            "parser.exit(1,",
            "argparse's usage errors exiting 1 (a violation) instead of 2",
        ),
    ),
)
def cli_hostile_argv(config: VerifyConfig) -> CheckOutcome:
    """Every hostile argv of :data:`CASES` gets its exit code and a one-line message."""
    failures: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        file = tmp / "regular-file"
        file.write_text("x", encoding="utf-8")
        for argv, expected in CASES:
            args = _argv(argv, tmp, file)
            problem = _problem(*_in_process(args), expected)
            if problem:
                failures[" ".join(argv)] = problem
        # a subprocess runs the installed code, never a bug planted in this process
        for argv, expected in () if config.under_control else SUBPROCESS:
            args = _argv(argv, tmp, file)
            problem = _problem(*_subprocess(args), expected)
            if problem:
                failures["[subprocess] " + " ".join(argv)] = problem
    total = len(CASES) + len(SUBPROCESS)
    return CheckOutcome(
        not failures,
        f"{total - len(failures)}/{total} hostile command lines answered with the right exit "
        "code and one line on stderr" + (f"; failures: {failures}" if failures else ""),
        {"cases": total, "failures": failures},
    )
