"""FreeCell: one test per rule of seeds/freecell.md, through the CLI with crafted decks and
Microsoft's deal numbers, and the reference deal."""

from __future__ import annotations

import pytest
from crafted import commands_of, deck, play
from test_ms_deals import LAYOUTS

from conftest import CANONICAL, run_cli
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.cards import DOWN, parse_deck

FREECELL = load_game("freecell")
COLUMNS = [f"t{k}" for k in range(1, 9)]


# --- 1-2. the deal -----------------------------------------------------------------------------


def test_the_deal_goes_row_by_row_all_face_up() -> None:
    (first,) = play("freecell", CANONICAL)
    piles = first["piles"]
    assert piles["t1"] == ["AC", "9C", "4D", "QD", "7H", "2S", "10S"]  # cards 1, 9, 17 ...
    assert piles["t5"] == ["5C", "KC", "8D", "3H", "JH", "6S"]
    assert [len(piles[t]) for t in COLUMNS] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert first["face_down"] == {}
    assert all(piles[p] == [] for p in ("c1", "c2", "c3", "c4", "f1", "f2", "f3", "f4"))


@pytest.mark.parametrize("number", [1, 11982])
def test_microsoft_deals_card_by_card(number: int) -> None:
    (first,) = play("freecell", f"seed ms:{number}")
    assert first["seed"] == f"ms:{number}"
    assert [" ".join(first["piles"][t]) for t in COLUMNS] == LAYOUTS[number]


# --- 3. cells ------------------------------------------------------------------------------------


def test_a_cell_holds_any_one_card() -> None:
    tops = {"t1": "9C", "t2": "8H", "t3": "5D", "t4": "4S"}
    records = play("freecell", deck(FREECELL, tops=tops), "t2 c1", "t3 c1", "t3 c2", "c1 t1",
                   "c2 t4", "c2 c4")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [True, False, True, True, False, True]
    assert records[1]["piles"]["c1"] == ["8H"]
    assert records[2]["error"] == "c1 holds at most 1 card"
    assert records[4]["piles"]["t1"][-2:] == ["9C", "8H"] and records[4]["piles"]["c1"] == []
    assert records[5]["error"] == "5D does not go on 4S (t4 takes 3D or 3H)"
    assert records[6]["piles"]["c4"] == ["5D"]


# --- 4. foundations -----------------------------------------------------------------------------


def test_foundations_start_with_any_ace_build_up_in_suit_and_keep_their_cards() -> None:
    tops = {"t1": "AD", "t2": "3D", "t3": "2D", "t4": "2H"}
    records = play("freecell", deck(FREECELL, tops=tops), "t3 f1", "t1 f2", "t4 f2", "t3 f2",
                   "f2 t4", "f2 c1")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, True, False, True, False, False]
    assert records[1]["error"] == "f1 is empty and accepts only cards of rank A"
    assert records[3]["error"] == "2H does not go on AD (f2 takes 2D)"
    assert records[5]["error"] == "cards cannot be moved from f2"
    assert records[-1]["piles"]["f2"] == ["AD", "2D"]


# --- 5. the tableau -----------------------------------------------------------------------------


def test_the_tableau_builds_down_in_alternating_colours_and_an_empty_pile_takes_any_card() -> None:
    column = ["2C", "AS", "AH", "AD", "AC", "9D", "QD"]  # a column that can be emptied
    records = play("freecell", deck(FREECELL, piles={"t1": column}, tops={"t2": "KD", "t3": "JC"}),
                   "t3 t1", "t1 t2", "t1 c1", "t1 c2", "t1 c3", "t1 f1", "t1 f2", "t1 f3",
                   "t1 f4", "t1 f1", "t3 t1 1")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [True, False] + [True] * 9
    assert records[1]["piles"]["t1"][-2:] == ["QD", "JC"]
    assert records[2]["error"] == "JC does not go on KD (t2 takes QC or QS)"
    assert records[-2]["piles"]["t1"] == []
    assert records[-1]["piles"]["t1"] == [records[0]["piles"]["t3"][-2]], "any card fills it"


# --- 6. runs and their size ---------------------------------------------------------------------


def emptied_t8() -> list[str]:
    """t1 holds the run QH JC 10D 9S 8H 7C on 2D; t2 shows KS; t8 empties in six moves."""
    piles = {"t1": ["2D", "QH", "JC", "10D", "9S", "8H", "7C"],
             "t8": ["5D", "6S", "4C", "3C", "2C", "AC"]}  # fmt: skip
    return deck(FREECELL, piles=piles, tops={"t2": "KS"})


EMPTY_T8 = ["t8 f1", "t8 f1", "t8 f1", "t8 f1", "t8 c1", "t8 c2"]


def test_a_run_moves_as_a_unit_within_the_free_cells_and_empty_piles() -> None:
    # Four free cells, no empty pile: 5 cards. Two free cells and one empty pile: 6 cards onto
    # a pile with cards, 3 onto the empty pile.
    records = play("freecell", emptied_t8(), "t1 t2 6", *EMPTY_T8, "t1 t8 4", "t1 t8 3",
                   "t8 t1 3", "t1 t2 6")  # fmt: skip
    assert records[1]["error"] == (
        "only 5 cards can move at once (one more for each free cell, doubled for each empty pile)"
    )
    assert all(r["ok"] for r in records[2:8]) and records[7]["piles"]["t8"] == []
    assert records[8]["error"].startswith("only 3 cards can move at once")
    assert records[9]["ok"] and records[9]["piles"]["t8"] == ["9S", "8H", "7C"]
    assert records[10]["ok"] and records[11]["ok"]
    assert records[11]["piles"]["t2"][-6:] == ["QH", "JC", "10D", "9S", "8H", "7C"]


def test_a_run_too_long_for_the_cells_says_so_without_a_count() -> None:
    # The six-card run QH..7C fits on KS, but with four free cells only 5 cards move at once:
    # 't1 t2' alone (the longest run that goes there) names the limit, not the top card.
    records = play("freecell", emptied_t8(), "t1 t2")
    assert records[1]["error"] == (
        "the run of 6 cards that goes on t2 is too long: only 5 can move at once (one more for "
        "each free cell, doubled for each empty pile)"
    )


def test_only_runs_move_together_and_never_onto_a_foundation_or_a_cell() -> None:
    records = play("freecell", emptied_t8(), "t1 c1 2", "t8 f1", "t8 t3 2", "t1 f1 2")
    assert records[1]["error"] == "c1 holds at most 1 card"
    assert records[3]["error"] == "those 2 cards of t8 are not a run: 1 can move together"
    assert records[4]["error"] == "f1 takes one card at a time"


# --- 7-8. the end ------------------------------------------------------------------------------


def test_microsoft_deal_1_is_won_by_the_reference_line() -> None:
    moves = commands_of("freecell_ms_1_win.txt")
    records = play("freecell", "seed ms:1", *moves)
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52


def test_no_move_left_is_a_loss() -> None:
    # Full cells (the four 2s) and eight black tops that build on nothing: no move at all.
    game = FREECELL
    by_name = dict(zip(CANONICAL, parse_deck(CANONICAL, game.cards), strict=True))
    tops = ["KC", "KS", "QC", "QS", "JC", "JS", "10C", "10S"]
    cells = ["2C", "2D", "2H", "2S"]
    rest = [c for c in CANONICAL if c not in tops + cells]
    piles: list[tuple[int, ...]] = [()] * len(game.pile_names)
    index = game.layout.index
    for k, cell in enumerate(cells, start=1):
        piles[index[f"c{k}"]] = (by_name[cell],)
    for k, top in enumerate(tops):
        under = rest[k * 5 : k * 5 + 5]
        piles[index[COLUMNS[k]]] = (*(by_name[c] for c in under), by_name[top])
    assert sum(map(len, piles)) == 52 and not any(c & DOWN for p in piles for c in p)
    position = game.settle(State(tuple(piles), game.initial, ()))
    assert game.outcome(position) == "lost"


# --- 9. safe moves ------------------------------------------------------------------------------


def test_cards_go_home_by_themselves_once_the_cards_that_build_on_them_are_home() -> None:
    piles = {"t4": ["3C", "4C", "5C", "6C", "7C", "AS", "9H"]}
    order = deck(FREECELL, piles=piles, tops={"t1": "AC", "t2": "2D", "t3": "AD"})
    dealt, moved = play("freecell", order, "t4 c1", auto=True)
    assert dealt["piles"]["f1"] == ["AC"] and dealt["piles"]["f2"] == ["AD"]
    assert dealt["piles"]["t2"][-1] == "2D", "2D waits while AS is out"
    assert moved["auto"] == ["t4 f3", "t2 f2"]
    assert moved["piles"]["f2"] == ["AD", "2D"] and moved["piles"]["f3"] == ["AS"]


def test_play_with_automatic_moves_prints_microsoft_deal_1_first() -> None:
    result = run_cli("play", "freecell", "--seed", "ms:1", "--json", "--no-record")
    first = result.json_lines()[0]
    assert [" ".join(first["piles"][t]) for t in COLUMNS] == LAYOUTS[1]
