"""``python -m masterpoints.engine``: the calculator (see :mod:`masterpoints.engine.cli`)."""

import sys

from masterpoints.engine.cli import main

sys.exit(main())
