"""Grid PLDs of the smooth-sensitivity families (GenCauchy, Student t, PolyPlace; shifted and dilated pairs) and
the composition of a calibrated Student t mechanism.

References:
* the single-mechanism hockey-stick enclosure of PrivacyCurve.delta (verify.audit.exact.enclosure, an
  independent route: root isolation of the loss minus eps, not loss cells);
* an mpmath quadrature written here from the definition delta(eps) = max over both directions of
  P(S) - e^eps Q(S), S = {ln p - ln q > eps}: the roots of ln p - ln q - eps found by a sign scan on 241 points
  y = c + sinh(t) and mpmath.findroot (30 digits), the masses P(S), Q(S) from the tails of the mpmath reference
  laws of verify.reference.distributions (regularised incomplete beta, PolyPlace's closed tail);
* the composition of k eps0-DP mechanisms is (k eps0)-DP (Dwork & Roth 2014, Thm. 3.14): delta(k eps0) = 0;
  and it is (eps', delta')-DP with eps' = sqrt(2 k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1) (Dwork, Rothblum &
  Vadhan 2010, advanced composition), so a certified lower end above delta' there would be wrong.
"""

from __future__ import annotations

import math

import mpmath
import pytest

from smoothsens_core.calibration import calibrate_laplace_approx, calibrate_student_t
from smoothsens_core.distributions import GenCauchy, PolyPlace, StudentT
from verify.accounting import PrivacyCurve, compose, from_curve
from verify.accounting.ballforms import output_law
from verify.reference.distributions import reference_for

DPS = 30
H = 4e-2


def _laws(curve: PrivacyCurve) -> tuple[object, object]:
    sh = dict(curve.shape)
    s, d, r = curve.scale, curve.sensitivity, curve.ratio
    if curve.family == "gencauchy":
        return GenCauchy(sh["p"], sh["theta"], scale=s), GenCauchy(sh["p"], sh["theta"], loc=d, scale=s * r)
    if curve.family == "student_t":
        return StudentT(sh["nu"], scale=s), StudentT(sh["nu"], loc=d, scale=s * r)
    return PolyPlace(s, sh["alpha"]), PolyPlace(s * r, sh["alpha"], loc=d)


def _hockey_stick(P: object, Q: object, eps: float, centre: float) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        e = mpmath.mpf(eps)

        def g(y: mpmath.mpf) -> mpmath.mpf:
            return P.logpdf(y) - Q.logpdf(y) - e  # type: ignore[attr-defined]

        ts = mpmath.linspace(-mpmath.asinh(1e6), mpmath.asinh(1e6), 241)
        ys = [centre + mpmath.sinh(t) for t in ts]
        vals = [g(y) for y in ys]
        roots = [mpmath.findroot(g, (ys[i], ys[i + 1]), solver="anderson")
                 for i in range(len(ys) - 1) if (vals[i] > 0) != (vals[i + 1] > 0)]
        pts = [-mpmath.inf, *roots, mpmath.inf]
        total = mpmath.mpf(0)
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            mid = (a + b) / 2 if mpmath.isfinite(a) and mpmath.isfinite(b) else (b - 1 if mpmath.isfinite(b) else a + 1)
            if g(mid) > 0:
                total += P.interval_mass(a, b) - mpmath.exp(e) * Q.interval_mass(a, b)  # type: ignore[attr-defined]
        return total


def _truth(curve: PrivacyCurve, eps: float) -> mpmath.mpf:
    p, q = _laws(curve)
    P, Q = reference_for(p), reference_for(q)
    c = curve.sensitivity / 2
    return max(_hockey_stick(P, Q, eps, c), _hockey_stick(Q, P, eps, c))


# GenCauchy's heavier tails make its PLD the slowest to build (~2 s): it runs in the long suite; the PolyPlace
# shift pair exercises the same route (loss cells of a shift pair) in the default run
CURVES = [pytest.param(PrivacyCurve.gencauchy(4.0, 1.0, 2.0), marks=pytest.mark.long, id="gencauchy"),
          pytest.param(PrivacyCurve.polyplace(3.0, 2.0), id="polyplace"),
          pytest.param(PrivacyCurve.student_t(3.0, 2.0, 1.0, ratio=1.1), id="student_t-dilated"),
          pytest.param(PrivacyCurve.polyplace(3.0, 2.0, ratio=1.2), id="polyplace-dilated")]


@pytest.mark.parametrize("curve", CURVES)
def test_smooth_family_pld_encloses_quadrature_and_meets_the_hockey_stick(curve: PrivacyCurve) -> None:
    pld = from_curve(curve, H)
    eps = 0.3
    enc, single = pld.delta(eps), curve.delta(eps)
    assert 0 < enc.lower <= enc.upper
    assert enc.upper >= single.lower and enc.lower <= single.upper
    truth = _truth(curve, eps)
    with mpmath.workdps(DPS):
        assert mpmath.mpf(enc.lower) <= truth <= mpmath.mpf(enc.upper), (enc.lower, truth, enc.upper)
    assert enc.relative_width() < 3e-2


def test_polyplace_curve_encloses_quadrature() -> None:
    curve = PrivacyCurve.polyplace(4.0, 1.5, ratio=1.1)
    for eps in (0.9,):
        enc = curve.delta(eps)
        truth = _truth(curve, eps)
        with mpmath.workdps(DPS):
            assert enc.certified and mpmath.mpf(enc.lower) <= truth <= mpmath.mpf(enc.upper)
        assert enc.relative_width() < 1e-9


def test_polyplace_ball_form_encloses_the_reference() -> None:
    noise = PolyPlace(1.5, 3.0)
    law = output_law(noise, 0.2, 1.0)
    ref = reference_for(PolyPlace(1.5, 3.0, loc=0.2))
    arb = pytest.importorskip("flint").arb
    with mpmath.workdps(30):
        for y in (-4.0, -0.1, 0.2, 0.55, 0.9, 30.0):
            lp = law.logpdf(arb(y))
            assert lp.contains(arb(str(ref.logpdf(y)))) or abs(float(lp.mid()) - float(ref.logpdf(y))) < 1e-25
            sf = law.sf(y)
            assert abs(float(sf.mid()) - float(ref.sf(y))) <= 1e-14 * float(ref.sf(y)) + float(sf.rad())


def test_calibrated_student_t_composition_is_ordered_and_respects_composition_theorems() -> None:
    cal = calibrate_student_t(1.0, nu=3.0)          # 004 Lemma 3.5: eps = 1 (pure)
    curve = PrivacyCurve.from_calibration(cal)
    assert curve.ratio == pytest.approx(math.exp(cal.gamma)) and curve.scale == pytest.approx(1 / cal.eta)
    k = 10
    pld = compose(curve, k=k, h=5e-2)
    for eps in (1.0, 3.0, 5.0):
        enc = pld.delta(eps)
        assert 0 < enc.lower <= enc.upper < 1
    assert pld.delta(k * 1.0).lower == 0 and pld.delta(k * 1.0).upper < 1e-20      # k eps0-DP
    d_prime = 1e-3
    eps_prime = math.sqrt(2 * k * math.log(1 / d_prime)) + k * math.expm1(1.0)
    assert pld.delta(min(eps_prime, 9.0)).lower <= d_prime
    single = from_curve(curve, 5e-2)
    assert pld.delta(1.0).lower >= single.delta(1.0).lower                     # more releases, more delta


def test_from_calibration_rejects_other_families() -> None:
    with pytest.raises(ValueError, match="calibration"):
        PrivacyCurve.from_calibration(calibrate_laplace_approx(1.0, 1e-6))


def test_plot_marks_the_claim_with_its_verdict() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - after the backend is chosen

    curve = PrivacyCurve.laplace(1.0)
    fig, ax = plt.subplots()
    assert curve.plot(ax=ax, claim=(0.5, 0.3)) is ax            # delta(0.5) = 1 - e^(-1/4) = 0.221 <= 0.3
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("holds" in t for t in labels)
    ax2 = PrivacyCurve.laplace(1.0).plot(claim=(0.5, 0.1))      # 0.221 > 0.1: refuted by the lower end
    assert any("fails" in t.get_text() for t in ax2.get_legend().get_texts())
    plt.close("all")


def test_to_dp_accounting_round_trip_of_a_composed_smooth_pld() -> None:
    pytest.importorskip("dp_accounting")
    ours = from_curve(PrivacyCurve.polyplace(3.0, 2.0, ratio=1.2), 0.1)
    theirs = ours.to_dp_accounting()
    for eps in (0.0, 0.5, 1.0):                       # one mechanism: the same masses, the same delta
        assert theirs.get_delta_for_epsilon(eps) == pytest.approx(ours.delta(eps).upper, rel=1e-9)
    twice_ours, twice_theirs = ours.compose(ours), theirs.compose(theirs)
    for eps in (0.5, 1.0):                            # their FFT composition of our upper side
        assert twice_theirs.get_delta_for_epsilon(eps) == pytest.approx(twice_ours.delta(eps).upper, rel=1e-6)
