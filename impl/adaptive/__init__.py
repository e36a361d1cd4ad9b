"""Adaptive data analysis with correlated samples (thesis ch. 7): the game, its mechanisms and
analysts, the tight example, homogeneous Markov chains, Algorithm 10 and Lemma 7.1.1's
exponential mechanism over predicates."""

from dpspec.adaptive.deviating import (
    NOTHING,
    DeviatingAlgorithm,
    PredicateMechanism,
    minimum_sample_size,
    predicate_mechanism_gap,
)
from dpspec.adaptive.game import (
    AggregationAttack,
    Analyst,
    AnswerMechanism,
    ExactAnswers,
    LaplaceAnswers,
    RandomAnalyst,
    RoundingAnswers,
    SplitAnswers,
    Transcript,
    play,
)
from dpspec.adaptive.measures import HomogeneousChain, tight_example, tight_example_law

__all__ = [
    "NOTHING",
    "AggregationAttack",
    "Analyst",
    "AnswerMechanism",
    "DeviatingAlgorithm",
    "ExactAnswers",
    "HomogeneousChain",
    "LaplaceAnswers",
    "PredicateMechanism",
    "RandomAnalyst",
    "RoundingAnswers",
    "SplitAnswers",
    "Transcript",
    "minimum_sample_size",
    "play",
    "predicate_mechanism_gap",
    "tight_example",
    "tight_example_law",
]
