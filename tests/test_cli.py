"""The smoothsens console script: --help and --version work."""

import subprocess
import sys

from smoothsens_core import __version__
from verify.cli import main


def test_cli_version(capsys):
    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert __version__ in capsys.readouterr().out


def test_cli_help_runs_as_module():
    out = subprocess.run([sys.executable, "-m", "verify.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "smoothsens" in out.stdout
