"""Subcommands of the ``smoothsens`` CLI.

Each module here defines ``register(subparsers)``, which adds one subcommand whose handler is set
with ``parser.set_defaults(handler=fn)``; ``fn(args) -> int`` returns the exit status.
:func:`verify.cli.main` discovers the modules, so adding a subcommand touches no other file.
"""
