"""Where each import name of the one distribution ``dpspec`` lives in the repository.

The project keeps the top-level folders its users asked for, so the packages are mapped onto
them instead of living under ``src/``. This map is the one place that says so: ``setup.py``
reads it (by path, at build time) and the mutation engine reads it (to build scratch copies and
to name the module of a file). Pure data, no imports: it must load before dpspec is installed.
"""

#: import name → repository folder (a mounted folder inside another would be a package of
#: its own: the scratch copies and ``setup.py`` handle that case).
ROOTS: dict[str, str] = {
    "dpspec": "impl",
    "dpspec.spec": "spec",
    "dpspec.proofs": "proofs",
}
