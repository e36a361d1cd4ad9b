"""Adaptive data analysis with correlated samples (thesis ch. 7)."""
