"""Every CrossHair lemma is bound to the code that runs, and the binding checks can fail.

1. Meta-test of the registry: every ``crosshair`` obligation states its binding, either
   ``"called by <dotted impl name>"`` (the name resolves, and its source calls one of the
   obligation's predicates) or ``"differential: <obligation id>"`` (the id is a registered,
   runnable non-CrossHair obligation that names the lemma, or its spec function, among its
   predicates); and every lemma with a contract belongs to some CrossHair obligation.
2. Negative controls: each differential check runs on the implementation with one
   privacy-relevant rule broken (the method's real source with one token changed, compiled in
   the module's namespace) and must fail; the same check passes on the real code
   (``tests/test_verifiers.py::test_registry_checks_pass`` runs it with the full example count).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

import pytest

from dpspec.proofs.engine import bindings
from dpspec.proofs.engine.crosshair import discover, lemma_modules
from dpspec.proofs.engine.registry import Method, Obligation, VerifyConfig, obligations


def _resolve(dotted: str) -> Any:
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for name in parts[k:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(dotted)


#: Lemma obligations: CrossHair's, and those over finite domains settled by enumeration.
CROSSHAIR = [ob for ob in obligations() if ob.lemmas]
BY_ID = {ob.id: ob for ob in obligations()}


def test_there_are_lemma_obligations() -> None:
    assert len(CROSSHAIR) >= 20
    assert sum(ob.method == Method.CROSSHAIR for ob in CROSSHAIR) >= 10


@pytest.mark.parametrize("ob", CROSSHAIR, ids=[ob.id for ob in CROSSHAIR])
def test_crosshair_obligation_is_bound(ob: Obligation) -> None:
    kind, _, target = ob.binding.partition(":") if ":" in ob.binding else ("", "", "")
    if ob.binding.startswith("called by "):
        impl = _resolve(ob.binding.removeprefix("called by ").strip())
        source = inspect.getsource(impl)
        called = {
            node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            for node in ast.walk(ast.parse(textwrap.dedent(source)))
            if isinstance(node, ast.Call)
        }
        names = {p.rsplit(".", 1)[-1] for p in ob.predicates}
        assert called & names, f"{ob.id}: {ob.binding} calls none of {sorted(names)}"
        return
    assert kind == "differential", f"{ob.id}: binding {ob.binding!r} is neither form"
    target = target.strip()
    assert target in BY_ID, f"{ob.id}: binding names unknown obligation {target!r}"
    bound = BY_ID[target]
    assert bound.method != Method.CROSSHAIR and bound.runs, target
    assert bound.impls, f"{target}: a differential obligation must name the impl code it runs"
    for impl in bound.impls:
        assert _resolve(impl) is not None
    # the differential check compares the impl with this lemma's function or the spec function
    # the lemma reasons about: some predicate of the bound obligation is called by the lemma
    lemma_fns = [_resolve(p) for p in ob.predicates if ".lemmas" in p]
    assert lemma_fns, f"{ob.id}: names no lemma function"
    bound_names = {p.rsplit(".", 1)[-1] for p in bound.predicates}
    for fn in lemma_fns:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        used |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert fn.__name__ in bound_names or used & bound_names, (
            f"{ob.id}: {target} compares neither {fn.__name__} nor a function it uses"
        )


def test_every_lemma_belongs_to_a_crosshair_obligation() -> None:
    named = {p for ob in CROSSHAIR for p in ob.predicates}
    lemmas = {fn.display for module in lemma_modules() for fn in discover(module)}
    assert lemmas - named == set(), f"lemmas without an obligation: {sorted(lemmas - named)}"


def test_empty_or_dangling_bindings_are_rejected() -> None:
    """The meta-test above fails on an unbound or dangling entry (checked on copies)."""
    from dataclasses import replace

    ob = CROSSHAIR[0]
    for bad in ("", "differential: no.such.obligation", "called by dpspec.no_such_thing"):
        with pytest.raises((AssertionError, ImportError, AttributeError)):
            test_crosshair_obligation_is_bound(replace(ob, binding=bad))


# --- negative controls: a broken rule in the implementation fails its binding check ---------


def _mutant(func: Callable[..., Any], old: str, new: str) -> Callable[..., Any]:
    """``func`` recompiled from its own source with ``old`` replaced by ``new`` (once)."""
    source = textwrap.dedent(inspect.getsource(func))
    assert source.count(old) >= 1, f"{old!r} not in {func.__qualname__}"
    namespace: dict[str, Any] = dict(func.__globals__)
    code = compile(source.replace(old, new, 1), f"<mutant of {func.__qualname__}>", "exec")
    exec(code, namespace)
    mutant: Callable[..., Any] = namespace[func.__name__]
    return mutant


def _owner(dotted: str) -> tuple[Any, str]:
    parent, _, attr = dotted.rpartition(".")
    return _resolve(parent), attr


MUTANTS = [
    # (topic:check of the topic's bindings module, function to mutate, old token, new token);
    # the bindings of the mechanisms, privacy and compression topics carry theirs in the
    # registry (``bug_controls``, run by ``dpspec verify``)
    (
        "ldp:ldp_binding",
        "dpspec.ldp.mechanism.LocalRandomiser._signal",
        "np.clip(Y, -self.truncation, self.truncation)",
        "Y",
    ),
    (
        "audit:audit_binding",
        "dpspec.audit.bounds._epsilon_lower",
        "np.asarray(p1_lo, dtype=np.float64) - delta",
        "np.asarray(p1_lo, dtype=np.float64)",
    ),
]


@pytest.mark.parametrize(
    ("check", "target", "old", "new"), MUTANTS, ids=[f"{m[0]}:{m[3]}" for m in MUTANTS]
)
def test_binding_checks_catch_a_broken_rule(
    check: str, target: str, old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bindings, "EXAMPLES", 200)
    topic, _, name = check.partition(":")
    run = getattr(importlib.import_module(f"dpspec.proofs.topics.{topic}.bindings"), name)
    owner, attr = _owner(target)
    original = getattr(owner, attr)
    monkeypatch.setattr(owner, attr, _mutant(original, old, new))
    broken = run(VerifyConfig())
    assert not broken.passed, f"{check} passed with {old!r} -> {new!r}"
    monkeypatch.setattr(owner, attr, original)
    assert run(VerifyConfig()).passed


def _numbered(v: int) -> dict[str, int]:
    return {"v": v}


def test_differential_runs_the_stated_number_of_generated_inputs() -> None:
    """The generated inputs come in batches of ``BATCH`` per Hypothesis example; their number
    is the one asked for (rounded up to a whole batch) and each is compared."""
    from hypothesis import strategies as st

    compared: list[dict[str, int]] = []

    def compare(case: dict[str, int]) -> str | None:
        compared.append(case)
        return None

    out = bindings.differential(
        VerifyConfig(), [], st.integers(0, 10**6).map(_numbered), compare, examples=50
    )
    whole = -(-50 // bindings.BATCH) * bindings.BATCH
    assert out.passed
    assert out.numbers["examples"] == len(compared) == whole


@pytest.mark.parametrize("under_control", [False, True])
def test_differential_finds_a_mismatch_no_boundary_case_shows(under_control: bool) -> None:
    """A rule broken only on inputs the boundary list does not hold is found among the
    generated ones; outside a bug control the reported input is shrunk to the least one."""
    from hypothesis import strategies as st

    def compare(case: dict[str, int]) -> str | None:
        return "broken" if case["v"] >= 500 else None

    out = bindings.differential(
        VerifyConfig(under_control=under_control),
        [{"v": 0}, {"v": 499}],
        st.integers(0, 1000).map(_numbered),
        compare,
    )
    assert not out.passed
    if not under_control:
        assert out.detail.startswith("{'v': 500}: broken")
