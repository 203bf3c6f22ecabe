"""Writes docs/problems.md from vistlog.CODES (run after adding a code; a test compares the two)."""

from pathlib import Path

from vistlog.events.problems import CODES

rows = "\n".join(f"| `{code}` | {meaning} |" for code, meaning in CODES.items())
Path(__file__).resolve().parent.parent.joinpath("docs", "problems.md").write_text(f"""# Problem codes

Every problem vistlog reports carries a stable code beside its message: the message is for
people and may be reworded, the code is for programs and keeps its meaning. `--format json`
outputs give each problem as `{{"code", "path", "line", "seq", "field", "message", "game",
"text"}}` (`text` is the line the text output prints); the Python API gives
`vistlog.Problem.code`, and `vistlog.CODES` maps each code to its meaning. `verify` gives the
chain codes in its result (`VerifyResult.code`).

| code | meaning |
|---|---|
{rows}

`tools/make-problems.py` writes this page from `vistlog.CODES`; `tests/test_problems.py` checks
that it lists exactly those codes and that every code the program uses is one of them.
""", encoding="utf-8")
