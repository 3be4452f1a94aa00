"""A user's own claims, run by ``smoothsens audit --claims examples/my_claims.py``.

Two claims about a hand-written Laplace mechanism M(x) = x + Laplace(scale), x in R, neighbours at
|x - x'| <= 1 (eps per unit distance):

* scale = 1/eps: eps-DP holds (the loss |y - x|/scale - |y - x'|/scale <= |x - x'|/scale) -> VERIFIED;
* scale = 1/(2 eps) (a deliberately wrong calibration): the loss reaches 2 eps |x - x'| -> REFUTED,
  with an mpmath certificate from the exact auditor.

Each claim audits the mechanism with :func:`verify.audit.exact.audit_density_mechanism`, the same
exact auditor the papers' claims use, and turns the outcome into a verdict with
:func:`verify.claims.from_audits.verdict_of_audits`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np

from verify.audit.exact import EuclideanNeighbourhood, audit_density_mechanism
from verify.claims.from_audits import verdict_of_audits
from verify.claims import CheckKind, claim


@dataclass(frozen=True)
class MyLaplace:
    """M(x) = x + Laplace(0, scale); claims eps-DP per unit distance (the Mechanism protocol)."""

    eps: float
    scale: float
    delta: float = 0.0
    metric: str = "euclidean"
    name: str = "my-laplace"

    def log_density(self, x, y):
        return -np.abs(np.asarray(y, dtype=float) - np.asarray(x, dtype=float)) / self.scale - math.log(2 * self.scale)

    def log_density_mp(self, x, y, dps):
        with mpmath.workdps(dps):
            b = mpmath.mpf(self.scale)
            xx = mpmath.mpf(float(np.asarray(x, dtype=float).reshape(-1)[0]))
            return -abs(mpmath.mpf(y) - xx) / b - mpmath.log(2 * b)

    def release(self, x, rng):
        return np.asarray(x, dtype=float) + rng.laplace(scale=self.scale, size=np.shape(x))


def _audit(mech: MyLaplace, ctx):
    res = audit_density_mechanism(mech, EuclideanNeighbourhood(-10.0, 10.0, 1, 1.0), rng=ctx.rng(mech.name),
                                  n_pairs=ctx.scaled(2000, 200), dps=ctx.dps)
    return verdict_of_audits([(mech.name, res)], expect_violation=False, rows=[res.to_json()],
                             precision=f"float search, mpmath {ctx.dps} digits",
                             what=f"{mech.name}: no violation; {res.summary()}")


@claim("user-my-laplace-1/eps", seed="user", section="examples/my_claims.py",
       statement="M(x) = x + Laplace(1/eps) is eps-DP per unit distance (|x - x'| <= 1), eps = 1",
       kind=CheckKind.ADVERSARIAL, code="examples/my_claims.py:MyLaplace")
def my_laplace_correct(ctx):
    return _audit(MyLaplace(eps=1.0, scale=1.0, name="my-laplace-1/eps"), ctx)


@claim("user-my-laplace-1/(2eps)", seed="user", section="examples/my_claims.py",
       statement="M(x) = x + Laplace(1/(2 eps)) is eps-DP per unit distance (wrong: it is 2 eps-DP), eps = 1",
       kind=CheckKind.ADVERSARIAL, code="examples/my_claims.py:MyLaplace")
def my_laplace_wrong(ctx):
    return _audit(MyLaplace(eps=1.0, scale=0.5, name="my-laplace-1/(2eps)"), ctx)
