"""`python -m autograph_py.cli ...`: the `autograph` command."""

import sys

from autograph_py.cli.command import main

sys.exit(main())
