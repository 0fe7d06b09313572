"""The rules in the game: `solitaire rules GAME` and the `rules` command, written from the file."""

from __future__ import annotations

import json

from conftest import ROOT, run_cli
from yaml_solitaire.engine import load_game


def flat(text: str) -> str:
    return " ".join(text.split())


def test_big_ben_rules_from_its_rule_file() -> None:
    result = run_cli("rules", "bigben")
    assert result.code == 0 and result.err == ""
    text = flat(result.out)
    game = load_game("big-ben")
    assert text.startswith("Big Ben (big-ben; also bigben): 2 decks, 104 cards.")
    assert flat(game.spec.description) in text
    assert "foundations (f1..f12): 12 foundations." in text
    assert "Base cards: f1 6C, f2 7H, f3 8S," in text
    assert (
        "Takes a card one rank higher in the same suit (K then A) on its top card; complete "
        "(taking nothing more) at the rank of its place (f1 A, f2 2," in text
    )
    assert "takes nothing while it holds fewer than 3 cards; when empty it takes nothing." in text
    assert "2. round_robin (piles: t12..t11; passes: 3; face: up):" in text and "[36 cards]" in text
    assert "3. rest (pile: s; face: down):" in text and "[56 cards]" in text
    assert "draw [d]: Turn the stock's top card onto the waste." in text
    assert (
        "Allowed when the stock has cards, unless a tableau pile has a gap (fewer than 3 "
        "cards)." in text
    )
    assert "Won when every card is on the foundations." in text
    assert "Lost when no move, fill or draw is possible." in text


def test_phases_and_outcomes_of_a_game_with_several_phases() -> None:
    text = flat(run_cli("rules", "clock-peek").out)
    assert "pick PILE: Exchange the fourth King" in text
    assert "Allowed in choosing (pick a face-down card of an hour pile" in text
    assert "playing (the chain of turns runs by itself), where the game starts; the engine " \
        "plays the only possible action by itself; goes to choosing when the chain has " \
        "stopped." in text  # fmt: skip
    assert "Lost in rescued when the chain has stopped." in text
    assert "Won in playing once this no longer holds: some card is still face down" in text


def test_a_rule_file_by_path_and_the_rules_command_in_a_game() -> None:
    path = str(ROOT / "tests" / "data" / "kings_aside.yaml")
    text = flat(run_cli("rules", path).out)
    assert "tableau (t1..t4): 4 tableau piles." in text
    assert "Takes only cards of rank K; when empty it takes only rank K." in text
    assert "Takes a card one rank higher in the same suit on its top card; when empty it " \
        "takes only rank A." in text  # fmt: skip
    in_game = run_cli("play", "big-ben", "--seed", "3", stdin="rules\n").out
    assert "Won when every card is on the foundations." in in_game
    records = run_cli("play", "big-ben", "--seed", "3", "--json", stdin="rules\n").json_lines()
    assert "Lost when no move, fill or draw is possible." in flat(records[1]["rules"])
    assert run_cli("rules", "no-such-game").code == 1


def test_no_rules_text_shows_program_internals_or_broken_sentences() -> None:
    shipped = [json.loads(line)["id"] for line in run_cli("list", "--json").out.splitlines()]
    for game in shipped:
        text = " ".join(run_cli("rules", game).out.split())
        for bad in ("Spec(", "Relation(", "=(", "=False", ".;", "not while", "True", "False"):
            assert bad not in text, (game, bad)
