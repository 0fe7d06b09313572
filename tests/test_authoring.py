"""Authoring tools: the schema and reference stay current, diagrams, the starter file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import GAMES, ROOT, run_cli
from yaml_solitaire.engine.vocab import VOCABULARY
from yaml_solitaire.rules import schema
from yaml_solitaire.rules.spec import tag_of as spec_tag

SCHEMA_FILE = schema.SCHEMA_FILE


def json_schema() -> dict[str, object]:
    return schema.json_schema(VOCABULARY)


def schema_text() -> str:
    return schema.schema_text(VOCABULARY)


def reference_markdown() -> str:
    return schema.reference_markdown(VOCABULARY)


SHIPPED = sorted(GAMES.glob("*.yaml"))


def test_schema_file_is_current() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "rules/schema.json is stale: run 'solitaire schema > rules/schema.json'"
    )
    result = run_cli("schema")
    assert result.code == 0 and json.loads(result.out) == json_schema()


def test_rule_reference_is_current() -> None:
    path = ROOT / "docs" / "rule-reference.md"
    assert path.read_text(encoding="utf-8") == reference_markdown(), (
        "docs/rule-reference.md is stale: run "
        "'solitaire schema --format markdown > docs/rule-reference.md'"
    )
    assert run_cli("schema", "--format", "markdown").out == reference_markdown()


def test_every_key_of_the_schema_has_a_description() -> None:
    schema = json_schema()
    missing = [k for k, v in schema["properties"].items() if not v.get("description")]
    for name, defn in schema["$defs"].items():
        if not defn.get("description"):
            missing.append(name)
        missing += [f"{name}.{k}" for k, v in defn.get("properties", {}).items()
                    if not v.get("description")]  # fmt: skip
    assert missing == []


def test_every_vocabulary_name_is_in_the_reference() -> None:
    text = reference_markdown()
    for name in ("move", "chain", "fill_gaps", "deal", "exchange", "bases", "round_robin",
                 "rest", "not_empty", "face_down", "short_pile", "holds_all_cards",
                 "no_legal_action"):  # fmt: skip
        assert f": {name}`" in text, name


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_games_point_editors_at_the_schema_and_validate_strictly(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../rules/schema.json"
    result = run_cli("validate", "--strict", str(path))
    assert result.code == 0, result.err + result.out


def test_no_game_name_in_engine_or_rules_code() -> None:
    pattern = re.compile(r"big[ _-]?ben|clock|grandfather", re.IGNORECASE)
    for folder in ("engine", "rules"):
        for path in (ROOT / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                # A clock *layout* (piles at hours) is generic vocabulary; a game's name is not.
                code = re.sub(r"clock (layout|face)|['\"]clock['\"]|DIAL_CELLS", "", code)
                assert not pattern.search(code), f"{path.relative_to(ROOT)}:{n}: {line.strip()}"


@pytest.mark.parametrize("fmt", ["mermaid", "dot"])
def test_graph_shows_the_flow_as_written(fmt: str) -> None:
    result = run_cli("graph", "clock-peek", "--format", fmt)
    assert result.code == 0
    out = result.out
    for state in ("playing", "choosing", "rescued", "won", "lost"):
        assert state in out
    if fmt == "mermaid":
        assert out.startswith('---\ntitle: "Clock with a peek"\n---\nstateDiagram-v2')
        assert "playing --> choosing: auto [stuck]" in out
        assert "playing --> won: auto [!cards_hidden]" in out
        assert "choosing --> rescued: pick" in out
        assert "won --> [*]: won" in out and "[*] --> playing" in out
    else:
        assert out.startswith('digraph "Clock with a peek"')
        assert 'playing -> choosing [label="auto [stuck]"]' in out


def test_graph_of_an_unknown_game_fails_cleanly() -> None:
    result = run_cli("graph", "nope")
    assert result.code == 1 and "unknown game 'nope'" in result.err


def test_new_writes_a_starter_that_validates_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli("new", "My Patience")
    assert result.code == 0
    path = tmp_path / "my_patience.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=solitaire.schema.json\n")
    assert "site-packages" not in text and "docs/" not in text and str(ROOT) not in text
    assert "id: my-patience" in text and 'name: "My Patience"' in text
    check = run_cli("validate", "--strict", str(path))
    assert check.code == 0, check.err
    records = run_cli("play", str(path), "--seed", "2", "--json", stdin="d\nmoves\n").json_lines()
    assert records[0]["game"] == "my-patience" and len(records) == 3
    assert records[1]["ok"] and records[1]["piles"]["w"]
    again = run_cli("new", "My Patience")
    assert again.code == 1 and "exists already" in again.err
    assert path.read_text(encoding="utf-8") == text
    forced = run_cli("new", "My Patience", "--force", "--output", str(tmp_path / "x.yaml"))
    assert forced.code == 0 and (tmp_path / "x.yaml").exists()


def test_new_refuses_a_name_without_letters(tmp_path: Path) -> None:
    result = run_cli("new", "!!!", "--output", str(tmp_path / "x.yaml"))
    assert result.code == 2 and "needs letters or digits" in result.err


def test_the_validator_knows_exactly_the_engine_registries() -> None:
    from yaml_solitaire.engine.vocab import DEAL_STEPS, EFFECTS, TESTS

    assert VOCABULARY.effects == EFFECTS.specs()
    assert VOCABULARY.tests == TESTS.specs()
    assert VOCABULARY.deal_steps == DEAL_STEPS.specs()


def test_validate_takes_a_game_id_as_play_does() -> None:
    result = run_cli("validate", "klondike", "big-ben")
    assert result.code == 0 and result.out == "klondike: ok\nbig-ben: ok\n", result.err


def test_solitaire_alone_prints_the_help_and_version_the_build() -> None:
    bare = run_cli()
    assert bare.code == 0 and bare.out.startswith("usage: solitaire")
    assert "play" in bare.out and "saves" in bare.out and bare.err == ""
    version = run_cli("--version")
    assert version.code == 0
    first, build = version.out.splitlines()
    assert first.startswith("solitaire ")
    assert build in ("build: compiled (mypyc)", "build: pure Python") or build.startswith(
        "build: pure Python ("
    )


def test_the_reference_documents_every_key_of_every_record_and_entry() -> None:
    """Each definition of the schema (records, the vocabulary's entries and the records they
    bring, such as a move's 'limit') has a section in docs/rule-reference.md that lists each of
    its keys."""
    schema = json_schema()
    text = (ROOT / "docs" / "rule-reference.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^### (.+?)\n(.*?)(?=^##|\Z)", text, flags=re.S | re.M))
    tags = {"deal_steps": "step", "effects": "effect", "tests": "test"}
    entry_titles = {
        cls.__name__: f"`{tag}: {spec_tag(cls, tag)}`"
        for kind, tag in tags.items()
        for cls in getattr(VOCABULARY, kind)
    }
    missing = []
    for name, defn in [("GameSpec", schema), *schema["$defs"].items()]:
        body = sections.get(entry_titles.get(name, name))
        if body is None:
            missing.append(name)
            continue
        missing += [f"{name}.{key}" for key in defn.get("properties", {})
                    if f"| `{key}` |" not in body and key not in tags.values()]  # fmt: skip
    assert missing == []
