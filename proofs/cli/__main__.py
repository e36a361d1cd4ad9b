"""``python -m dpspec.proofs.cli`` is the ``dpspec`` command."""

import sys

from dpspec.proofs.cli import main

sys.exit(main())
