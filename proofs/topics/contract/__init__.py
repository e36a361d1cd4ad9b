"""Hostile input: named errors, no silent privacy loss, overflow-safe exact arithmetic, CLI exit
codes.
"""
