"""Monte Carlo: each rule of seeds/monte_carlo.md played through the CLI with crafted decks, and
the reference deals replayed."""

from __future__ import annotations

from typing import Any

import crafted
from crafted import commands_of

from conftest import CANONICAL, ROOT
from yaml_solitaire.engine import State, load_game

MONTE_CARLO = load_game("monte-carlo")

GRID = [f"t{k}" for k in range(1, 26)]


def deck(grid: dict[str, str], stock: list[str] | None = None) -> list[str]:
    """Named grid cards and the first stock cards (top first); the rest in canonical order."""
    stock = stock or []
    named = set(grid.values()) | set(stock)
    rest = iter(c for c in CANONICAL if c not in named)
    return [grid.get(t) or next(rest) for t in GRID] + stock + list(rest)


def play(args: list[str], *commands: str) -> list[dict[str, Any]]:
    return crafted.play("monte-carlo", args, *commands)


def test_the_deal_25_cards_row_by_row_and_27_in_the_stock() -> None:
    (first,) = play(["--deck", " ".join(CANONICAL)])
    piles = first["piles"]
    assert [piles[t] for t in GRID] == [[c] for c in CANONICAL[:25]]
    assert len(piles["s"]) == 27 and piles["s"][-1] == "KD" and first["face_down"] == {"s": 27}
    assert piles["f1"] == []


def test_pairs_of_one_rank_touching_in_eight_directions_without_wrap() -> None:
    # 5C at t7 touches t1, t2, t3, t6, t8, t11, t12 and t13; t5 and t6 do not touch.
    order = deck({"t7": "5C", "t1": "5D", "t13": "5H", "t3": "5S", "t5": "9C", "t6": "9D",
                  "t9": "QC", "t19": "QD", "t10": "KD", "t16": "KH"})  # fmt: skip
    records = play(["--deck", " ".join(order)], "t5 t6", "t9 t19", "t10 t16", "t7 t8", "t7 t13",
                   "t1 t3", "t3 t7")  # fmt: skip
    assert records[1]["error"] == "t5 and t6 do not touch"
    assert records[2]["error"] == "t9 and t19 do not touch"
    assert records[3]["error"] == "t10 and t16 do not touch"
    assert records[4]["error"] == "the cards of t7 and t8 do not have the same rank"
    assert records[5]["ok"] and records[5]["piles"]["f1"] == ["5C", "5H"]
    assert records[6]["error"] == "t1 and t3 do not touch"
    assert records[7]["error"] == "t7 is empty"


def test_close_slides_the_cards_in_reading_order_then_fills_from_the_stock() -> None:
    order = deck({"t2": "7C", "t8": "7D"}, stock=["QS", "JS"])
    records = play(["--deck", " ".join(order)], "close", "t2 t8", "close", "close")
    assert records[1]["error"] == "there is no gap to close or fill"
    before, after = records[2]["piles"], records[3]["piles"]
    cards = [before[t] for t in GRID if before[t]]
    assert [after[t] for t in GRID[:23]] == cards and after["t24"] == ["QS"]
    assert after["t25"] == ["JS"] and len(after["s"]) == 25
    assert records[4]["error"] == "there is no gap to close or fill"


def test_close_still_closes_up_once_the_stock_is_out() -> None:
    index = MONTE_CARLO.layout.index
    piles: list[tuple[int, ...]] = [() for _ in MONTE_CARLO.pile_names]
    piles[index["f1"]] = MONTE_CARLO.cards[3:]
    piles[index["t2"]], piles[index["t5"]], piles[index["t9"]] = (
        (c,) for c in MONTE_CARLO.cards[:3]
    )
    state = MONTE_CARLO.settle(State(tuple(piles), "playing", ()))
    assert [MONTE_CARLO.action_text(a) for a in MONTE_CARLO.legal_actions(state)] == ["close"]
    closed = MONTE_CARLO.apply(state, MONTE_CARLO.parse_action("close", state))
    assert [len(closed.piles[index[t]]) for t in GRID[:4]] == [1, 1, 1, 0]
    assert [closed.piles[index[t]] for t in ("t1", "t2", "t3")] == [
        (c,) for c in MONTE_CARLO.cards[:3]
    ]
    assert MONTE_CARLO.outcome(closed) == "lost"  # AC 2C 3C: no pair, nothing to close or fill


def test_reference_seed_1_is_won() -> None:
    notes = (ROOT / "seeds" / "monte_carlo.md").read_text(encoding="utf-8")
    assert "`tests/data/monte_carlo_seed_1_win.txt`" in notes
    records = play(["--seed", "1"], *commands_of("monte_carlo_seed_1_win.txt"))
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52
    assert all(r["result"] is None for r in records[:-1])


def test_reference_seed_9_is_lost() -> None:
    notes = (ROOT / "seeds" / "monte_carlo.md").read_text(encoding="utf-8")
    line = ["t3 t4", "close", "t1 t7", "t19 t24", "close"]
    assert "| `--seed 9` | " + ", ".join(f"`{c}`" for c in line) + " |" in notes
    records = play(["--seed", "9"], *line)
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "lost" and records[-1]["foundation_cards"] == 6
