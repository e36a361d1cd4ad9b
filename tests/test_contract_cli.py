"""Hostile argv for ``dpspec consistency`` and ``dpspec compress``: every case ends with an exit
code whose meaning is right (0 holds, 1 trend not established / no exact reconstruction,
2 usage error, 3 internal error) and at most one line on stderr, never a traceback.

Most cases call :func:`dpspec.cli.main` in-process (fast); a few run the installed
command in a subprocess to check the real process exit code and stream."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dpspec.cli import main

CONS = ["consistency", "pcl", "--distribution", "circle", "--no-progress"]
SMALL = ["--n", "1e3,1e4,1e5", "--reps", "3"]

#: (argv, expected exit code, text the stderr line must contain)
USAGE_CASES: list[tuple[list[str], str]] = [
    ([*CONS, "--reps", "2", "--n", "0"], "--n"),
    ([*CONS, "--reps", "2", "--n=-5"], "--n"),
    ([*CONS, "--reps", "2", "--n", "1e30"], "--n"),
    ([*CONS, "--reps", "2", "--n", "abc"], "--n"),
    ([*CONS, "--reps", "2", "--n", "1e3,1e3"], "--n"),
    ([*CONS, "--reps", "2", "--n", "1.5,10"], "--n"),
    ([*CONS, *SMALL, "--epsilon=-1"], "--epsilon"),
    ([*CONS, *SMALL, "--epsilon", "nan"], "--epsilon"),
    ([*CONS, *SMALL, "--epsilon", "inf"], "--epsilon"),
    ([*CONS, *SMALL, "--epsilon", "1000"], "--epsilon"),
    ([*CONS, *SMALL, "--epsilon", "1e-300"], "--epsilon"),  # below 2^-32: was exit 3 after fits
    (["consistency", "pcl2b", *SMALL, "--epsilon", "700"], "--epsilon"),  # 2·epsilon > 700
    (["consistency", "pcde", "--n", "1,10,100", "--reps", "3"], "--n"),  # delta = 1/n^2 = 1
    ([*CONS, "--n", "1e3,1e4", "--reps", "0"], "--reps"),
    ([*CONS, "--n", "1e3,1e4", "--reps", "100000"], "--reps"),
    ([*CONS, "--n", "1e3,1e4", "--reps", "3"], "--reps"),  # p >= 1/20 can never reach 1e-3
    ([*CONS, "--n", "1e3,1e4", "--reps", "abc"], "--reps"),
    ([*CONS, *SMALL, "--test-size", "0"], "--test-size"),
    ([*CONS, *SMALL, "--seed=-1"], "--seed"),
    (["consistency", "ldp-regression", "--n", "1e3,1e4", "--reps", "8", "--d", "0"], "--d"),
    ([*CONS, *SMALL, "--d", "2"], "--d"),
    ([*CONS, *SMALL, "--alpha", "2"], "--alpha"),
    ([*CONS, *SMALL, "--alpha", "0"], "--alpha"),
    ([*CONS, *SMALL, "--alpha", "1"], "--alpha"),
    ([*CONS, *SMALL, "--alpha", "nan"], "--alpha"),
    ([*CONS, *SMALL, "--tolerance=-1"], "--tolerance"),
    ([*CONS, *SMALL, "--tolerance", "nan"], "--tolerance"),
    (["consistency", "bogus", *SMALL, "--no-progress"], "learner"),
    (["consistency", "pcl", "--distribution", "bogus", *SMALL], "--distribution"),
    (["consistency", "pcde", "--distribution", "bogus", *SMALL], "--distribution"),
    (
        ["consistency", "ldp-regression", "--distribution", "bogus", "--n", "1e3,1e4,1e5"],
        "--distribution",
    ),
    ([*CONS, *SMALL, "--json", ""], "--json"),
    ([*CONS, *SMALL, "--json", "/proc/no/such/dir/out.json"], "--json"),
    ([*CONS, *SMALL, "--plot", "/proc/no/such/dir/out.png"], "--plot"),
    (["compress", "thresholds", "--seed=-1"], "--seed"),
    (["compress", "thresholds", "--gamma", "1e-6"], "--gamma"),
    (["compress", "thresholds", "--gamma", "0.7"], "--gamma"),
    (["compress", "thresholds", "--gamma", "nan"], "--gamma"),
    (["compress", "thresholds", "--gamma", "x"], "--gamma"),
    (["compress", "bv", "--subsample", "0"], "--subsample"),
    (["compress", "bv", "--subsample", "1000000"], "--subsample"),
    (["compress", "thresholds", "--m=-5"], "--m"),
    (["compress", "thresholds", "--m", "0"], "--m"),
    (["compress", "thresholds", "--m", "1000000000000"], "--m"),
    (["compress", "thresholds", "--n", "0"], "--n"),
    (["compress", "lipschitz", "--eta=-1"], "--eta"),
    (["compress", "lipschitz", "--eta", "nan"], "--eta"),
    (["compress", "thresholds", "--eta", "1e300"], "--eta"),  # was "ok: False", exit 1
    (["compress", "polynomials"], "CLASS"),
    (["compress"], "CLASS"),
    (["compress", "thresholds", "--json", "/proc/no/such/dir/c.json"], "--json"),
]


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(("argv", "option"), USAGE_CASES, ids=[" ".join(c[0]) for c in USAGE_CASES])
def test_usage_errors(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Exit 2 before any fit, one line on stderr naming the option; nothing on stdout."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    line = _one_line(err)
    assert option in line, line
    assert out == ""  # refused before any work: no table printed


def test_json_to_a_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([*CONS, *SMALL, "--json", str(tmp_path)]) == 2
    assert "--json" in _one_line(capsys.readouterr().err)
    assert main(["compress", "thresholds", "--json", str(tmp_path)]) == 2
    assert "--json" in _one_line(capsys.readouterr().err)


def test_meanings_of_0_1_3(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """0: a clear trend (p = 3!^3/9! = 6e-4 < 1e-3, final mean <= 0.05); 1: the same run
    with a tolerance the final mean cannot meet (trend not established); 3: the JSON cannot be
    written after the work (/dev/full)."""
    assert main([*CONS, *SMALL]) == 0
    out, err = capsys.readouterr()
    assert "decreasing=True" in out and err == ""
    assert main([*CONS, *SMALL, "--tolerance", "0"]) == 1
    out, err = capsys.readouterr()
    assert "final mean <= 0.0: False" in out and err == ""
    assert main(["compress", "intervals", "--m", "500"]) == 0
    capsys.readouterr()
    # a weak-learning edge the class cannot give: no κ(S) within the retry budget
    assert main(["compress", "bv", "--gamma", "0.45"]) == 1
    assert "no compression within the budget" in _one_line(capsys.readouterr().err)
    if Path("/dev/full").exists():
        assert main([*CONS, *SMALL, "--json", "/dev/full"]) == 3
        assert "internal error" in _one_line(capsys.readouterr().err)
        assert main(["compress", "thresholds", "--json", "/dev/full"]) == 3
        assert "internal error" in _one_line(capsys.readouterr().err)


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["consistency", "pcl", "--n", "0", "--no-progress"], 2),
        (["consistency", "pcl", "--reps", "abc"], 2),
        (["compress", "thresholds", "--gamma", "1e-6"], 2),
        (["compress", "thresholds", "--m", "200"], 0),
    ],
)
def test_subprocess_exit_codes(argv: list[str], code: int) -> None:
    """The real process: exit code and stderr (one line, no traceback) as in-process."""
    proc = subprocess.run(
        [sys.executable, "-m", "dpspec.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == code, proc.stderr
    if code == 0:
        assert proc.stderr == ""
    else:
        _one_line(proc.stderr)


def test_one_parser_answers_many_command_lines_as_fresh_ones_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``main`` is ``run_parsed(build_parser(), argv)``, and parsing leaves the parser as it was:
    the CLI sweep's thousand command lines through one parser get what fresh parsers give."""
    from dpspec.cli import build_parser, run_parsed

    lines = [argv for argv, _ in USAGE_CASES[:12]] + [["list"]]
    parser = build_parser()
    for argv in lines * 2:
        shared = run_parsed(parser, argv), capsys.readouterr()
        fresh = main(argv), capsys.readouterr()
        assert shared == fresh, argv


def test_building_the_parser_leaves_the_auditor_unimported() -> None:
    """Every ``dpspec`` invocation builds the whole parser: it must not import the auditor (and
    scipy.stats with it), which tripled the start-up of every command."""
    code = (
        "import sys; from dpspec.cli import build_parser; build_parser(); "
        "print(sorted(m for m in sys.modules if m.startswith(('dpspec.audit', 'scipy.stats'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
