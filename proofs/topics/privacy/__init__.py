"""Core notions: pure and approximate DP, group privacy, post-processing, sensitivity lemmas,
privacy reports, the estimator protocol.
"""
