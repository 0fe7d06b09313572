"""Golf: each rule of seeds/golf.md played through the CLI with crafted decks, and the reference
deals replayed."""

from __future__ import annotations

from typing import Any

from crafted import commands_of
from crafted import deck as crafted_deck

from conftest import CANONICAL, ROOT, run_cli
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.cards import DOWN, card_text

GOLF = load_game("golf")
TABLEAU = [f"t{k}" for k in range(1, 8)]


def play(order: list[str] | None, *commands: str, seed: int | None = None) -> list[dict[str, Any]]:
    deal = ["--seed", str(seed)] if order is None else ["--deck", " ".join(order)]
    result = run_cli("play", "golf", *deal, "--json", "--no-auto",
                     stdin="".join(c + "\n" for c in commands))  # fmt: skip
    assert result.code == 0, result.err
    records = result.json_lines()
    assert len(records) == 1 + len(commands)
    return records


def test_the_deal_five_rows_face_up_one_card_on_the_waste_sixteen_in_the_stock() -> None:
    (first,) = play(CANONICAL)
    piles = first["piles"]
    assert piles["t1"] == ["AC", "8C", "2D", "9D", "3H"]  # deck cards 1, 8, 15, 22, 29
    assert piles["t7"] == ["7C", "AD", "8D", "2H", "9H"]
    assert all(len(piles[t]) == 5 for t in TABLEAU)
    assert piles["w"] == ["10H"]  # card 36
    assert len(piles["s"]) == 16 and piles["s"][-1] == "JH"  # card 37 on top
    assert first["face_down"] == {"s": 16}


def test_a_card_one_rank_up_or_down_in_any_suit_goes_on_the_waste() -> None:
    order = crafted_with_waste({"t1": ["9C"], "t2": ["JS"], "t3": ["10D"], "t4": ["8H"]}, "10H")
    records = play(order, "t3 w", "t1 w", "t4 w", "t2 w", "t1 w")
    assert [r["ok"] for r in records[1:]] == [False, True, True, False, False]
    assert records[1]["error"] == "10D does not go on 10H (w takes any 9 or J)"
    assert records[3]["piles"]["w"] == ["10H", "9C", "8H"]  # down, then down again
    assert records[4]["error"] == "JS does not go on 8H (w takes any 7 or 9)"


def crafted_with_waste(piles: dict[str, list[str]], waste: str, stock: list[str] | None = None
                       ) -> list[str]:  # fmt: skip
    order = crafted_deck(GOLF, piles, stock)
    k = order.index(waste, 35) if waste in order[35:] else order.index(waste)
    order[35], order[k] = order[k], order[35]
    assert order[35] == waste
    return order


def test_up_then_down_and_no_wrap_between_ace_and_king() -> None:
    order = crafted_with_waste({"t1": ["2C"], "t2": ["KD"], "t3": ["3S"], "t4": ["2H"]}, "AS")
    records = play(order, "t2 w", "t1 w", "t3 w", "t4 w")
    assert [r["ok"] for r in records[1:]] == [False, True, True, True]
    assert records[1]["error"] == "KD does not go on AS (w takes any 2)"
    assert records[4]["piles"]["w"] == ["AS", "2C", "3S", "2H"]


def test_nothing_goes_on_a_king() -> None:
    order = crafted_with_waste({"t1": ["QC"], "t2": ["AD"]}, "KS", stock=["JH"])
    records = play(order, "t1 w", "t2 w", "d", "t1 w")
    assert (
        records[1]["error"] == records[2]["error"] == "w is complete (KS): it accepts nothing more"
    )
    assert records[3]["ok"] and records[4]["ok"]  # the stock covers the King; QC goes on JH
    assert records[4]["piles"]["w"] == ["KS", "JH", "QC"]


def test_the_tableau_takes_nothing_and_only_the_waste_is_a_target() -> None:
    order = crafted_with_waste({"t1": ["9C"], "t2": ["10S"]}, "10H")
    records = play(order, "t1 t2", "w t1", "s t1", "t1 w", "t2 t1")
    assert records[1]["error"] == "cards cannot be moved to t2"
    assert records[2]["error"] == "cards cannot be moved from w"
    assert records[3]["error"] == "cards cannot be moved from s"
    assert records[4]["ok"] and records[5]["ok"] is False


def test_draw_turns_any_card_onto_the_waste_until_the_stock_is_out() -> None:
    stock = ["5D", "KC", "QC"]
    records = play(crafted_with_waste({}, "10H", stock), *["d"] * 17)
    assert [r["piles"]["w"][-1] for r in records[1:4]] == stock
    assert [len(r["piles"]["s"]) for r in records[1:4]] == [15, 14, 13]
    assert records[16]["ok"] and records[16]["piles"]["s"] == []
    assert records[17]["ok"] is False


def test_won_when_the_tableau_is_clear_even_with_a_stock_and_lost_when_nothing_is_left() -> None:
    index = GOLF.layout.index
    card = {card_text(c): c for c in GOLF.cards}
    piles: list[tuple[int, ...]] = [() for _ in GOLF.pile_names]
    piles[index["t4"]] = (card["7D"],)
    rest = [c for c in GOLF.cards if card_text(c) not in ("7D", "KC", "2H", "8S")]
    piles[index["w"]] = (*rest, card["8S"])
    piles[index["s"]] = (card["KC"] | DOWN, card["2H"] | DOWN)
    state = GOLF.settle(State(tuple(piles), "playing", ()))
    assert card_text(state.piles[index["w"]][-1]) == "8S" and state.phase == "playing"
    won = GOLF.apply(state, GOLF.parse_action("t4 w", state))
    assert GOLF.outcome(won) == "won" and len(won.piles[index["s"]]) == 2
    # The same cards with 7D turned after the stock: no move fits 2H, the stock is out.
    piles[index["t4"]] = (card["KC"],)
    piles[index["s"]] = (card["7D"] | DOWN, card["2H"] | DOWN)
    state = GOLF.settle(State(tuple(piles), "playing", ()))
    assert GOLF.legal_actions(state) == (GOLF.parse_action("draw"),)
    state = GOLF.apply(GOLF.apply(state, GOLF.parse_action("draw")), GOLF.parse_action("draw"))
    assert card_text(state.piles[index["w"]][-1]) == "7D" and GOLF.outcome(state) == "lost"


def test_reference_seed_9_is_won_with_cards_left_in_no_pile() -> None:
    notes = (ROOT / "seeds" / "golf.md").read_text(encoding="utf-8")
    assert "`tests/data/golf_seed_9_win.txt`" in notes
    records = play(None, *commands_of("golf_seed_9_win.txt"), seed=9)
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and all(records[-1]["piles"][t] == [] for t in TABLEAU)
    assert all(r["result"] is None for r in records[:-1])


def test_reference_seed_10_is_lost() -> None:
    notes = (ROOT / "seeds" / "golf.md").read_text(encoding="utf-8")
    assert "`tests/data/golf_seed_10_lost.txt`" in notes
    assert "lost, 22 cards left in the tableau" in notes
    records = play(None, *commands_of("golf_seed_10_lost.txt"), seed=10)
    assert all(r["ok"] for r in records)
    end = records[-1]
    assert end["result"] == "lost" and end["piles"]["s"] == []
    assert sum(len(end["piles"][t]) for t in TABLEAU) == 22
