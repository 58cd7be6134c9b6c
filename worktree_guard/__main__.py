"""`python -m worktree_guard`."""

import sys

from .cli import main

sys.exit(main())
