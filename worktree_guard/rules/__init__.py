"""The built-in rules, one SPEC §5 rule a module, each a pluggy plugin like any third-party one."""
