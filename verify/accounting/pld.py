"""Privacy-loss distributions (PLDs) with a certified discretisation, and their composition.

For a pair (P, Q) the privacy loss is L = ln p(Y)/q(Y), Y ~ P, and the hockey-stick divergence is

    delta(eps) = E_P[(1 - e^(eps - L))_+]        (+inf losses count 1),

so the composition of k pairs (product laws) has delta(eps) = E[(1 - e^(eps - (L_1 + ... + L_k)))_+] with
independent L_j: the PLD of a composition is the convolution of the PLDs.  A :class:`GridPLD` holds, on the
grid of losses l_i = i*h (the step h an exact positive rational, ``step``; i an integer), two vectors of P-masses:

* **upper (pessimistic)** -- the masses of a pair that *dominates* (P, Q), the pessimistic estimate of
  Doroshenko, Ghazi, Kamath, Kumar & Manurangsi, "Connect the dots", PETS 2022: the loss cell (l_{i-1}, l_i], l_i = i h, of P-mass P_i and
  Q-mass Q_i, is split into atoms at its two end points with both masses kept,
      b_i = (P_i - e^(l_{i-1}) Q_i)/(1 - e^(-h))  at l_i,     a_i = (e^(l_i) Q_i - P_i)/(e^h - 1)  at l_{i-1};
  merging the two atoms gives the cell back (a post-processing), so the split pair dominates and so do its
  compositions (dominating pairs compose, also adaptively: Zhu, Dong & Wang, AISTATS 2022).  The cell below the grid is moved
  up to the lowest grid point, the mass above it to +inf (raising a loss never lowers delta).  The masses are
  the upper ends of ball enclosures, so the vector is entrywise >= that of the dominating pair.
* **lower (optimistic)** -- the masses of a pair *dominated* by (P, Q) (a post-processing of it; the rounding
  down of Meiser & Mohammadi, CCS 2018, is the case alpha = 0), then lowered: the fraction alpha_i of cell i goes up to l_i and
  1 - alpha_i down to l_{i-1}.  The output at l_i then mixes alpha_i of cell i (loss <= l_i) with 1 - alpha_{i+1}
  of cell i+1 (loss > l_i); its loss is >= l_i exactly when
      alpha_i u_i <= (1 - alpha_{i+1}) v_{i+1},   u_i = e^(l_i) Q_i - P_i >= 0,  v_{i+1} = P_{i+1} - e^(l_i) Q_{i+1} >= 0,
  which is checked with the ends of the ball enclosures (u upper, v lower) and enforced by lowering alpha.
  Labelling an output by a loss below its true loss, and dropping mass, only lower E[(1 - e^(eps - sum L))_+]
  (the integrand is non-decreasing in each loss and >= 0), so delta computed from these masses is a lower
  bound for the composition of the given pairs.  The alpha_i follow the flows
  F_i = u_i v_{i+1}/(u_i + v_{i+1}) (alpha_i = F_i/u_i), which reproduce the dominating split to second order in
  h, so the two ends close at rate h^2 per composition instead of h.  The mass below the grid is dropped; the
  mass above it is put at the top grid point.
* A loss atom whose value is an exact multiple of the step (decided on rationals) is placed as it is in both
  vectors.  :func:`natural_step` picks such a step for Laplace (a/N) and discrete Laplace ((1/b)/N), so their
  lower ends are as tight as the upper ones; atoms off the grid (different Laplace scales composed on one
  grid) go through the cells and cost up to one step per composition in the lower end.

**Composition** is exact: the masses are quantised to integers in units of 2^-``BITS`` (upper: rounded up,
lower: rounded down) and convolved as integer polynomials (python-flint ``fmpz_poly``, exact), then
re-quantised (up / down).  No floating-point error enters the convolution.  After each product the tails
holding at most ``tail_mass`` are folded: in the upper vector the top tail goes to +inf and the bottom tail
onto the lowest kept point; in the lower vector the top tail onto the highest kept point and the bottom tail is
dropped (both moves keep the bounds; ``tail_mass`` only affects the width).  k-fold self-composition by repeated
squaring.

**delta(eps)** from a grid PLD: sum over l_i = i*h > eps of m_i (1 - e^(eps - l_i)) plus the +inf mass, evaluated
in binary64 with its rounding bounded: l_i - eps = d0 + (i - i0) h with d0 = l_{i0} - eps in (0, h] computed exactly
(rationals) and rounded once, so each l_i - eps has relative error <= 3u (u = 2^-53; every term is >= 0) and
1 - e^(eps - l_i) = -expm1(-(l_i - eps)) relative error <= 8u (including expm1's own); plus the summation error
<= (log2 n + 4) u times the sum of the terms, plus the conversion of the integer masses to binary64 (relative
u); added to the upper end and subtracted from the lower.  All relative: tiny delta keeps its digits.

The cell masses of each family are enclosed in arb: Gaussian (L ~ N(mu^2/2, mu^2) under P and
N(-mu^2/2, mu^2) under Q, mu = Delta/sigma), Laplace (L = a on y <= 0, (Delta - 2y)/b on (0, Delta), -a on
y >= Delta, a = Delta/b: atoms P = 1/2 at a and e^(-a)/2 at -a, Q = e^(-a)/2 at a and 1/2 at -a, and
densities e^((l - a)/2)/4 under P, e^(-(l + a)/2)/4 under Q on (-a, a)), discrete Laplace (the finitely many
losses (Delta - 2k)/b, k = 0..Delta, with the masses of {K <= 0}, {K = k}, {K >= Delta}), Student t of the
shift pair (the set {L > c} is bounded by the roots of a quadratic, and its masses come from the t tails;
:func:`_student_t_cells`).  The PLD is the one under P of the shifted pair; these pairs are symmetric (reflection
y -> Delta - y), so it is also the PLD of (Q, P) and composition covers both directions.

GenCauchy, PolyPlace and the dilated pairs (ratio != 1) of the smooth-sensitivity families, whose loss is not
monotone, get their cell masses from :func:`verify.accounting.losscells.loss_cells` (certified root isolation of
the loss's derivative, inversion on each monotone piece, tails in arb).  A dilated pair is not symmetric; its
upper vector is the PLD of a pair dominating both orientations (:func:`_symmetric_hull`), its lower vector that
of one orientation, so a composition is enclosed whatever the orientation of each step.

``deltas(grid)`` evaluates a whole eps grid at once from suffix sums (:meth:`GridPLD._side_deltas`).
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Any, Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from smoothsens_core.validation import check_integer, check_positive, check_real
from verify.audit.exact.enclosure import Enclosure

from .ballforms import output_law
from .curve import EpsilonInterval, PrivacyCurve, invert_delta
from .losscells import LossCells, loss_cells

__all__ = ["GridPLD", "from_curve", "compose", "natural_step", "common_step", "to_dp_accounting_pld",
           "to_dp_accounting", "BITS"]

#: Quantisation of the masses for the exact convolution: units of 2^-BITS.
BITS = 96
_U = 2.0 ** -53
_CELL_PREC = 96
_PLD_FAMILIES = ("gaussian", "laplace", "discrete_laplace", "student_t", "gencauchy", "polyplace")
_GENERIC = ("gencauchy", "polyplace")
_GENERIC_PREC = 128


def _flint() -> Any:
    import flint  # noqa: PLC0415 - python-flint is the optional 'proof' extra

    return flint


@dataclass(frozen=True)
class _Side:
    """One bound: integer masses c_j (units 2^-BITS) at the losses (offset + j) h, and the +inf mass."""

    offset: int
    coeffs: Any          # flint.fmpz_poly
    inf: int             # units 2^-BITS

    def size(self) -> int:
        return int(self.coeffs.length())

    @cached_property
    def floats(self) -> NDArray[np.float64]:
        """The masses as binary64, rounded to nearest (relative error <= 2^-53, accounted for by the callers)."""
        c = self.coeffs.coeffs()
        return np.array(list(map(float, c)), dtype=float) * 2.0 ** -BITS


@dataclass(frozen=True)
class GridPLD:
    """A privacy-loss distribution on the grid i*h with certified upper (dominating) and lower (dominated)
    P-masses (module docstring).  ``delta(eps)`` -> Enclosure, ``epsilon(delta)`` -> EpsilonInterval,
    ``compose(other)``, ``self_compose(k)``.  ``label`` says what it is (mechanisms and k)."""

    step: Fraction
    upper: _Side
    lower: _Side
    tail_mass: float
    label: str = ""

    @property
    def h(self) -> float:
        """The grid step as binary64 (nearest; the grid itself is i * ``step``, exact rational)."""
        return float(self.step)

    # --- construction from masses ---------------------------------------------------------------------
    @staticmethod
    def _side_from_floats(offset: int, masses: NDArray[np.float64], inf: float, up: bool) -> _Side:
        scale = 2.0 ** BITS
        if up:
            ints = [int(v) for v in np.ceil(np.maximum(masses, 0.0) * scale)]
            inf_i = int(math.ceil(inf * scale))
        else:
            ints = [int(v) for v in np.floor(np.maximum(masses, 0.0) * scale)]
            inf_i = int(math.floor(inf * scale))
        return _trimmed(offset, ints, inf_i)

    # --- delta ----------------------------------------------------------------------------------------
    def _side_delta(self, side: _Side, eps: float, up: bool) -> float:
        n = side.size()
        inf_f = side.inf * 2.0 ** -BITS
        if n == 0:
            return _nudge(inf_f, up)
        j0 = math.floor(Fraction(eps) / self.step) + 1 - side.offset  # first j with (offset+j) h > eps
        j0 = max(j0, 0)
        if j0 >= n:
            return _nudge(inf_f * (1 + 2 * _U), up) if up else _nudge(inf_f * (1 - 2 * _U), up)
        m = _masses(side)[j0:]
        # x_j = l_j - eps = d0 + (j - j0) h with d0 = l_{j0} - eps in (0, h] exact (rationals), then rounded: all
        # terms >= 0, so x_j has relative error <= 3u, and w_j = 1 - e^(-x_j) (expm1) relative error <= 8u
        d0 = float((side.offset + j0) * self.step - Fraction(eps))
        w = -np.expm1(-(np.arange(m.size) * self.h + d0))
        if up:
            terms = m * (1 + 2 * _U) * np.minimum(w * (1 + 8 * _U), 1.0)
            s = float(np.sum(terms)) * (1 + (math.log2(max(m.size, 2)) + 4) * _U)
            return _nudge(s + inf_f * (1 + 2 * _U), True)
        terms = m * (1 - 2 * _U) * w * (1 - 8 * _U)
        s = float(np.sum(terms)) * (1 - (math.log2(max(m.size, 2)) + 4) * _U)
        return max(0.0, _nudge(s + inf_f * (1 - 2 * _U), False))

    def delta(self, eps: float) -> Enclosure:
        """The enclosure [lower, upper] of delta(eps) of the (composed) pair, eps >= 0."""
        e = check_real("eps", eps)
        if not e >= 0:
            raise ValueError(f"eps must be in [0, inf); got eps={e!r}")
        lo = self._side_delta(self.lower, e, False)
        hi = self._side_delta(self.upper, e, True)
        return Enclosure(lower=lo, upper=hi, certified=True, lower_str=f"{lo:.17g}", upper_str=f"{hi:.17g}",
                         cells=self.upper.size(), notes=(f"PLD on the grid h={self.h!r}: {self.label}",))

    def deltas(self, eps_grid: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(lower, upper) arrays of the enclosures over an eps grid, all points at once (:meth:`_side_deltas`)."""
        grid = np.atleast_1d(np.asarray(eps_grid, dtype=float))
        if grid.size and not (np.all(np.isfinite(grid)) and np.all(grid >= 0)):
            raise ValueError("eps must be in [0, inf) at every grid point")
        return self._side_deltas(self.lower, grid, False), self._side_deltas(self.upper, grid, True)

    def _side_deltas(self, side: _Side, grid: NDArray[np.float64], up: bool) -> NDArray[np.float64]:
        """delta at every eps of ``grid`` from one side, by suffix sums: with j0 the first index above eps and
        d0 = l_{j0} - eps in (0, h] (exact rationals, rounded once),

            delta(eps) = S_{j0} - e^(-d0) R_{j0} + inf mass,   S_j = sum_{i >= j} m_i,  R_j = m_j + e^(-h) R_{j+1}.

        R is summed as e^(jh) sum_{i >= j} m_i e^(-ih) (or by the recursion when n h >= 600).  Rounding: the masses
        carry relative error u (u = 2^-53), the running sums (n terms), the exponentials (i h is rounded with
        relative error u, so e^(+-ih) has relative error <= (i h + 2) u: the pair e^(jh) e^(-ih) at most
        (2 n h + 4) u) and the products at most gamma_N = N u/(1 - N u), N = 2n + 8 + 2 n h, of
        S_{j0} + e^(-d0) R_{j0} (all terms >= 0); that bound is added to the upper end and subtracted from the lower one.  It is relative to
        S_{j0}, not to delta, so a delta far below S_{j0} is looser than :meth:`delta` gives (still certified)."""
        out = np.empty(grid.shape)
        inf_f = side.inf * 2.0 ** -BITS
        n = side.size()
        if n == 0:
            out[:] = _nudge(inf_f, up)
            return out
        m = _masses(side)
        S = np.cumsum(m[::-1])[::-1]
        if n * self.h < 600.0:            # R_j = e^(jh) sum_{i >= j} m_i e^(-ih): no overflow while n h < 600
            ih = np.arange(n) * self.h
            R = np.exp(ih) * np.cumsum((m * np.exp(-ih))[::-1])[::-1]
        else:
            r = math.exp(-self.h)
            R = np.empty(n)
            acc = 0.0
            for j in range(n - 1, -1, -1):
                acc = m[j] + r * acc
                R[j] = acc
        g = (2 * n + 8 + 2 * n * self.h) * _U
        gam = g / (1 - g)
        for t, e in enumerate(grid):
            j0 = max(math.floor(Fraction(float(e)) / self.step) + 1 - side.offset, 0)
            if j0 >= n:
                val, err = 0.0, 0.0
            else:
                d0 = float((side.offset + j0) * self.step - Fraction(float(e)))
                w = math.exp(-d0)
                val = S[j0] - w * R[j0]
                err = gam * (S[j0] + w * R[j0])
            if up:
                out[t] = _nudge(max(val, 0.0) + err + inf_f * (1 + 2 * _U), True)
            else:
                out[t] = max(0.0, _nudge(val - err + inf_f * (1 - 2 * _U), False))
        return out

    def plot(self, ax: Any = None, claim: tuple[float, float] | None = None, **kwargs: Any) -> Any:
        """The curve (both ends) with the claimed point (eps, delta) on a matplotlib Axes
        (:func:`verify.accounting.plot.plot_curve`); returns the Axes."""
        from .plot import plot_curve  # noqa: PLC0415 - matplotlib only when plotting

        return plot_curve(self, ax, claim, title=kwargs.pop("title", self.label), **kwargs)

    def to_dp_accounting(self) -> Any:
        """This PLD's pessimistic (upper) side as dp-accounting's ``PrivacyLossDistribution``
        (:func:`to_dp_accounting_pld`)."""
        return to_dp_accounting_pld(self)

    def epsilon(self, delta: float, *, rtol: float = 1e-9) -> EpsilonInterval:
        """eps(delta) bracketed by certified bisection on the two ends (:func:`verify.accounting.curve.invert_delta`)."""
        top = (self.upper.offset + self.upper.size()) * self.h
        return invert_delta(self.delta, delta, rtol=rtol, eps_max=max(1.0, 2.0 * abs(top)))

    # --- composition ----------------------------------------------------------------------------------
    def compose(self, other: GridPLD) -> GridPLD:
        """The PLD of the two pairs together (convolution; the grids must be equal)."""
        if other.step != self.step:
            raise ValueError(f"the grids differ: h={self.h!r} and h={other.h!r}; build both with the same h")
        tm = min(self.tail_mass, other.tail_mass)
        up = _convolve(self.upper, other.upper, True, tm)
        lo = _convolve(self.lower, other.lower, False, tm)
        return GridPLD(self.step, up, lo, tm, label=f"{self.label} + {other.label}")

    def self_compose(self, k: int) -> GridPLD:
        """The k-fold composition (repeated squaring)."""
        k = check_integer("k", k, minimum=1)
        result: GridPLD | None = None
        base = self
        while True:
            if k & 1:
                result = base if result is None else result.compose(base)
            k >>= 1
            if not k:
                break
            base = base.compose(base)
        assert result is not None
        return result

    def masses(self, up: bool = True) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
        """(losses, P-masses, +inf mass) of the upper (``up``) or lower vector, as binary64 (rounded to
        nearest: for display and export, not for bounds)."""
        side = self.upper if up else self.lower
        m = _masses(side)
        loss = np.asarray((side.offset + np.arange(m.size)) * self.h, dtype=np.float64)
        return loss, m, side.inf * 2.0 ** -BITS


def _nudge(x: float, up: bool) -> float:
    return math.nextafter(x, math.inf if up else -math.inf) if x != 0 else (0.0 if not up else 0.0)


def _masses(side: _Side) -> NDArray[np.float64]:
    """The masses as binary64 (nearest), computed once per vector."""
    return side.floats


def _trimmed(offset: int, c: list[Any], inf: Any) -> _Side:
    """A side from a coefficient list, leading zeros dropped (fmpz_poly drops the trailing ones)."""
    flint = _flint()
    i = 0
    while i < len(c) and c[i] == 0:
        i += 1
    return _Side(offset + i, flint.fmpz_poly(c[i:]), int(inf))


def _convolve(a: _Side, b: _Side, up: bool, tail_mass: float) -> _Side:
    """Exact product of the two integer mass vectors, re-quantised to 2^-BITS (up: ceiling, else floor), the
    +inf mass of the product inf_a (fin_b + inf_b) + fin_a inf_b, and the tails of mass <= ``tail_mass`` folded
    (upper: the top tail to +inf, the bottom tail onto the lowest kept point; lower: the top tail onto the highest
    kept point, the bottom tail dropped: the bounds are kept, only the width changes).  Everything stays in
    ``fmpz_poly`` (coefficient-wise floor division, truncations, sums as the value at x = 1): exact."""
    flint = _flint()
    prod = a.coeffs * b.coeffs
    q = flint.fmpz(1 << BITS)
    c = -((-prod) // q) if up else prod // q
    one = flint.fmpz(1)
    fin_a, fin_b = int(a.coeffs(one)), int(b.coeffs(one))
    inf = a.inf * (fin_b + b.inf) + fin_a * b.inf
    inf = -((-inf) // int(q)) if up else inf // int(q)
    n = int(c.length())
    offset = a.offset + b.offset
    if n < 3 or tail_mass <= 0:
        return _poly_side(offset, c, inf)
    budget = int(tail_mass * 2.0 ** BITS)

    def low(m: int) -> int:              # sum of the m lowest coefficients
        return int(c.truncate(m)(one)) if m > 0 else 0

    def high(m: int) -> int:             # sum of the coefficients from index m on
        return int(c.right_shift(m)(one)) if m < n else 0

    # the largest lo_cut with low(lo_cut) <= budget, lo_cut <= n - 1 (sums are monotone: binary search)
    lo, hi = 0, n - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if low(mid) <= budget:
            lo = mid
        else:
            hi = mid - 1
    lo_cut = lo
    # the smallest hi_cut > lo_cut with high(hi_cut) <= budget
    lo2, hi2 = lo_cut + 1, n
    while lo2 < hi2:
        mid = (lo2 + hi2) // 2
        if high(mid) <= budget:
            hi2 = mid
        else:
            lo2 = mid + 1
    hi_cut = lo2
    low_mass, high_mass = low(lo_cut), high(hi_cut)
    kept = c.right_shift(lo_cut).truncate(hi_cut - lo_cut)
    if up:
        kept = kept + flint.fmpz_poly([low_mass])          # bottom tail raised onto the lowest kept loss
        inf += high_mass                                    # top tail raised to +inf
    elif high_mass:
        kept = kept + flint.fmpz_poly([high_mass]).left_shift(hi_cut - lo_cut - 1)   # top tail lowered
    return _poly_side(offset + lo_cut, kept, inf)


def _poly_side(offset: int, poly: Any, inf: int) -> _Side:
    """A side from an fmpz_poly, its leading zero coefficients dropped (the offset raised to match)."""
    one = _flint().fmpz(1)
    n = int(poly.length())
    if n == 0 or poly[0] != 0:
        return _Side(offset, poly, int(inf))
    lo, hi = 0, n - 1                     # the number of leading zeros: the largest m with sum of m lowest = 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if int(poly.truncate(mid)(one)) == 0:
            lo = mid
        else:
            hi = mid - 1
    return _Side(offset + lo, poly.right_shift(lo), int(inf))


# --- PLDs of the families ----------------------------------------------------------------------------------
def _gp(i: int, step: Fraction) -> Any:
    """The grid point i * step as an arb ball (exact rational, one rounding)."""
    arb = _flint().arb
    return arb(i * step.numerator) / arb(step.denominator)


_Cells = tuple[int, list[Any], list[Any], Any, Any, dict[int, Any]]


def _gaussian_cells(curve: PrivacyCurve, step: Fraction, tail: float) -> _Cells:
    """Cells i = i_lo..i_hi of the Gaussian loss (L ~ N(+-mu^2/2, mu^2) under P / Q), with P(L <= l_{i_lo-1})
    and P(L > l_{i_hi}); no atoms."""
    flint = _flint()
    arb = flint.arb
    h = float(step)
    mu = arb(curve.sensitivity) / arb(curve.scale)
    m = mu * mu / 2
    z = math.sqrt(2 * math.log(1 / tail)) + 1.0
    muf, mf = float(mu.mid()), float(m.mid())
    i_lo = math.floor((mf - z * muf) / h)
    i_hi = math.ceil((mf + z * muf) / h)
    s2 = arb(2).sqrt()

    def sf(x: Any) -> Any:  # P[N(0,1) > x]
        return (x / s2).erfc() / 2

    def masses(centre: Any) -> tuple[list[Any], Any, Any]:
        # T(e) = P[N(0,1) > |z|] at every edge z = (e - centre)/mu (one erfc per edge): P(L > e) = T for z >= 0
        # and 1 - T for z < 0; each cell from the tails on its side of the centre (no 1 - tail cancellation)
        zs = [(_gp(i, step) - centre) / mu for i in range(i_lo - 1, i_hi + 1)]
        pos = [float(x.mid()) >= 0 for x in zs]
        T = [sf(abs(x)) for x in zs]
        cells = []
        for j in range(1, len(zs)):
            if pos[j - 1]:
                cells.append(T[j - 1] - T[j])
            elif not pos[j]:
                cells.append(T[j] - T[j - 1])
            else:
                cells.append(1 - T[j - 1] - T[j])
        below = T[0] if not pos[0] else 1 - T[0]
        above = T[-1] if pos[-1] else 1 - T[-1]
        return cells, below, above

    P, below, above = masses(m)
    Q, _, _ = masses(-m)
    return i_lo, P, Q, below, above, {}


def _place_atoms(atoms: Iterable[tuple[Fraction, Any, Any, Any]], step: Fraction
                 ) -> tuple[dict[int, list[Any]], dict[int, Any]]:
    """Atoms (exact loss as a fraction, its ball, P mass, Q mass): an atom whose loss is an integer multiple of
    the step goes straight onto that grid point (second dict: index -> P mass); the others into the cells
    (l_{i-1}, l_i] with l_{i-1} < loss <= l_i decided exactly on the fractions (first dict: index -> [P, Q])."""
    arb = _flint().arb
    cells: dict[int, list[Any]] = {}
    exact: dict[int, Any] = {}
    for frac, _ball, p, q in atoms:
        r = frac / step
        if r.denominator == 1:
            i = int(r)
            exact[i] = exact.get(i, arb(0)) + p
            continue
        i = math.ceil(r)
        cell = cells.setdefault(i, [arb(0), arb(0)])
        cell[0] += p
        cell[1] += q
    return cells, exact


def _laplace_cells(curve: PrivacyCurve, step: Fraction, tail: float) -> _Cells:
    flint = _flint()
    arb = flint.arb
    a_frac = Fraction(curve.sensitivity) / Fraction(curve.scale)
    a = arb(a_frac.numerator) / arb(a_frac.denominator)
    half = arb(1) / 2
    atoms = [(a_frac, a, half, (-a).exp() / 2), (-a_frac, -a, (-a).exp() / 2, half)]
    cells, exact = _place_atoms(atoms, step)
    i_lo = math.floor(-a_frac / step)
    i_hi = math.ceil(a_frac / step)
    P: list[Any] = []
    Q: list[Any] = []
    for i in range(i_lo, i_hi + 1):
        pm, qm = cells.get(i, [arb(0), arb(0)])
        # continuous part on (c1, c2) = (l_{i-1}, l_i] cut to (-a, a); its integral is <= 0 when empty,
        # and the true mass is the positive part
        c1 = _ball_max_lo(_gp(i - 1, step), -a)
        c2 = _ball_min_hi(_gp(i, step), a)
        pm = pm + _clip0((((c2 - a) / 2).exp() - ((c1 - a) / 2).exp()) / 2)
        qm = qm + _clip0(((-(c1 + a) / 2).exp() - (-(c2 + a) / 2).exp()) / 2)
        P.append(pm)
        Q.append(qm)
    return i_lo, P, Q, arb(0), arb(0), exact


def _ball_max_lo(x: Any, y: Any) -> Any:
    """max(x, y) as a ball (both ends)."""
    arb = _flint().arb
    lo = x.lower() if x.lower() >= y.lower() else y.lower()
    hi = x.upper() if x.upper() >= y.upper() else y.upper()
    return arb(lo).union(arb(hi))


def _ball_min_hi(x: Any, y: Any) -> Any:
    """min(x, y) as a ball (both ends)."""
    arb = _flint().arb
    lo = x.lower() if x.lower() <= y.lower() else y.lower()
    hi = x.upper() if x.upper() <= y.upper() else y.upper()
    return arb(lo).union(arb(hi))


def _discrete_laplace_cells(curve: PrivacyCurve, step: Fraction, tail: float) -> _Cells:
    flint = _flint()
    arb = flint.arb
    D = int(curve.sensitivity)
    bf = Fraction(curve.scale)
    b = arb(curve.scale)
    lr = -1 / b
    r = lr.exp()
    c = (1 - r) / (1 + r)
    atoms = []
    for k in range(D + 1):
        frac = Fraction(D - 2 * k) / bf
        if k == 0:
            p, q = 1 / (1 + r), (arb(D) * lr).exp() / (1 + r)
        elif k == D:
            p, q = (arb(D) * lr).exp() / (1 + r), 1 / (1 + r)
        else:
            p, q = c * (arb(k) * lr).exp(), c * (arb(D - k) * lr).exp()
        atoms.append((frac, arb(D - 2 * k) / b, p, q))
    cells, exact = _place_atoms(atoms, step)
    i_lo = math.floor(-Fraction(D) / bf / step)
    i_hi = math.ceil(Fraction(D) / bf / step)
    P = [cells.get(i, [arb(0), arb(0)])[0] for i in range(i_lo, i_hi + 1)]
    Q = [cells.get(i, [arb(0), arb(0)])[1] for i in range(i_lo, i_hi + 1)]
    return i_lo, P, Q, arb(0), arb(0), exact


def _student_t_cells(curve: PrivacyCurve, step: Fraction, tail: float) -> _Cells:
    """Cells of the Student t shift pair P = s T, Q = Delta + s T (T ~ t_nu, 004 Sec. 2.1; ratio 1 only).

    With z = y/s and d = Delta/s the loss is L = ((nu + 1)/2) ln((nu + (z - d)^2)/(nu + z^2)), and L > c exactly
    when q(z) = (1 - t) z^2 - 2 d z + nu (1 - t) + d^2 > 0, t = e^(2c/(nu + 1)): for c > 0 the open interval
    between the roots (empty when the discriminant d^2 t - nu (1 - t)^2 is negative), for c < 0 the outside of
    the roots, for c = 0 the half-line z < d/2.  The roots z1 = c0/(d + sqrt(D)), z2 = (d + sqrt(D))/(1 - t)
    (c0 = nu (1 - t) + d^2) have no cancellation.  P(L > c) and Q(L > c) follow from the t_nu tail
    P(T > u) = I_{nu/(nu + u^2)}(nu/2, 1/2)/2 in arb; the cell masses are differences at consecutive grid points."""
    arb = _flint().arb
    if curve.ratio != 1.0:
        raise TypeError("the Student t PLD is built for the shift pair only (ratio 1); a dilated pair has no PLD here")
    nu = arb(dict(curve.shape)["nu"])
    d = arb(curve.sensitivity) / arb(curve.scale)
    half = arb(1) / 2

    def sf_pos(u: Any) -> Any:          # P(T > u), u >= 0
        return (nu / (nu + u * u)).beta_lower(nu / 2, half, regularized=True) / 2

    def sf(u: Any) -> Any:              # P(T > u) for any ball u (monotone: the union of its ends' values)
        if u.is_finite() and u.lower() >= 0:
            return sf_pos(u)
        if u.is_finite() and u.upper() <= 0:
            return 1 - sf_pos(-u)
        lo, hi = arb(u.lower()), arb(u.upper())
        return sf(lo).union(sf(hi))

    def above(c_i: int, shift: Any) -> Any:
        """P(L > i*step) under the law z = shift + T."""
        if c_i == 0:
            return 1 - sf(d / 2 - shift)
        c = _gp(c_i, step)
        t = (2 * c / (nu + 1)).exp()
        a = 1 - t
        disc = d * d * t - nu * a * a
        c0 = nu * a + d * d
        if c_i > 0 and disc < 0:
            return arb(0)
        if c_i < 0 and disc < 0:
            return arb(1)
        sq = _clip0(disc).sqrt()
        z1 = c0 / (d + sq)
        z2 = (d + sq) / a
        lo, hi = _ball_min_hi(z1, z2), _ball_max_lo(z1, z2)
        if c_i > 0:
            return _clip0(sf(lo - shift) - sf(hi - shift))
        return _clip0((1 - sf(lo - shift)) + sf(hi - shift))

    # the range of L (binary64 scan: it only sets the grid; the masses outside are accounted for exactly)
    nuf, df = float(nu.mid()), float(d.mid())
    zs = np.sinh(np.linspace(-12.0, 12.0, 20001)) + df / 2
    lf = (nuf + 1) / 2 * np.log((nuf + (zs - df) ** 2) / (nuf + zs ** 2))
    h = float(step)
    i_lo = math.floor(float(lf.min()) / h) - 2
    i_hi = math.ceil(float(lf.max()) / h) + 2
    zero = arb(0)
    gp = [above(i, zero) for i in range(i_lo - 1, i_hi + 1)]
    gq = [above(i, d) for i in range(i_lo - 1, i_hi + 1)]
    P = [_clip0(gp[j - 1] - gp[j]) for j in range(1, len(gp))]
    Q = [_clip0(gq[j - 1] - gq[j]) for j in range(1, len(gq))]
    return i_lo, P, Q, _clip0(1 - gp[0]), gp[-1], {}


def _unit(curve: PrivacyCurve) -> Fraction | None:
    """The spacing of the loss atoms of a Laplace (a = Delta/b) or discrete Laplace (1/b) curve, else None."""
    if curve.family == "laplace":
        return Fraction(curve.sensitivity) / Fraction(curve.scale)
    if curve.family == "discrete_laplace":
        return 1 / Fraction(curve.scale)
    return None


def natural_step(curve: PrivacyCurve, h: float) -> Fraction:
    """The grid step used for ``curve`` alone near ``h``: the discrete Laplace's loss spacing 1/b (every loss is
    a multiple of it, so a finer grid gains nothing), a/N for Laplace (a = Delta/b, N = ceil(a/h): the atoms at
    +-a on the grid, the continuous part on cells <= h), h itself for the Gaussian."""
    h = check_positive("h", h)
    unit = _unit(curve)
    if unit is None:
        return Fraction(h)
    if curve.family == "discrete_laplace":
        return unit
    return unit / max(1, math.ceil(unit / Fraction(h)))


def common_step(curves: Sequence[PrivacyCurve], h: float) -> Fraction:
    """One grid step for composing ``curves``: U, the largest rational dividing the loss spacings of all Laplace /
    discrete Laplace curves, refined to U/ceil(U/h) when a Gaussian or Laplace needs cells <= h (U itself when all
    are discrete Laplace); h when there is no such curve, and h (atoms off the grid) when U < h/100."""
    h = check_positive("h", h)
    units = [u for u in (_unit(c) for c in curves) if u is not None]
    if not units:
        return Fraction(h)
    unit = units[0]
    for u in units[1:]:                  # the largest rational dividing all spacings
        unit = Fraction(math.gcd(unit.numerator * u.denominator, u.numerator * unit.denominator),
                        unit.denominator * u.denominator)
    if unit * 100 < Fraction(h):         # incommensurable in practice: a grid that fine would be too long
        return Fraction(h)
    if all(c.family == "discrete_laplace" for c in curves):
        return unit
    return unit / max(1, math.ceil(unit / Fraction(h)))


def from_curve(curve: PrivacyCurve, h: float | Fraction = 1e-4, *, tail_mass: float = 1e-24,
               align: bool = True) -> GridPLD:
    """The certified grid PLD of a single mechanism (module docstring) on the grid i * step.

    ``h``: the grid step (a float, or an exact Fraction); with ``align`` (default) a float h is replaced by
    :func:`natural_step` (<= h), which puts the Laplace and discrete Laplace loss atoms on the grid (their
    lower ends are then as tight as the upper ones).  ``tail_mass``: P-mass of the Gaussian loss left outside the
    grid on each side (it goes to +inf in the upper vector, is dropped or lowered in the lower one) and the tail
    folded after each composition."""
    from flint import ctx  # noqa: PLC0415 - optional 'proof' extra

    if isinstance(h, Fraction):
        if not h > 0:
            raise ValueError(f"h must be in (0, inf); got h={h!r}")
        step = h
    else:
        step = natural_step(curve, h) if align else Fraction(check_positive("h", h))
    tail_mass = check_positive("tail_mass", tail_mass)
    if not tail_mass < 1e-3:
        raise ValueError(f"tail_mass must be in (0, 1e-3); got tail_mass={tail_mass!r}")
    if curve.family not in _PLD_FAMILIES:
        raise TypeError(f"no certified PLD for the {curve.family} family (only {', '.join(_PLD_FAMILIES)}); "
                        "its single curve delta(eps) is available from PrivacyCurve.delta")
    if curve.family in _GENERIC or curve.ratio != 1.0:
        return _generic_pld(curve, step, tail_mass)
    builders = {"gaussian": _gaussian_cells, "laplace": _laplace_cells, "discrete_laplace": _discrete_laplace_cells,
                "student_t": _student_t_cells}
    old = ctx.prec
    ctx.prec = _CELL_PREC
    try:
        i_lo, P, Q, below, above, exact = builders[curve.family](curve, step, tail_mass)
        return _grid_from_cells(curve.label(), step, i_lo, P, Q, below, above, exact, tail_mass)
    finally:
        ctx.prec = old


# --- the smooth-sensitivity families: any shift/dilation pair, from certified loss cells ------------------
def _pair(curve: PrivacyCurve, swap: bool = False) -> tuple[Any, Any, Any]:
    """(P, Q, binary64 loss) of the declared pair P = scale Z, Q = Delta + (scale ratio) Z, or of (Q, P)."""
    noise = curve.noise()
    d, r = curve.sensitivity, curve.ratio
    P, Q = output_law(noise, 0.0, 1.0), output_law(noise, d, r)
    lr = math.log(r)

    def loss(y: NDArray[np.float64]) -> NDArray[np.float64]:
        v = np.asarray(noise.logpdf(y), dtype=float) - (np.asarray(noise.logpdf((y - d) / r), dtype=float) - lr)
        return -v if swap else v

    return (Q, P, loss) if swap else (P, Q, loss)


def _with_inf(side: _Side, extra: Any) -> _Side:
    """The side with the ball ``extra`` (its upper end, rounded up) added to the +inf mass."""
    add = int(math.ceil(_up(extra) * 2.0 ** BITS)) if _up(extra) > 0 else 0
    return _Side(side.offset, side.coeffs, side.inf + add)


def _generic_pld(curve: PrivacyCurve, step: Fraction, tail_mass: float) -> GridPLD:
    """The grid PLD of a GenCauchy, Student t or PolyPlace pair from :func:`verify.accounting.losscells.loss_cells`.

    A pure shift (ratio 1) of a symmetric family is symmetric under y -> Delta - y: its loss cells give both
    vectors (connect-the-dots split above, flows below), the P-mass outside the window goes to +inf above.
    A dilated pair (ratio != 1) is not symmetric: the upper vector is the PLD of a *symmetric* pair dominating
    both (P, Q) and (Q, P) (:func:`_symmetric_hull`), so it composes under any orientation of each step; the
    lower vector is that of the orientation with the larger curve (a pair the mechanism has)."""
    from flint import ctx  # noqa: PLC0415 - optional 'proof' extra

    old = ctx.prec
    ctx.prec = _GENERIC_PREC
    try:
        P, Q, loss = _pair(curve)
        cells = loss_cells(P, Q, loss, step, tail=min(tail_mass, 1e-30))
        label = curve.label()
        if curve.ratio == 1.0:
            g = _grid_from_cells(label, step, cells.i_lo, cells.P, cells.Q, _flint().arb(0), _flint().arb(0), {},
                                 tail_mass)
            return GridPLD(step, _with_inf(g.upper, cells.unknown_p), g.lower, tail_mass, label)
        upper, prefer_qp = _symmetric_hull(cells, step)
        if prefer_qp:
            Q2, P2, loss2 = _pair(curve, swap=True)
            cells = loss_cells(Q2, P2, loss2, step, tail=min(tail_mass, 1e-30))
        g = _grid_from_cells(label, step, cells.i_lo, cells.P, cells.Q, _flint().arb(0), _flint().arb(0), {},
                             tail_mass)
        return GridPLD(step, upper, g.lower, tail_mass, label)
    finally:
        ctx.prec = old


def _symmetric_hull(cells: LossCells, step: Fraction) -> tuple[_Side, bool]:
    """The upper (dominating) vector of a symmetric pair that dominates both (P, Q) and (Q, P), and whether the
    curve of (Q, P) is the larger one (by the sum of both curves over the grid points l_i >= 0).

    From the cells, at every grid point l_i (exactly, cells being unions of whole level sets):
        delta_PQ(l_i) = sum_{j > i} (P_j - e^(l_i) Q_j) (+ P-mass outside the window),
        delta_QP(l_i) = sum_{j <= -i} (Q_j - e^(l_i) P_j) (+ Q-mass outside the window),
    for i in [-M, M] covering the loss range.  U_i >= max of the two (upper ends).  In x = e^eps a privacy curve
    delta(x) = sup_S P(S) - x Q(S) is convex and non-increasing with delta(0) = 1, so the chord between two
    points (x_i, U_i) lies above both curves, and so does the piecewise-linear lower convex hull H of (0, 1) and
    the (x_i, U_i), continued by the constant U_top beyond the top point (the curves are non-increasing).  H is
    the curve of a pair (Doroshenko et al. 2022, "Connect the dots": the slopes s_k of H give Q-masses
    s_k - s_{k-1} and P-masses x_k (s_k - s_{k-1}) at the vertices, P-mass U_top at +inf); since H bounds both
    orientations' curves for every eps (eps < 0 included: x < 1), that pair dominates (P, Q) and (Q, P)
    (Zhu, Dong & Wang, AISTATS 2022, domination by the privacy profile): no orientation need be known when
    composing.  The hull's vertices are proposed in binary64; convexity is then
    certified in ball arithmetic, a vertex whose convexity is not certified being dropped (a chord over a
    longer span stays above the convex curves)."""
    arb = _flint().arb
    n = len(cells.P)
    i_lo = cells.i_lo
    M = max(abs(i_lo - 1), abs(cells.i_hi)) + 1
    zero = arb(0)
    # suffix sums over cells j > i and prefix sums over cells j <= k
    sufP, sufQ = [zero] * (n + 1), [zero] * (n + 1)
    for j in range(n - 1, -1, -1):
        sufP[j] = sufP[j + 1] + cells.P[j]
        sufQ[j] = sufQ[j + 1] + cells.Q[j]
    preP, preQ = [zero] * (n + 1), [zero] * (n + 1)
    for j in range(n):
        preP[j + 1] = preP[j] + cells.P[j]
        preQ[j + 1] = preQ[j] + cells.Q[j]

    def above(i: int) -> tuple[Any, Any]:          # sums over cells j > i
        t = min(max(i + 1 - i_lo, 0), n)
        return sufP[t], sufQ[t]

    def below(k: int) -> tuple[Any, Any]:          # sums over cells j <= k
        t = min(max(k + 1 - i_lo, 0), n)
        return preP[t], preQ[t]

    idx = list(range(-M, M + 1))
    xs = [_gp(i, step).exp() for i in idx]
    U = np.empty(len(idx))
    sum_pq = sum_qp = 0.0
    for t, i in enumerate(idx):
        tp, tq = above(i)
        sq_p, sq_q = below(-i)
        d_pq = tp - xs[t] * tq + cells.unknown_p
        d_qp = sq_q - xs[t] * sq_p + cells.unknown_q
        a, b = max(0.0, _up(d_pq)), max(0.0, _up(d_qp))
        U[t] = min(1.0, max(a, b))
        if i >= 0:
            sum_pq += float(d_pq.mid())
            sum_qp += float(d_qp.mid())
    # lower convex hull (monotone chain) of (0, 1) and (x_i, U_i), proposed in binary64
    xf = np.array([0.0] + [float(x.mid()) for x in xs])
    uf = np.concatenate([[1.0], U])
    hull: list[int] = []
    for t in range(len(xf)):
        while len(hull) >= 2:
            o, a = hull[-2], hull[-1]
            cross = (xf[a] - xf[o]) * (uf[t] - uf[o]) - (uf[a] - uf[o]) * (xf[t] - xf[o])
            if cross <= 0:
                hull.pop()
            else:
                break
        hull.append(t)
    xb = [arb(0)] + xs
    ub = [arb(1)] + [arb(float(u)) for u in U]
    # certify convexity (Q-masses s_k - s_{k-1} >= 0, and the last slope <= 0 for the constant continuation)
    while True:
        slopes = [(ub[hull[k + 1]] - ub[hull[k]]) / (xb[hull[k + 1]] - xb[hull[k]]) for k in range(len(hull) - 1)]
        slopes.append(arb(0))
        bad = next((k for k in range(1, len(hull)) if not slopes[k] - slopes[k - 1] >= 0), None)
        if bad is None:
            break
        hull.pop(bad)
    verts = hull[1:]                                  # grid vertices (t >= 1 <-> idx[t - 1])
    gi = [idx[t - 1] for t in verts]
    off = gi[0]
    masses = np.zeros(gi[-1] - off + 1)
    for k, t in enumerate(verts, start=1):
        q = slopes[k] - slopes[k - 1]
        masses[idx[t - 1] - off] = max(0.0, _up(xb[t] * q))
    inf = float(U[verts[-1] - 1])
    return GridPLD._side_from_floats(off, masses, inf, True), sum_qp > sum_pq


def _grid_from_cells(label: str, step: Fraction, i_lo: int, P: Sequence[Any], Q: Sequence[Any], below: Any,
                     above: Any, exact: dict[int, Any], tail_mass: float) -> GridPLD:
    """Upper (connect-the-dots split) and lower (flows alpha) vectors from the cell balls (module docstring),
    plus the atoms lying exactly on grid points (``exact``: index -> P mass, placed as they are).
    Cell j (0-based) is (l_{i_lo+j-1}, l_{i_lo+j}]; the upper vector lives on l_{i_lo-1} .. l_{i_lo+n-1}."""
    arb = _flint().arb
    if exact:
        lo_i = min(min(exact) - 1, i_lo)
        hi_i = max(max(exact), i_lo + len(P) - 1)
        P = [arb(0)] * (i_lo - lo_i) + list(P) + [arb(0)] * (hi_i - (i_lo + len(P) - 1))
        Q = [arb(0)] * (i_lo - lo_i) + list(Q) + [arb(0)] * (hi_i - (i_lo + len(Q) - 1))
        i_lo = lo_i
    n = len(P)
    hb = _gp(1, step)
    eh = hb.exp()
    em1 = hb.expm1()                     # e^h - 1
    one_m = -(-hb).expm1()               # 1 - e^-h
    uU = np.empty(n)
    vU = np.empty(n)
    vL = np.empty(n)
    pL = np.empty(n)
    aU = np.empty(n)
    bU = np.empty(n)
    el = _gp(i_lo - 1, step).exp()       # e^(l_{i-1}) for the first cell
    for j in range(n):
        el_next = el * eh                # e^(l_i)
        u = el_next * Q[j] - P[j]
        v = P[j] - el * Q[j]
        uU[j] = max(0.0, _up(u))
        vU[j] = max(0.0, _up(v))
        vL[j] = _down(v)
        pL[j] = max(0.0, _down(P[j]))
        aU[j] = max(0.0, _up(u / em1))
        bU[j] = max(0.0, _up(_clip0(v) / one_m))
        el = el_next
    # upper: a_j at l_{i_lo+j-1} (vector index j), b_j at l_{i_lo+j} (index j+1)
    up = np.zeros(n + 1)
    up[:n] += aU
    up[1:] += bU
    for i, pm in exact.items():          # index t <-> l_{i_lo-1+t}
        up[i - i_lo + 1] += max(0.0, _up(pm))
    up *= 1 + 4 * _U                     # the additions above round to nearest
    up[0] += _up(below) * (1 + 2 * _U)
    inf_up = _up(above)
    # lower: flows; vector index t <-> loss l_{i_lo-2+t}; cell j sends alpha_j up to l_{i_lo+j} (t = j+2) and the
    # rest down to l_{i_lo+j-1} (t = j+1), or one point lower (t = j) when its v is not certified >= 0 (within
    # rounding of 0: the loss is then only known to be >= l_{i_lo+j-2})
    alpha = _alphas(uU, vL)
    lo = np.zeros(n + 2)
    cell = np.arange(n)
    lo[cell + 2] += alpha * pL
    np.add.at(lo, np.where(vL < 0, cell, cell + 1), (1.0 - alpha) * pL)
    for i, pm in exact.items():
        lo[i - i_lo + 2] += max(0.0, _down(pm))
    lo = np.maximum(lo * (1 - 4 * _U), 0.0)
    lo[-1] += max(0.0, _down(above)) * (1 - 2 * _U)   # mass above the grid, lowered onto the top point
    upper = GridPLD._side_from_floats(i_lo - 1, up, inf_up, True)
    lower = GridPLD._side_from_floats(i_lo - 2, lo, 0.0, False)
    return GridPLD(step, upper, lower, tail_mass, label=label)


def _alphas(uU: NDArray[np.float64], vL: NDArray[np.float64]) -> NDArray[np.float64]:
    """The fractions alpha_j sent up (module docstring): flows F_j = u_j v_{j+1}/(u_j + v_{j+1}), scaled so that
    alpha_j + F_{j-1}/v_j <= 1, then the certified condition alpha_j uU_j <= (1 - alpha_{j+1}) vL_{j+1} enforced
    by lowering alpha_j (lowering an alpha never breaks another condition).  The last cell sends nothing up."""
    n = uU.size
    v = np.maximum(vL, 0.0)
    alpha = np.zeros(n)
    if n < 2:
        return alpha
    u0, v1 = uU[:-1], v[1:]
    den = u0 + v1
    with np.errstate(divide="ignore", invalid="ignore"):
        F = np.where(den > 0, u0 * v1 / den, 0.0)
        a = np.where(u0 > 0, F / u0, 1.0)        # up fraction of cells 0..n-2
        g = np.where(v1 > 0, F / v1, 0.0)        # down fraction needed from cells 1..n-1
    s = np.zeros(n)
    s[:-1] += a
    s[1:] += g
    s = np.maximum(s, 1.0)
    scale = np.maximum(s[:-1], s[1:])
    F = F / scale
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha[:-1] = np.where(u0 > 0, F / u0, 1.0)
    alpha = np.clip(alpha, 0.0, 1.0)
    alpha[-1] = 0.0
    # certified condition, with a relative margin for the binary64 rounding of the products
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        cap = np.where(uU[:-1] > 0, (1.0 - alpha[1:]) * v1 / uU[:-1] * (1 - 1e-12), 1.0)
    alpha[:-1] = np.clip(np.minimum(alpha[:-1], cap), 0.0, 1.0)
    return alpha


def _clip0(x: Any) -> Any:
    arb = _flint().arb
    if x.lower() >= 0:
        return x
    return arb(0).union(arb(x.upper())) if x.upper() > 0 else arb(0)


def _up(x: Any) -> float:
    """The upper end of a ball as binary64, rounded up (unchanged when it is exactly representable)."""
    e = x.upper()
    v = float(e)
    if not math.isfinite(v) or _flint().arb(v) == e:
        return v
    return math.nextafter(v, math.inf)


def _down(x: Any) -> float:
    """The lower end of a ball as binary64, rounded down (unchanged when it is exactly representable)."""
    e = x.lower()
    v = float(e)
    if not math.isfinite(v) or _flint().arb(v) == e:
        return v
    return math.nextafter(v, -math.inf)


def compose(items: PrivacyCurve | GridPLD | Sequence[PrivacyCurve | GridPLD], k: int = 1, *, h: float = 1e-4,
            tail_mass: float = 1e-24) -> GridPLD:
    """The composition of the given mechanisms (curves or grid PLDs), all of it repeated ``k`` times, as a
    :class:`GridPLD` whose ``delta(eps)`` is an enclosure [lower, upper] (module docstring).

    Curves are discretised on one common grid (:func:`common_step`; that of the grid PLDs given, if any): Laplace
    / discrete Laplace atoms off that grid (different spacings composed) widen the lower end by up to one step
    per composition.  Grid PLDs passed in must all use one step."""
    k = check_integer("k", k, minimum=1)
    h = check_positive("h", h)
    seq = [items] if isinstance(items, (PrivacyCurve, GridPLD)) else list(items)
    if not seq:
        raise ValueError("compose needs at least one mechanism")
    given = {it.step for it in seq if isinstance(it, GridPLD)}
    if len(given) > 1:
        raise ValueError(f"the grids differ: the grid PLDs given use {len(given)} different steps")
    curves = [it for it in seq if isinstance(it, PrivacyCurve)]
    step = given.pop() if given else common_step(curves, h)
    plds = [it if isinstance(it, GridPLD) else from_curve(it, step, tail_mass=tail_mass) for it in seq]
    # identical mechanisms are self-composed once (repeated squaring) instead of multiplied one by one
    groups: dict[str, tuple[GridPLD, int]] = {}
    for p in plds:
        key = p.label if p.label else f"id {id(p)}"
        base, cnt = groups.get(key, (p, 0))
        groups[key] = (base, cnt + 1)
    total: GridPLD | None = None
    for base, cnt in groups.values():
        part = base.self_compose(cnt * k)
        total = part if total is None else total.compose(part)
    assert total is not None
    label = " + ".join(f"{cnt * k} x {base.label}" for base, cnt in groups.values())
    return GridPLD(total.step, total.upper, total.lower, total.tail_mass, label=label)


def to_dp_accounting_pld(obj: PrivacyCurve | GridPLD, *, h: float = 1e-4) -> Any:
    """The curve or grid PLD in dp-accounting's format (``dp_accounting.pld.privacy_loss_distribution``):
    the pessimistic (upper, dominating) masses through ``PrivacyLossDistribution.create_from_rounded_probability``
    with ``value_discretization_interval`` = h.  ImportError when dp_accounting is not installed.  The export
    rounds the integer masses to binary64 (nearest): dp-accounting's own results are not certified."""
    try:
        pldmod = importlib.import_module("dp_accounting.pld.privacy_loss_distribution")
    except ImportError as exc:
        raise ImportError("to_dp_accounting_pld needs the dp-accounting package (pip install dp-accounting)") from exc
    grid = obj if isinstance(obj, GridPLD) else from_curve(obj, h)
    loss, m, inf = grid.masses(up=True)
    off = grid.upper.offset
    pmf = {off + j: float(v) for j, v in enumerate(m) if v > 0}
    return pldmod.PrivacyLossDistribution.create_from_rounded_probability(
        pmf, inf, grid.h, pessimistic_estimate=True)


def to_dp_accounting(obj: PrivacyCurve | GridPLD, *, h: float = 1e-4) -> Any:
    """The pessimistic side of a curve or grid PLD as dp-accounting's ``PrivacyLossDistribution``
    (:func:`to_dp_accounting_pld`, of which this is the short name)."""
    return to_dp_accounting_pld(obj, h=h)
