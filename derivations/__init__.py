"""SymPy derivations of every closed form smoothsens uses, compared with the papers' printed forms.

Each derivation states the paper's printed form, derives its own from the definition with SymPy,
compares the two (symbolically, else with mpmath at >= 50 digits), and exposes the result as a
comparison the claim registry of ``verify`` turns into a verdict.  ``derivations.codegen`` writes
the core's generated evaluators (``smoothsens_core/_generated/``).
"""
