"""Generated evaluators (smoothsens_core/_generated) against mpmath, and the regeneration check.

Reference values: every generated function is compared with an mpmath evaluation (30 digits) of
THE SAME SymPy expression its derivation hands to the code generator (``codegen_targets()``), at
Hypothesis-drawn points of the function's declared domain (log-uniform for wide positive ranges and
for |z| of the CDFs), plus the edges of that domain (alpha -> 1+, alpha huge, p theta -> 1+, z huge,
z tiny, theta and nu huge).  That expression is the derived one or a rewriting of it proven equal in
the generator (derivations.codegen.prove_rewrite; tests/derivations/test_codegen_provenance.py).
The tolerance is 1e-12 relative; the two stated exceptions are CONDITION_FLOOR (functions that
vanish inside their domain) and results below the smallest normal double.
"""

from __future__ import annotations

import importlib
import inspect
import math
import os
import subprocess
import sys
from functools import lru_cache

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import codegen
from derivations.comparison import to_mpmath
from smoothsens_core._generated import calibration, noise
from smoothsens_core._generated import calibration as c
from smoothsens_core._generated.stationary_004 import kde_psi
from verify.cli import main
from verify.reference.distributions import GenCauchyReference, PolyPlaceReference


@lru_cache(maxsize=None)
def _targets():
    return codegen.discover_targets()


@lru_cache(maxsize=None)
def _functions():
    out = {}
    for gm in _targets():
        for f in gm.functions:
            out[(gm.module, f.name)] = f
    return out


# Every generated evaluator, whichever derivation module produced it (discovered at collection).
FUNCS = sorted(_functions())


def _draw_value(data, lo: float, hi: float, log: bool) -> float:
    if log and lo > 0:
        u = data.draw(st.floats(0.0, 1.0))
        return float(math.exp(math.log(lo) + u * (math.log(hi) - math.log(lo))))
    if lo < 0 < hi and min(-lo, hi) >= 1e6:
        # a symmetric domain over many decades (z of a CDF): log-uniform |z| in [1e-12, hi], either sign
        u = data.draw(st.floats(0.0, 1.0))
        mag = math.exp(math.log(1e-12) + u * (math.log(min(-lo, hi)) - math.log(1e-12)))
        return -mag if data.draw(st.booleans()) else mag
    return data.draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False))


@lru_cache(maxsize=None)
def _mp(module: str, name: str):
    fn = _functions()[(module, name)]
    return to_mpmath(fn.expr, fn.args)


def _reference(fn, args, module):
    """mpmath value of the expression at the (float) arguments.  mpmath evaluates some pieces with
    cancellation at its working precision (e.g. the complement incomplete beta as 1 - I_t, which
    is 1e-189 at z = -0.3, p = 2, theta = 5000), so the precision is doubled from 30 digits until
    two successive values agree to 1e-20 relative."""
    f = _mp(module, fn.name)
    prev = None
    for dps in (30, 60, 120, 240, 480, 960):
        with mpmath.workdps(dps):
            v = f(*[mpmath.mpf(a) for a in args])
            if isinstance(v, mpmath.mpc):
                v = v.real
            if prev is not None and (v == prev or abs(v - prev) <= mpmath.mpf(10) ** -20 * abs(v)):
                break
            prev = v
    return float(v) if mpmath.isfinite(v) else (math.inf if v > 0 else -math.inf)


#: Where 1e-12 relative accuracy is impossible in float64, and why.  These functions VANISH on a
#: curve inside their domain (a simple zero of the exact function): near it the relative
#: condition number sum_i |x_i df/dx_i| / |f| is unbounded, so rounding the arguments to float64
#: alone changes f by ~2^-53 sum_i |x_i df/dx_i| (absolute).  For them the test allows, on top of
#: 1e-12 |f|, 8 times that input-rounding error (computed from the mpmath reference).  Everywhere
#: else, and for every function not listed, the test is purely relative: 1e-12 |f|.
CONDITION_FLOOR = {
    "gencauchy_log_normaliser": "ln c_{p,theta} = 0 where c = 1 (e.g. large theta, p ~ 12)",
    "polyplace_log_normaliser": "ln N_{s,alpha} = 0 where N = 1 (s of order alpha/(2D))",
    "kde_psi": "psi = 0 on the partner curve a = alpha(b) (the root kde.py solves for)",
    "kde_chi": "chi = 0 on the partner curve near a = 1/b",
    "kde_log_slope": "D = 0 where a e^{-a^2/2} = b e^{-b^2/2} (inside the domain)",
    "eta_gencauchy_gp": "eta = 0 at gamma = gamma_max (eps - m max(1, p theta - 1) gamma cancels)",
    "eta_student_t_gp": "eta = 0 at gamma = gamma_max (eps - nu gamma cancels)",
    "eta_laplace_gl": "eta = 0 at gamma = gamma_max (eps + gamma ln delta cancels)",
    "eta_gencauchy_nrs07": "eta = 0 at gamma = gamma_max (eps - (p + 1) gamma cancels)",
    "eta_student_t_bs19": "eta = 0 at gamma = gamma_max (eps - (nu + 1) gamma cancels)",
    "eta_laplace_nrs07": "eta = 0 at gamma = gamma_max (eps - gamma ln(2/delta) cancels)",
}
#: float64 has fewer than 53 significant bits below the smallest normal number: a result there
#: (a CDF deep in the tail) can only be asked to be right to within that threshold.
SMALLEST_NORMAL = 2.2250738585072014e-308
_U = 2.0**-53


def _input_rounding_error(fn, args, module) -> float:
    """2^-53 sum_i |x_i df/dx_i| at ``args`` (mpmath, 30 digits, numerical derivatives)."""
    f = _mp(module, fn.name)
    total = mpmath.mpf(0)
    with mpmath.workdps(30):
        xs = [mpmath.mpf(a) for a in args]
        for i, x in enumerate(xs):
            if x == 0:
                continue

            def g(t, i=i):
                ys = list(xs)
                ys[i] = t
                v = f(*ys)
                return v.real if isinstance(v, mpmath.mpc) else v

            total += abs(x * mpmath.diff(g, x))
    return float(total) * _U


def _assert_close(fn, args, got, ref, module):
    if math.isinf(ref):
        assert got == ref, (fn.name, args, got, ref)
        return
    tol = fn.rtol * abs(ref)
    if fn.name in CONDITION_FLOOR:
        tol += 8.0 * _input_rounding_error(fn, args, module)
    if abs(ref) < SMALLEST_NORMAL:
        tol = max(tol, SMALLEST_NORMAL)
    assert abs(got - ref) <= tol, f"{fn.name}{tuple(args)}: generated {got!r}, mpmath {ref!r}, rel {abs(got-ref)/max(abs(ref),1e-300):.3g}"


def _generated(module: str, name: str):
    return getattr(importlib.import_module(f"smoothsens_core._generated.{module}"), name)


def _valid(fn, args) -> bool:
    """Parameter constraints that couple arguments (p theta > 1 for GenCauchy).

    Random points keep p theta >= 1.01 (and p theta away from 3 by 1% for the variance): as
    p theta -> k the value depends on theta - k/p, whose condition number ~ 1/(p theta - k)
    amplifies the rounding of p theta itself; the exact edge theta = 1 (p - k exact) is tested
    in test_generated_matches_mpmath_at_domain_edges."""
    d = dict(zip([a.name for a in fn.args], args, strict=True))
    if fn.name.startswith("gencauchy") and "p" in d and "theta" in d:
        pt = d["p"] * d["theta"]
        if fn.name == "gencauchy_variance" and abs(pt - 3.0) < 0.03:
            return False
        return pt > 1.01
    return True


def test_every_generated_function_is_relative_1e12():
    """No generated evaluator is granted a looser relative tolerance than 1e-12."""
    assert all(f.rtol <= 1e-12 for f in _functions().values())
    assert set(CONDITION_FLOOR) <= {name for _, name in FUNCS}


@pytest.mark.parametrize("module,name", FUNCS)
@settings(max_examples=12)
@given(data=st.data())
def test_generated_matches_mpmath_property(module, name, data):
    fn = _functions()[(module, name)]
    args = []
    for a in fn.args:
        lo, hi = fn.domain[a.name]
        args.append(_draw_value(data, lo, hi, a.name in fn.log_args))
    if not _valid(fn, args):
        return
    got = float(_generated(module, name)(*args))
    _assert_close(fn, args, got, _reference(fn, args, module), module)


EDGES = {
    "polyplace_log_normaliser": [(1.0, 1.0 + 1e-9), (1.0, 1.0 + 2.83e-9), (1.0, 1.0 + 1e-4), (2.5, 1e8), (1e-6, 3.0),
                                 (1e6, 1e5), (1.0, 2.0 - 1e-12), (1.0, 2.0)],
    "polyplace_variance": [(1.0, 2.0 + 1e-9), (1.0, 2.0 + 1e-5), (3.0, 1e8), (1.0, 1.5), (1e-3, 1e4)],
    "polyplace_log_tail_constant": [(1.0 + 1e-9,), (1.0 + 2.83e-9,), (1.5,), (2.0,), (1e8,)],
    "polyplace_inner_constant": [(1.0 + 1e-9,), (1.0 + 2.83e-9,), (1.5,), (2.0,), (1e8,)],
    "gencauchy_cdf": [(1e30, 4.0, 1.0), (-1e30, 4.0, 1.0), (-1e6, 2.0, 1.0), (1e-12, 4.0, 1.0), (-1e-12, 4.0, 1.0),
                      (-1e-5, 4.0, 1.0), (-0.999, 4.0, 1.0), (-3.0, 1.0 + 1e-6, 1.0), (0.0, 4.0, 1.0),
                      (-50.0, 0.5, 2.5), (-0.3, 2.0, 5000.0), (0.3, 2.0, 5000.0), (-1e30, 20.0, 0.06),
                      (-1e20, 20.0, 0.06), (-3.0e29, 8.0, 1.3)],
    "gencauchy_log_normaliser": [(1.0 + 1e-6, 1.0), (0.5, 2.0 + 1e-6), (50.0, 200.0), (3.0, 1e4), (3.0, 1e6),
                                 (2.0, 10.0 + 0.5), (0.5, 12.0)],
    "gencauchy_variance": [(3.0 + 1e-6, 1.0), (4.0, 1.0), (3.0, 1.0), (2.0, 1.5 + 1e-6), (50.0, 200.0), (3.0, 1e6)],
    "gencauchy4_cdf": [(1e-12,), (-1e-12,), (0.0,), (1e6,), (-1e6,), (-1e3,), (-30.0,), (-1.0,), (-1.0 - 1e-12,),
                       (-0.3,), (-1e100,), (1e100,)],
    "student_t_log_normaliser": [(0.05,), (1.0,), (19.999,), (20.0,), (200.0,), (1e4,), (1155444.2,), (1e8,), (1e12,)],
    "student_t_variance": [(2.0 + 1e-9,), (2.0,), (1e8,)],
    "eps_laplace_gl": [(1e-6, 1.0, 1e-300), (1.0, 1.0, 1.0 - 1e-9)],
    "delta_laplace_gl": [(1e-3, 1.0, 50.0), (10.0, 1e-6, 1.0)],
    "admissible_beta_000": [(1.0, 1.0 + 1e-6), (1.0, 2.0), (1.0, 1.5), (1.0, 50.0)],
    "admissible_beta_000_printed": [(1.0, 1.0 + 1e-6), (1.0, 2.0), (1.0, 1.5)],
    "admissible_alpha_000": [(1.0, 1.0 + 1e-6, 1.0), (1.0, 50.0, 1e6)],
    "eps_gencauchy_gp": [(0.1, 0.5, 4.0, 1.0, 1.0), (0.1, 0.5, 1.5, 1.0, 1.0), (1e-6, 1e-6, 1.0 + 1e-6, 1.0, 100.0)],
    "eps_student_t_gp": [(0.1, 0.5, 4.0), (0.1, 0.5, 1.0 + 1e-6)],
    "eps_student_t_bs19": [(0.1, 0.5, 4.0)],
    "eps_gencauchy_nrs07": [(0.1, 0.5, 4.0)],
    "eta_gencauchy_gp": [(1.4396757, 0.1, 4.0, 1.0, 1.0)],
    "eta_student_t_gp": [(1.025, 0.1, 4.0)],
    # psi near the diagonal a = b (the series branch): no cancellation floor applies there
    "kde_psi": [(0.3, 0.3 + 1e-7), (0.99, 0.99 - 1e-4), (1.2, 1.2 + 0.05), (0.5, 0.5 - 0.06), (1.5, 1.5 - 1e-3)],
    "kde_chi": [(0.01, 40.0), (1.0, 2.0)],
    "kde_log_slope": [(1.05, 0.05), (1.55, 0.9)],
}


@pytest.mark.parametrize("module,name", [f for f in FUNCS if f[1] in EDGES])
def test_generated_matches_mpmath_at_domain_edges(module, name):
    fn = _functions()[(module, name)]
    g = _generated(module, name)
    for args in EDGES.get(name, []):  # functions of other derivation modules are covered by the property test
        got = float(g(*args))
        _assert_close(fn, args, got, _reference(fn, args, module), module)


@pytest.mark.parametrize("a,b", [(0.3, 0.3 + 1e-7), (0.99, 0.99 - 1e-4), (1.2, 1.25), (0.5, 0.44), (0.05, 0.0501)])
def test_generated_psi_is_relative_accurate_near_the_diagonal(a, b):
    """Near a = b, psi ~ (a - b)^2 (1 - a^2)/2 is not near a root of psi's zero curve: the
    series branch keeps 1e-12 RELATIVE accuracy there (no condition floor).  Reference: mpmath
    (40 digits) of log(1 + a(a - b)) + (b^2 - a^2)/2, the derived psi."""
    with mpmath.workdps(40):
        A, B = mpmath.mpf(a), mpmath.mpf(b)
        ref = mpmath.log(1 + A * (A - B)) + (B**2 - A**2) / 2
    assert abs(float(kde_psi(a, b)) - float(ref)) <= 1e-12 * abs(float(ref))


def test_generated_gencauchy4_tail_against_quadrature():
    """004 App. C.1 lower tail, independent of SymPy: F(z) = int_{-inf}^z (sqrt2/pi)/(1+t^4) dt by
    mpmath quadrature (50 digits).  The printed closed form loses ~3 log10|z| digits here
    (relative error 1.0 at z = -1e6 in float64); the generated form keeps 1e-15."""
    with mpmath.workdps(50):
        for z in (-1e6, -1e3, -30.0, -4.0, -1.0 - 1e-9, -1.0):
            ref = mpmath.quad(lambda t: mpmath.sqrt(2) / mpmath.pi / (1 + t**4), [-mpmath.inf, 10 * z, z])
            assert abs(float(noise.gencauchy4_cdf(z)) - ref) <= 1e-15 * ref, z
            assert abs(float(noise.gencauchy_cdf(z, 4.0, 1.0)) - ref) <= 1e-14 * ref, z


def test_square_powers_prints_cubes_and_fourth_powers_as_squares_bit_for_bit():
    """``GeneratedFunction.square_powers``: x^4 -> numpy.square(numpy.square(x)), x^3 -> (x^2) x, in
    numerators and denominators; other powers, and every power without the option, print as before."""
    z, a = sp.symbols("z a")
    on, off = codegen._Printer(square_powers=True), codegen._Printer()
    assert on.doprint(-1 / z**4) == "-1/numpy.square(numpy.square(z))"
    assert on.doprint(a / z**3) == "a/(numpy.square(z)*z)"
    assert on.doprint((z + 1) ** 3) == "(numpy.square(z + 1)*(z + 1))"
    assert on.doprint(z**2) == off.doprint(z**2) == "z**2"
    assert on.doprint(z**5) == off.doprint(z**5) == "z**5"
    assert off.doprint(-1 / z**4) == "-1/z**4"
    x = np.random.default_rng(3).lognormal(0.0, 20.0, 10_000)
    ns = {"numpy": np, "z": x}
    assert np.array_equal(eval(on.doprint(z**4), ns), (x * x) * (x * x))  # noqa: S307 - printed code
    assert np.array_equal(eval(on.doprint(z**3), ns), (x * x) * x)  # noqa: S307


def test_render_module_prints_a_repeated_formula_of_one_derivation_once():
    """A function whose formula (after CSE, arguments renamed by position) repeats an earlier one of
    the same derivation calls it instead of printing it again (gamma_max of [NRS07] and [BS19] are
    both eps/(k + 1)); the same formula from another derivation, or a different one, is printed."""
    e, k, nu, g = sp.symbols("eps k nu gamma", positive=True)
    f = codegen.GeneratedFunction
    one = codegen.GeneratedModule("m", "derivations.a", (f("ga", (e, k), e / (k + 1), "A."), f("gb", (e, nu), e / (nu + 1), "B."),
                                                          f("gc", (e, nu), e / (nu + 2), "C.")))
    other = codegen.GeneratedModule("m", "derivations.b", (f("gd", (e, g), e / (g + 1), "D."),))
    src = codegen.render_module("m", [one, other])
    assert "def gb(eps, nu):" in src and "    return ga(eps, nu)" in src and "(The formula of ga.)" in src
    assert "    return eps/(nu + 2)" in src and "    return eps/(gamma + 1)" in src
    ns: dict = {}
    exec(compile(src, "m.py", "exec"), ns)  # noqa: S102 - generated code
    x, y = np.array([0.3, 7.0]), np.array([2.0, 1e-3])
    assert np.array_equal(ns["gb"](x, y), ns["ga"](x, y)) and np.array_equal(ns["gb"](x, y), x / (y + 1))


def test_generated_gencauchy4_cdf_tail_uses_no_pow():
    """The (4, 1) CDF's tail is printed with squares (NumPy's x**4 and x**3 call pow, 30 times the
    cost of a square), and the core's masked evaluator repeats it bit for bit
    (tests/core/test_distributions_gencauchy.py)."""

    src = inspect.getsource(noise.gencauchy4_cdf)
    assert "**4" not in src and "**3" not in src
    assert "numpy.square(numpy.square(z))" in src


def test_generated_functions_broadcast_and_return_scalars():
    s = np.array([[1.0], [2.0]])
    a = np.array([3.0, 4.0, 5.0])
    v = noise.polyplace_variance(s, a)
    assert v.shape == (2, 3)
    assert np.allclose(v[1], 4 * v[0])  # Var scales with s^2
    assert isinstance(noise.gencauchy_variance(4.0, 1.0), np.floating)
    assert calibration.eps_gencauchy_gp(0.1, 0.5, np.array([4.0, 5.0]), 1.0, 1).shape == (2,)


def test_generated_examples_from_004_remark():
    """004 Remark after Lemma 3.5: gamma = 0.1, eta = 0.5, p = 4 = nu: Lemma 3.3 gives ~1.44
    (0.3 + 3^(3/4)/2 = 1.43968...), NRS07 3, Lemma 3.5 1.025, BS19 1.125 (hand arithmetic)."""
    assert c.eps_gencauchy_gp(0.1, 0.5, 4.0, 1.0, 1) == pytest.approx(0.3 + 3 ** 0.75 / 2, rel=1e-14)
    assert round(float(c.eps_gencauchy_gp(0.1, 0.5, 4.0, 1.0, 1)), 2) == 1.44
    assert c.eps_gencauchy_nrs07(0.1, 0.5, 4.0) == pytest.approx(3.0, rel=1e-14)
    assert c.eps_student_t_gp(0.1, 0.5, 4.0) == pytest.approx(1.025, rel=1e-14)
    assert c.eps_student_t_bs19(0.1, 0.5, 4.0) == pytest.approx(1.125, rel=1e-14)


def test_generated_values_against_independent_quadrature():
    """Independent of SymPy: mpmath quadrature (30 digits) of the printed densities of
    :mod:`verify.reference.distributions` (002 Def. 6, 004 Sec. 2.1); the CDF is the quadrature
    int_{-inf}^z h of the density (the definition), not the reference's incomplete-beta form."""
    with mpmath.workdps(30):
        polyplace = PolyPlaceReference(1.3, 5.0)
        var_q = polyplace.integrate(-mpmath.inf, mpmath.inf, weight=lambda x: x**2)
        assert float(noise.polyplace_variance(1.3, 5.0)) == pytest.approx(float(var_q), rel=1e-12)
        gencauchy = GenCauchyReference(5.0, 1.2)
        var_g = gencauchy.integrate(-mpmath.inf, mpmath.inf, weight=lambda z: z**2)
        assert float(noise.gencauchy_variance(5.0, 1.2)) == pytest.approx(float(var_g), rel=1e-12)
        g3, g4 = GenCauchyReference(3.0, 1.5), GenCauchyReference(4.0, 1.0)
        for z in (-7.5, -0.4, 0.9, 12.0):
            assert float(noise.gencauchy_cdf(z, 3.0, 1.5)) == pytest.approx(float(g3.integrate(-mpmath.inf, z)), rel=1e-12)
            assert float(noise.gencauchy4_cdf(z)) == pytest.approx(float(g4.integrate(-mpmath.inf, z)), rel=1e-12)


def test_codegen_is_deterministic_and_committed_files_are_current():
    """Rendering twice gives identical text, and the committed files equal a fresh rendering."""
    first = codegen.render_all(_targets())
    second = codegen.render_all(_targets())
    assert first == second
    ok, report = codegen.check_generated(targets=_targets())
    assert ok, report
    for text in first.values():
        assert "GENERATED FILE - DO NOT EDIT" in text.splitlines()[1]
        assert "sympy" not in "\n".join(l for l in text.splitlines() if l.startswith(("import", "from")))
        assert "lambdify" not in text


def test_regenerate_check_command_passes_on_committed_tree_in_fresh_process():
    """`smoothsens regenerate --check` in a subprocess with another hash seed (determinism across
    processes) exits 0 on the committed tree."""
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-m", "verify.cli", "regenerate", "--check"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "up to date" in out.stdout


def test_regenerate_check_fails_with_diff_when_stale(tmp_path):
    codegen.write_generated(tmp_path, _targets())
    stale = tmp_path / "noise.py"
    stale.write_text(stale.read_text().replace("numpy.log1p", "numpy.log", 1))
    ok, report = codegen.check_generated(tmp_path, _targets())
    assert not ok
    assert "--- " in report and "+++ " in report and "numpy.log1p" in report
    assert "smoothsens regenerate" in report


def test_regenerate_cli_writes_into_out_dir_and_check_exit_codes(tmp_path):
    assert main(["regenerate", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.py")) == ["calibration.py", "noise.py"] or (tmp_path / "noise.py").exists()
    assert main(["regenerate", "--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "calibration.py").write_text("# stale\n")
    assert main(["regenerate", "--check", "--out", str(tmp_path)]) == 1


def test_codegen_refuses_duplicate_function_names():
    x = sp.Symbol("x")
    f = codegen.GeneratedFunction("f", (x,), x, "doc")
    with pytest.raises(ValueError, match="produced by both"):
        codegen.collect_modules([codegen.GeneratedModule("m", "a", (f,)), codegen.GeneratedModule("m", "b", (f,))])
