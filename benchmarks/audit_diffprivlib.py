"""Audit diffprivlib's models and its Laplace mechanism (run from a virtualenv with
scikit-learn < 1.8: ``python -m venv dpl && dpl/bin/pip install "scikit-learn<1.8" diffprivlib .
&& dpl/bin/python benchmarks/audit_diffprivlib.py``). Results: ``benchmarks/results/
diffprivlib_models.json``; discussion: ``proofs/topics/audit/note.md``."""

import json
import time
import warnings

import numpy as np
from diffprivlib import models

from dpspec.audit import audit
from dpspec.audit.learners import LearnerMechanism, _legacy_random_state
from dpspec.audit.libraries import _diffprivlib_model, _model_canary_pair, load_target

out = {}
D, D2, probe = _model_canary_pair()
for name, n in [
    ("GaussianNB", 4000),
    ("LogisticRegression", 4000),
    ("LinearRegression", 2000),
    ("RandomForestClassifier", 300),
]:
    t = time.perf_counter()
    r = audit(
        _diffprivlib_model(name, 1.0),
        (D, D2),
        1.0,
        samples=n,
        selection=1000 if n > 1000 else 300,
        seed=0,
    )
    out[name] = dict(
        eps_lcb=r.epsilon_lower,
        flagged=r.violation,
        samples=n,
        seconds=time.perf_counter() - t,
        event=r.event,
    )
    print(name, out[name], flush=True)
# no public bounds: diffprivlib takes them from the data (PrivacyLeakWarning); outlier canary
rng = np.random.default_rng(7)
X = rng.random((60, 2))
y = (X[:, 0] + X[:, 1] > 1).astype(int)
far = np.array([[5.0, 5.0]])
Dfar, D2far = (np.vstack([X, far]), np.append(y, 1)), (X, y)


def nb(seed):
    return models.GaussianNB(epsilon=1.0, random_state=_legacy_random_state(seed))


def p1(m):
    return m.predict_proba(np.array([[0.9, 0.9]]))[:, 1]


with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    t = time.perf_counter()
    r = audit(LearnerMechanism(nb, p1), (Dfar, D2far), 1.0, samples=2000, selection=500, seed=0)
out["GaussianNB-no-bounds"] = dict(
    eps_lcb=r.epsilon_lower,
    flagged=r.violation,
    samples=2000,
    seconds=time.perf_counter() - t,
    event=r.event,
)
print("GaussianNB-no-bounds", out["GaussianNB-no-bounds"], flush=True)
t = time.perf_counter()
r = audit(
    load_target("diffprivlib:laplace", 1.0),
    (0.0, 1.0),
    1.0,
    samples=200000,
    seed=0,
    float_bits=True,
)
out["laplace-float-attack"] = dict(
    eps_lcb=r.epsilon_lower,
    flagged=r.violation,
    samples=200000,
    seconds=time.perf_counter() - t,
    event=r.event,
)
print("laplace-float-attack", out["laplace-float-attack"], flush=True)
with open("benchmarks/results/diffprivlib_models.json", "w", encoding="utf-8") as fh:
    json.dump(out, fh, indent=1)
