"""The import boundaries of the house style (STYLE.md, Architecture): the core never needs SymPy; no import
cycles in ``smoothsens_core`` and ``derivations``; the proof and audit layers never call up into the claims."""

import ast
import pathlib
import re
import subprocess
import sys
import textwrap


def test_core_imports_without_sympy():
    code = textwrap.dedent(
        """
        import sys, importlib, pkgutil
        sys.modules["sympy"] = None  # any `import sympy` now raises ImportError
        import smoothsens_core
        for info in pkgutil.walk_packages(smoothsens_core.__path__, "smoothsens_core."):
            importlib.import_module(info.name)
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("ok")


def test_core_does_not_import_verify_or_derivations():
    code = textwrap.dedent(
        """
        import sys, importlib, pkgutil
        import smoothsens_core
        for info in pkgutil.walk_packages(smoothsens_core.__path__, "smoothsens_core."):
            importlib.import_module(info.name)
        bad = sorted(m for m in sys.modules if m.split(".")[0] in ("verify", "derivations", "sympy"))
        print(bad)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# Textual signatures of the noise densities (see test_one_mpmath_reference_per_density).  ``_V`` is any
# identifier, ``_G`` a numeric Gamma function (mpmath/mp/math/scipy.special; SymPy's ``sp.gamma`` is not one).
_V = r"[A-Za-z_]\w*"
_G = r"(?:\b(?:mpmath|mp|math|special|sc|scipy\.special)\.(?:gamma|loggamma|rgamma|gammaln|lgamma)|\bgammaln|\blgamma)"
DENSITY_SIGNATURES = {
    # c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p)): a Gamma function at 1/p
    "GenCauchy normaliser": rf"{_G}\(\s*1(?:\.0)?\s*/\s*{_V}\s*\)",
    # (1 + |z|^p)^(-theta) or ln(1 + |z|^p): one plus a power of an absolute value
    "GenCauchy kernel": rf"(?:\b1(?:\.0)?\s*\+|log1p\()\s*(?:np\.|mpmath\.|mp\.)?f?abs\([^()]*\)\s*\*\*\s*{_V}",
    # c_nu = Gamma((nu+1)/2) / (sqrt(pi) Gamma(nu/2)): a Gamma function at (nu+1)/2
    "Student's t normaliser": rf"{_G}\(\s*(?:\(\s*{_V}\s*\+\s*1(?:\.0)?\s*\)\s*(?:/\s*2|\*\s*0?\.5)"
                              rf"|0?\.5\s*\*\s*\(\s*{_V}\s*\+\s*1(?:\.0)?\s*\))",
    # (1 + z^2/nu)^(-(nu+1)/2) or ln(1 + z^2/nu): one plus a square over nu
    "Student's t kernel": rf"(?:\b1(?:\.0)?\s*\+|log1p\()\s*(?P<t>{_V})\s*(?:\*\*\s*2|\*\s*(?P=t))\s*/\s*{_V}",
    # e^(-|y - a|/b)/(2b): the exponential of minus an absolute value, halved
    "Laplace density": rf"exp\(\s*-\s*(?:np\.|mpmath\.|mp\.)?f?abs\([^()]*\)\s*(?:/\s*{_V}\s*)?\)\s*/\s*\(?\s*2\b",
    # N = alpha/(2 (2 ((alpha-1)/alpha)^alpha + alpha - 1) s), outer branch (1 - 1/alpha^2)^alpha
    "PolyPlace normaliser": rf"\(\s*\(\s*(?P<a>{_V})\s*-\s*1\s*\)\s*/\s*(?P=a)\s*\)\s*\*\*\s*(?P=a)\b",
    "PolyPlace outer branch": rf"\(\s*1\s*-\s*1\s*/\s*(?P<b>{_V})\s*\*\*\s*2\s*\)\s*\*\*\s*(?P=b)\b",
    # h(z) = 1/(C (|z|^k + l)): one over (a power plus a constant), or its logarithm
    "PowerLaw kernel": rf"(?:\b1(?:\.0)?\s*/|\blog)\s*\(\s*(?:(?:np\.|mpmath\.|mp\.)?f?abs\([^()]*\)|{_V})\s*\*\*\s*{_V}\s*\+\s*{_V}\s*\)",
}


def _sympy_lines(tree, text: str) -> set[int]:
    """Line numbers of SymPy code: statements and functions that use ``sp``/``sympy``, a name imported from
    SymPy, or a module-level name bound to a SymPy object (``ALPHA, S = sp.symbols(...)``; to a fixpoint)."""
    names = {"sp", "sympy"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sympy":
            names |= {a.asname or a.name for a in node.names}

    def uses(node) -> bool:
        return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))

    changed = True
    while changed:
        changed = False
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and uses(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name) and n.id not in names:
                            names.add(n.id)
                            changed = True
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.stmt)) and uses(node):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or node in tree.body:
                lines |= set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def _density_copies(path) -> dict[str, list[int]]:
    """{signature name: line numbers} of the density signatures in the numeric (non-SymPy) code of ``path``."""
    text = path.read_text(encoding="utf-8")
    skip = _sympy_lines(ast.parse(text), text)
    hits: dict[str, list[int]] = {}
    for no, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0]
        if no in skip or not code.strip() or code.lstrip().startswith(("\"", "'")):
            continue
        for name, pattern in DENSITY_SIGNATURES.items():
            if re.search(pattern, code):
                hits.setdefault(name, []).append(no)
    return hits


def test_one_mpmath_reference_per_density():
    """Each noise density is written exactly twice: in the core (``smoothsens_core/distributions/`` and the
    generated ``smoothsens_core/_generated/``) and once, independently, in mpmath in ``verify/reference/``.
    SymPy derivations (``derivations/``) are derivations, not copies.

    Textual signatures (:data:`DENSITY_SIGNATURES`, one or two per family, whatever the variables are
    called): the GenCauchy normaliser (a numeric Gamma function at ``1 / p``) and kernel (``1 + abs(z) ** p``,
    ``log1p(abs(z) ** p)``); Student's c_nu (a Gamma function at ``(nu + 1) / 2``) and kernel
    (``1 + z**2 / nu``, ``log1p(z * z / nu)``); the Laplace density (``exp(-abs(...) / b) / (2 ...)``);
    PolyPlace's normaliser (``((a - 1) / a) ** a``) and outer branch (``(1 - 1 / a**2) ** a``); the PowerLaw
    kernel (``1 / (abs(z) ** k + l)``, ``log(z ** k + l)``).  Any numeric copy of a density needs one of them.
    Comments, docstring lines and SymPy code are not scanned: a statement or function that uses ``sp``/
    ``sympy``, a name imported from SymPy, or a module-level SymPy symbol (``ALPHA``, ``NU``) is a derivation.

    KNOWN lists the deliberate second formulas (printed forms kept next to the claim that shows them
    wrong or checks them) and copies still in other owners' files, each with its reason; an entry must
    be removed once its copy is gone (the test fails on a stale entry)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    KNOWN: dict[str, str] = {
        # deliberate second formula: the printed antiderivatives I1, I2 of 002 App. A (proof of Lemma 13),
        # checked as printed against quadrature of the reference density (claim 002-Lemma-13)
        "verify/claims/sets/derivations_noise.py": "printed 002 App. A antiderivatives I1, I2 (printed form)",
        # the ball-arithmetic (arb) form of PolyPlace for certified enclosures: the mpmath reference is not
        # rigorous, so the certified accountant needs its own interval form (the other families' ball forms
        # live in verify/audit/exact/enclosure.py)
        "verify/accounting/ballforms.py": "PolyPlace in arb ball arithmetic (certified enclosures)",
        # Student's t over arb power series (Taylor models of the Renyi integrand): the enclosure's ball form
        # uses log1p, which arb_series does not have
        "verify/accounting/renyi.py": "Student's t over arb_series (certified Renyi quadrature)",
    }
    found: dict[str, dict[str, list[int]]] = {}
    for folder in ("smoothsens_core", "derivations", "verify", "tests", "examples", "benchmarks"):
        for path in (root / folder).rglob("*.py"):
            rel = path.relative_to(root).as_posix()
            if rel.startswith(("verify/reference/", "smoothsens_core/distributions/", "smoothsens_core/_generated/")):
                continue
            if rel == "tests/test_architecture.py":
                continue
            hits = _density_copies(path)
            if hits:
                found[rel] = hits
    extra = {k: v for k, v in found.items() if k not in KNOWN}
    assert not extra, f"density formulas re-typed outside verify/reference/ (use verify.reference.distributions): {extra}"
    stale = sorted(set(KNOWN) - set(found))
    assert not stale, f"copies gone, remove from KNOWN: {stale}"
    # the signatures do match the reference's own formulas (every family), and no core file is scanned in vain
    ref = _density_copies(root / "verify/reference/distributions.py")
    assert set(ref) == set(DENSITY_SIGNATURES), sorted(set(DENSITY_SIGNATURES) - set(ref))


# ---- the import graph, read from the source (ast): every import statement counts, at module level or
# inside a function, since a function-level import that closes a cycle is a cycle deferred, not removed.

def _module_name(root: pathlib.Path, path: pathlib.Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_graph(root: pathlib.Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """{module: the modules it imports}, for every ``.py`` file under ``root/<package>`` of ``packages``.

    ``import a.b`` and ``from a.b import c`` name the module ``a.b``, and ``a.b.c`` instead when ``c`` is
    itself a module (a file or a package under ``root``); relative imports are resolved against the
    importing module's package.  Importing a submodule does not count as importing its parent package
    (Python runs the parent's ``__init__`` first, but that is not an edge of a cycle).  Only modules under
    ``root`` appear as targets; the standard library and third-party packages are left out."""
    files = {_module_name(root, f): f for pkg in packages for f in (root / pkg).rglob("*.py")}
    known = set(files)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_pkg = path.name == "__init__.py"
        package = name if is_pkg else name.rpartition(".")[0]
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = package.split(".")
                    base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            else:
                continue
            out |= {t for t in targets if t in known and t != name}
        graph[name] = out
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_import_cycle_finder_sees_a_function_level_cycle(tmp_path):
    # the shape of the former engine <-> engine_piecewise cycle: a module-level import one way, a
    # function-level import of a private name the other way; a package __init__ re-exporting its submodule
    # (pkg/__init__ -> pkg.sub) is no cycle by itself, but the submodule importing a name from it is
    (tmp_path / "lib" / "pkg").mkdir(parents=True)
    (tmp_path / "lib" / "__init__.py").write_text("")
    (tmp_path / "lib" / "a.py").write_text("from lib.b import g\n")
    (tmp_path / "lib" / "b.py").write_text("def g():\n    from lib.a import _h  # noqa: PLC0415\n    return _h\n")
    (tmp_path / "lib" / "c.py").write_text("from . import a\n")
    (tmp_path / "lib" / "pkg" / "__init__.py").write_text("from .sub import f\nX = 1\n")
    (tmp_path / "lib" / "pkg" / "sub.py").write_text("def f():\n    from . import X\n    return X\n")
    (tmp_path / "lib" / "pkg" / "ok.py").write_text("from .sub import f\n")
    graph = _import_graph(tmp_path, ("lib",))
    assert graph["lib.c"] == {"lib.a"} and graph["lib.pkg.ok"] == {"lib.pkg.sub"}
    assert _cycles(graph) == [["lib.a", "lib.b"], ["lib.pkg", "lib.pkg.sub"]]


def test_no_import_cycles_in_core_and_derivations():
    """No two modules of ``smoothsens_core`` and ``derivations`` import each other, directly or through others
    (function-level imports included): a cycle makes the import order matter and hides which module is
    the lower layer."""
    root = pathlib.Path(__file__).resolve().parents[1]
    cycles = _cycles(_import_graph(root, ("smoothsens_core", "derivations")))
    assert not cycles, f"import cycles (modules that import each other, directly or through others): {cycles}"


def test_no_import_cycles_in_the_proof_layer_and_the_claims():
    """No two modules of ``verify.proof`` (prove and re-check) or of ``verify.claims`` (the claims, their
    registry and the claim sets) import each other, directly or through others, function-level imports
    included: a piece two modules share lives in a module below both (``verify.proof.obligation_types``,
    ``verify.proof.kde_chord``; ``verify.claims.registry`` for the claim-level re-check)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    # the whole of verify, so that a cycle through a module outside the two packages is seen too
    cycles = [c for c in _cycles(_import_graph(root, ("verify",)))
              if any(m.split(".")[:2] in (["verify", "proof"], ["verify", "claims"]) for m in c)]
    # the one cycle still open: the compiled ball evaluator imports the interpreter's arb primitives, and
    # the interpreter imports the compiler back inside a function; it must go (the test then asks to drop it)
    known = [["verify.proof.ball_compile", "verify.proof.ball_eval"]]
    stale = [c for c in known if c not in cycles]
    assert not stale, f"cycles gone, remove from known: {stale}"
    cycles = [c for c in cycles if c not in known]
    assert not cycles, f"import cycles (modules that import each other, directly or through others): {cycles}"


def test_proof_and_audit_never_import_claims():
    """The layers call down only: ``verify.proof`` (prove and re-check) and ``verify.audit`` (the auditors)
    never import ``verify.claims`` (the verdicts built on them), not even inside a function."""
    root = pathlib.Path(__file__).resolve().parents[1]
    graph = _import_graph(root, ("verify",))
    bad = {m: sorted(t for t in targets if t == "verify.claims" or t.startswith("verify.claims."))
           for m, targets in graph.items()
           if m.split(".")[:2] in (["verify", "proof"], ["verify", "audit"])}
    bad = {m: t for m, t in bad.items() if t}
    assert not bad, f"verify.proof / verify.audit modules importing verify.claims: {bad}"

