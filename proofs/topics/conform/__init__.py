"""Conformance of implementations to the spec's algorithms (``dpspec conform``)."""
