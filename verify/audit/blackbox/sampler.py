"""Black-box goodness-of-fit audit of a sampler against a core noise distribution.

Null hypothesis H0: the draws of ``sampler`` are iid with the exact CDF F of ``distribution`` (a
:mod:`smoothsens_core.distributions` object, e.g. Laplace of 004 Sec. 2.1, GenCauchy of 004
Sec. 2.1 / App. C.1, Student's t of 004 Sec. 2.1, PolyPlace of 002 Def. 6).  The tests, each with
a p-value that is valid (super-uniform) under H0:

* Kolmogorov-Smirnov: D = sup_x |F_n(x) - F(x)| (scipy.stats.kstest against the exact CDF);
* Anderson-Darling: A^2 = -n - (1/n) sum_i (2i - 1) [ln F(x_(i)) + ln(1 - F(x_(n+1-i)))], tails
  from ``sf`` (no 1 - cdf cancellation); p-value from the limiting law ADinf with the finite-n
  correction errfix of Marsaglia & Marsaglia, "Evaluating the Anderson-Darling distribution",
  J. Stat. Softw. 9(2), 2004 (error below 1e-5 in the p-values used here);
* tail quantiles: for q in ``tail_probs`` (kept when n min(q, 1 - q) >= ``min_tail_count``), the
  count #{x_i <= F^{-1}(q)} ~ Binomial(n, q) under H0, exact two-sided binomial test;
* moments, only where the normal approximation has a Berry-Esseen rate: the mean test
  z = (xbar - mu) sqrt(n) / sigma when E|X|^3 < inf, the variance test
  z = (s^2 - sigma^2) sqrt(n) / sqrt(mu_4 - sigma^4) when E|X|^6 < inf (mu_4 by quadrature of
  the exact density); asymptotic p-values.

Discrete laws (a :class:`smoothsens_core.distributions.DiscreteDistribution`, e.g. the two-sided
geometric of 003 App. A): KS and AD assume a continuous F and are not run.  Instead:

* support: every draw must be an integer of the support (one non-integer draw rejects, p = 0);
* chi-square on the support: cells are the integers from the lower tail to the upper tail, adjacent
  cells pooled (from each end inwards) until every cell expects at least 5 draws, the two tails pooled
  into the end cells; X^2 = sum (O - E)^2 / E against chi^2 with (cells - 1) degrees of freedom (Cochran's
  rule: the asymptotic p-value is accurate when every expected count is >= 5);
* tail quantiles: k_q = F^{-1}(q), the count #{x_i <= k_q} ~ Binomial(n, F(k_q)) exactly (F(k_q) >= q
  for a step function: the exact probability is used, not q);
* moments as above (mu_4 by summing the pmf).

Decision rule: Holm's step-down procedure over the m tests run, at family-wise level
``false_alarm``: sort p_(1) <= ... <= p_(m) and reject H_(i) while p_(i) <= alpha / (m - i + 1).
The sampler fails iff at least one test is rejected; under H0 this happens with probability at
most ``false_alarm`` (exactly for KS and the binomial tests, up to the O(n^-1/2) error of the
asymptotic AD and moment p-values).  A wrong scale or shape moves the bulk or the tails of the
law and is detected by AD/KS (bulk) and the tail-quantile tests (tails).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from scipy import integrate, stats

from smoothsens_core.distributions import DiscreteDistribution
from smoothsens_core.validation import check_integer, check_probability, check_rng

from verify.serialise import jsonable

__all__ = ["SamplerTest", "SamplerAuditReport", "audit_sampler", "anderson_darling_cdf", "anderson_darling_sf",
           "DEFAULT_SAMPLER_BUDGET", "DEFAULT_TAIL_PROBS"]

FloatArray = NDArray[np.float64]
DEFAULT_SAMPLER_BUDGET = 200_000
#: Most draws of one sampler audit: the Kolmogorov-Smirnov and Anderson-Darling tests need the whole
#: sorted sample and its exact CDF and survival function at once (about ten arrays of n doubles: 0.8 GB
#: at 1e7), so the sample is not chunked and its size is capped instead.
MAX_SAMPLER_BUDGET = 10_000_000
DEFAULT_TAIL_PROBS = (1e-4, 1e-3, 1e-2, 0.1, 0.25, 0.75, 0.9, 0.99, 0.999, 1 - 1e-4)


def _adinf(z: float) -> float:
    """ADinf(z) = lim_n P(A_n^2 < z) (Marsaglia & Marsaglia 2004, the two-piece approximation)."""
    if z <= 0.0:
        return 0.0
    if z < 2.0:
        return math.exp(-1.2337141 / z) / math.sqrt(z) * (
            2.00012 + (0.247105 - (0.0649821 - (0.0347962 - (0.011672 - 0.00168691 * z) * z) * z) * z) * z)
    return math.exp(-math.exp(1.0776 - (2.30695 - (0.43424 - (0.082433 - (0.008056 - 0.0003146 * z) * z) * z)
                                        * z) * z))


def _errfix(n: int, x: float) -> float:
    """Finite-n correction of ADinf (Marsaglia & Marsaglia 2004, errfix)."""
    if x > 0.8:
        return (-130.2137 + (745.2337 - (1705.091 - (1950.646 - (1116.360 - 255.7844 * x) * x) * x) * x) * x) / n
    c = 0.01265 + 0.1757 / n
    if x < c:
        t = x / c
        t = math.sqrt(t) * (1.0 - t) * (49.0 * t - 102.0)
        return t * (0.0037 / (n * n) + 0.00078 / n + 0.00006) / n
    t = (x - c) / (0.8 - c)
    t = -0.00022633 + (6.54034 - (14.6538 - (14.458 - (8.259 - 1.91864 * t) * t) * t) * t) * t
    return t * (0.04213 + 0.01365 / n) / n


def anderson_darling_cdf(a2: float, n: int) -> float:
    """P(A_n^2 < a2) for n iid uniforms (fully specified null): ADinf(a2) + errfix(n, ADinf(a2))."""
    x = _adinf(float(a2))
    return min(1.0, max(0.0, x + _errfix(int(n), x)))


def anderson_darling_sf(a2: float, n: int) -> float:
    """P(A_n^2 >= a2) = 1 - ADinf(a2) - errfix(n, ADinf(a2)); for a2 >= 2 the upper tail of ADinf,
    exp(-exp(g)) complemented, is computed as -expm1(-exp(g)) (no cancellation in 1 - ADinf).
    Absolute accuracy about 1e-6 (Marsaglia & Marsaglia 2004), far below the Holm thresholds."""
    z = float(a2)
    x = _adinf(z)
    if z < 2.0:
        tail = 1.0 - x
    else:
        tail = -math.expm1(-math.exp(1.0776 - (2.30695 - (0.43424 - (0.082433 - (0.008056 - 0.0003146 * z) * z)
                                                          * z) * z) * z))
    return min(1.0, max(0.0, tail - _errfix(int(n), x)))


@dataclass(frozen=True)
class SamplerTest:
    """One goodness-of-fit test: its statistic, p-value under H0 and the Holm decision."""

    name: str
    statistic: float
    p_value: float
    detail: str
    rejected: bool = False
    holm_threshold: float = math.nan

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "statistic": self.statistic, "p_value": self.p_value,
                "detail": self.detail, "rejected": self.rejected, "holm_threshold": self.holm_threshold}


@dataclass(frozen=True)
class SamplerAuditReport:
    """Outcome of :func:`audit_sampler`; ``passed`` iff Holm rejects no test and every draw is finite."""

    distribution: str
    n: int
    seed: Any
    false_alarm: float
    tests: tuple[SamplerTest, ...]
    non_finite: int
    calling_convention: str
    notes: tuple[str, ...] = ()
    elapsed: float = 0.0

    @property
    def passed(self) -> bool:
        return self.non_finite == 0 and not any(t.rejected for t in self.tests)

    def summary(self) -> str:
        lines = [f"sampler audit against {self.distribution}: n = {self.n} draws ({self.calling_convention}), "
                 f"{len(self.tests)} tests, Holm at family-wise false-alarm rate {self.false_alarm:g}, "
                 f"{self.elapsed:.1f} s"]
        for t in self.tests:
            mark = "REJECTED" if t.rejected else "ok"
            lines.append(f"  {t.name:<22} stat {t.statistic:<12.5g} p = {t.p_value:<10.3g} {mark:<8} {t.detail}")
        if self.non_finite:
            lines.append(f"  {self.non_finite} draw(s) were not finite numbers")
        for n in self.notes:
            lines.append(f"  note: {n}")
        lines.append("  verdict: " + ("PASS (consistent with the distribution)" if self.passed else "FAIL"))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return jsonable({"kind": "sampler", "distribution": self.distribution, "n": self.n,
                "seed": self.seed if isinstance(self.seed, int) else str(self.seed),
                "false_alarm": self.false_alarm, "decision_rule": "Holm step-down",
                "passed": self.passed, "tests": [t.to_json() for t in self.tests],
                "non_finite": self.non_finite, "calling_convention": self.calling_convention,
                "notes": list(self.notes), "elapsed_s": self.elapsed})


def _tail_order(dist: Any) -> float | None:
    """sup{k : E|X|^k < inf} for the core families (None when unknown): Laplace, Gaussian and the
    geometric laws inf; GenCauchy
    p theta - 1 (density ~ |z|^(-p theta), 004 Sec. 2.1); Student t nu; PolyPlace alpha (density
    ~ |z|^(-alpha-1), 002 Def. 6)."""
    name = type(dist).__name__
    if name in ("Laplace", "Gaussian", "TwoSidedGeometric", "AsymmetricGeometric"):
        return math.inf
    if name == "GenCauchy":
        return float(dist.p) * float(dist.theta) - 1.0
    if name == "StudentT":
        return float(dist.nu)
    if name == "PolyPlace":
        return float(dist.alpha)
    return None


_MOMENT_CACHE: dict[tuple[str, int, float], tuple[float, float]] = {}


def _central_moment(dist: Any, k: int, mu: float) -> tuple[float, float]:
    """E(X - mu)^k by quadrature of the exact density on (-inf, mu] and [mu, inf); (value, abs error).
    Cached per distribution (keyed by its repr, which names the family and every parameter)."""
    key = (f"{type(dist).__module__}.{dist!r}", k, mu)
    if key in _MOMENT_CACHE:
        return _MOMENT_CACHE[key]
    if isinstance(dist, DiscreteDistribution):  # a sum of the pmf over all but 1e-30 of the mass
        lo, hi = float(dist.ppf(1e-30)), float(dist.ppf(0.5))
        while float(dist.sf(hi)) > 1e-30:
            hi += max(1.0, hi - lo)
        j = np.arange(lo, hi + 1.0)
        val = float(np.sum((j - mu) ** k * np.asarray(dist.pmf(j), dtype=float)))
        _MOMENT_CACHE[key] = (val, 1e-12 * abs(val))
        return _MOMENT_CACHE[key]

    def integrand(x: float) -> float:
        return (x - mu) ** k * float(dist.pdf(x))

    a, ea = integrate.quad(integrand, -np.inf, mu, limit=400, epsabs=0.0, epsrel=1e-10)
    b, eb = integrate.quad(integrand, mu, np.inf, limit=400, epsabs=0.0, epsrel=1e-10)
    if len(_MOMENT_CACHE) > 256:
        _MOMENT_CACHE.clear()
    _MOMENT_CACHE[key] = (a + b, ea + eb)
    return a + b, ea + eb


def _draw(sampler: Callable[..., Any], n: int, gen: np.random.Generator,
          probe: np.random.Generator) -> tuple[FloatArray, str]:
    """n draws, detecting the calling convention on a probe of 16 draws (with a separate stream)."""
    errors = []
    for conv in ("sampler(n, rng)", "sampler(rng, n)", "sampler(rng)"):
        try:
            if conv == "sampler(n, rng)":
                out = np.asarray(sampler(16, probe), dtype=float)
            elif conv == "sampler(rng, n)":
                out = np.asarray(sampler(probe, 16), dtype=float)
            else:
                out = np.asarray(sampler(probe), dtype=float)
        except Exception as exc:  # noqa: BLE001 - the probe tries the conventions in turn
            errors.append(f"{conv}: {type(exc).__name__}: {exc}")
            continue
        want = 1 if conv == "sampler(rng)" else 16
        if out.size != want:
            errors.append(f"{conv}: returned shape {out.shape}, expected {want} draw(s)")
            continue
        try:
            if conv == "sampler(n, rng)":
                return np.asarray(sampler(n, gen), dtype=float).reshape(-1), conv
            if conv == "sampler(rng, n)":
                return np.asarray(sampler(gen, n), dtype=float).reshape(-1), conv
            return np.array([float(np.asarray(sampler(gen), dtype=float).reshape(-1)[0]) for _ in range(n)]), conv
        except Exception as exc:
            raise ValueError(f"the sampler raised {type(exc).__name__} when asked for {n} draws as {conv}: {exc}") \
                from exc
    raise TypeError("the sampler must be callable as sampler(n, rng) returning n draws (or sampler(rng, n), "
                    "or sampler(rng) returning one draw); " + "; ".join(errors))


def audit_sampler(
    sampler: Callable[..., Any],
    distribution: Any,
    *,
    budget: int = DEFAULT_SAMPLER_BUDGET,
    rng: np.random.Generator | int = 0,
    false_alarm: float = 1e-3,
    tail_probs: Sequence[float] = DEFAULT_TAIL_PROBS,
    min_tail_count: int = 25,
    progress: Callable[[str], None] | None = None,
) -> SamplerAuditReport:
    """Goodness of fit of a black-box ``sampler`` against ``distribution`` (module docstring).

    ``sampler(n, rng)`` returns n draws using the ``numpy.random.Generator`` rng (``sampler(rng, n)``
    and one draw per ``sampler(rng)`` are accepted too; detected on a probe).  ``distribution`` is
    a core distribution object (needs ``cdf``, ``sf`` and ``ppf``; ``pdf``, ``mean`` and
    ``variance`` for the moment tests).  ``budget`` is the number of draws n, ``false_alarm`` the
    family-wise rate alpha of Holm's rule.  Reproducible from ``rng`` (a Generator or int seed).
    """
    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    if not callable(sampler):
        raise TypeError(f"sampler must be callable; got {type(sampler).__name__}")
    for attr in ("cdf", "ppf"):
        if not callable(getattr(distribution, attr, None)):
            raise TypeError(f"distribution must have an exact {attr}() (a smoothsens_core distribution); "
                            f"got {type(distribution).__name__}")
    n = check_integer("budget", budget, minimum=100)
    if n > MAX_SAMPLER_BUDGET:
        raise ValueError(f"budget must be in [100, {MAX_SAMPLER_BUDGET}] (the tests hold the whole sorted sample "
                         f"in memory, about 80 bytes per draw); got budget={n}")
    alpha = check_probability("false_alarm", false_alarm)
    min_tail_count = check_integer("min_tail_count", min_tail_count, minimum=1)
    probs = [check_probability("tail_probs", p) for p in tail_probs]
    seed = rng if isinstance(rng, (int, np.integer)) else "generator"
    gen = check_rng(rng)
    probe_gen, sample_gen = gen.spawn(2)
    say(f"drawing {n} samples")
    x, conv = _draw(sampler, n, sample_gen, probe_gen)
    notes: list[str] = []
    if x.size != n:
        raise TypeError(f"the sampler returned {x.size} draws for n={n}")
    finite = np.isfinite(x)
    non_finite = int(np.sum(~finite))
    if non_finite:
        notes.append(f"{non_finite} non-finite draw(s), e.g. {x[~finite][0]!r}; tests run on the finite ones")
        x = x[finite]
    m = x.size
    xs = np.sort(x)
    if isinstance(distribution, DiscreteDistribution):
        tests = _discrete_tests(distribution, xs, probs, min_tail_count, notes, say)
        return _holm_report(distribution, tests, alpha, m, seed, non_finite, conv, notes, t0, say)
    sf = getattr(distribution, "sf", None)
    cdf = np.asarray(distribution.cdf(xs), dtype=float)
    upper = np.asarray(sf(xs), dtype=float) if callable(sf) else 1.0 - cdf
    tests = []
    say("Kolmogorov-Smirnov and Anderson-Darling against the exact CDF")
    ks = stats.kstest(xs, lambda v: np.asarray(distribution.cdf(v), dtype=float))
    tests.append(SamplerTest("Kolmogorov-Smirnov", float(ks.statistic), float(ks.pvalue),
                             "D = sup|F_n - F| (scipy.stats.kstest, exact CDF)"))
    tiny = np.finfo(float).tiny
    i = np.arange(1, m + 1)
    a2 = -m - float(np.sum((2 * i - 1) * (np.log(np.maximum(cdf, tiny)) + np.log(np.maximum(upper[::-1], tiny))))) / m
    tests.append(SamplerTest("Anderson-Darling", a2, anderson_darling_sf(a2, m),
                             "A^2, p from ADinf + errfix (Marsaglia & Marsaglia 2004)"))
    say("tail-quantile and moment tests")
    for q in probs:
        if m * min(q, 1 - q) < min_tail_count:
            notes.append(f"tail quantile q={q:g} skipped: expected count n min(q, 1-q) = {m * min(q, 1 - q):.3g} "
                         f"< {min_tail_count}")
            continue
        t = float(np.asarray(distribution.ppf(q), dtype=float))
        k = int(np.searchsorted(xs, t, side="right"))
        bt = stats.binomtest(k, m, q)
        tests.append(SamplerTest(f"quantile q={q:g}", k / m, float(bt.pvalue),
                                 f"#{{x <= F^-1(q) = {t:.6g}}} = {k} of {m}, expected {m * q:.6g} (exact binomial)"))
    tests += _moment_tests(distribution, x, notes)
    return _holm_report(distribution, tests, alpha, m, seed, non_finite, conv, notes, t0, say)


def _moment_tests(distribution: Any, x: FloatArray, notes: list[str]) -> list[SamplerTest]:
    """The mean and variance tests of the module docstring (where the moments they need exist)."""
    tests: list[SamplerTest] = []
    m = x.size
    order = _tail_order(distribution)
    if order is None:
        notes.append(f"moment tests skipped: moment existence unknown for {type(distribution).__name__}")
        return tests
    mu = float(distribution.mean())
    var = float(distribution.variance())
    if order > 3 and math.isfinite(var):
        z = (float(np.mean(x)) - mu) * math.sqrt(m) / math.sqrt(var)
        tests.append(SamplerTest("mean", float(np.mean(x)), float(2 * stats.norm.sf(abs(z))),
                                 f"z = {z:.3g} (expected {mu:.6g}, sd {math.sqrt(var):.6g}; CLT)"))
    else:
        notes.append(f"mean test skipped: needs E|X|^3 < inf (moments of order < {order:g} exist)")
    if order > 6:
        mu4, err = _central_moment(distribution, 4, mu)
        if err < 1e-6 * abs(mu4) and mu4 > var * var:
            s2 = float(np.var(x, ddof=1))
            z = (s2 - var) * math.sqrt(m) / math.sqrt(mu4 - var * var)
            tests.append(SamplerTest("variance", s2, float(2 * stats.norm.sf(abs(z))),
                                     f"z = {z:.3g} (expected {var:.6g}; CLT with mu_4 = {mu4:.6g})"))
        else:
            notes.append(f"variance test skipped: quadrature of mu_4 not accurate (error {err:.3g})")
    else:
        notes.append(f"variance test skipped: needs E|X|^6 < inf (moments of order < {order:g} exist)")
    return tests


def _discrete_cells(dist: Any, m: int, min_expected: float = 5.0) -> tuple[FloatArray, FloatArray]:
    """Right end points r_0 < ... < r_(K-2) of the chi-square cells (-inf, r_0], (r_0, r_1], ...,
    (r_(K-2), inf) on the integers, and their probabilities: single support points where
    m P(K = k) >= ``min_expected``, pooled from each end inwards until every cell expects that much."""
    lo = float(dist.ppf(min_expected / (4.0 * m)))
    hi = float(dist.ppf(0.5))
    while float(dist.sf(hi)) * m > min_expected / 4.0 and hi - lo < 2_000_000:
        hi += max(1.0, hi - lo)
    k = np.arange(lo, hi + 1.0)
    cdf = np.asarray(dist.cdf(k), dtype=float)
    sf_last = float(dist.sf(k[-1]))
    probs = np.concatenate([[cdf[0]], np.diff(cdf), [sf_last]])
    rights = list(k)  # cell i = (rights[i-1], rights[i]]; the last cell (rights[-1], inf)
    cells = [float(v) for v in probs]
    # pool from the left end inwards, then from the right end inwards
    # (pop first, then add: ``cells[1] += cells.pop(0)`` would add to the element after the neighbour)
    while len(cells) > 1 and cells[0] * m < min_expected:
        first = cells.pop(0)
        cells[0] += first
        rights.pop(0)
    while len(cells) > 1 and cells[-1] * m < min_expected:
        last = cells.pop()
        cells[-1] += last
        rights.pop()
    # interior cells below the threshold (multimodal laws): merge with the right neighbour
    i = 0
    while i < len(cells) - 1:
        if cells[i] * m < min_expected:
            small = cells.pop(i)
            cells[i] += small
            rights.pop(i)
        else:
            i += 1
    return np.asarray(rights, dtype=float), np.asarray(cells, dtype=float)


def _discrete_tests(distribution: Any, xs: FloatArray, probs: Sequence[float], min_tail_count: int,
                    notes: list[str], say: Callable[[str], None]) -> list[SamplerTest]:
    """Support, chi-square and tail-count tests of a discrete law (module docstring), plus the moments."""
    m = xs.size
    tests: list[SamplerTest] = []
    with np.errstate(divide="ignore"):
        off = np.asarray(distribution.logpmf(xs), dtype=float) == -np.inf
    bad = int(np.count_nonzero(off))
    tests.append(SamplerTest("support", float(bad), 0.0 if bad else 1.0,
                             f"{bad} draw(s) not integers of the support" + (f", e.g. {xs[off][0]!r}" if bad else "")))
    say("chi-square on the support (pooled tails)")
    rights, cell_p = _discrete_cells(distribution, m)
    counts = np.bincount(np.searchsorted(rights, xs, side="left"), minlength=cell_p.size)
    expected = m * cell_p
    x2 = float(np.sum((counts - expected) ** 2 / expected))
    dof = cell_p.size - 1
    if dof >= 1:
        tests.append(SamplerTest("chi-square", x2, float(stats.chi2.sf(x2, dof)),
                                 f"{cell_p.size} cells (tails pooled, every expected count >= 5), {dof} dof"))
    else:
        notes.append("chi-square skipped: a single cell")
    notes.append("Kolmogorov-Smirnov and Anderson-Darling not run: they assume a continuous CDF")
    for q in probs:
        k_q = float(np.asarray(distribution.ppf(q), dtype=float))
        p_q = float(np.asarray(distribution.cdf(k_q), dtype=float))
        if m * min(p_q, 1 - p_q) < min_tail_count:
            notes.append(f"tail quantile q={q:g} skipped: expected count {m * min(p_q, 1 - p_q):.3g} < {min_tail_count}")
            continue
        k = int(np.searchsorted(xs, k_q, side="right"))
        bt = stats.binomtest(k, m, p_q)
        tests.append(SamplerTest(f"quantile q={q:g}", k / m, float(bt.pvalue),
                                 f"#{{x <= F^-1(q) = {k_q:.6g}}} = {k} of {m}, expected {m * p_q:.6g} = n F(k_q) "
                                 "(exact binomial)"))
    tests += _moment_tests(distribution, xs, notes)
    return tests


def _holm_report(distribution: Any, tests: list[SamplerTest], alpha: float, m: int, seed: Any, non_finite: int,
                 conv: str, notes: list[str], t0: float, say: Callable[[str], None]) -> "SamplerAuditReport":
    # Holm's step-down rule at family-wise level alpha
    mt = len(tests)
    idx = sorted(range(mt), key=lambda j: tests[j].p_value)
    decided = list(tests)
    stop = False
    for rank, j in enumerate(idx):
        thr = alpha / (mt - rank)
        rej = (not stop) and tests[j].p_value <= thr
        stop = stop or not rej
        t = tests[j]
        decided[j] = SamplerTest(t.name, t.statistic, t.p_value, t.detail, rej, thr)
    say("done")
    return SamplerAuditReport(repr(distribution), m, seed, alpha, tuple(decided), non_finite, conv,
                              tuple(notes), time.perf_counter() - t0)
