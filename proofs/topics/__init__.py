"""The guarantee families, one package each, discovered by :mod:`dpspec.proofs.engine.registry`.

A topic is a folder ``<family>/`` with ``obligations.py`` (``OBLIGATIONS``) and the modules its
entries name — ``checks.py`` and helpers, ``lemmas.py`` (CrossHair), ``errata.py``
(``ERRATA``), ``mutants.py`` (``MUTANTS``) — and ``note.md``. Adding a family means adding a
folder here (and its code under ``impl/`` and ``spec/``); no other file lists it.
"""
