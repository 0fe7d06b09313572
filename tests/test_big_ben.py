"""Big Ben's rules, each played through the CLI with a crafted --deck or a seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from big_ben_decks import BASES, CLOCKWISE, deck

from conftest import CANONICAL, ROOT, run_cli
from yaml_solitaire.engine import load_game

BIG_BEN = load_game("big-ben")


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    result = run_cli("play", "big-ben", "--deck", " ".join(order), "--json",
                     stdin="\n".join(commands) + "\n")  # fmt: skip
    assert result.code == 0, result.err
    records = result.json_lines()
    assert len(records) == 1 + len(commands)
    return records


def test_the_deal() -> None:
    order = deck(tableau={"t12": ["AC", "2D", "3H"], "t1": ["4S", "5C", "6D"]}, stock=["9S", "8H"])
    (first,) = play(order)
    piles = first["piles"]
    assert first["command"] is None and first["ok"] and first["phase"] == "playing"
    assert first["game"] == "big-ben" and first["seed"] is None
    assert [piles[f"f{h}"] for h in range(1, 13)] == [[b] for b in BASES]
    assert piles["t12"] == ["AC", "2D", "3H"] and piles["t1"] == ["4S", "5C", "6D"]
    assert all(len(piles[t]) == 3 for t in CLOCKWISE)
    assert len(piles["s"]) == 56 and piles["s"][-2:] == ["8H", "9S"]  # 9S on top
    assert piles["w"] == [] and first["face_down"] == {"s": 56}
    assert first["foundation_cards"] == 12


def test_bases_are_the_first_occurrences_in_deck_order() -> None:
    order = CANONICAL * 2  # every base card's first copy is in the first deck
    state = BIG_BEN.deal([BIG_BEN.cards[i] for i in range(104)])
    assert state.piles[BIG_BEN.layout.index["f9"]] == (1,)  # 2C of the first deck (card id 1)
    records = play(order)
    # Without the bases, t12 gets the remaining cards 0, 12 and 24: AC, 3D (after the 10 clubs
    # and AD 2D left) and 6H (after the 10 diamonds, AH 2H 4H 5H).
    assert records[0]["piles"]["t12"] == ["AC", "3D", "6H"]


def test_building_on_foundations_and_tableau_with_wrapping() -> None:
    order = deck(tableau={
        "t1": ["2H", "3H", "7C"],    # 7C goes up in suit on f1 (base 6C)
        "t5": ["4C", "4D", "AD"],    # AD goes on f8 (base KD): wraps K -> A
        "t2": ["9C", "2D", "AS"],
        "t3": ["2S", "3S", "KS"],    # KS goes down in suit on AS: wraps A -> K
        "t4": ["5H", "6H", "QH"],    # QH is not a spade
    })  # fmt: skip
    records = play(order, "t1 f1", "t5 f8", "t3 t2", "t4 t2", "t4 t3")
    assert [r["ok"] for r in records[1:]] == [True, True, True, False, False]
    piles = records[3]["piles"]
    assert piles["f1"] == ["6C", "7C"] and piles["f8"] == ["KD", "AD"]
    assert piles["t2"] == ["9C", "2D", "AS", "KS"]
    assert records[4]["error"] == "QH does not go on KS (t2 takes QS)"
    assert records[5]["error"] == "t3 has 2 cards: nothing can be built on a pile with fewer than 3"
    assert records[5]["piles"] == piles


def test_refusals_leave_the_game_unchanged() -> None:
    order = deck(tableau={"t1": ["2H", "3H", "7C"], "t5": ["4C", "5C", "9H"]})
    records = play(order, "t1 f1", "t5 t1", "f1 t5", "s t5", "t5 w", "t5 f2", "x9 f1", "zap",
                   "t1", "t1 f1 f2")  # fmt: skip
    after_move = records[1]
    for record in records[2:]:
        assert record["ok"] is False and record["error"]
        assert record["piles"] == after_move["piles"] and record["phase"] == "playing"
    errors = [r["error"] for r in records[2:]]
    assert errors[0] == "t1 has 2 cards: nothing can be built on a pile with fewer than 3"
    assert errors[1] == "cards cannot be moved from f1"
    assert errors[2] == "cards cannot be moved from s"
    assert errors[3] == "cards cannot be moved to w"
    assert errors[4] == "9H does not go on 7H (f2 takes 8H)"
    assert errors[5].startswith("no pile named 'x9'")
    assert errors[6].startswith("unknown command 'zap'")


def complete_f12() -> list[str]:
    # f12's base is 5D and it is complete at its hour, 12 = Q: 6D .. QD on the tops.
    tops = {"t12": "6D", "t1": "7D", "t2": "8D", "t3": "9D", "t4": "10D", "t5": "JD", "t6": "QD",
            "t7": "KD"}  # fmt: skip
    return deck(tableau={p: [c] for p, c in tops.items()})


def test_a_complete_foundation_accepts_nothing() -> None:
    moves = ["t12 f12", "t1 f12", "t2 f12", "t3 f12", "t4 f12", "t5 f12", "t6 f12"]
    records = play(complete_f12(), *moves, "t7 f12")
    assert all(r["ok"] for r in records[1:-1])
    assert records[-2]["piles"]["f12"] == ["5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD"]
    assert records[-1]["error"] == "f12 is complete (QD): it accepts nothing more"


def test_fill_order_is_clockwise_from_twelve_in_passes() -> None:
    order = deck(
        tableau={"t12": ["KC", "QC", "6D"], "t1": ["KH", "QH", "7C"], "t3": ["KS", "10S", "9S"]},
        stock=["AC", "2C", "3C", "4C", "5C"],
    )
    records = play(order, "t12 f12", "t1 f1", "t3 f3", "t3 f3", "fill")
    piles = records[-1]["piles"]
    # Gaps: t12 one, t1 one, t3 two. Pass 1: t12, t1, t3; pass 2: t3.
    assert piles["t12"] == ["KC", "QC", "AC"]
    assert piles["t1"] == ["KH", "QH", "2C"]
    assert piles["t3"] == ["KS", "3C", "4C"]
    assert len(piles["s"]) == 56 - 4 and piles["s"][-1] == "5C"
    assert all(len(piles[t]) == 3 for t in CLOCKWISE)
    undone = run_cli("play", "big-ben", "--deck", " ".join(order), "--json",
                     stdin="t12 f12\nt1 f1\nt3 f3\nt3 f3\ng\nu\n").json_lines()  # fmt: skip
    assert undone[-1]["piles"] == records[-2]["piles"], "fill is one undo step"


def test_partial_fill_when_the_stock_runs_short_and_the_waste_never_fills() -> None:
    order = deck(
        tableau={"t12": ["KC", "QC", "6D"], "t1": ["KH", "QH", "7C"], "t3": ["KS", "10S", "9S"]},
        stock_last=["AC", "2C", "3C"],
    )
    records = play(order, *(["d"] * 53), "t12 f12", "t1 f1", "t3 f3", "t3 f3", "g", "g", "d",
                   "w t3")  # fmt: skip
    after_fill = records[-4]
    assert after_fill["ok"]
    piles = after_fill["piles"]
    assert piles["t12"] == ["KC", "QC", "AC"] and piles["t1"] == ["KH", "QH", "2C"]
    assert piles["t3"] == ["KS", "3C"] and piles["s"] == []
    assert len(piles["w"]) == 53
    fill, draw, waste = records[-3:]
    assert fill["error"] == "fill is not possible unless the stock has cards"
    assert draw["error"] == "draw is not possible unless the stock has cards"
    assert waste["error"] == "t3 has 2 cards: nothing can be built on a pile with fewer than 3"
    assert waste["piles"] == piles


def test_draw_is_refused_while_a_gap_exists() -> None:
    order = deck(tableau={"t1": ["2H", "3H", "7C"]}, stock=["9S"])
    records = play(order, "d", "t1 f1", "draw", "fill", "d")
    assert records[1]["ok"] and records[1]["piles"]["w"] == ["9S"]
    assert records[3]["ok"] is False and "while a tableau pile has a gap" in records[3]["error"]
    assert records[4]["ok"] and records[5]["ok"]


def test_loss_when_no_action_is_left() -> None:
    # Tops of ranks 5, 9 and J never build on each other nor go on a foundation; the last card
    # out of the stock (KC) goes nowhere either.
    tops = ["5C", "5H", "5D", "9C", "9H", "9D", "JD", "JH", "JS", "5C", "9H", "JD"]
    order = deck(tableau={p: [c] for p, c in zip(CLOCKWISE, tops, strict=True)},
                 stock_last=["KC"])  # fmt: skip
    records = play(order, *(["d"] * 56), "d")
    assert all(r["phase"] == "playing" for r in records[:-2])
    lost = records[-2]
    assert lost["phase"] == "lost" and lost["result"] == "lost" and lost["piles"]["w"][-1] == "KC"
    assert records[-1]["ok"] is False and records[-1]["error"] == "the game is over (lost)"
    human = run_cli("play", "big-ben", "--deck", " ".join(order), stdin="d\n" * 56)
    assert "Lost: 12 cards on the foundations." in human.out


WIN_SCRIPT = ROOT / "tests" / "data" / "big_ben_seed_3_win.txt"


def test_a_won_game_from_a_scripted_list_of_commands() -> None:
    commands = WIN_SCRIPT.read_text(encoding="utf-8")
    result = run_cli("play", "big-ben", "--no-auto", "--seed", "3", "--json", stdin=commands)
    records = result.json_lines()
    assert all(r["ok"] for r in records), [r for r in records if not r["ok"]][:1]
    assert records[-1]["phase"] == "won" and records[-1]["foundation_cards"] == 104
    assert all(r["phase"] == "playing" for r in records[:-1])
    human = run_cli("play", "big-ben", "--no-auto", "--seed", "3", stdin=commands)
    assert "Won: 104 cards on the foundations." in human.out


def test_human_session_shows_the_clock_and_explains_refusals() -> None:
    result = run_cli("play", "big-ben", "--seed", "5", stdin="help\nt1 f1\nhint\nmoves\nq\n")
    out = result.out
    assert result.code == 0
    assert "f12 5D>6D ..QD" in out and "s 56 cards" in out and "w -" in out
    assert "! KD does not go on 6C (f1 takes 7C)" in out
    assert "hint: " in out and "legal: " in out and "draw [d]" in out
    assert "\x1b[" not in out, "no colour codes when output is not a terminal"


def test_end_of_input_ends_the_game_cleanly() -> None:
    result = run_cli("play", "big-ben", "--seed", "1", "--json", stdin="d\n")
    assert result.code == 0 and len(result.json_lines()) == 2


def test_undo_redo_and_hint_in_json() -> None:
    records = run_cli("play", "big-ben", "--seed", "5", "--json",
                      stdin="d\nu\nu\nredo\nhint\nmoves\n").json_lines()  # fmt: skip
    dealt, drew, undone, nothing, redone, hint, moves = records
    assert undone["piles"] == dealt["piles"]
    assert nothing["ok"] is False and nothing["error"] == "nothing to undo"
    assert redone["piles"] == drew["piles"]
    assert hint["hint"] in moves["moves"]


@pytest.mark.parametrize("path", [WIN_SCRIPT])
def test_win_script_is_plain_commands(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split()
    assert lines and all(w in BIG_BEN.layout.index or w in ("draw", "fill") for w in lines)
