"""Claim modules: each module registers the claims of one topic with :func:`verify.claims.claim`.

:func:`verify.claims.load_registry` imports every module here whose name does not start with "_".
"""
