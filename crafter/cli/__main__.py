"""``python -m crafter.cli``: the `crafter` command."""

import sys

from crafter.cli import main

sys.exit(main())
