"""Adaptive data analysis with correlated samples (thesis ch. 7): the game, its mechanisms and
analysts, the tight example and homogeneous Markov chains."""

from dpspec.adaptive.game import (
    AggregationAttack,
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
    "AggregationAttack",
    "ExactAnswers",
    "HomogeneousChain",
    "LaplaceAnswers",
    "RandomAnalyst",
    "RoundingAnswers",
    "SplitAnswers",
    "Transcript",
    "play",
    "tight_example",
    "tight_example_law",
]
