"""The session through the engine API: automatic actions are undone with the choice behind them."""

from __future__ import annotations

from yaml_solitaire.engine import Action, Session, load_game

PEEK = load_game("clock-peek")
BIG_BEN = load_game("big-ben")


def test_undo_in_peek_returns_to_the_choice_not_to_a_half_step() -> None:
    session = Session(PEEK, PEEK.deal_seed(0))
    session.autoplay()
    choosing = session.position
    assert choosing.phase == "choosing"
    session.push(Action("pick", PEEK.layout.index["h1"]))
    chain = session.autoplay()
    assert chain and session.phase == "lost"
    assert [entry.auto for entry in session.history[-len(chain) - 1 :]] == [False] + [True] * len(
        chain
    )
    undone = session.undo()
    assert undone[0] == Action("pick", PEEK.layout.index["h1"]) and undone[1:] == chain
    assert session.position == choosing
    assert session.redo_choice() == undone and session.phase == "lost"


def test_play_automatic_plays_what_the_test_accepts_and_records_it_as_automatic() -> None:
    session = Session(BIG_BEN, BIG_BEN.deal_seed(3))
    dealt = session.position
    t3, f5 = BIG_BEN.layout.index["t3"], BIG_BEN.layout.index["f5"]
    session.push(Action("move", t3, f5))
    after_choice = session.position
    # Any move onto f5 is 'safe' here: the engine plays them one at a time while there are.
    played = session.play_automatic(lambda state, action: action.dst == f5)
    assert played and all(a.dst == f5 for a in played)
    assert session.moves_made() == 1 and len(session.history) == 1 + len(played)
    assert session.play_automatic(lambda state, action: False) == []
    assert session.undo() == [Action("move", t3, f5), *played]
    assert session.position == dealt
    session.redo_choice()
    assert session.position != after_choice and len(session.history) == 1 + len(played)
