"""Double Klondike: the rules of seeds/double_klondike.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("double-klondike")


def test_nine_piles_two_decks_and_redeals() -> None:
    records = play("double-klondike", "seed 1", *["d"] * 59, "r", "d")
    first = records[0]
    assert [len(first["piles"][f"t{k}"]) for k in range(1, 10)] == list(range(1, 10))
    assert len(first["piles"]["s"]) == 59
    assert all(oks(records))
    assert len(records[-1]["piles"]["s"]) == 58
