"""``python -m dpspec.cli`` is the ``dpspec`` command (importing this module runs nothing)."""

import sys

from dpspec.cli import main

if __name__ == "__main__":
    sys.exit(main())
