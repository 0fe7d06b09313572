"""The rule loader: every problem of a file at once, each at its line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import GAMES, run_cli
from yaml_solitaire.engine import check_game as check_rules
from yaml_solitaire.engine import read_game_rules as load_rules
from yaml_solitaire.rules import RuleError


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def clock_with(old: str, new: str) -> str:
    text = (GAMES / "clock.yaml").read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_games_load(path: Path) -> None:
    spec = load_rules(path)
    assert spec.id and spec.flow.states
    assert [d for d in check_rules(path) if d.severity == "error"] == []


def test_duplicate_keys_are_errors_not_silently_merged(tmp_path: Path) -> None:
    text = clock_with("decks: 1\n", "decks: 1\ndecks: 2\n")
    path = write(tmp_path, text)
    (diag,) = check_rules(path)
    assert (diag.line, diag.column) == (line_of(text, "decks: 2"), 1)
    assert "duplicate key 'decks'" in diag.message


def test_all_problems_are_reported_at_once(tmp_path: Path) -> None:
    text = clock_with("role: tableau", "role: tablo")
    text = text.replace("passes: 4", "passes: lots").replace("place: bottom", "place: under")
    text = text.replace("decks: 1", "decks: 1\ncolour: red")
    path = write(tmp_path, text)
    diags = check_rules(path)
    got = {(d.key, d.line) for d in diags}
    assert ("piles.hours.role", line_of(text, "role: tablo")) in got
    assert ("deal[0].passes", line_of(text, "passes: lots")) in got
    assert ("actions.turn.place", line_of(text, "place: under")) in got
    assert ("colour", line_of(text, "colour: red")) in got
    assert len(diags) == 4
    with pytest.raises(RuleError) as caught:
        load_rules(path)
    assert len(caught.value.errors) == 4


def test_message_format_and_suggestion(tmp_path: Path) -> None:
    text = clock_with("accepts: {rank: [A,", "acepts: {rank: [A,")
    path = write(tmp_path, text)
    (diag,) = check_rules(path)
    line = line_of(text, "acepts:")
    assert str(diag) == (
        f"{path}:{line}:5: piles.hours.acepts: unknown key 'acepts' (did you mean 'accepts'?); "
        "expected one of: role, names, bases, accepts, arrangement"
    )


def test_yaml_1_1_coercions_do_not_happen(tmp_path: Path) -> None:
    # 'no' stays text (and is then an invalid face), it does not become False.
    text = clock_with("face: down", "face: no")
    (diag,) = check_rules(write(tmp_path, text))
    assert diag.key == "deal[0].face" and "'no'" in diag.message


def test_unknown_pile_names_are_found_with_suggestions(tmp_path: Path) -> None:
    text = clock_with("start: centre", "start: center")
    (diag,) = check_rules(write(tmp_path, text))
    assert diag.key == "actions.turn.start"
    assert "no pile or pile group named 'center' (did you mean 'centre'?)" in diag.message


def test_deal_must_use_every_card(tmp_path: Path) -> None:
    text = clock_with("passes: 4", "passes: 3")
    (diag,) = check_rules(write(tmp_path, text))
    assert diag.key == "deal[0]" and "13 cards are never dealt" in diag.message


def test_syntax_error_position(tmp_path: Path) -> None:
    path = write(tmp_path, "id: x\nname: [a, b\ndecks: 1\n")
    (diag,) = check_rules(path)
    assert diag.line >= 2 and "YAML syntax error" in diag.message


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "the file is empty"), ("- a\n- b\n", "must be a mapping")],
)
def test_not_a_rule_file(tmp_path: Path, text: str, message: str) -> None:
    (diag,) = check_rules(write(tmp_path, text))
    assert message in diag.message and (diag.line, diag.column) == (1, 1)


def test_validate_command(tmp_path: Path) -> None:
    good = run_cli("validate", str(GAMES / "clock.yaml"), str(GAMES / "big_ben.yaml"))
    assert good.code == 0 and good.out.count(": ok") == 2
    bad = write(tmp_path, clock_with("decks: 1", "decks: 0"))
    result = run_cli("validate", str(GAMES / "clock.yaml"), str(bad))
    assert result.code == 1
    assert f"{bad}:{line_of(bad.read_text(), 'decks: 0')}:8: decks: " in result.err
    missing = run_cli("validate", str(tmp_path / "missing.yaml"))
    assert missing.code == 1 and "no such file" in missing.err


def test_duplicate_keys_are_reported_with_the_other_problems(tmp_path: Path) -> None:
    text = clock_with("decks: 1\n", "decks: 1\ndecks: 2\ncolour: red\n")
    text = text.replace("passes: 4", "passes: four")
    diags = check_rules(write(tmp_path, text))
    assert [(d.key, d.line) for d in diags] == [
        ("decks", line_of(text, "decks: 2")),
        ("colour", line_of(text, "colour: red")),
        ("deal[0].passes", line_of(text, "passes: four")),
    ]
    with pytest.raises(RuleError):
        load_rules(write(tmp_path, clock_with("decks: 1\n", "decks: 1\ndecks: 1\n"), "d.yaml"))


def test_names_and_flow_are_checked_despite_schema_errors(tmp_path: Path) -> None:
    text = clock_with("passes: 4", "passes: four")
    text = text.replace("to: [hours, centre]", "to: [hours, center]")
    text = text.replace("conditions: [stuck]", "conditions: [stuk]")
    diags = check_rules(write(tmp_path, text))
    assert [(d.key, d.line) for d in diags] == [
        ("deal[0].passes", line_of(text, "passes: four")),
        ("actions.turn.to[1]", line_of(text, "to: [hours, center]")),
        ("flow.transitions[2].conditions[0]", line_of(text, "[stuk]")),
    ]
    assert "did you mean 'centre'?" in diags[1].message


def test_a_broken_part_does_not_cause_a_cascade(tmp_path: Path) -> None:
    # The whole 'centre' group is unreadable: references to it are not reported as unknown.
    text = clock_with("names: [centre]", "names: [Centre]")
    diags = check_rules(write(tmp_path, text))
    assert [d.key for d in diags] == ["piles.centre.names[0]"]
    # A broken action is left out without its transition being called unknown.
    text = clock_with("effect: chain", "effect: chian")
    diags = check_rules(write(tmp_path, text, "b.yaml"))
    assert [d.key for d in diags] == ["actions.turn.effect"]
