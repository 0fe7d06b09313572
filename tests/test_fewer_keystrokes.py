"""Fewer keystrokes, the engine side: safe moves, the forced finish, the move a pile name means."""

from __future__ import annotations

from conftest import CANONICAL, ROOT
from yaml_solitaire.engine import Action, Session, load_game
from yaml_solitaire.engine.play import assist

KINGS = str(ROOT / "tests" / "data" / "kings_aside.yaml")
WIN_SCRIPT = ROOT / "tests" / "data" / "big_ben_seed_3_win.txt"


def kings_deck() -> list[str]:
    """A Kings Aside deal: AC on top of t1 (it goes home by itself), KS on t2 over 2C and 3C."""
    fixed = {48: "AC", 44: "9D", 49: "KS", 45: "2C", 41: "3C", 37: "10S", 50: "5H", 46: "7D",
             51: "6H", 47: "8D", 0: "AD", 1: "AH", 2: "AS", 3: "KC", 4: "KD", 5: "KH"}  # fmt: skip
    rest = iter(c for c in CANONICAL if c not in fixed.values())
    return [fixed.get(i) or next(rest) for i in range(52)]


def test_the_preference_is_the_documented_one() -> None:
    game = load_game(KINGS)
    state = game.deal([game.cards[CANONICAL.index(c)] for c in kings_deck()])
    t2 = game.layout.index["t2"]
    action, why = assist.preferred(game, state, t2) or (None, "")
    assert action == Action("move", t2, game.layout.index["t1"])
    assert why.startswith("a pile with cards comes first")


def test_finishing_moves_only_when_they_win() -> None:
    game = load_game("big-ben")
    state = game.deal_seed(3)
    assert assist.finishing_moves(game, state) is None
    session = Session(game, state)
    commands = [c for c in WIN_SCRIPT.read_text(encoding="utf-8").splitlines() if c.strip()]
    finishing = None
    for text in commands:
        finishing = assist.finishing_moves(game, session.position)
        if finishing is not None:
            break
        session.push(game.parse_action(text))
    # Seed 3 by hand: the last fill empties the stock, then seven moves home are forced.
    assert finishing is not None and len(finishing) == 7
    played = session.play_automatic(lambda s, a: a.dst in game.foundations)
    assert played == finishing and game.outcome(session.position) == "won"
    assert all(entry.auto for entry in session.history[-len(played) :])


def test_safe_test_is_conservative_in_games_whose_piles_take_every_card() -> None:
    for name in ("big-ben", "grandfathers-clock"):
        game = load_game(name)
        safe = assist.nowhere_else(game)
        state = game.deal_seed(3)
        assert not any(safe(state, a) for a in game.legal_actions(state)), name


def test_a_card_only_a_foundation_accepts_is_safe_to_send_home() -> None:
    game = load_game(KINGS)
    state = game.deal([game.cards[CANONICAL.index(c)] for c in kings_deck()])
    safe = assist.nowhere_else(game)
    index = game.layout.index
    # AC (t1) may go only to a foundation (any empty one); KS (t2) could go on a tableau pile.
    assert [a for a in game.legal_actions(state) if safe(state, a)] == [
        Action("move", index["t1"], index[f"f{k}"]) for k in range(1, 5)
    ]
    assert any(a.src == index["t2"] for a in game.legal_actions(state))
