"""Chaudhuri–Hsu, sample complexity of private learning (seed 004)."""
