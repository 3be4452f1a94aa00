"""Events that see outputs of any shape: real vectors, integer vectors, tuples of mixed kinds, booleans.

An output y of ``release(x, rng)`` is flattened to a feature vector phi(y) in R^m (:func:`flatten_output`:
booleans as 0/1, integers and reals as themselves, nested tuples / lists / arrays in order, sets
sorted; outputs of varying length are padded and carry their length as the first feature, so that
phi is injective on the outputs of one audit).  Three families of events S over phi (each event a
fixed function of the output once chosen; the counts of a chosen event on fresh draws are binomial):

* **support sets** (exact counting over the observed discrete support): when every feature is an
  integer, the joint outputs seen in the fitting half of the selection draws, sorted by their
  empirical likelihood ratio (a_i + 1/2) / (b_i + 1/2), and every prefix of that order (DP-Sniper,
  Bichsel et al. S&P 2021, Sec. 4: the optimal attack thresholds the likelihood ratio).  Membership
  is exact (the set of points is stored): no cap on the support size, no binning;
* **classifier** (DP-Sniper's idea, Bichsel et al. S&P 2021, Alg. 1): a logistic regression trained on
  the fitting half to tell M(x) from M(x') on the features [phi, phi^2] and an indicator of each value of
  every integer column of at most 8 values (standardised; DP-Sniper's one-hot features); the events are
  {score > t} and {score <= t} at quantiles t of the fitting scores.  Needs scikit-learn (the
  ``[library]`` extra); without it the family is left out and the report says so;
* **projection tails**: {g(y) > t} and {g(y) <= t} for the scalar projections g = each coordinate
  (the first :data:`MAX_PROJECTED_COORDINATES`), their sum, max, min and number of non-zero entries,
  t at quantiles of the pooled fitting draws (the tail events of the scalar audit).

Selection (:func:`select_event`): every candidate is *fitted* on the first half of the selection draws
and *scored* on the second (a set ordered and scored on the same draws looks far better than it is),
by the predicted lower bound of :mod:`verify.audit.blackbox.mechanism` at the estimation size,
ln((p - delta)/q) - z_est sd(n_est) - sqrt(2 ln N) sd(n_sc).  The chosen event is then counted on fresh
draws only (:func:`count_event`), so the bound on it is valid at its stated confidence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from scipy import stats

__all__ = ["flatten_output", "features", "Event", "SupportSetEvent", "CellSetEvent", "ProjectionTailEvent",
           "ClassifierEvent",
           "candidate_events", "select_event", "count_event", "MAX_PROJECTED_COORDINATES", "Selection"]

FloatArray = NDArray[np.float64]
#: Coordinates given their own tail events (the sum, max, min and non-zero count always are).
MAX_PROJECTED_COORDINATES = 64
#: Quantile levels of the tail thresholds (both tails refined down to 1e-3).
_TAIL_QS = np.unique(np.concatenate([np.linspace(0.02, 0.98, 25), np.geomspace(1e-3, 0.02, 6),
                                     1.0 - np.geomspace(1e-3, 0.02, 6)]))


def flatten_output(y: Any) -> list[float]:
    """phi(y): the output as a flat list of floats (booleans 0/1; nested tuples, lists and arrays in
    order; sets and frozensets sorted; None as NaN is refused: an output must be a number or a container
    of numbers)."""
    if isinstance(y, (bool, np.bool_)):
        return [1.0 if y else 0.0]
    if isinstance(y, (int, float, np.integer, np.floating)):
        return [float(y)]
    if isinstance(y, np.ndarray):
        if y.dtype == object:
            return [v for e in y.reshape(-1) for v in flatten_output(e)]
        return [float(v) for v in y.reshape(-1).astype(float)]
    if isinstance(y, (set, frozenset)):
        return [v for e in sorted(y) for v in flatten_output(e)]
    if isinstance(y, (tuple, list)):
        return [v for e in y for v in flatten_output(e)]
    raise TypeError(f"release returned {type(y).__name__}: outputs must be numbers, booleans or "
                    "tuples / lists / arrays / sets of them")


def features(outputs: Sequence[Any]) -> FloatArray:
    """phi of each output as the rows of one (n, m) array: padded with 0 and prefixed with the length
    when the lengths vary (so that different outputs keep different rows)."""
    rows = [flatten_output(y) for y in outputs]
    lens = {len(r) for r in rows}
    if len(lens) == 1:
        out = np.asarray(rows, dtype=float)
        return out.reshape(len(rows), -1)
    m = max(lens)
    arr = np.zeros((len(rows), m + 1))
    for i, r in enumerate(rows):
        arr[i, 0] = len(r)
        arr[i, 1:1 + len(r)] = r
    return arr


def align(a: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Two feature arrays brought to one width (the narrower padded with length prefix and zeros)."""
    if a.shape[1] == b.shape[1]:
        return a, b
    m = max(a.shape[1], b.shape[1])

    def pad(z: FloatArray) -> FloatArray:
        out = np.zeros((z.shape[0], m + 1))
        out[:, 0] = z.shape[1]
        out[:, 1:1 + z.shape[1]] = z
        return out

    return pad(a), pad(b)


class Event:
    """A fixed event S over the features: ``contains(F)`` (a boolean per row) and ``text``."""

    family: str = "event"

    def contains(self, F: FloatArray) -> NDArray[np.bool_]:
        raise NotImplementedError

    @property
    def text(self) -> str:
        raise NotImplementedError


def _row_ids(points: FloatArray, F: FloatArray) -> NDArray[np.bool_]:
    """Whether each row of F equals one of ``points`` (exact comparison of the rows)."""
    if points.shape[0] == 0 or F.shape[0] == 0:
        return np.zeros(F.shape[0], dtype=bool)
    both = np.concatenate([points, F], axis=0)
    _, inv = np.unique(both, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    return np.isin(inv[points.shape[0]:], inv[: points.shape[0]])


def _fmt_point(p: FloatArray) -> str:
    return "(" + ", ".join(f"{v:.6g}" for v in p[:8]) + (", ..." if p.size > 8 else "") + ")"


@dataclass(frozen=True, eq=False)
class SupportSetEvent(Event):
    """y in {p_1, ..., p_k}: a set of joint outputs (exact membership); with ``columns``, a set of values
    of the integer-valued coordinates only (the discrete part of a mixed output, e.g. the states of a
    sparse vector beside its released values)."""

    points: FloatArray
    columns: tuple[int, ...] | None = None
    family = "support set (exact counting over the observed discrete support)"

    def contains(self, F: FloatArray) -> NDArray[np.bool_]:
        if self.columns is not None:
            if F.shape[1] <= max(self.columns):
                return np.zeros(F.shape[0], dtype=bool)
            F = F[:, list(self.columns)]
        if F.shape[1] != self.points.shape[1]:
            return np.zeros(F.shape[0], dtype=bool)
        return _row_ids(self.points, F)

    @property
    def text(self) -> str:
        k = self.points.shape[0]
        shown = ", ".join(_fmt_point(p) for p in self.points[:4])
        what = "joint output" if self.columns is None else f"value of the integer coordinates {list(self.columns)[:8]}"
        return f"y in {{{shown}{', ...' if k > 4 else ''}}} ({k} {what}{'s' if k != 1 else ''} with the largest ratio)"


#: Quantile bins of the released values per discrete pattern in a cell-set event (a mixed output).
CELL_BINS = 8


@dataclass(frozen=True, eq=False)
class CellSetEvent(Event):
    """(d(y), bin(g(y))) in {c_1, ..., c_k} for a mixed output: d(y) the integer-valued coordinates
    ``columns`` (the discrete part: states, indices, flags), g(y) the sum of the real-valued coordinates
    ``real_columns`` (the released values) and bin(.) its quantile bin among ``edges`` (fixed on the
    fitting draws).  The cells are the support of this discretised joint output, ordered by their
    empirical likelihood ratio on the fitting draws and cut at a prefix, as :class:`SupportSetEvent`
    (DP-Sniper, Bichsel et al. S&P 2021, Sec. 4: thresholding an estimate of the likelihood ratio);
    membership is exact once the edges are fixed."""

    points: FloatArray
    columns: tuple[int, ...]
    real_columns: tuple[int, ...]
    edges: FloatArray
    family = "support cells (discrete part x bins of the released values)"

    def contains(self, F: FloatArray) -> NDArray[np.bool_]:
        if F.shape[1] <= max(self.columns + self.real_columns):
            return np.zeros(F.shape[0], dtype=bool)
        return _row_ids(self.points, _cells(F, self.columns, self.real_columns, self.edges))

    @property
    def text(self) -> str:
        k = self.points.shape[0]
        shown = ", ".join(_fmt_point(p) for p in self.points[:4])
        return (f"(y{list(self.columns)[:8]}, bin of sum y{list(self.real_columns)[:8]}) in {{{shown}"
                f"{', ...' if k > 4 else ''}}} ({k} cell{'s' if k != 1 else ''} with the largest ratio; "
                f"bin edges {', '.join(f'{e:.4g}' for e in self.edges)})")


def _cells(F: FloatArray, columns: tuple[int, ...], real_columns: tuple[int, ...], edges: FloatArray) -> FloatArray:
    """The discretised output (d(y), bin(g(y))) of :class:`CellSetEvent`, one row per output."""
    g = F[:, list(real_columns)].sum(axis=1)
    return np.concatenate([F[:, list(columns)], np.searchsorted(edges, g, side="right")[:, None].astype(float)],
                          axis=1)


def _cell_candidates(A: FloatArray, B: FloatArray, A2: FloatArray, B2: FloatArray,
                     cols: tuple[int, ...]) -> Scored:
    """Prefixes of the cells of a mixed output (:class:`CellSetEvent`): the integer columns ``cols`` and
    the quantile bins (:data:`CELL_BINS`, from the pooled fitting draws) of the sum of the other columns."""
    real = tuple(j for j in range(A.shape[1]) if j not in cols)
    g = np.concatenate([A, B], axis=0)[:, list(real)].sum(axis=1)
    edges = np.unique(np.quantile(g, np.linspace(0.0, 1.0, CELL_BINS + 1)[1:-1]))

    def factory(points: FloatArray) -> Event:
        return CellSetEvent(points, cols, real, edges)

    return _support_candidates(_cells(A, cols, real, edges), _cells(B, cols, real, edges),
                               _cells(A2, cols, real, edges), _cells(B2, cols, real, edges), factory=factory)


_PROJECTIONS: dict[str, Callable[[FloatArray], FloatArray]] = {
    "sum": lambda F: F.sum(axis=1),
    "max": lambda F: F.max(axis=1),
    "min": lambda F: F.min(axis=1),
    "nonzero": lambda F: np.count_nonzero(F, axis=1).astype(float),
}


def _project(F: FloatArray, name: str) -> FloatArray:
    if name.startswith("y["):
        j = int(name[2:-1])
        return F[:, j] if j < F.shape[1] else np.full(F.shape[0], np.nan)
    return _PROJECTIONS[name](F)


@dataclass(frozen=True, eq=False)
class ProjectionTailEvent(Event):
    """g(y) > t (``side="right"``) or g(y) <= t (``"left"``) for a scalar projection g."""

    projection: str
    threshold: float
    side: str
    family = "projection tail"

    def contains(self, F: FloatArray) -> NDArray[np.bool_]:
        g = _project(F, self.projection)
        with np.errstate(invalid="ignore"):
            return g > self.threshold if self.side == "right" else g <= self.threshold

    @property
    def text(self) -> str:
        op = ">" if self.side == "right" else "<="
        return f"{self.projection} {op} {self.threshold:.6g}"


@dataclass(frozen=True, eq=False)
class ClassifierEvent(Event):
    """score(y) > t or score(y) <= t for the log-odds score of a classifier trained on held-out draws."""

    model: Any
    mean: FloatArray
    scale: FloatArray
    threshold: float
    side: str
    codes: tuple[tuple[int, tuple[float, ...]], ...] = ()
    family = "classifier (logistic regression on held-out draws)"

    def score(self, F: FloatArray) -> FloatArray:
        Z = (_classifier_features(F, self.codes) - self.mean) / self.scale
        return np.asarray(self.model.decision_function(Z), dtype=float)

    def contains(self, F: FloatArray) -> NDArray[np.bool_]:
        s = self.score(F)
        return s > self.threshold if self.side == "right" else s <= self.threshold

    @property
    def text(self) -> str:
        op = ">" if self.side == "right" else "<="
        return (f"classifier score {op} {self.threshold:.4g} (logistic regression on [y, y^2"
                f"{', indicators of the codes' if self.codes else ''}], log-odds of M(x))")


#: Integer-valued columns with at most this many distinct values also get one indicator per value.
MAX_CODES = 8


def _codes(F: FloatArray) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """The code columns of F: integer-valued with 2..MAX_CODES distinct values (a state such as
    below / above / aborted, DP-Sniper's one-hot features)."""
    out = []
    for j in range(F.shape[1]):
        u = np.unique(F[:, j])
        if 2 < u.size <= MAX_CODES and np.all(u == np.round(u)):
            out.append((j, tuple(float(v) for v in u)))
    return tuple(out)


def _classifier_features(F: FloatArray, codes: tuple[tuple[int, tuple[float, ...]], ...]) -> FloatArray:
    """[y, y^2] and an indicator of each value of each code column (a linear score can then weigh the
    states of a column separately)."""
    cols = [F, F * F]
    for j, vals in codes:
        cols.append(np.stack([F[:, j] == v for v in vals], axis=1).astype(float))
    return np.concatenate(cols, axis=1)


def _is_integer(F: FloatArray) -> bool:
    return bool(np.all(F == np.round(F)))


def _maker(cls: Callable[..., Event], *args: Any) -> Callable[[], Event]:
    """A constructor of one candidate event, called only for the chosen one."""

    def make() -> Event:
        return cls(*args)

    return make


def _prefix_maker(pts: FloatArray, order: NDArray[np.int64], k: int,
                  columns: tuple[int, ...] | None = None,
                  factory: Callable[[FloatArray], Event] | None = None) -> Callable[[], Event]:
    """The support set of the first k points of ``order`` (the slice is taken only when chosen)."""

    def make() -> Event:
        if factory is not None:
            return factory(pts[order[:k]])
        return SupportSetEvent(pts[order[:k]], columns)

    return make


Scored = tuple[list[Callable[[], Event]], NDArray[np.float64], NDArray[np.float64]]


def _support_candidates(A: FloatArray, B: FloatArray, A2: FloatArray, B2: FloatArray,
                        columns: tuple[int, ...] | None = None,
                        factory: Callable[[FloatArray], Event] | None = None) -> Scored:
    """Prefixes of the joint support observed in A, B ordered by the empirical ratio (both directions),
    with their counts on the scoring draws A2, B2 (one exact row match, then prefix sums)."""
    pts, inv = np.unique(np.concatenate([A, B], axis=0), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    S = pts.shape[0]
    if S < 2:
        return [], np.zeros(0), np.zeros(0)
    a = np.bincount(inv[: A.shape[0]], minlength=S)
    b = np.bincount(inv[A.shape[0]:], minlength=S)
    ratio = np.log(a + 0.5) - np.log(b + 0.5)
    both = np.concatenate([pts, A2, B2], axis=0)
    _, inv2 = np.unique(both, axis=0, return_inverse=True)
    inv2 = inv2.reshape(-1)
    # id of each scoring row among the support points (-1 if unseen in the fitting draws)
    lookup = np.full(inv2.max() + 1, -1)
    lookup[inv2[:S]] = np.arange(S)
    ida = lookup[inv2[S:S + A2.shape[0]]]
    idb = lookup[inv2[S + A2.shape[0]:]]
    ca = np.bincount(ida[ida >= 0], minlength=S).astype(float)
    cb = np.bincount(idb[idb >= 0], minlength=S).astype(float)
    makers: list[Callable[[], Event]] = []
    k1s, k2s = [], []
    for order in (np.argsort(-ratio, kind="stable"), np.argsort(ratio, kind="stable")):
        k1s.append(np.cumsum(ca[order])[:-1])
        k2s.append(np.cumsum(cb[order])[:-1])
        makers += [_prefix_maker(pts, order, k, columns, factory) for k in range(1, S)]
    return makers, np.concatenate(k1s), np.concatenate(k2s)


def _tail_counts(g_fit: FloatArray, g2a: FloatArray, g2b: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Thresholds from the fitting values and the counts of g > t in the scoring draws (sorted search)."""
    g_fit = g_fit[np.isfinite(g_fit)]
    if g_fit.size == 0:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    u = np.unique(g_fit)
    ts = u[:-1] if u.size <= 200 else np.unique(np.quantile(g_fit, _TAIL_QS))
    sa, sb = np.sort(g2a), np.sort(g2b)
    ra = (sa.size - np.searchsorted(sa, ts, side="right")).astype(float)
    rb = (sb.size - np.searchsorted(sb, ts, side="right")).astype(float)
    return ts, ra, rb


def _projection_candidates(A: FloatArray, B: FloatArray, A2: FloatArray, B2: FloatArray) -> Scored:
    names = [f"y[{j}]" for j in range(min(A.shape[1], MAX_PROJECTED_COORDINATES))]
    if A.shape[1] > 1:
        names += list(_PROJECTIONS)
    pooled = np.concatenate([A, B], axis=0)
    makers: list[Callable[[], Event]] = []
    k1s, k2s = [], []
    na, nb = A2.shape[0], B2.shape[0]
    for nm in names:
        ts, ra, rb = _tail_counts(_project(pooled, nm), _project(A2, nm), _project(B2, nm))
        makers += [_maker(ProjectionTailEvent, nm, float(t), "right") for t in ts]
        makers += [_maker(ProjectionTailEvent, nm, float(t), "left") for t in ts]
        k1s += [ra, na - ra]
        k2s += [rb, nb - rb]
    if not makers:
        return [], np.zeros(0), np.zeros(0)
    return makers, np.concatenate(k1s), np.concatenate(k2s)


def _classifier_candidates(A: FloatArray, B: FloatArray, A2: FloatArray, B2: FloatArray,
                           notes: list[str]) -> Scored:
    empty: Scored = ([], np.zeros(0), np.zeros(0))
    try:
        from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]  # noqa: PLC0415
    except ImportError:
        notes.append("classifier events left out: scikit-learn is not installed "
                     "(pip install 'smoothsens[library]')")
        return empty
    F = np.concatenate([A, B], axis=0)
    y = np.concatenate([np.ones(A.shape[0]), np.zeros(B.shape[0])])
    codes = _codes(F)
    Z = _classifier_features(F, codes)
    mean, scale = Z.mean(axis=0), Z.std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    model = LogisticRegression(C=1.0, max_iter=300)
    try:
        model.fit((Z - mean) / scale, y)
    except ValueError as exc:
        notes.append(f"classifier events left out: {exc}")
        return empty
    proto = ClassifierEvent(model, mean, scale, 0.0, "right", codes)
    ts, ra, rb = _tail_counts(proto.score(F), proto.score(A2), proto.score(B2))
    makers: list[Callable[[], Event]] = [_maker(ClassifierEvent, model, mean, scale, float(t), "right", codes)
                                         for t in ts]
    makers += [_maker(ClassifierEvent, model, mean, scale, float(t), "left", codes) for t in ts]
    return makers, np.concatenate([ra, A2.shape[0] - ra]), np.concatenate([rb, B2.shape[0] - rb])


def candidate_events(A: FloatArray, B: FloatArray, A2: FloatArray, B2: FloatArray, families: Sequence[str],
                     notes: list[str]) -> tuple[list[Callable[[], Event]], NDArray[np.float64], NDArray[np.float64],
                                                NDArray[np.float64], dict[str, int]]:
    """The candidate events fitted on draws A of M(x) and B of M(x'), as constructors, with their counts
    k1, k2 on their scoring draws and the number of scoring draws of each (A2 of M(x) and B2 of M(x') for
    the fitted families; all of A, A2 and of B, B2 for the projection tails); and how many each family
    proposed."""
    makers: list[Callable[[], Event]] = []
    k1s, k2s, ns = [np.zeros(0)], [np.zeros(0)], [np.zeros(0)]
    fam: dict[str, int] = {}
    parts: list[tuple[str, Scored]] = []
    if "support" in families and _is_integer(A) and _is_integer(B):
        parts.append((SupportSetEvent.family, _support_candidates(A, B, A2, B2)))
    elif "support" in families:
        # a mixed output: the support of its integer-valued coordinates (states, indices, flags)
        cols = tuple(int(j) for j in np.nonzero(np.all(np.concatenate([A, B]) == np.round(np.concatenate([A, B])),
                                                       axis=0))[0])
        if cols:
            c = list(cols)
            parts.append((SupportSetEvent.family, _support_candidates(A[:, c], B[:, c], A2[:, c], B2[:, c], cols)))
            # and its cells: the discrete part crossed with bins of the released values
            parts.append((CellSetEvent.family, _cell_candidates(A, B, A2, B2, cols)))
    if "projection" in families:
        # tails at pooled quantiles do not depend on which input a draw came from: fitted and scored on
        # all the selection draws (twice the scoring draws of the fitted families)
        FA, FB = np.concatenate([A, A2], axis=0), np.concatenate([B, B2], axis=0)
        parts.append((ProjectionTailEvent.family, _projection_candidates(FA, FB, FA, FB)))
    if "classifier" in families:
        parts.append((ClassifierEvent.family, _classifier_candidates(A, B, A2, B2, notes)))
    for name, (mk, k1, k2) in parts:
        makers += mk
        k1s.append(k1)
        k2s.append(k2)
        ns.append(np.full(len(mk), float(A2.shape[0] + (A.shape[0] if name == ProjectionTailEvent.family else 0))))
        fam[name] = len(mk)
    return makers, np.concatenate(k1s), np.concatenate(k2s), np.concatenate(ns), fam


def count_event(event: Event, F: FloatArray, width: int) -> int:
    """Number of rows of F (features of fresh draws) in the event; F padded to the candidates' width."""
    if F.shape[1] != width:
        if F.shape[1] < width:
            G = np.zeros((F.shape[0], width))
            G[:, 0] = F.shape[1]
            G[:, 1:1 + F.shape[1]] = F
            F = G
    return int(np.count_nonzero(event.contains(F)))


@dataclass(frozen=True)
class Selection:
    """The chosen event, its direction (0: x against x', 1: x' against x), its predicted score and
    scoring counts, and how many candidates competed."""

    event: Event
    direction: int
    score: float
    counts: tuple[int, int]
    n_score: int
    n_candidates: int
    width: int
    family_counts: dict[str, int] = field(default_factory=dict)
    delta_event: Event | None = None
    delta_direction: int = 0
    delta_counts: tuple[int, int] = (0, 0)


def predicted_bound(k1: NDArray[np.float64], k2: NDArray[np.float64], n_sc: Any, n_est: int, d: float,
                    delta: float, z_est: float, n_cand: int, prior: float = 0.5) -> NDArray[np.float64]:
    """The predicted lower bound on eps at the estimation size (per unit d) of events with scoring counts
    k1 (from the numerator input) and k2: ln((p - delta)/q) - z_est sd(n_est) - sqrt(2 ln N) sd(n_sc),
    sd the delta-method standard deviation (as in :mod:`verify.audit.blackbox.mechanism`); p, q are the
    proportions with ``prior`` pseudo-counts on each side (shrunk towards ratio 1)."""
    z_sel = math.sqrt(2.0 * math.log(n_cand)) if n_cand > 1 else 0.0
    pa, pb = (k1 + prior) / (n_sc + 2 * prior), (k2 + prior) / (n_sc + 2 * prior)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel_var = (1.0 - pa) / pa + (1.0 - pb) / pb if delta == 0 else (
            pa * (1.0 - pa) / np.maximum(pa - delta, 0.0) ** 2 + (1.0 - pb) / pb)
        score = (np.log(np.maximum(pa - delta, 0.0)) - np.log(pb)
                 - z_est * np.sqrt(rel_var / n_est) - z_sel * np.sqrt(rel_var / n_sc)) / d
    return np.where(np.isnan(score), -np.inf, score)


def select_event(SA: FloatArray, SB: FloatArray, families: Sequence[str], *, n_est: int, d: float, delta: float,
                 level: float, symmetric: bool, notes: list[str], winners_curse: bool = True,
                 c_ratio: float = math.inf) -> Selection:
    """Fit the candidates on the first half of the selection draws SA (of M(x)) and SB (of M(x')), score
    them on the second half, and return the best (module docstring).  Nothing here touches the
    estimation draws.  ``winners_curse=False`` drops the sqrt(2 ln N) term (ranking pairs of an input
    search by their best event, where every pair pays the same term)."""
    h = SA.shape[0] // 2
    SA, SB = align(SA, SB)
    makers, k1, k2, n_sc, fam = candidate_events(SA[:h], SB[:h], SA[h:], SB[h:], families, notes)
    if not makers:
        raise ValueError("no candidate event: the outputs at x and x' coincide on the fitting draws "
                         "(a constant release?)")
    z_est = float(stats.norm.isf(level))
    ndir = 2 if symmetric else 1
    N = len(makers) * ndir
    Np, prior = (N, 0.5) if winners_curse else (1, 10.0)
    s0 = predicted_bound(k1, k2, n_sc, n_est, d, delta, z_est, Np, prior)
    best = (float(np.max(s0)), 0, int(np.argmax(s0)))
    if symmetric:
        s1 = predicted_bound(k2, k1, n_sc, n_est, d, delta, z_est, Np, prior)
        if float(np.max(s1)) > best[0]:
            best = (float(np.max(s1)), 1, int(np.argmax(s1)))
    score, di, j = best
    counts = (int(k1[j]), int(k2[j])) if di == 0 else (int(k2[j]), int(k1[j]))
    # the delta event: the largest predicted lower bound on p - e^(eps d) q at the estimation size (the
    # hockey-stick set {L > eps d} is where it peaks; as the delta events of the scalar audit)
    dbest = (-math.inf, 0, 0)
    if math.isfinite(c_ratio):
        for dd_, (a_, b_) in enumerate([(k1, k2), (k2, k1)][:ndir]):
            pa, pb = a_ / n_sc, b_ / n_sc
            pred = pa - c_ratio * pb - z_est * np.sqrt((pa * (1 - pa) + c_ratio ** 2 * pb * (1 - pb) + 1.0 / n_sc)
                                                       / n_est)
            jd = int(np.argmax(pred))
            if float(pred[jd]) > dbest[0]:
                dbest = (float(pred[jd]), dd_, jd)
    _, ddir, jd = dbest
    dcounts = (int(k1[jd]), int(k2[jd])) if ddir == 0 else (int(k2[jd]), int(k1[jd]))
    return Selection(makers[j](), di, score, counts, int(n_sc[j]), N, SA.shape[1], fam,
                     makers[jd]() if math.isfinite(dbest[0]) else None, ddir, dcounts)
