"""The hint: a short look-ahead that prefers positions the player has not seen yet."""

from __future__ import annotations

from conftest import CANONICAL, ROOT, run_cli
from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.play.hints import Played, choose

BASE = ROOT / "tests" / "vocab" / "_base" / "tableau.yaml"


def deck(*first: str) -> str:
    return " ".join([*first, *(c for c in CANONICAL if c not in first)])


def test_the_hint_does_not_lead_back_to_a_position_already_seen() -> None:
    # 7D can go back and forth between 8S (t1) and 8H (t2); going back scores as well as
    # drawing, and a move is preferred to a draw, yet the hint must not undo the last move.
    script = "t3 t1\nt1 t2\nhint\n"
    result = run_cli("play", str(BASE), "--deck", deck("2C", "3C", "4C", "8S", "8H", "7D"),
                     "--json", stdin=script)  # fmt: skip
    records = result.json_lines()
    assert [r["ok"] for r in records[1:]] == [True, True, True]
    assert records[-1]["hint"] == "draw"
    # Without the history, going back is the hint's first choice.
    fresh = run_cli("play", str(BASE), "--deck", deck("2C", "3C", "4C", "8S", "8H", "7D"),
                    "--json", stdin="hint\n")  # fmt: skip
    assert fresh.json_lines()[-1]["hint"] in ("t3 t1", "t3 t2")


def test_a_guessed_hint_never_leads_to_a_position_already_seen() -> None:
    # The guess (engine API, no solver): when the move it likes best reaches a position the
    # player has seen, it gives another move, or none, never that one.
    for game_id, seed in (("klondike", 1), ("freecell", 3), ("big-ben", 2)):
        game = load_game(game_id)
        state = game.deal_seed(seed)
        best = choose(game, state).action
        assert best is not None, game_id
        seen = {game.apply(state, best)}
        other = choose(game, state, seen).action
        assert other != best, game_id
        assert other is None or game.apply(state, other) not in seen, game_id


def test_a_copy_of_the_positions_played_keeps_them_and_no_later_ones() -> None:
    # The terminal table hands a copy to the hint's search on another thread.
    game = load_game("klondike")
    state = game.deal_seed(1)
    played = Played(game, [state])
    copy = played.copy()
    after = game.apply(state, game.legal_actions(state)[0])
    played.add(after)
    assert state in copy and after not in copy and len(copy) == 1
    assert after in played and len(played) == 2
