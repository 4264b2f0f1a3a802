"""``python -m tavla``: the ``tavla-engine`` command line."""

import sys

from tavla.cli import main

sys.exit(main())
