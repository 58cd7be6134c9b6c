"""`worktree-guard validate`: replay recorded sessions offline through the same engine as the hook (SPEC §9).

sources.py finds and groups the files, transcripts.py and hooklogs.py read them into RecordedCalls,
layouts.py reconstructs W and S, replay.py judges the calls, report.py and sarif.py print the findings,
command.py ties them together. Nothing is imported here: `worktree-guard hook` never loads this package.
"""
