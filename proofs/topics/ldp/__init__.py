"""Locally private partitioning regression and classification (seed 003): Prop 1, Lemma 1, Thms
2-4.
"""
