"""Chunked evaluation of per-point closed forms (memory bounded for ~10^8 points).

Every closed form of this package is elementwise in the points, so a huge input is processed in
slices of ``DEFAULT_CHUNK`` points: the temporaries of one slice stay in cache and the peak
memory is the output arrays plus O(chunk) scratch, whatever the number of points.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["DEFAULT_CHUNK", "map_chunks"]

#: Points per slice: 2^16 float64 = 512 KiB per temporary, which stays within L2 cache.
DEFAULT_CHUNK = 1 << 16


def map_chunks(
    fn: Callable[[NDArray[np.float64]], Sequence[NDArray[np.float64]]],
    arr: NDArray[np.float64],
    n_out: int,
    chunk: int = DEFAULT_CHUNK,
) -> tuple[NDArray[np.float64], ...]:
    """Apply ``fn`` to consecutive slices of ``arr`` along axis 0 and assemble ``n_out`` outputs.

    ``fn(slice)`` returns ``n_out`` arrays of length ``len(slice)``.  Outputs are preallocated
    float64 arrays of length ``len(arr)``.
    """
    n = arr.shape[0]
    outs = tuple(np.empty(n, dtype=np.float64) for _ in range(n_out))
    if n <= chunk:
        res = fn(arr)
        for o, r in zip(outs, res, strict=True):
            o[:] = r
        return outs
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        res = fn(arr[start:stop])
        for o, r in zip(outs, res, strict=True):
            o[start:stop] = r
    return outs
