"""``python -m verify.cli``: the ``smoothsens`` command line without the console script."""

import sys

from verify.cli import main

sys.exit(main())
