"""King Albert: the rules of seeds/king_albert.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("king-albert")


def test_the_belvedere_gives_cards_and_takes_none() -> None:
    records = play(
        "king-albert",
        deck(GAME, piles={"r1": ["8H"]}, tops={"t2": "9C", "t3": "7S"}),
        "t3 r1",
        "r1 t2",
        "t3 t2",
    )
    first = records[0]["piles"]
    assert [len(first[f"t{k}"]) for k in range(1, 10)] == list(range(1, 10))
    assert sum(len(first[f"r{k}"]) for k in range(1, 8)) == 7
    assert oks(records) == [False, True, True]
    assert records[-1]["piles"]["t2"][-3:] == ["9C", "8H", "7S"]
