"""Fortune's Favor: the rules of seeds/fortunes_favor.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("fortunes-favor")


def test_an_empty_pile_is_filled_at_once() -> None:
    records = play("fortunes-favor", deck(GAME, tops={"t1": "2C"}), "t1 f1", "d", "t2 f2")
    first = records[0]["piles"]
    assert [len(first[f"t{k}"]) for k in range(1, 13)] == [1] * 12
    assert oks(records)[0]
    assert len(records[1]["piles"]["t1"]) == 1, "from the stock while the waste is empty"
    assert len(records[1]["piles"]["s"]) == len(first["s"]) - 1
