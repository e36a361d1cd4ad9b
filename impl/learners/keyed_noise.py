"""Noise that is a fixed function of (model key, cell index), in O(touched cells) memory.

A private learner's hypothesis must be *one* function: the noise of a cell is drawn once and
the same x must get the same answer on every call, including cells no training point fell
in (PCL gives every cube noise, seed 000 Alg 2 L193–200). Storing noise for every cell costs
r^−d memory; instead cell c's noise is generated on demand by a counter-based generator
(Philox) keyed by the model key, with the counter set by the block of c (cells are grouped in
blocks of ``BLOCK`` consecutive indices whose noise is drawn in one vectorised call). The
noise of c is then a deterministic function of (key, c), with the stated law, independent
across cells (distinct blocks are disjoint Philox streams 2^128 counters apart).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

BLOCK = 1024

Sampler = Callable[[int, np.random.Generator], NDArray[Any]]


def block_generator(key: int, block: int) -> np.random.Generator:
    """The Philox stream of one block: key = model key, counter word 2..3 = block index."""
    if block < 0 or block >= 2**128:
        raise ValueError(f"block: out of range, got {block}")
    counter = [0, 0, block & (2**64 - 1), block >> 64]
    return np.random.Generator(np.random.Philox(key=key, counter=counter))


def keyed_values(key: int, cells: NDArray[np.int64], sampler: Sampler) -> NDArray[Any]:
    """sampler's draw for each cell index, a fixed function of (key, cell).

    ``sampler(size, rng)`` must draw ``size`` i.i.d. values; block b's values are
    ``sampler(BLOCK, block_generator(key, b))`` and cell c gets entry c mod BLOCK of its block.
    """
    cells = np.asarray(cells, dtype=np.int64)
    if cells.size and int(cells.min()) < 0:
        raise ValueError("cells: indices must be >= 0")
    blocks = cells // BLOCK
    out: NDArray[Any] | None = None
    for b in np.unique(blocks):  # one vectorised draw per block touched: O(#blocks) Python steps
        mask = blocks == b
        values = sampler(BLOCK, block_generator(key, int(b)))
        if out is None:
            out = np.empty(cells.shape, dtype=values.dtype)
        out[mask] = values[cells[mask] % BLOCK]
    return out if out is not None else np.empty(cells.shape, dtype=np.int64)
