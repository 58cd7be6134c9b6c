import os, json, pytest
from tests.test_bash_rules import world, bash, fill  # noqa
ROWS = [l for l in open(os.environ["ROWS"]).read().splitlines() if l.strip()]
@pytest.mark.parametrize("command", ROWS)
def test_try(world, command):
    v = bash(world, command)
    codes = sorted({x.code for x in v.violations if x.severity == "error"})
    with open("/tmp/lead-scratch/out.txt", "a") as f:
        f.write(f"{v.decision:5} {codes} {command}\n")
