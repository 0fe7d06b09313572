"""Fewer keystrokes: a pile name alone, automatic safe moves, a forced finish, `auto on|off`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import CANONICAL, ROOT, run_cli
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


def kings(*commands: str, extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    result = run_cli("play", KINGS, "--deck", " ".join(kings_deck()), "--json", *extra,
                     stdin="".join(c + "\n" for c in commands))  # fmt: skip
    assert result.code == 0, result.err
    return result.json_lines()


def test_a_card_no_other_pile_accepts_goes_home_by_itself() -> None:
    dealt, moved = kings("t2")
    assert dealt["piles"]["f1"] == ["AC"] and dealt["piles"]["t1"][-1] == "9D"
    # 't2' alone: KS may go on t1, t3 or t4 (no foundation): a pile with cards, the first one.
    assert moved["ok"] and moved["played"] == "t2 t1"
    assert moved["piles"]["t1"][-1] == "KS"
    # Then 2C and 3C, which only a foundation accepts, follow by themselves.
    assert moved["auto"] == ["t2 f1", "t2 f1"]
    assert moved["piles"]["f1"] == ["AC", "2C", "3C"] and moved["piles"]["t2"][-1] == "10S"


def test_undo_takes_back_the_automatic_moves_with_the_choice_that_caused_them() -> None:
    dealt, moved, undone, nothing = kings("t2", "undo", "undo")
    assert undone["ok"] and undone["actions"] == ["t2 t1", "t2 f1", "t2 f1"]
    assert undone["piles"] == dealt["piles"], "back to the position the player saw"
    # What the engine played right after the deal was no one's choice: it stays.
    assert nothing["ok"] is False and nothing["error"] == "nothing to undo"
    redone = kings("t2", "undo", "redo")[-1]
    assert redone["piles"] == moved["piles"]


def test_no_auto_and_the_auto_command_switch_automatic_moves() -> None:
    dealt, home, king = kings("t1", "t2", extra=("--no-auto",))
    assert dealt["piles"]["t1"][-1] == "AC" and dealt["piles"]["f1"] == []
    assert home["played"] == "t1 f1" and "auto" not in home
    assert "auto" not in king and king["piles"]["t2"][-1] == "2C"
    _, switched = kings("auto on", extra=("--no-auto",))
    assert switched["auto_moves"] is True and switched["auto"] == ["t1 f1"]
    _, off, king = kings("auto off", "t2")
    assert off["auto_moves"] is False and "auto" not in king
    assert kings("auto maybe")[-1]["error"] == "auto takes 'on' or 'off'"


def test_a_pile_name_alone_prefers_a_foundation_and_says_so() -> None:
    result = run_cli("play", "big-ben", "--seed", "3", stdin="t3\nt1\nw\n")
    # JC of t3 may go on f5 (10C, after the first two moves... here on 10C) or on QC of t4.
    assert "t3 f5 (moves JC): a foundation comes first; also legal: t3 t4" in result.out
    assert "! t1: its top card (4D) has no legal move now" in result.out
    assert "! w is empty" in result.out
    records = run_cli("play", "big-ben", "--seed", "3", "--json", stdin="T3\n").json_lines()
    assert records[1]["played"] == "t3 f5" and records[1]["piles"]["f5"] == ["10C", "JC"]


def test_the_preference_is_the_documented_one() -> None:
    game = load_game(KINGS)
    state = game.deal([game.cards[CANONICAL.index(c)] for c in kings_deck()])
    t2 = game.layout.index["t2"]
    action, why = assist.preferred(game, state, t2) or (None, "")
    assert action == Action("move", t2, game.layout.index["t1"])
    assert why.startswith("a pile with cards comes first")
    help_text = run_cli("play", "big-ben", "--seed", "3", stdin="help\n").out
    assert assist.PREFERENCE in " ".join(help_text.split())


def test_the_finish_plays_itself_once_only_foundation_moves_are_left() -> None:
    commands = WIN_SCRIPT.read_text(encoding="utf-8").split("\n")
    records = run_cli("play", "big-ben", "--seed", "3", "--json",
                      stdin="\n".join(commands)).json_lines()  # fmt: skip
    won = next(k for k, r in enumerate(records) if r["result"] == "won")
    finish = records[won]
    assert all(r["ok"] for r in records[: won + 1])
    assert len(finish["auto"]) == 7, "the forced end is played in one go"
    assert all(text.split()[1].startswith("f") for text in finish["auto"])
    assert won < len([c for c in commands if c.strip()]), "fewer commands than by hand"
    # With --no-auto the same script needs every command (see test_big_ben).
    assert records[won]["foundation_cards"] == 104


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


def test_human_output_reports_automatic_moves(tmp_path: Path) -> None:
    out = run_cli("play", KINGS, "--deck", " ".join(kings_deck()), stdin="t2\n").out
    assert "t2 t1 (moves KS): a pile with cards comes first; also legal: t2 t3, t2 t4" in out
    assert "auto: t2 f1 (2C), t2 f1 (3C)" in out


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


def test_a_move_that_changes_what_a_foundation_takes_is_left_to_the_player() -> None:
    # tests/vocab/build_up_or_down.yaml: f1 takes a card one above or below its top and the
    # tableau takes nothing, so no card can go anywhere else. Still, which of the tops 6H, 2S
    # and QS goes first decides what follows, so none is played by itself; and with 6H down,
    # 5C (under it) would take the place of every 7: not safe either.
    game = load_game(str(ROOT / "tests" / "vocab" / "build_up_or_down.yaml"))
    first = ["5C", "9D", "KH", "6H", "2S", "QS"]
    order = first + [c for c in CANONICAL if c not in first]
    state = game.deal([game.cards[CANONICAL.index(c)] for c in order])
    safe = assist.nowhere_else(game)
    moves = [a for a in game.legal_actions(state) if a.name == "move"]
    assert len(moves) == 3 and not any(safe(state, a) for a in moves)
    played = game.apply(state, game.parse_action("t1 f1", state))
    assert game.parse_action("t1 f1", played) in game.legal_actions(played)
    assert not any(safe(played, a) for a in game.legal_actions(played))
