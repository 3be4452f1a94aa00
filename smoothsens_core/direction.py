"""Direction-oriented smooth sensitivity and the two-halves mechanism (seed 000).

Finite domain D = {0..q-1}, datasets x in D^n, Hamming distance d.  For f: D^n -> R^m:

  LS_f(x)     = max_{y: d(x,y)=1} ||f(x) - f(y)||_1                                   (000 Thm. 3 proof)
  LS_f^{i+}(x) = max_{y: d(x,y)=1} (f(y)_i - f(x)_i) + sum_{j != i} |f(x)_j - f(y)_j|
  LS_f^{i-}(x) = max_{y: d(x,y)=1} (f(x)_i - f(y)_i) + sum_{j != i} |f(x)_j - f(y)_j|   (000 Lemma 2, Thm. 3)
  S*^{is}_{f,beta}(x) = max_y LS_f^{is}(y) e^{-beta d(y,x)}                           (000 Thm. 2)
  GS_f = max_x LS_f(x).
A direction-oriented beta-smooth upper bound S^{is} satisfies S^{is}(x) >= LS_f^{is}(x) and
S^{is}(x) <= e^beta S^{is}(y) for d(x,y) = 1 (000 Thm. 2 proof).

Thm. 4 (search radius): S*^{is}(x) = max over y with d(y,x) <= ln(GS_f / LS^{is}(x))/beta of
LS^{is}(y) e^{-beta d(y,x)}  (needs LS^{is}(x) > 0).  ERRATUM: the extraction prints the weight
e^{-beta e^{d(y,x)}} inside the restricted maximum; the proof (and the equality) need e^{-beta d(y,x)}.

Lemma 2 mechanism: A(x)_i = f(x)_i + (S^{i+}(x)/alpha) z_i^+ or f(x)_i + (S^{i-}(x)/alpha) z_i^- with
probability 1/2 each, z^± ~ h^± (:class:`~smoothsens_core.distributions.powerlaw.HalfPowerLaw`).  Its
output density per coordinate is h((T - f_i)/N^{i+})/N^{i+} for T >= f_i and h((T - f_i)/N^{i-})/N^{i-}
for T < f_i, N^{i±} = S^{i±}/alpha (the 1/2 and the factor 2 of h^± cancel).

Admissibility constants of 000 Thm. 1 for h ∝ 1/(|z|^k + l):  alpha(eps) = l^{1/k} eps/(2 (k-1)^{(k-1)/k}),
printed beta(eps) = eps/(2(k-1)).  ERRATUM: the dilation bound for lambda < 0 is |lambda| (attained at
z = 0), which exceeds eps/2 at |lambda| = eps/(2(k-1)) when 1 < k < 2; the corrected constant is
beta(eps) = eps/(2 max(k-1, 1)) (equal to the printed one for k >= 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._generated.calibration import admissible_alpha_000, admissible_beta_000, admissible_beta_000_printed
from .validation import check_greater, check_integer, check_positive, check_rng
from .distributions.powerlaw import PowerLaw

__all__ = [
    "FiniteFunction",
    "powerlaw_admissibility",
    "DirectionOrientedMechanism",
]

FloatArray = NDArray[np.float64]


def powerlaw_admissibility(k: float, l: float, eps: float, corrected: bool = True) -> tuple[float, float]:
    """(alpha, beta) of 000 Thm. 1 for h ∝ 1/(|z|^k + l): alpha = l^{1/k} eps / (2 (k-1)^{(k-1)/k}),
    beta = eps/(2 max(k-1, 1)) (corrected) or eps/(2(k-1)) (printed, ``corrected=False``).

    Both come from the evaluators generated from derivations/privacy_loss.py (``derive_thm1_000``:
    alpha from the sliding bound sup d/dz ln(z^k + l), the corrected beta from the dilation bound
    sup|D_scale| = max(1, k - 1); ``admissible_beta_000_printed`` is the printed constant, kept to
    exhibit the erratum of claim 000-Thm-1)."""
    k = check_greater("k", k, 1.0)
    l = check_positive("l", l)
    eps = check_positive("eps", eps)
    alpha = float(admissible_alpha_000(eps, k, l))
    beta = float(admissible_beta_000(eps, k) if corrected else admissible_beta_000_printed(eps, k))
    return alpha, beta


@dataclass(frozen=True)
class FiniteFunction:
    """f: D^n -> R^m tabulated on all q^n datasets (brute force; small q^n only).

    ``func`` maps an integer array of datasets (N, n) to values (N, m) (or (N,) for m = 1).
    """

    func: Callable[[NDArray[np.int64]], ArrayLike]
    q: int
    n: int
    datasets: NDArray[np.int64] = field(init=False, repr=False)
    values: FloatArray = field(init=False, repr=False)
    hamming: NDArray[np.int64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        q = check_integer("q", self.q, minimum=1)
        n = check_integer("n", self.n, minimum=1)
        if q**n > 5000:
            raise ValueError(f"q**n must be <= 5000 for brute force; got q={q}, n={n}")
        if q == 1:
            raise ValueError("q must be >= 2: a one-element domain has no neighbouring datasets")
        D = np.array(np.meshgrid(*[np.arange(q)] * n, indexing="ij")).reshape(n, -1).T.astype(np.int64)
        vals = np.asarray(self.func(D), dtype=float)
        vals = vals.reshape(len(D), -1)
        if not np.all(np.isfinite(vals)):
            raise ValueError("func must return finite values on every dataset")
        object.__setattr__(self, "datasets", D)
        object.__setattr__(self, "values", vals)
        object.__setattr__(self, "hamming", (D[:, None, :] != D[None, :, :]).sum(axis=2))

    @property
    def m(self) -> int:
        return int(self.values.shape[1])

    def index(self, x: ArrayLike) -> int:
        x = np.asarray(x, dtype=np.int64).reshape(-1)
        if x.size != self.n or x.min() < 0 or x.max() >= self.q:
            raise ValueError(f"x must be a dataset of {self.n} records in [0, {self.q - 1}]; got {x.tolist()}")
        return int(np.ravel_multi_index(tuple(x), (self.q,) * self.n))

    def local_sensitivity(self) -> FloatArray:
        """LS_f(x) = max_{d(x,y)=1} ||f(x) - f(y)||_1, for every dataset (shape (N,))."""
        nb = self.hamming == 1
        l1 = np.abs(self.values[:, None, :] - self.values[None, :, :]).sum(axis=2)
        return np.where(nb, l1, -np.inf).max(axis=1)

    def global_sensitivity(self) -> float:
        """GS_f = max_x LS_f(x)."""
        return float(self.local_sensitivity().max())

    def directional_local_sensitivity(self, i: int, s: str) -> FloatArray:
        """LS_f^{is}(x) for every dataset (000 Lemma 2 / Thm. 3); s in {'+', '-'}."""
        i = check_integer("i", i, minimum=0)
        if i >= self.m:
            raise ValueError(f"i must be in [0, {self.m - 1}]; got i={i}")
        if s not in ("+", "-"):
            raise ValueError(f"s must be '+' or '-'; got s={s!r}")
        V = self.values
        diff = V[None, :, :] - V[:, None, :]          # diff[x, y] = f(y) - f(x)
        others = np.abs(diff).sum(axis=2) - np.abs(diff[:, :, i])
        signed = diff[:, :, i] if s == "+" else -diff[:, :, i]
        return np.where(self.hamming == 1, signed + others, -np.inf).max(axis=1)

    def smooth_sensitivity(self, beta: float, i: int | None = None, s: str | None = None) -> FloatArray:
        """S*_{f,beta}(x) = max_y LS(y) e^{-beta d(y,x)} (classic if i is None, else direction-oriented)."""
        beta = check_positive("beta", beta)
        LS = self.local_sensitivity() if i is None else self.directional_local_sensitivity(i, s or "+")
        return (LS[None, :] * np.exp(-beta * self.hamming)).max(axis=1)

    def smooth_sensitivity_radius(self, beta: float, i: int, s: str, printed: bool = False) -> FloatArray:
        """000 Thm. 4: the maximum restricted to d(y,x) <= ln(GS/LS^{is}(x))/beta (LS^{is}(x) > 0 needed).

        At datasets with LS^{is}(x) <= 0 the theorem gives no radius and the unrestricted maximum is used.
        ``printed=True`` uses the printed weight e^{-beta e^{d}} (erratum) instead of e^{-beta d}.
        """
        beta = check_positive("beta", beta)
        LS = self.directional_local_sensitivity(i, s)
        # Thm. 4 needs LS^{is}(x) > 0 (ln(GS/LS) is undefined otherwise): there the full search is kept.
        with np.errstate(divide="ignore", invalid="ignore"):
            radius = np.where(LS > 0, np.log(self.global_sensitivity() / np.where(LS > 0, LS, 1.0)) / beta, np.inf)
        within = self.hamming <= radius[:, None] + 1e-12
        weight = np.exp(-beta * np.exp(self.hamming)) if printed else np.exp(-beta * self.hamming)
        return np.where(within, LS[None, :] * weight, -np.inf).max(axis=1)

    def is_smooth_upper_bound(self, S: ArrayLike, beta: float, LS: ArrayLike, rtol: float = 1e-12) -> bool:
        """S(x) >= LS(x) and S(x) <= e^beta S(y) for all d(x,y) = 1."""
        S = np.asarray(S, dtype=float)
        LS = np.asarray(LS, dtype=float)
        if np.any(S < LS * (1 - rtol) - 1e-300):
            return False
        nb = self.hamming == 1
        ratio_ok = S[:, None] <= math.exp(beta) * S[None, :] * (1 + rtol)
        return bool(np.all(ratio_ok | ~nb))


@dataclass(frozen=True)
class DirectionOrientedMechanism:
    """The mechanism of 000 Lemma 2 with h ∝ 1/(|z|^k + l) and alpha = alpha(eps) of 000 Thm. 1.

    ``S_plus`` and ``S_minus`` are arrays (N, m) of the bounds S^{i±}(x) over all datasets of
    ``func`` (a :class:`FiniteFunction`); Lemma 2 requires them to be direction-oriented
    beta(eps/m)-smooth upper bounds satisfying the cross condition
    S^{i-}(x) <= e^beta S^{i+}(y) and S^{i+}(x) <= e^beta S^{i-}(y) for d(x,y) = 1.
    """

    func: FiniteFunction
    S_plus: FloatArray
    S_minus: FloatArray
    eps: float
    k: float = 3.0
    l: float = 1.0
    delta: float = 0.0
    metric: str = "hamming"
    alpha: float = field(init=False)
    noise: PowerLaw = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", check_positive("eps", self.eps))
        alpha, _ = powerlaw_admissibility(self.k, self.l, self.eps)
        object.__setattr__(self, "alpha", alpha)
        object.__setattr__(self, "noise", PowerLaw(self.k, self.l))
        for name in ("S_plus", "S_minus"):
            S = np.asarray(getattr(self, name), dtype=float).reshape(len(self.func.datasets), -1)
            if S.shape[1] != self.func.m or not np.all(S > 0) or not np.all(np.isfinite(S)):
                raise ValueError(f"{name} must be finite and > 0 with shape (N, m)=({len(self.func.datasets)}, {self.func.m})")
            object.__setattr__(self, name, S)

    def satisfies_lemma2_conditions(self) -> bool:
        """Smoothness at beta(eps/m), upper bounds on LS^{i±}, and the cross condition of Lemma 2."""
        _, beta = powerlaw_admissibility(self.k, self.l, self.eps / self.func.m)
        f = self.func
        nb = f.hamming == 1
        eb = math.exp(beta)
        for i in range(f.m):
            Sp, Sm = self.S_plus[:, i], self.S_minus[:, i]
            if not (f.is_smooth_upper_bound(Sp, beta, f.directional_local_sensitivity(i, "+"))
                    and f.is_smooth_upper_bound(Sm, beta, f.directional_local_sensitivity(i, "-"))):
                return False
            cross = (Sm[:, None] <= eb * Sp[None, :] * (1 + 1e-12)) & (Sp[:, None] <= eb * Sm[None, :] * (1 + 1e-12))
            if not np.all(cross | ~nb):
                return False
        return True

    def _coord_log_density(self, xi: int, i: int, T: FloatArray) -> FloatArray:
        fx = self.func.values[xi, i]
        Np = self.S_plus[xi, i] / self.alpha
        Nm = self.S_minus[xi, i] / self.alpha
        Nsel = np.where(T >= fx, Np, Nm)
        return np.asarray(self.noise.logpdf((T - fx) / Nsel)) - np.log(Nsel)

    def log_density(self, x: ArrayLike, T: ArrayLike) -> FloatArray:
        """ln density of A(x) at T (shape (..., m)), exact."""
        xi = self.func.index(x)
        T = np.asarray(T, dtype=float)
        # start the sum at a 0-d float64 zero (the same value as sum's default 0, and an array type)
        return sum((self._coord_log_density(xi, i, T[..., i]) for i in range(self.func.m)), np.zeros(()))

    def release(self, x: ArrayLike, rng: Any) -> FloatArray:
        gen = check_rng(rng)
        xi = self.func.index(x)
        z = np.abs(self.noise.sample(self.func.m, gen))  # |Z| ~ h+ (h symmetric)
        plus = gen.random(self.func.m) < 0.5
        scale = np.where(plus, self.S_plus[xi], self.S_minus[xi]) / self.alpha
        return self.func.values[xi] + np.where(plus, z, -z) * scale

    def max_privacy_loss(self, x: ArrayLike, y: ArrayLike, grid: int = 4001) -> float:
        """sup_T ln(p_x(T)/p_y(T)) (sum over coordinates of per-coordinate suprema).

        Each coordinate's supremum is found on a dense grid around f(x)_i, f(y)_i (both sides of each
        breakpoint, and log-spaced out to 1e9 noise scales) together with the limits at T -> ±inf,
        ln(p_x/p_y) -> (k - 1) ln(N_x/N_y) for the side's scales; an audit value, not a certificate.
        """
        xi, yi = self.func.index(x), self.func.index(y)
        total = 0.0
        for i in range(self.func.m):
            fx, fy = self.func.values[xi, i], self.func.values[yi, i]
            sc = max(self.S_plus[xi, i], self.S_minus[xi, i], self.S_plus[yi, i], self.S_minus[yi, i]) / self.alpha
            offs = sc * np.concatenate([np.zeros(1), np.logspace(-9, 9, grid)])
            lo, hi = min(fx, fy), max(fx, fy)
            pts = np.concatenate([fx + offs, fx - offs, fy + offs, fy - offs,
                                  np.linspace(lo, hi, grid), np.nextafter(np.array([fx, fy]), -np.inf)])
            g = self._coord_log_density(xi, i, pts) - self._coord_log_density(yi, i, pts)
            tails = [(self.k - 1) * math.log(self.S_plus[xi, i] / self.S_plus[yi, i]),
                     (self.k - 1) * math.log(self.S_minus[xi, i] / self.S_minus[yi, i])]
            total += max(float(np.max(g)), *tails)
        return total
