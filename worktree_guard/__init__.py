"""worktree-guard: keep AI coding agents inside their own git worktree.

Nothing is imported here: every hook call is a fresh process and pays for every import.
"""

__version__ = "0.1.0"
