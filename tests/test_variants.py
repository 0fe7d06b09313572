"""The games written only in YAML: Clock without a King, Clock with a peek, Grandfather's Clock."""

from __future__ import annotations

import math
from collections import Counter

from conftest import CANONICAL, ROOT, run_cli
from yaml_solitaire.engine import Action, Session, load_game
from yaml_solitaire.engine.core.cards import DOWN, card_text

NO_KING = load_game("clock-no-king")
PEEK = load_game("clock-peek")
GRANDFATHER = load_game("grandfathers-clock")


# --- Clock without a King ----------------------------------------------------------------


def test_no_king_deals_51_cards_twelve_piles_of_4_and_a_centre_of_3() -> None:
    state = NO_KING.deal_seed(0)
    sizes = {NO_KING.pile_names[i]: len(p) for i, p in enumerate(state.piles)}
    assert sizes == {**{f"h{h}": 4 for h in range(1, 13)}, "centre": 3}
    assert all(c & DOWN for p in state.piles for c in p)
    assert "KS" not in [card_text(c) for c in NO_KING.cards]


def test_no_king_deck_is_the_51_other_cards() -> None:
    full = run_cli("play", "clock-no-king", "--deck", " ".join(CANONICAL))
    assert full.code == 1 and "too many KS" in full.err
    others = [c for c in CANONICAL if c != "KS"]
    record = run_cli("play", "clock-no-king", "--deck", " ".join(others), "--json", "--trace")
    (game,) = record.json_lines()
    kings = [c for c in game["trace"] if c.startswith("K")]
    assert kings == ["KC", "KD", "KH"] or sorted(kings) == ["KC", "KD", "KH"]
    assert game["trace"][-1].startswith("K"), "the chain ends on the third King"
    assert game["face_down"].get("centre", 0) == 0


def test_no_king_ends_when_the_centre_has_no_face_down_card() -> None:
    for seed in range(300):
        session = Session(NO_KING, NO_KING.deal_seed(seed))
        session.trace = trace = []
        session.autoplay()
        end = session.position
        centre = end.piles[NO_KING.layout.index["centre"]]
        assert not any(c & DOWN for c in centre)
        assert sum(card_text(s.card).startswith("K") for s in trace) == 3
        assert (NO_KING.outcome(end) == "won") == (NO_KING.score(end) == 51)


def test_no_king_win_rate_is_three_in_fifty_one() -> None:
    n = 10_000
    wins = 0
    for seed in range(n):
        state = NO_KING.deal_seed(seed)
        wins += NO_KING.outcome(NO_KING.apply(state, Action("turn"))) == "won"
    p = 3 / 51
    assert abs(wins / n - p) < 4 * math.sqrt(p * (1 - p) / n), wins / n


# --- Clock with a peek -------------------------------------------------------------------


def test_peek_asks_for_a_pile_when_the_fourth_king_stops_the_chain() -> None:
    (first,) = run_cli("play", "clock-peek", "--seed", "0", "--json").json_lines()
    assert first["phase"] == "choosing" and first["result"] is None
    centre = first["piles"]["centre"]
    assert [c[0] for c in centre] == ["K"] * 4 and first["face_down"]
    human = run_cli("play", "clock-peek", "--seed", "0", stdin="help\n")
    assert "pick PILE" in human.out and "pick a face-down card of an hour pile" in human.out


def test_peek_exchange_puts_the_king_face_down_and_plays_the_picked_card() -> None:
    session = Session(PEEK, PEEK.deal_seed(0))
    session.autoplay()
    assert session.phase == "choosing"
    before = session.position
    centre = PEEK.layout.index["centre"]
    king = before.piles[centre][0]  # placed last, under the others
    picks = session.legal_actions()
    assert picks and all(a.name == "pick" for a in picks)
    pile = picks[0].src
    assert PEEK.pile_names[pile] == "h1"
    picked = before.piles[pile][-1]
    session.push(picks[0])
    after = session.position
    assert after.phase == "rescued"
    assert after.piles[pile] == (*before.piles[pile][:-1], king | DOWN)
    assert after.piles[centre] == (*before.piles[centre][1:], picked)
    session.trace = trace = []
    session.autoplay()
    assert card_text(trace[0].card) == card_text(picked)
    assert trace[-1].card == king and PEEK.is_terminal(session.position)


def test_peek_through_the_cli_and_the_game_ends_at_the_second_stop() -> None:
    records = run_cli("play", "clock-peek", "--seed", "0", "--json",
                      stdin="pick h12x\npick centre\npick h1\npick h2\n").json_lines()  # fmt: skip
    _, bad_name, not_allowed, picked, after_end = records
    assert bad_name["ok"] is False and bad_name["error"].startswith("no pile named 'h12x'")
    assert (
        not_allowed["error"] == "centre cannot be picked (pick one of h1, h2, h3, h4, h5, h6, "
        "h7, h8, h9, h10, h11, h12)"
    )
    assert picked["ok"] and picked["phase"] == "lost" and picked["cards_placed"] == 50
    assert after_end["ok"] is False and after_end["error"] == "the game is over (lost)"


def test_peek_pick_is_only_possible_while_choosing() -> None:
    (record,) = run_cli("play", "clock-peek", "--seed", "1", "--json").json_lines()[:1]
    assert record["phase"] == "choosing" and record["face_down"] == {"h7": 1}
    won = run_cli("play", "clock-peek", "--seed", "1", "--json", stdin="pick h7\n").json_lines()
    assert won[-1]["phase"] == "won" and won[-1]["cards_placed"] == 52
    state = PEEK.deal_seed(1)
    assert PEEK.refusal(state, Action("pick", 6)) == (
        "'pick' is not possible in the phase 'playing' (the chain of turns runs by itself)"
    )


def test_peek_stats_default_choice_is_the_first_pile() -> None:
    stats = run_cli("stats", "clock-peek", "--deals", "40", "--json").json_lines()[0]
    wins = 0
    for seed in range(40):
        session = Session(PEEK, PEEK.deal_seed(seed))
        session.autoplay()
        if session.phase == "choosing":
            session.push(session.legal_actions()[0])
            session.autoplay()
        wins += PEEK.outcome(session.position) == "won"
    assert stats["wins"] == wins == 10


# --- Grandfather's Clock -----------------------------------------------------------------

BASES = {5: "2S", 6: "3H", 7: "4C", 8: "5D", 9: "6S", 10: "7H", 11: "8C", 12: "9D",
         1: "10S", 2: "JH", 3: "QC", 4: "KD"}  # fmt: skip


def grandfather_deck(tableau: dict[str, list[str]]) -> list[str]:
    """Bases first, then t1..t8 dealt round robin (piles given bottom to top, 5 cards)."""
    used = Counter(BASES.values()) + Counter(c for p in tableau.values() for c in p)
    rest = [c for c in CANONICAL if not used[c]]
    piles = {f"t{i}": list(tableau.get(f"t{i}", [])) for i in range(1, 9)}
    for cards in piles.values():
        while len(cards) < 5:
            cards.insert(0, rest.pop())
    order = list(BASES.values())
    for k in range(5):
        order += [piles[f"t{i}"][k] for i in range(1, 9)]
    assert sorted(order) == sorted(CANONICAL)
    return order


def test_grandfather_deal() -> None:
    order = grandfather_deck({"t1": ["AC", "AD", "AH", "AS", "2C"]})
    (first,) = run_cli("play", "grandfathers-clock", "--deck", " ".join(order), "--json",
                       stdin="").json_lines()  # fmt: skip
    piles = first["piles"]
    assert {h: piles[f"f{h}"] for h in BASES} == {h: [c] for h, c in BASES.items()}
    assert piles["t1"] == ["AC", "AD", "AH", "AS", "2C"]
    assert all(len(piles[f"t{i}"]) == 5 for i in range(1, 9)) and first["face_down"] == {}


def play_grandfather(order: list[str], *commands: str) -> list[dict[str, object]]:
    result = run_cli("play", "grandfathers-clock", "--deck", " ".join(order), "--json",
                     stdin="\n".join(commands) + "\n")  # fmt: skip
    assert result.code == 0, result.err
    return result.json_lines()


def test_grandfather_building_rules() -> None:
    order = grandfather_deck({
        "t1": ["2D", "3D", "4D", "6D", "JS"],   # JS goes on f1 (10S)
        "t2": ["5C", "6C", "7C", "AC", "QS"],   # then QS, KS, AS: f1 is complete at one o'clock
        "t3": ["9C", "10C", "JC", "KC", "KS"],
        "t4": ["2H", "4H", "5H", "6H", "AS"],
        "t5": ["7D", "8D", "10D", "JD", "QD"],  # QD goes on KC: down, any suit
        "t6": ["3C", "4S", "5S", "3S", "2C"],
    })  # fmt: skip
    records = play_grandfather(order, "t1 f1", "t2 f1", "t3 f1", "t4 f1", "t6 f1", "t5 t3",
                               "t4 t3")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [True, True, True, True, False, True, False]
    assert records[4]["piles"]["f1"] == ["10S", "JS", "QS", "KS", "AS"]  # type: ignore[index]
    assert records[5]["error"] == "f1 is complete (AS): it accepts nothing more"
    assert records[6]["piles"]["t3"] == ["9C", "10C", "JC", "KC", "QD"]  # type: ignore[index]
    assert records[7]["error"] == "6H does not go on QD (t3 takes any J)"


def test_grandfather_empty_pile_takes_any_card() -> None:
    order = grandfather_deck(
        {"t7": ["5H", "5S", "4H", "4S", "3S"], "t1": ["AD", "AH", "AS", "AC", "QH"]}
    )
    records = play_grandfather(order, "t7 f5", "t7 f5", "t7 f6", "t7 f5", "t7 f6", "t1 t7")
    assert all(r["ok"] for r in records[1:])
    piles = records[-1]["piles"]
    assert piles["t7"] == ["QH"] and piles["f5"] == ["2S", "3S", "4S", "5S"]  # type: ignore[index]
    assert piles["f6"] == ["3H", "4H", "5H"]  # type: ignore[index]


def test_grandfather_no_wrap_on_the_tableau() -> None:
    order = grandfather_deck(
        {"t1": ["2D", "3D", "4D", "6D", "AH"], "t2": ["2C", "3C", "5C", "6C", "KH"]}
    )
    records = play_grandfather(order, "t2 t1")
    assert records[1]["error"] == "nothing can be built on t1"


def test_grandfather_lost_at_the_deal_when_no_move_exists() -> None:
    tops = ["2C", "2D", "4S", "4D", "6C", "6H", "8D", "QS"]
    order = grandfather_deck({f"t{i}": [top] for i, top in enumerate(tops, 1)})
    (record,) = run_cli("play", "grandfathers-clock", "--deck", " ".join(order),
                        "--json").json_lines()  # fmt: skip
    assert record["result"] == "lost" and record["foundation_cards"] == 12
    human = run_cli("play", "grandfathers-clock", "--deck", " ".join(order))
    assert "Lost: 12 cards on the foundations." in human.out


def test_grandfather_won_from_a_script() -> None:
    script = (ROOT / "tests" / "data" / "grandfathers_clock_seed_1_win.txt").read_text()
    records = run_cli("play", "grandfathers-clock", "--no-auto", "--seed", "1", "--json",
                      stdin=script).json_lines()  # fmt: skip
    assert all(r["ok"] for r in records)
    assert records[-1]["phase"] == "won" and records[-1]["foundation_cards"] == 52
    finals = {name: cards[-1] for name, cards in records[-1]["piles"].items() if name[0] == "f"}
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]
    assert all(card[:-1] == ranks[int(name[1:]) - 1] for name, card in finals.items())
    counts = sorted(len(c) for n, c in records[-1]["piles"].items() if n[0] == "f")
    assert counts == [4] * 8 + [5] * 4


def test_trace_in_a_game_that_waits_for_the_player() -> None:
    records = run_cli("play", "clock-peek", "--seed", "0", "--json", "--trace",
                      stdin="pick h1\n").json_lines()  # fmt: skip
    dealt, picked = records
    assert len(dealt["trace"]) == 45 and dealt["trace"][-1][0] == "K"
    # The exchange moves two cards (the picked one and the King), then the chain runs again.
    assert picked["trace"][:2] == ["3H", "KH"] and picked["trace"][2] == "3H"
    assert picked["trace"][-1] == "KH" and picked["phase"] == "lost"
    human = run_cli("play", "clock-peek", "--seed", "0", "--trace", stdin="pick h1\n").out
    assert " 45.  " in human and " 53.  KH  h1 -> centre" in human


def test_undo_goes_back_to_the_players_last_choice() -> None:
    # Seed 0 stops the first chain with cards face down, so the player picks once.
    state = PEEK.deal_seed(0)
    session = Session(PEEK, state)
    session.autoplay()
    assert session.phase == "choosing"
    choosing = session.position
    session.push(session.legal_actions()[0])
    session.autoplay()
    assert PEEK.is_terminal(session.position)
    undone = session.undo()
    assert session.position == choosing, "back where the player picked, not half-way"
    assert undone[0].name == "pick"
    try:
        session.undo()
    except IndexError as exc:
        assert "nothing to undo" in str(exc)
    else:
        raise AssertionError("the first chain is not the player's choice: nothing to undo")
    assert session.position == choosing


def test_undo_in_peek_goes_back_to_the_players_choice_never_to_a_half_step() -> None:
    records = run_cli("play", "clock-peek", "--seed", "0", "--json",
                      stdin="pick h1\nundo\nundo\n").json_lines()  # fmt: skip
    dealt, picked, undone, nothing = records
    assert picked["phase"] == "lost" and picked["cards_placed"] == 50
    # The pick and the chain the engine then ran are one step: undo shows the choice again.
    assert undone["phase"] == "choosing" and undone["piles"] == dealt["piles"]
    assert undone["actions"][0] == "pick h1" and len(undone["actions"]) > 1
    # The chain before the choice was no one's decision: there is nothing before it to undo.
    assert nothing["ok"] is False and nothing["error"] == "nothing to undo"


# --- Clock, open, and Sundial --------------------------------------------------------------

OPEN = load_game("clock-open")
SUNDIAL = load_game("sundial")
CLOCK = load_game("clock")


def test_open_deals_the_hour_piles_face_up_and_the_centre_face_down() -> None:
    state = OPEN.deal(list(OPEN.cards))
    index = OPEN.layout.index
    for hour in range(1, 13):
        assert not any(c & DOWN for c in state.piles[index[f"h{hour}"]])
    assert all(c & DOWN for c in state.piles[index["centre"]])
    # The same cards lie where Clock deals them.
    clock = CLOCK.deal(list(CLOCK.cards))
    assert [[c & ~DOWN for c in p] for p in state.piles[:13]] == [
        [c & ~DOWN for c in p] for p in clock.piles
    ]


def test_open_ends_every_deal_as_clock_does() -> None:
    for seed in range(2000):
        clock = CLOCK.apply(CLOCK.deal_seed(seed), Action("turn"))
        state = OPEN.deal_seed(seed)
        while not OPEN.is_terminal(state):
            state = OPEN.apply(state, OPEN.legal_actions(state)[0])
        assert (OPEN.outcome(state), OPEN.score(state)) == (
            CLOCK.outcome(clock),
            CLOCK.score(clock),
        )


def test_open_chain_takes_face_up_cards_and_stops_at_an_empty_pile() -> None:
    (won,) = run_cli("play", "clock-open", "--seed", "18", "--json").json_lines()
    assert won["result"] == "won" and won["cards_placed"] == 52
    (lost,) = run_cli("play", "clock-open", "--seed", "0", "--json", "--trace").json_lines()
    assert lost["result"] == "lost" and lost["cards_placed"] == 45
    # The chain stopped at the centre, which is empty: the fourth King is home.
    assert lost["piles"]["centre"] == [] and len(lost["piles"]["f13"]) == 4
    assert len(lost["trace"]) == 45


def test_sundial_deals_every_card_face_up_and_the_player_starts_each_chain() -> None:
    first = run_cli("play", "sundial", "--seed", "1", "--json", "--no-auto",
                    stdin="moves\nturn h1\n").json_lines()  # fmt: skip
    assert first[0]["face_down"] == {} and first[0]["phase"] == "playing"
    assert sorted(first[1]["moves"]) == sorted(
        [f"turn h{h}" for h in range(1, 13)] + ["turn centre"]
    )
    after = first[2]
    assert after["ok"] and after["piles"]["h1"] == [] and after["cards_placed"] > 1


def test_sundial_the_fourth_king_ends_the_game() -> None:
    lost = run_cli("play", "sundial", "--seed", "1", "--json", "--no-auto",
                   stdin="turn h5\n").json_lines()[-1]  # fmt: skip
    assert lost["result"] == "lost" and lost["cards_placed"] == 50
    assert len(lost["piles"]["f13"]) == 4, "the chain stopped at the fourth King"
    won = run_cli("play", "sundial", "--seed", "1", "--json", "--no-auto",
                  stdin="turn h1\nturn h7\nturn centre\n").json_lines()[-1]  # fmt: skip
    assert won["result"] == "won" and won["cards_placed"] == 52
    refused = run_cli("play", "sundial", "--seed", "1", "--json", "--no-auto",
                      stdin="turn h1\nturn h1\n").json_lines()[-1]  # fmt: skip
    assert not refused["ok"] and "h1 has no card to take" in refused["error"]


def test_peek_may_pick_any_face_down_card_by_its_place() -> None:
    # Seed 0 stops the first chain with seven face-down cards; h8 holds two of them.
    records = run_cli("play", "clock-peek", "--seed", "0", "--json", "--trace",
                      stdin="pick h8 2\n").json_lines()  # fmt: skip
    start, picked = records
    assert start["face_down"]["h8"] == 2
    hidden = start["piles"]["h8"][-2]
    assert picked["trace"][:2] == [hidden, start["piles"]["centre"][0]]
    refused = run_cli("play", "clock-peek", "--seed", "0", "--json",
                      stdin="pick h8 3\n").json_lines()[-1]  # fmt: skip
    assert not refused["ok"] and "no face-down card at place 3" in refused["error"]
