"""Black-box mechanism audit and calibrate --tight on the Dask backend: the chunks of draws
(each from its own child seed of the master seed) and the tight rows give bit-identical reports
serially and on a 2-worker LocalCluster."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from verify.audit.blackbox import audit_blackbox_mechanism
from verify.parallel import DaskExecutor, SerialExecutor, dask_available

pytestmark = pytest.mark.skipif(not dask_available(), reason="dask.distributed not installed")


def _laplace_release(x, rng):
    x = np.asarray(x, dtype=float)
    return x + rng.laplace(scale=0.5, size=x.shape)  # scale 1/2: 2-GP, claimed 1-GP (a violation)


@pytest.fixture(scope="module")
def cluster():
    ex = DaskExecutor(None, 2)
    yield ex
    ex.close()


def _numbers(rep):
    doc = rep.to_json()
    doc.pop("elapsed_s")
    return doc


def test_chunked_blackbox_audit_identical_serial_and_cluster(cluster):
    kw = dict(pairs=[(0.0, 1.0), (0.5, 1.0)], budget=40_000, chunk=5_000, rng=11, density=False)
    serial = audit_blackbox_mechanism(_laplace_release, 1.0, **kw)
    again = audit_blackbox_mechanism(_laplace_release, 1.0, executor=SerialExecutor(), **kw)
    dask = audit_blackbox_mechanism(_laplace_release, 1.0, executor=cluster, **kw)
    assert _numbers(serial) == _numbers(again) == _numbers(dask)
    assert serial.eps_lower == dask.eps_lower and serial.delta_lower == dask.delta_lower
    # several chunks per input, every estimation draw counted once
    assert all(p.n_estimation == 40_000 - 4_000 for p in dask.pairs)
    assert dask.violated  # the half-scale Laplace is refuted at claimed eps = 1 on either path
    other = audit_blackbox_mechanism(_laplace_release, 1.0, **{**kw, "rng": 12})
    assert _numbers(other) != _numbers(serial)  # the seed matters: the equality above is not vacuous


def test_chunk_size_is_validated():
    with pytest.raises(ValueError, match="chunk must be an integer >= 1000"):
        audit_blackbox_mechanism(_laplace_release, 1.0, pairs=[(0.0, 1.0)], budget=2000, chunk=10)
    with pytest.raises(TypeError, match="executor must be a verify.parallel.Executor"):
        audit_blackbox_mechanism(_laplace_release, 1.0, pairs=[(0.0, 1.0)], budget=2000, executor=object())


@pytest.mark.long
def test_calibrate_tight_rows_identical_serial_and_cluster(cluster):
    from smoothsens_core.calibration import tight_table
    from verify.cli.commands.calibrate import tight_rows

    serial = tight_rows(1.0, None, "euclidean", None, SerialExecutor())
    dask = tight_rows(1.0, None, "euclidean", None, cluster)
    assert json.dumps(serial, sort_keys=True, default=str) == json.dumps(dask, sort_keys=True, default=str)
    assert serial[0] == tight_table(1.0, None, "euclidean")  # the per-row tasks are the core table's rows
