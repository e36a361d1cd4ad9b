"""The CrossHair lemma layer, tested three ways.

1. Every lemma's own docstring contract, evaluated on many concrete inputs (Hypothesis) with
   :func:`dpspec.proofs.engine.crosshair.evaluate_contract` — fast, and it reads the same ``pre:`` /
   ``post:`` lines CrossHair checks. The Laplace statements are also run on ``Fraction`` inputs
   beyond the integer bounds CrossHair needs.
2. A negative control: the runner must report ``counterexample`` for the false lemmas of
   ``tests/false_lemmas.py`` (passed by path).
3. The runner itself on a few real lemmas: ``confirmed``.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dpspec.proofs.engine.crosshair import (
    check_condition,
    contract_lines,
    evaluate_contract,
    run_prove,
)
from dpspec.proofs.topics.mechanisms import lemmas as mechanism_lemmas
from dpspec.proofs.topics.privacy import lemmas as core_lemmas
from dpspec.spec.mechanisms import (
    discrete_laplace_exponent,
    discrete_laplace_exponent_bound,
    discrete_laplace_log_ratio,
    laplace_log_ratio,
    laplace_log_ratio_bound,
    laplace_log_ratio_vector,
    laplace_log_ratio_vector_bound,
)

FALSE_LEMMAS = Path(__file__).resolve().parent / "false_lemmas.py"

#: The privacy-core lemma layers (the topics' own tests cover compression, LDP and the audit).
LEMMA_MODULES = (core_lemmas, mechanism_lemmas)


def lemma(name: str) -> Any:
    """The lemma function ``name`` of the privacy-core layers."""
    for module in LEMMA_MODULES:
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(name)


ints = st.integers(-50, 50)
naturals = st.integers(0, 50)


@st.composite
def _position(draw: st.DrawFn, n: int) -> int:
    return draw(st.integers(0, n - 1))


@st.composite
def _bits_sub(draw: st.DrawFn) -> dict[str, Any]:
    bits = tuple(draw(st.lists(st.booleans(), min_size=1, max_size=8)))
    return {"bits": bits, "i": draw(_position(len(bits))), "new": draw(st.booleans())}


@st.composite
def _bits_ar(draw: st.DrawFn) -> dict[str, Any]:
    bits = tuple(draw(st.lists(st.booleans(), min_size=1, max_size=8)))
    return {"bits": bits, "i": draw(_position(len(bits)))}


@st.composite
def _histogram(draw: st.DrawFn, substitution: bool) -> dict[str, Any]:
    bins = draw(st.integers(1, 4))
    data = tuple(draw(st.lists(st.integers(0, bins - 1), min_size=1, max_size=4)))
    out: dict[str, Any] = {"data": data, "bins": bins, "i": draw(_position(len(data)))}
    if substitution:
        out["new"] = draw(st.integers(0, bins - 1))
    return out


@st.composite
def _votes(draw: st.DrawFn, substitution: bool) -> dict[str, Any]:
    cells = draw(st.integers(1, 2))
    record = st.tuples(st.integers(0, cells - 1), st.integers(0, 1))
    records = tuple(draw(st.lists(record, min_size=1, max_size=2)))
    out: dict[str, Any] = {"records": records, "cells": cells}
    if substitution:
        out["new_cell"] = draw(st.integers(0, cells - 1))
        out["new_label"] = draw(st.integers(0, 1))
    return out


@st.composite
def _laplace_vector(draw: st.DrawFn) -> dict[str, Any]:
    k = draw(st.integers(0, 3))
    vec = st.lists(ints, min_size=k, max_size=k).map(tuple)
    return {"y": draw(vec), "a": draw(vec), "a_prime": draw(vec), "b": draw(st.integers(1, 2))}


@st.composite
def _stability_histogram(draw: st.DrawFn) -> dict[str, Any]:
    k = draw(st.integers(0, 3))
    return {
        "counts": tuple(draw(st.lists(naturals, min_size=k, max_size=k))),
        "noise": tuple(draw(st.lists(ints, min_size=k, max_size=k))),
        "threshold": draw(ints),
    }


@st.composite
def _em_score(draw: st.DrawFn) -> dict[str, Any]:
    record = st.tuples(st.integers(0, 2), st.integers(0, 1))
    return {
        "candidate": tuple(draw(st.lists(st.integers(0, 1), min_size=3, max_size=3))),
        "records": tuple(draw(st.lists(record, min_size=1, max_size=3))),
        "new_x": draw(st.integers(0, 2)),
        "new_y": draw(st.integers(0, 1)),
    }


@st.composite
def _em_log_weight(draw: st.DrawFn) -> dict[str, Any]:
    delta = draw(st.integers(1, 3))
    score_prime = draw(ints)
    return {
        "score": score_prime + draw(st.integers(-delta, delta)),
        "score_prime": score_prime,
        "delta": delta,
        "eps_num": draw(st.integers(1, 4)),
        "eps_den": draw(st.integers(1, 2)),
    }


@st.composite
def _dominated(draw: st.DrawFn, k: int | None) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """(w, w') with r_den·w'(b) ≤ r_num·w(b) for every b: w' drawn below the bound."""
    size = draw(st.integers(0, 4)) if k is None else k
    r_num, r_den = draw(st.integers(0, 6)), draw(st.integers(1, 6))
    w = tuple(draw(st.lists(naturals, min_size=size, max_size=size)))
    w_prime = tuple(draw(st.integers(0, (r_num * x) // r_den)) for x in w)
    return w, w_prime, r_num, r_den


@st.composite
def _normaliser(draw: st.DrawFn) -> dict[str, Any]:
    w, w_prime, r_num, r_den = draw(_dominated(None))
    return {"weights": w, "weights_prime": w_prime, "r_num": r_num, "r_den": r_den}


@st.composite
def _postprocessing(draw: st.DrawFn) -> dict[str, Any]:
    q, p, r_num, r_den = draw(_dominated(3))
    g = tuple(draw(st.lists(st.integers(0, 2), min_size=3, max_size=3)))
    return {"p": p, "q": q, "g": g, "r_num": r_num, "r_den": r_den}


#: One input strategy per lemma of the privacy-core layers (drawn inside its preconditions).
STRATEGIES: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "count_change_substitution": _bits_sub(),
    "count_change_add_remove": _bits_ar(),
    "histogram_change_substitution": _histogram(substitution=True),
    "histogram_change_add_remove": _histogram(substitution=False),
    "centred_vote_change_substitution": _votes(substitution=True),
    "centred_vote_change_add_remove": _votes(substitution=False),
    "laplace_loss_bound": st.fixed_dictionaries(
        {"y": ints, "a": ints, "a_prime": ints, "b": st.integers(1, 4)}
    ),
    "laplace_loss_bound_half_integers": st.fixed_dictionaries(
        {"y2": ints, "a2": ints, "a_prime2": ints}
    ),
    "laplace_loss_bound_half_integers_scale2": st.fixed_dictionaries(
        {"a2": ints, "a_prime2": ints}
    ),
    "laplace_loss_vector_bound": _laplace_vector(),
    "discrete_laplace_ratio_bound": st.fixed_dictionaries(
        {"y": st.integers(), "a": st.integers(), "a_prime": st.integers()}
    ),
    "stability_release": st.fixed_dictionaries(
        {"count": naturals, "noise": ints, "threshold": ints}
    ),
    "stability_histogram_release": _stability_histogram(),
    "em_score_change_substitution": _em_score(),
    "em_log_weight_difference": _em_log_weight(),
    "em_normaliser_ratio": _normaliser(),
    "postprocessing_ratio": _postprocessing(),
}


def _lemma_names(path: Path) -> list[str]:
    """Top-level functions of a file whose docstring has a ``post:`` line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any(kind == "post" for _, kind, _ in contract_lines(ast.get_docstring(node) or ""))
    ]


def test_every_lemma_has_a_strategy() -> None:
    names = [n for m in LEMMA_MODULES for n in _lemma_names(Path(inspect.getfile(m)))]
    assert sorted(names) == sorted(STRATEGIES)


def test_at_least_ten_conditions() -> None:
    posts = [
        line
        for name in STRATEGIES
        for _, kind, line in contract_lines(inspect.getdoc(lemma(name)) or "")
        if kind == "post"
    ]
    assert len(posts) >= 10


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_lemma_holds_on_examples(name: str) -> None:
    fn = lemma(name)

    @settings(max_examples=150, deadline=None)
    @given(STRATEGIES[name])
    def holds(kwargs: dict[str, Any]) -> None:
        outcome = evaluate_contract(fn, **kwargs)
        assume(outcome is not None)  # strategies draw inside pre:, so this rarely filters
        assert outcome, f"{name}{kwargs} breaks its post-condition"

    holds()


def test_evaluate_contract_separates_pre_and_post() -> None:
    # outside the precondition: None (not a failure)
    assert evaluate_contract(lemma("laplace_loss_bound"), 0, 0, 1, 0) is None
    # a false lemma on its counterexample: False
    false_ns: dict[str, Any] = {}
    exec(compile(FALSE_LEMMAS.read_text(encoding="utf-8"), str(FALSE_LEMMAS), "exec"), false_ns)
    assert evaluate_contract(false_ns["em_log_weight_without_half"], 1, 0, 1) is False
    assert (
        evaluate_contract(false_ns["histogram_sensitivity_one_under_substitution"], (1,), 3, 0, 0)
        is False
    )


# --- the Laplace statements on rationals (CrossHair needs integer inputs and 1 ≤ b ≤ 4) ----

fractions = st.fractions(min_value=-20, max_value=20, max_denominator=12)
scales = st.fractions(min_value=Fraction(1, 12), max_value=50, max_denominator=12)


@given(fractions, fractions, fractions, scales)
def test_laplace_loss_bound_on_rationals(
    y: Fraction, a: Fraction, a_prime: Fraction, b: Fraction
) -> None:
    loss = laplace_log_ratio(y, a, a_prime, b)
    bound = laplace_log_ratio_bound(a, a_prime, b)
    assert abs(loss) <= bound
    assert laplace_log_ratio(a, a, a_prime, b) == bound  # attained at y = a
    # positively homogeneous: scaling every argument by k > 0 leaves the loss unchanged
    k = Fraction(7, 3)
    assert laplace_log_ratio(k * y, k * a, k * a_prime, k * b) == loss


@given(st.lists(st.tuples(fractions, fractions, fractions), max_size=4), scales)
def test_laplace_vector_bound_on_rationals(
    coords: list[tuple[Fraction, Fraction, Fraction]], b: Fraction
) -> None:
    y, a, a_prime = (tuple(c[j] for c in coords) for j in range(3))
    loss = laplace_log_ratio_vector(y, a, a_prime, b)
    assert abs(loss) <= laplace_log_ratio_vector_bound(a, a_prime, b)
    assert loss == sum((laplace_log_ratio(*c, b) for c in coords), Fraction(0))


@given(st.integers(), st.integers(), st.integers(), st.integers(1, 100))
def test_discrete_laplace_log_ratio(y: int, a: int, a_prime: int, t: int) -> None:
    k = discrete_laplace_exponent(y, a, a_prime)
    assert abs(k) <= discrete_laplace_exponent_bound(a, a_prime)
    assert discrete_laplace_log_ratio(y, a, a_prime, t) == Fraction(k, t)


def test_loss_rejects_non_positive_scale() -> None:
    with pytest.raises(ValueError, match="positive"):
        laplace_log_ratio(0, 0, 1, 0)
    with pytest.raises(ValueError, match="lengths"):
        laplace_log_ratio_vector((0,), (0, 1), (1,), 1)


# --- the runner ----------------------------------------------------------------------------


def test_runner_reports_counterexamples_for_false_lemmas() -> None:
    report = run_prove((str(FALSE_LEMMAS),), per_condition_timeout=10, progress=False)
    payload = report.to_json()
    assert len(payload["conditions"]) == 2
    assert payload["counterexamples"] == 2 and payload["confirmed"] == 0
    for record in payload["conditions"]:
        assert record["status"] == "counterexample"
        assert "when calling" in record["message"]
        assert set(record) >= {"id", "function", "status", "seconds", "message"}


@pytest.mark.timeout(120)
def test_runner_confirms_real_lemmas() -> None:
    targets = tuple(
        f"dpspec.proofs.topics.mechanisms.lemmas.{name}"
        for name in ("discrete_laplace_ratio_bound", "stability_release", "em_normaliser_ratio")
    )
    report = run_prove(targets, per_condition_timeout=20, progress=False)
    payload = report.to_json()
    assert [c["status"] for c in payload["conditions"]] == ["confirmed"] * 5
    assert payload["confirmed"] == 5 and payload["unconfirmed"] == payload["counterexamples"] == 0
    assert report.all_confirmed


def test_check_condition_summarises_one_lemma() -> None:
    rec = check_condition("dpspec.proofs.topics.mechanisms.lemmas.stability_release", 20)
    assert rec["status"] == "confirmed" and len(rec["conditions"]) == 3
    one = check_condition("dpspec.proofs.topics.mechanisms.lemmas.stability_release#post2", 20)
    assert [c["id"] for c in one["conditions"]] == [
        "dpspec.proofs.topics.mechanisms.lemmas.stability_release#post2"
    ]
    bad = check_condition(f"{FALSE_LEMMAS}:em_log_weight_without_half", 10)
    assert bad["status"] == "counterexample" and "when calling" in bad["message"]


# --- the w.l.o.g. reductions the CrossHair lemmas rely on ------------------------------------


@given(_votes(substitution=True), st.data())
def test_substituting_any_record_is_substituting_the_first_after_reordering(
    case: dict[str, Any], data: st.DataObject
) -> None:
    """Votes and mistakes are sums over the records: substituting record i is substituting
    record 0 of the reordered dataset (the lemmas substitute / remove the first record)."""
    from dpspec.spec.sensitivity import centred_votes, l1_distance, mistakes

    records, cells = case["records"], case["cells"]
    i = data.draw(st.integers(0, len(records) - 1))
    new = (case["new_cell"], case["new_label"])
    moved = (records[i], *records[:i], *records[i + 1 :])
    at_i = (*records[:i], new, *records[i + 1 :])
    assert l1_distance(centred_votes(records, cells), centred_votes(at_i, cells)) == (
        lemma("centred_vote_change_substitution")(moved, cells, *new)
    )
    removed = records[:i] + records[i + 1 :]
    assert l1_distance(centred_votes(records, cells), centred_votes(removed, cells)) == (
        lemma("centred_vote_change_add_remove")(moved, cells)
    )
    bit = st.integers(0, 1)
    candidate = data.draw(st.tuples(bit, bit, bit))
    recs = tuple((c % 3, y) for c, y in records)
    new3 = (new[0] % 3, new[1])
    moved3 = (recs[i], *recs[:i], *recs[i + 1 :])
    at_i3 = (*recs[:i], new3, *recs[i + 1 :])
    assert mistakes(at_i3, candidate) - mistakes(recs, candidate) == (
        lemma("em_score_change_substitution")(candidate, moved3, *new3)
    )


@given(
    st.lists(st.integers(-4, 4), min_size=3, max_size=3),
    st.permutations(range(3)),
    st.lists(st.integers(0, 3), min_size=3, max_size=3),
    st.integers(0, 3),
)
def test_quantiles_and_median_do_not_depend_on_the_order_of_the_pairs(
    values: list[int], perm: list[int], weights: list[int], g: int
) -> None:
    """The compression lemmas take sorted values: the quantiles see the (value, weight) pairs
    only as a multiset (checked here), so sorting them loses nothing."""
    from dpspec.spec.compression import quantile_minus, quantile_plus, weighted_median

    assume(sum(weights) > 0)
    pv, pw = [values[k] for k in perm], [weights[k] for k in perm]
    gamma = Fraction(g, 8)
    assert quantile_minus(values, weights, gamma) == quantile_minus(pv, pw, gamma)
    assert quantile_plus(values, weights, gamma) == quantile_plus(pv, pw, gamma)
    assert weighted_median(values, weights) == weighted_median(pv, pw)


@given(st.lists(st.integers(-20, 20), min_size=3, max_size=3), st.integers(-20, 20))
def test_half_integer_loss_is_translation_invariant(ys: list[int], shift: int) -> None:
    """The scale-2 half-integer lemma fixes y = 0: the loss depends on y − a, y − a' only."""
    y2, a2, a_prime2 = ys
    half = Fraction(1, 2)
    loss = laplace_log_ratio(y2 * half, a2 * half, a_prime2 * half, 2)
    assert loss == lemma("laplace_loss_bound_half_integers_scale2")(a2 - y2, a_prime2 - y2)
    assert loss == laplace_log_ratio(
        (y2 + shift) * half, (a2 + shift) * half, (a_prime2 + shift) * half, 2
    )


def test_runner_reports_an_exhausted_budget_as_unconfirmed_with_the_budget() -> None:
    """A condition that needs ≈ 2.5 s of CPU, given 0.2 s: unconfirmed, never confirmed, and the
    message states the budget (CPU seconds per condition and per path)."""
    report = run_prove(
        ("dpspec.proofs.topics.compression.lemmas.median_lipschitz_d_mid",),
        per_condition_timeout=0.2,
        progress=False,
    )
    (record,) = report.conditions
    assert record["status"] == "unconfirmed" and record["budget"] == 0.2
    assert "CPU budget 0.2s per condition (0.2s per path)" in record["message"]
    assert not report.all_confirmed and report.to_json()["per_condition_timeout"] == 0.2


def test_a_lemma_calls_no_function_with_a_contract() -> None:
    """CrossHair assumes a called function's contract instead of exploring it (a callee whose
    postcondition fails hides the path: "confirmed" while false), so a lemma calls only
    functions without ``post:`` lines."""
    import importlib

    from dpspec.proofs.engine.crosshair import discover, lemma_modules

    bad = []
    for module in lemma_modules():
        mod = importlib.import_module(module)
        for fn in discover(module):
            tree = ast.parse(textwrap.dedent(inspect.getsource(getattr(mod, fn.name))))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    callee = getattr(mod, node.func.id, None)
                    if callable(callee) and "post:" in (inspect.getdoc(callee) or ""):
                        bad.append(f"{fn.display} calls {node.func.id}, which has a contract")
    assert not bad, bad
