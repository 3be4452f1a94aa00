"""Evaluators generated from ``derivations`` by ``smoothsens regenerate``: do not edit by hand.

Every module here is written by the code generator in ``derivations.codegen``; each opens with a
banner naming the derivation and the SymPy version that produced it.  No module here imports SymPy.
"""
