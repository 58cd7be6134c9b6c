"""Runtime adapters (SPEC §7): each turns its runtime's payload into a ToolCall and a Verdict into its reply."""
