"""A sub-agent's life in one home: what happens around its start and stop, and what it may write meanwhile.

- `snapshots`: the state of a checkout (HEAD, branch, dirty and ignored paths) and the differences between two.
- `state`: the private state directory of the §5.4 snapshots and the session's start/stop windows.
- `leak_check`: the §5.4 leak check around an isolated sub-agent (a lifecycle plugin).
- `main_agent`: a main agent that worked in a linked worktree stays isolated after a `cd` out of it (a plugin).
- `ownership`: what a worker may write (SPEC §11): the declarations and their matching.
- `surfaces`: the hidden-write-surface table (package managers, formatters, generators, snapshot updaters).
- `registry`: the workers of one repository, per checkout, under a lock: dispatched, started, stopped.
- `linking`: finding a worker's dispatch (and so its ownership) again on its own later calls.
- `wave`: the shared-workspace wave plugin (WG701–WG707, WG710).
- `blame`: what a worker can be blamed for, and `rollback`, which restores exactly that.
"""
