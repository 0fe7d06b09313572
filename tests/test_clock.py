"""Clock through the public engine API and the CLI, with the shipped rule file."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from conftest import CANONICAL, ROOT, run_cli
from yaml_solitaire.engine import Action, Session, Step, load_game
from yaml_solitaire.engine.core.cards import card_text

CLOCK = load_game("clock")


def deck_with(**positions: str) -> list[str]:
    """A full deck with the given cards at the given deal positions (p0 = first dealt)."""
    wanted = {int(k[1:]): v for k, v in positions.items()}
    rest = [c for c in CANONICAL if c not in wanted.values()]
    return [wanted[i] if i in wanted else rest.pop(0) for i in range(52)]


def play(deck: list[str]) -> dict[str, object]:
    result = run_cli("play", "clock", "--deck", " ".join(deck), "--json", "--trace")
    assert result.code == 0, result.err
    (record,) = result.json_lines()
    return record


def test_deal_is_round_robin_face_down_last_card_on_top() -> None:
    state = CLOCK.deal([CLOCK.cards[i] for i in range(52)])
    names = CLOCK.pile_names
    assert names == (*(f"h{i}" for i in range(1, 13)), "centre")
    for pile in range(13):
        cards = [CLOCK.pile_text(state, pile)]
        assert cards == [["##"] * 4]
    # Card k goes to pile k % 13 on pass k // 13: pile 0 gets cards 0, 13, 26, 39 (top).
    assert [c & 1023 for c in state.piles[0]] == [0, 13, 26, 39]
    assert [c & 1023 for c in state.piles[12]] == [12, 25, 38, 51]


def test_worked_example_from_the_sources() -> None:
    # Centre top is the last card dealt (position 51); h6's top is position 44; h12's is 50.
    deck = deck_with(p51="6H", p44="QC", p50="3D")
    record = play(deck)
    trace = record["trace"]
    assert isinstance(trace, list)
    assert trace[:3] == ["6H", "QC", "3D"]
    result = run_cli("play", "clock", "--deck", ",".join(deck), "--trace")
    lines = [ln.split() for ln in result.out.splitlines() if re.match(r"\s*\d+\.", ln)]
    assert lines[0][1:] == ["6H", "centre", "->", "h6"]
    assert lines[1][1:] == ["QC", "h6", "->", "h12"]
    assert lines[2][1:] == ["3D", "h12", "->", "h3"]


def test_placed_cards_go_face_up_under_the_face_down_ones() -> None:
    session = Session(CLOCK, CLOCK.deal_seed(0))
    session.trace = trace = []
    session.autoplay()
    state = session.position
    for pile, cards in enumerate(state.piles):
        shown = [c for c in cards if not c & 1024]
        hidden = [c for c in cards if c & 1024]
        assert list(cards) == shown + hidden, "face-up cards lie below face-down ones"
        name = CLOCK.pile_names[pile]
        want = 13 if name == "centre" else int(name[1:])
        assert all((c % 13) + 1 == want for c in shown)
    assert len(trace) == CLOCK.score(state)
    # The chain always ends right after the fourth King, in the centre.
    assert card_text(trace[-1].card).startswith("K")
    assert sum(card_text(s.card).startswith("K") for s in trace) == 4


def test_a_won_deal_places_all_52() -> None:
    # Sorted so that every pile is turned in turn: build the deal backwards from a win.
    state = CLOCK.deal_seed(18)
    after = CLOCK.apply(state, CLOCK.legal_actions(state)[0])
    assert CLOCK.outcome(after) == "won"
    assert CLOCK.score(after) == 52
    record = run_cli("play", "clock", "--seed", "18", "--json").json_lines()[0]
    assert record["result"] == "won" and record["cards_placed"] == 52
    assert record["face_down"] == {}


@pytest.mark.parametrize(
    ("seed", "result", "placed"),
    [(0, "lost", 45), (1, "lost", 51), (3, "lost", 51), (18, "won", 52), (33, "won", 52)],
)
def test_reference_deals(seed: int, result: str, placed: int) -> None:
    text = (ROOT / "seeds" / "clock.md").read_text(encoding="utf-8")
    assert re.search(rf"\|\s*{seed}\s*\|\s*{result}\s*\|\s*{placed}\s*\|", text), "listed in seeds"
    record = run_cli("play", "clock", "--seed", str(seed), "--json").json_lines()[0]
    assert (record["result"], record["cards_placed"]) == (result, placed)
    assert record["seed"] == seed and record["game"] == "clock"


def test_win_rate_is_one_in_thirteen_over_20000_deals() -> None:
    n, wins, placed = 20_000, 0, set()
    for seed in range(n):
        state = CLOCK.deal_seed(seed)
        state = CLOCK.apply(state, CLOCK.legal_actions(state)[0])
        wins += CLOCK.outcome(state) == "won"
        placed.add(CLOCK.score(state))
        assert CLOCK.outcome(state) in ("won", "lost")
    p = 1 / 13
    sigma = math.sqrt(p * (1 - p) / n)
    assert abs(wins / n - p) < 4 * sigma, wins / n
    assert min(placed) >= 4 and max(placed) == 52


def test_seeded_deck_orders_are_pinned() -> None:
    order = [card_text(c) for c in CLOCK.seed_order(0)]
    assert order[:8] == ["3H", "KC", "7S", "3S", "KH", "8C", "6C", "JH"]
    order = [card_text(c) for c in CLOCK.seed_order(42)]
    assert order[:8] == ["10C", "JD", "KD", "4C", "9D", "KH", "4D", "AS"]


def test_deck_order_is_the_deal_order() -> None:
    order = " ".join(card_text(c) for c in CLOCK.seed_order(7))
    by_seed = run_cli("play", "clock", "--seed", "7", "--json", "--trace").json_lines()[0]
    by_deck = run_cli("play", "clock", "--deck", order, "--json", "--trace").json_lines()[0]
    assert by_deck["seed"] is None
    assert by_deck["trace"] == by_seed["trace"]
    assert by_deck["piles"] == by_seed["piles"]


def test_deck_from_file_and_forgiving_notation(tmp_path: object) -> None:
    import pathlib

    assert isinstance(tmp_path, pathlib.Path)
    deck = deck_with(p51="6H", p44="QC")
    forgiving = [c.replace("10", "T").lower() for c in deck]
    forgiving[0] = forgiving[0][:-1] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[forgiving[0][-1]]
    path = tmp_path / "deck.txt"
    path.write_text("\n".join(forgiving), encoding="utf-8")
    record = run_cli("play", "clock", "--deck", f"@{path}", "--json", "--trace").json_lines()[0]
    assert record["trace"][:2] == ["6H", "QC"]


def test_human_output_shows_the_clock_result_and_seed() -> None:
    result = run_cli("play", "clock", "--seed", "0")
    assert result.code == 0
    assert "seed 0" in result.out and "--seed 0" in result.out
    assert "Lost: 45 cards placed, 7 cards still face down." in result.out
    for name in ("h1", "h6", "h12", "centre"):
        assert name in result.out
    assert "##" in result.out  # the cards that stayed face down


def test_random_seed_is_chosen_and_reported() -> None:
    record = run_cli("play", "clock", "--json").json_lines()[0]
    assert isinstance(record["seed"], int)
    again = run_cli("play", "clock", "--json", "--seed", str(record["seed"])).json_lines()[0]
    assert again["piles"] == record["piles"]


def test_list_shows_the_shipped_games() -> None:
    result = run_cli("list")
    assert result.code == 0
    assert re.search(r"clock\s+Clock\s+1", result.out)
    assert re.search(r"big-ben\s+Big Ben\s+2", result.out)
    rows = run_cli("list", "--json").json_lines()
    assert {r["id"] for r in rows} >= {"clock", "big-ben"}


def test_a_rule_file_path_works_wherever_a_game_id_does() -> None:
    record = run_cli("play", str(ROOT / "games" / "clock.yaml"), "--seed", "0", "--json")
    assert record.json_lines()[0]["cards_placed"] == 45


def test_a_rule_that_changes_nothing_changes_no_result(tmp_path: Path) -> None:
    # Clock's piles never hold fewer than one card where a card is placed, so min_cards: 1
    # changes nothing; the engine then finds each card's home pile by pile, not from a table.
    variant = tmp_path / "clock_min_cards.yaml"
    variant.write_text(
        f"extends: {ROOT / 'games' / 'clock.yaml'}\n"
        "id: clock-min-cards\n"
        "piles:\n"
        "  hours: {accepts: {min_cards: 1}}\n"
        "  centre: {accepts: {min_cards: 1}}\n",
        encoding="utf-8",
    )
    other = load_game(str(variant))
    assert other.layout.accepts[0].min_cards == 1
    for seed in range(2000):
        trace_a: list[Step] = []
        trace_b: list[Step] = []
        a = CLOCK.apply(CLOCK.deal_seed(seed), Action("turn"), trace_a)
        b = other.apply(other.deal_seed(seed), Action("turn"), trace_b)
        assert (a, trace_a) == (b, trace_b), seed
