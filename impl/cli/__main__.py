"""``python -m dpspec.cli`` is the ``dpspec`` command."""

import sys

from dpspec.cli import main

sys.exit(main())
