"""The import boundary of the house style: the core never needs SymPy (STYLE.md, Architecture)."""

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
