"""Synthetic stand-ins for the data sets of 004 Sec. 5 (seeded; documented as stand-ins).

004 Sec. 5 evaluates on two real data sets that cannot be downloaded here:

* the 2022 California household income data (IPUMS/ACS, [RFS+24]) for the one-way threshold,
  and a correlated log-normal income/debt model fitted to it for the two-way threshold;
* the New York motor-vehicle collision locations ([Ope24]) over an area of about
  110 km x 90 km for the Gaussian KDE.

The generators below produce data with the same *shape of difficulty* (where the mass lies
relative to the thresholds / query points), not the same numbers.  Every figure made from them is
an analogue of the paper's figure, never a reproduction of its values.

Income stand-in
    X ~ LogNormal(mu, sigma): ln X ~ N(mu, sigma^2).  004 Sec. 5 says mu, sigma are "fitted from
    the California income dataset at various percentiles" but does not print the percentiles.
    We therefore fit to :data:`INCOME_PERCENTILES_CA_2022`, rounded public ACS 2022 figures for
    California household income (an ASSUMPTION of this stand-in, not a number from 004):
    the least-squares fit of  ln q_p = mu + sigma * Phi^{-1}(p)  over the stated percentiles p.

Income/debt stand-in (004 Sec. 5, "Two-way Threshold Query")
    (ln X1, ln X2) ~ N((mu1, mu2), [[s1^2, rho s1 s2], [rho s1 s2, s2^2]]) with
    mu2 = ln(1.791) + mu1, s2 = s1 (1.791 = the California household debt-to-income ratio of
    2022 quoted by 004) and rho = 0.4.  004 calls rho the "correlation ratio" of the log-normal
    model; we read it as the correlation of the underlying normals (the log values).

Collision-location stand-in (004 Sec. 5, "Gaussian KDE")
    Points in metres in the box [0, 110000] x [0, 90000]: a fixed mixture of anisotropic Gaussian
    clusters (dense "boroughs" plus smaller hot spots) and a uniform background, truncated to the
    box by rejection.  The cluster layout is fixed by ``layout_seed`` so that "the data set" is one
    well-defined distribution; the users are drawn with the ``rng`` passed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from numpy.typing import NDArray
from scipy import special

from smoothsens_core.validation import (
    check_in_interval,
    check_integer,
    check_positive,
    check_probability,
    check_real,
    check_rng,
)

__all__ = [
    "INCOME_PERCENTILES_CA_2022",
    "DEBT_TO_INCOME_CA_2022",
    "INCOME_DEBT_RHO",
    "COLLISION_BOX_M",
    "fit_lognormal_to_percentiles",
    "household_incomes",
    "income_debt",
    "CollisionLayout",
    "collision_layout",
    "collision_locations",
]

#: Assumed percentiles (fraction -> USD) of California household income, 2022 (rounded public
#: ACS 1-year figures: median about $91,500).  Not printed in 004; used only to fit the stand-in.
INCOME_PERCENTILES_CA_2022: Mapping[float, float] = {
    0.10: 20_000.0,
    0.25: 45_000.0,
    0.50: 91_500.0,
    0.75: 160_000.0,
    0.90: 250_000.0,
}

#: Household debt-to-income ratio for California in 2022, as quoted in 004 Sec. 5 ([oGotFRS24]).
DEBT_TO_INCOME_CA_2022: float = 1.791

#: Correlation of log income and log debt in 004 Sec. 5 ("correlation ratio rho = 0.4").
INCOME_DEBT_RHO: float = 0.4

#: Width and height (metres) of the collision area of 004 Sec. 5 ("approximately 110km x 90km").
COLLISION_BOX_M: tuple[float, float] = (110_000.0, 90_000.0)


def fit_lognormal_to_percentiles(percentiles: Mapping[float, float] | None = None) -> tuple[float, float]:
    """Least-squares fit of a log-normal to percentiles: returns (mu, sigma) of ln X.

    Minimises  sum_p (ln q_p - mu - sigma z_p)^2  with z_p = Phi^{-1}(p), the ordinary linear
    regression of ln q_p on z_p (exact when the percentiles come from a log-normal).
    Needs at least two distinct percentiles with positive values, increasing with p.
    """
    pct = dict(INCOME_PERCENTILES_CA_2022 if percentiles is None else percentiles)
    if len(pct) < 2:
        raise ValueError(f"percentiles must hold at least 2 entries; got {len(pct)}")
    ps = np.array(sorted(pct), dtype=float)
    for p in ps:
        check_probability("percentile level", p)
    qs = np.array([check_positive(f"percentile value at p={p}", pct[p]) for p in ps])
    if np.any(np.diff(qs) <= 0):
        raise ValueError("percentile values must increase with the percentile level; got " + repr(pct))
    z = special.ndtri(ps)
    lq = np.log(qs)
    zc = z - z.mean()
    sigma = float(np.dot(zc, lq - lq.mean()) / np.dot(zc, zc))
    mu = float(lq.mean() - sigma * z.mean())
    return mu, sigma


def _lognormal_params(mu: float | None, sigma: float | None) -> tuple[float, float]:
    """(mu, sigma) of the log-normal stand-in, checked: a value left None is taken from
    :func:`fit_lognormal_to_percentiles` (fitted only when one is missing)."""
    if mu is None or sigma is None:
        mu0, s0 = fit_lognormal_to_percentiles()
        mu = mu0 if mu is None else mu
        sigma = s0 if sigma is None else sigma
    return check_real("mu", mu), check_positive("sigma", sigma)


def household_incomes(
    n: int, rng: Any, *, mu: float | None = None, sigma: float | None = None
) -> NDArray[np.float64]:
    """n household incomes (USD) of the log-normal income stand-in (module docstring).

    X = exp(mu + sigma N), N ~ N(0, 1); by default (mu, sigma) = fit_lognormal_to_percentiles().
    """
    n = check_integer("n", n, minimum=1)
    gen = check_rng(rng)
    mu, sigma = _lognormal_params(mu, sigma)
    return np.exp(mu + sigma * gen.standard_normal(n))


def income_debt(
    n: int,
    rng: Any,
    *,
    rho: float = INCOME_DEBT_RHO,
    debt_to_income: float = DEBT_TO_INCOME_CA_2022,
    mu: float | None = None,
    sigma: float | None = None,
) -> NDArray[np.float64]:
    """n (income, debt) pairs in USD, shape (n, 2), of the correlated log-normal stand-in.

    004 Sec. 5: (ln X1, ln X2) bivariate normal with mu2 = ln(debt_to_income) + mu1,
    sigma2 = sigma1 and correlation rho:
        ln X1 = mu1 + s1 N1,   ln X2 = mu2 + s1 (rho N1 + sqrt(1 - rho^2) N2).
    """
    n = check_integer("n", n, minimum=1)
    gen = check_rng(rng)
    rho = check_in_interval("rho", rho, -1.0, 1.0, closed_low=True, closed_high=True)
    ratio = check_positive("debt_to_income", debt_to_income)
    mu, sigma = _lognormal_params(mu, sigma)
    z = gen.standard_normal((n, 2))
    out = np.empty((n, 2))
    out[:, 0] = np.exp(mu + sigma * z[:, 0])
    out[:, 1] = np.exp(mu + math.log(ratio) + sigma * (rho * z[:, 0] + math.sqrt(1.0 - rho * rho) * z[:, 1]))
    return out


@dataclass(frozen=True)
class CollisionLayout:
    """A fixed mixture over the box [0, width] x [0, height] (metres).

    ``weights`` (k,) sum with ``background`` to 1; ``centres`` (k, 2); ``covs`` (k, 2, 2).
    """

    width: float
    height: float
    centres: NDArray[np.float64]
    covs: NDArray[np.float64]
    weights: NDArray[np.float64]
    background: float


def collision_layout(
    layout_seed: int = 2024,
    *,
    n_clusters: int = 14,
    background: float = 0.08,
    box: tuple[float, float] = COLLISION_BOX_M,
) -> CollisionLayout:
    """The cluster layout of the collision stand-in (deterministic in ``layout_seed``).

    Five large "borough" clusters (std 4-9 km) carry most of the mass, the remaining
    ``n_clusters - 5`` small hot spots (std 0.5-2 km) the rest; a fraction ``background`` is
    uniform over the box.  Rotations are uniform, axis ratios in [0.4, 1].
    """
    n_clusters = check_integer("n_clusters", n_clusters, minimum=5)
    background = check_in_interval("background", background, 0.0, 1.0, closed_low=True)
    width = check_positive("box width", box[0])
    height = check_positive("box height", box[1])
    g = np.random.default_rng(check_integer("layout_seed", layout_seed, minimum=0))
    k = n_clusters
    big = np.arange(k) < 5
    # Centres kept 10% away from the edges so the clusters live inside the box.
    centres = np.column_stack([g.uniform(0.1, 0.9, k) * width, g.uniform(0.1, 0.9, k) * height])
    major = np.where(big, g.uniform(4_000.0, 9_000.0, k), g.uniform(500.0, 2_000.0, k))
    minor = major * g.uniform(0.4, 1.0, k)
    ang = g.uniform(0.0, math.pi, k)
    c, s = np.cos(ang), np.sin(ang)
    rot = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)  # (k, 2, 2)
    diag = np.zeros((k, 2, 2))
    diag[:, 0, 0] = major**2
    diag[:, 1, 1] = minor**2
    covs = rot @ diag @ np.swapaxes(rot, -1, -2)
    raw = np.where(big, g.uniform(2.0, 4.0, k), g.uniform(0.3, 1.0, k))
    weights = (1.0 - background) * raw / raw.sum()
    return CollisionLayout(width, height, centres, covs, weights, background)


def collision_locations(
    n: int, rng: Any, *, layout: CollisionLayout | None = None
) -> NDArray[np.float64]:
    """n collision-like locations in metres, shape (n, 2), inside the box of ``layout``.

    Draws the mixture component of every point at once, then the point; points of a Gaussian
    component that fall outside the box are redrawn (truncation by rejection, vectorised).
    """
    n = check_integer("n", n, minimum=1)
    gen = check_rng(rng)
    lay = collision_layout() if layout is None else layout
    probs = np.append(lay.weights, lay.background)
    comp = gen.choice(probs.size, size=n, p=probs / probs.sum())
    out = np.empty((n, 2))
    chol = np.linalg.cholesky(lay.covs)  # (k, 2, 2)
    todo = np.arange(n)
    while todo.size:
        cj = comp[todo]
        bg = cj == probs.size - 1
        pts = np.empty((todo.size, 2))
        nb = int(bg.sum())
        pts[bg] = gen.random((nb, 2)) * (lay.width, lay.height)
        cl = cj[~bg]
        z = gen.standard_normal((cl.size, 2))
        pts[~bg] = lay.centres[cl] + np.einsum("kij,kj->ki", chol[cl], z)
        inside = (pts[:, 0] >= 0) & (pts[:, 0] <= lay.width) & (pts[:, 1] >= 0) & (pts[:, 1] <= lay.height)
        out[todo[inside]] = pts[inside]
        todo = todo[~inside]
    return out
