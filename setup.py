"""Where the import names of the one distribution ``dpspec`` live.

The project keeps the top-level folders its users asked for, so the packages are mapped
instead of living under ``src/``: ``impl/`` is the package ``dpspec`` itself (the algorithms,
the auditor, the public API), ``spec/`` is ``dpspec.spec`` (the predicates), ``proofs/`` is
``dpspec.proofs`` (the registry). Every folder with an ``__init__.py`` below them is a subpackage, so a
new folder needs no edit here (re-run the install command to link it).
"""

import runpy
from pathlib import Path

from setuptools import setup

#: import name → folder: the one map, in ``proofs/engine/layout.py`` (read by path: dpspec is
#: not importable while it is being built).
ROOTS: dict[str, str] = runpy.run_path(str(Path(__file__).parent / "proofs/engine/layout.py"))[
    "ROOTS"
]


def _packages() -> list[str]:
    mounted = {Path(folder) for folder in ROOTS.values()}
    names = []
    for name, folder in ROOTS.items():
        for init in sorted(Path(folder).rglob("__init__.py")):
            here = init.parent
            inner = [
                p
                for p in mounted
                if p != Path(folder) and p.is_relative_to(folder) and here.is_relative_to(p)
            ]
            if inner or "build" in here.parts:
                continue  # a mounted folder of its own, or build output
            names.append(".".join((name, *here.relative_to(folder).parts)))
    return names


setup(packages=_packages(), package_dir=ROOTS)
