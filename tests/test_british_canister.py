"""British Canister: the rules of seeds/british_canister.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, play

from yaml_solitaire.engine import load_game

GAME = load_game("british-canister")


def oks(records: list[dict[str, object]]) -> list[object]:
    return [r["ok"] for r in records[1:]]


def test_one_card_at_a_time() -> None:
    records = play(
        "british-canister", deck(GAME, piles={"t1": ["9C", "8H"]}, tops={"t2": "10D"}), "t1 t2"
    )
    assert oks(records) == [False]


def test_an_empty_pile_takes_only_a_king() -> None:
    records = play(
        "british-canister",
        deck(
            GAME, piles={"t1": ["2D", "2C", "AS", "AH", "AD", "AC"]}, tops={"t2": "5H", "t3": "KH"}
        ),
        "t1 f1",
        "t1 f2",
        "t1 f3",
        "t1 f4",
        "t1 f1",
        "t1 f2",
        "t2 t1",
        "t3 t1",
    )
    assert all(oks(records)[:-2]), records
    assert records[-3]["piles"]["t1"] == []
    assert records[-2]["error"] == "t1 is empty and accepts only cards of rank K"
    assert records[-1]["ok"] and records[-1]["piles"]["t1"] == ["KH"]
