"""British Canister: the rules of seeds/british_canister.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import check_empty_pile_takes_only_a_king, deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("british-canister")


def test_one_card_at_a_time() -> None:
    records = play(
        "british-canister", deck(GAME, piles={"t1": ["9C", "8H"]}, tops={"t2": "10D"}), "t1 t2"
    )
    assert oks(records) == [False]


def test_an_empty_pile_takes_only_a_king() -> None:
    clear = ["t1 f1", "t1 f2", "t1 f3", "t1 f4", "t1 f1", "t1 f2"]
    check_empty_pile_takes_only_a_king(
        "british-canister", GAME, ["2D", "2C", "AS", "AH", "AD", "AC"], clear
    )
