"""Locally private partitioning regression and classification (seed 003, Berrett-Gyorfi-Walk)."""
