"""A process that imports the heavy third-party modules once and forks a child per run.

``dpspec mutate`` runs one scratch copy of the package per mutant; a fresh interpreter spends
about a second importing numpy, scipy, scikit-learn and Hypothesis before the first check. This
server imports them once (the module names are its arguments) and forks a child for each
request, so each mutant pays only for importing its own copy of ``dpspec``.

It is started as a script, ``python -P fork_server.py MODULE ...`` (``-P``: its own folder is not
put on ``sys.path``), and imports nothing of ``dpspec``: each child imports the scratch copy it is
given. It reads one JSON request per line on standard input::

    {"root": "/scratch/m3", "target": "dpspec.proofs.engine.mutation:worker_main",
     "argv": [...], "timeout": 600.0, "log": "/scratch/m3/log.txt"}

The child starts a process group of its own, changes to ``root``, puts it first on ``sys.path``
and ``PYTHONPATH`` (so subprocesses it starts import the same copy), sends its output to
``log``, checks that ``dpspec`` resolves inside ``root`` and exits with what the target returns.
The server waits for the child, kills its group when ``timeout`` (wall seconds) has passed, and
answers one JSON line ``{"returncode": int, "timed_out": bool}``. It stops at end of input.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import sys
import time
import traceback
from typing import Any

#: Exit code of a child whose ``dpspec`` did not resolve inside its root.
WRONG_COPY = 3
#: Exit code of a child whose target raised.
RAISED = 4


def _child(request: dict[str, Any]) -> int:
    """Run the request's target in this (forked) process; its exit code."""
    root = str(request["root"])
    os.chdir(root)
    sys.path.insert(0, root)
    rest = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = root + (os.pathsep + rest if rest else "")
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    sys.dont_write_bytecode = True
    null = os.open(os.devnull, os.O_RDONLY)
    log = os.open(str(request["log"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    import dpspec

    where = os.path.realpath(str(dpspec.__file__))
    if not where.startswith(os.path.realpath(root) + os.sep):
        print(f"dpspec resolves to {where}, not the copy in {root}", file=sys.stderr)
        return WRONG_COPY
    module, _, name = str(request["target"]).partition(":")
    result = getattr(importlib.import_module(module), name)(list(request["argv"]))
    return int(result or 0)


def _run(request: dict[str, Any]) -> dict[str, Any]:
    """Fork a child for ``request``; wait for it (at most its timeout); its outcome."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the server's loop
        code = RAISED
        try:
            os.setpgid(0, 0)
            code = _child(request)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    deadline = time.monotonic() + float(request["timeout"])
    delay = 0.005
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return {"returncode": os.waitstatus_to_exitcode(status), "timed_out": False}
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return {"returncode": -signal.SIGKILL, "timed_out": True}
        time.sleep(delay)
        delay = min(0.05, delay * 2)


def main(preload: list[str]) -> int:
    """Import ``preload`` (those that are installed), then serve requests until end of input."""
    for name in preload:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(_run(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
