"""Black Hole: each rule of seeds/black_hole.md played through the CLI with crafted decks, and
the reference deals replayed."""

from __future__ import annotations

from typing import Any

from crafted import commands_of

from conftest import CANONICAL, ROOT, run_cli

TABLEAU = [f"t{k}" for k in range(1, 18)]


def deck(tops: dict[str, str]) -> list[str]:
    """AS first (it is taken out anyway), then 51 cards row by row; ``tops`` sets top cards."""
    rest = [c for c in CANONICAL if c != "AS" and c not in tops.values()]
    rows: list[list[str]] = [rest[0:17], rest[17:34], [""] * 17]
    free = iter(rest[34:])
    for k, pile in enumerate(TABLEAU):
        rows[2][k] = tops.get(pile) or next(free)
    return ["AS", *rows[0], *rows[1], *rows[2]]


def play(args: list[str], *commands: str, auto: bool = False) -> list[dict[str, Any]]:
    flags = ["--json"] if auto else ["--json", "--no-auto"]
    result = run_cli("play", "black-hole", *args, *flags,
                     stdin="".join(c + "\n" for c in commands))  # fmt: skip
    assert result.code == 0, result.err
    records = result.json_lines()
    assert len(records) == 1 + len(commands)
    return records


def test_the_ace_of_spades_starts_the_hole_and_51_cards_make_17_piles_of_3() -> None:
    (first,) = play(["--deck", " ".join(CANONICAL)])
    piles = first["piles"]
    assert piles["f1"] == ["AS"]
    # Without AS, the canonical order puts AC, 5D (18th) and 9H (35th) on t1.
    assert piles["t1"] == ["AC", "5D", "9H"] and piles["t17"] == ["4D", "8H", "KS"]
    assert all(len(piles[t]) == 3 for t in TABLEAU) and first["face_down"] == {}
    assert len(piles) == 18  # the hole and the tableau: no stock, no waste


def test_one_rank_up_or_down_in_any_suit_with_king_and_ace_touching() -> None:
    order = deck({"t1": "2D", "t2": "KH", "t3": "5C", "t4": "QC", "t5": "AD", "t6": "3C"})
    records = play(["--deck", " ".join(order)], "t3 f1", "t2 f1", "t4 f1", "t1 f1", "t5 f1",
                   "t6 f1")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, True, True, False, False, False]
    assert records[1]["error"] == "5C does not go on AS (f1 takes any 2 or K)"
    assert records[3]["piles"]["f1"] == ["AS", "KH", "QC"]
    assert records[4]["error"] == "2D does not go on QC (f1 takes any J or K)"


def test_ace_after_king_and_king_after_ace() -> None:
    order = deck({"t1": "KD", "t2": "AC", "t3": "KS", "t4": "2H"})
    records = play(["--deck", " ".join(order)], "t1 f1", "t2 f1", "t3 f1", "t4 f1")
    assert all(r["ok"] for r in records[1:3]) and records[3]["ok"]
    assert records[3]["piles"]["f1"] == ["AS", "KD", "AC", "KS"]
    assert records[4]["error"] == "2H does not go on KS (f1 takes any A or Q)"


def test_nothing_is_put_on_the_tableau_and_nothing_leaves_the_hole() -> None:
    order = deck({"t1": "2D", "t2": "3D"})
    records = play(["--deck", " ".join(order)], "t1 t2", "t2 t1", "f1 t1", "t1 f1", "f1 t1")
    assert records[1]["error"] == "cards cannot be moved to t2"
    assert [r["ok"] for r in records[1:]] == [False, False, False, True, False]
    assert records[3]["error"] == "cards cannot be moved from f1"
    assert records[5]["error"] == "cards cannot be moved from f1"


def test_the_program_plays_nothing_by_itself() -> None:
    # Two cards fit the hole: which one goes is the player's choice, even with automatic moves on.
    order = deck({"t1": "2D", "t2": "KH"})
    (first, after) = play(["--deck", " ".join(order)], "t1 f1", auto=True)
    assert first["piles"]["f1"] == ["AS"]
    assert after["piles"]["f1"] == ["AS", "2D"] and not after.get("auto")


def test_reference_seed_23_is_won() -> None:
    notes = (ROOT / "seeds" / "black_hole.md").read_text(encoding="utf-8")
    assert "`tests/data/black_hole_seed_23_win.txt`" in notes
    records = play(["--seed", "23"], *commands_of("black_hole_seed_23_win.txt"))
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["piles"]["f1"][0] == "AS"
    assert len(records[-1]["piles"]["f1"]) == 52


def test_reference_seed_14_is_lost_after_three_forced_moves() -> None:
    notes = (ROOT / "seeds" / "black_hole.md").read_text(encoding="utf-8")
    assert "| `--seed 14` | `t4 f1`, `t3 f1`, `t4 f1`" in notes
    records = play(["--seed", "14"], "moves", "t4 f1", "moves", "t3 f1", "moves", "t4 f1")
    assert [r["moves"] for r in records[1::2]] == [["t4 f1"], ["t3 f1"], ["t4 f1"]]
    end = records[-1]
    assert end["result"] == "lost" and end["piles"]["f1"] == ["AS", "KD", "QH", "KH"]


def test_the_hole_shows_the_ranks_it_takes_in_any_suit() -> None:
    # The Ace of spades starts the hole: a 2 or a King of any suit goes next.
    out = run_cli("play", "black-hole", "--seed", "14", "--no-auto").out
    assert "f1 AS>2/K" in out
