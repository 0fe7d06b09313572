"""The player's records: ``solitaire replay`` and ``solitaire history``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ....rules.errors import printable
from ...core.cards import FACE, MASK
from ...core.state import State
from ...game.load import UnknownGame, load_game
from ...play.history import FINISHED, GameRow, History, HistoryError, Summary, summarise
from ...play.records import RecordError, check_rules, deal_order, read_record
from ...play.serial import position_json
from ...play.session import Session
from ...play.userdata import history_path
from ...play.wording import ending
from ..render import Renderer, face_name, time_text
from ..screen import Screen
from .output import EXIT_INVALID, EXIT_OK, fail
from .play import game_of

if TYPE_CHECKING:  # pragma: no cover
    from ...play.saves import Unreadable

# --- replay --------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        record = read_record(path)
    except RecordError as exc:
        return fail(f"cannot replay: {exc}", EXIT_INVALID)
    try:
        game = game_of(record)
        check_rules(record, game)
        order = deal_order(record, game)
    except RecordError as exc:
        return fail(f"cannot replay: {printable(str(path))}: {exc}", EXIT_INVALID)
    session = Session(game, game.deal(order))
    screen = Screen(sys.stdout, colour=False if args.ascii else None)
    renderer = Renderer(game, symbols=screen.colour, width=screen.width())
    stepping = (
        sys.stdin is not None and sys.stdin.isatty() and sys.stdout.isatty() and not args.json
    )
    deal = f"seed {record.seed}" if record.seed is not None else "a given deck"
    if args.json:
        head: dict[str, Any] = {"game": game.id, "seed": record.seed, "step": 0}
        print(json.dumps({**head, **position_json(game, session.position)}), flush=True)
    else:
        played = sum(1 for a in record.actions if not a.auto)
        screen.say(
            f"{game.name}, {deal}: started {record.started}, {played} move"
            f"{'s' if played != 1 else ''}, {time_text(record.seconds)} played"
        )
        screen.write(renderer.board(session.position, ()))
    step = 0
    lines: list[str] = []
    steps: list[tuple[list[str], State]] = []  # each decision: its lines, the board after it
    for k, recorded in enumerate(record.actions):
        before = session.position
        try:
            action = game.parse_action(recorded.action, before)
            session.push(action, auto=recorded.auto)
        except ValueError as exc:
            return fail(
                f"cannot replay: {printable(str(path))}: action {k + 1} "
                f"'{printable(recorded.action, 30)}' cannot be played: {exc}",
                EXIT_INVALID,
            )
        if args.json:
            record_line = {
                "step": k + 1,
                "action": recorded.action,
                "auto": recorded.auto,
                "at": recorded.at,
            }
            print(json.dumps({**record_line, **position_json(game, session.position)}))
            continue
        moved = ""
        pile = before.piles[action.src] if action.src >= 0 else ()
        if action.dst >= 0 and pile:
            moved = f" ({face_name(FACE[pile[-1] & MASK], renderer.symbols)})"
        if not recorded.auto:
            step += 1
            lines = [f"{step}. {recorded.action}{moved}  [{time_text(recorded.at)}]"]
        else:
            lines.append(f"   auto: {recorded.action}{moved}")
        following = record.actions[k + 1] if k + 1 < len(record.actions) else None
        if following is None or not following.auto:
            steps.append((lines, session.position))
    if args.json:
        return EXIT_OK
    if stepping:
        _step_through(screen, renderer, steps)
    else:
        for lines, state in steps:
            screen.say("")
            screen.write(lines)
            screen.write(renderer.board(state, ()))
    state = session.position
    screen.write(["", *renderer.status(state, session.moves_made(), record.seconds)])
    if session.is_over():
        screen.say(ending(game, state))
    return EXIT_OK


def _step_through(screen: Screen, renderer: Renderer, steps: list[tuple[list[str], State]]) -> None:
    """On a terminal: one step at a time, forward with Enter, back with 'b', 'q' to stop."""
    k = 0
    while 0 <= k < len(steps):
        lines, state = steps[k]
        screen.say("")
        screen.write(lines)
        screen.write(renderer.board(state, ()))
        last = k == len(steps) - 1
        forward = "the end" if last else "next step"
        try:
            answer = input(f"[Enter] {forward}, b back, q to stop ({k + 1}/{len(steps)}): ")
        except EOFError:
            return
        word = answer.strip().lower()
        if word in ("q", "quit"):
            return
        if word in ("b", "back", "p"):
            if k == 0:
                screen.say("(this is the first step)")
            k = max(0, k - 1)
        else:
            k += 1


# --- saves ---------------------------------------------------------------------------------


def cmd_saves(args: argparse.Namespace) -> int:
    from ...play.saves import SaveLock, SaveLocked, SaveStore

    store = SaveStore()
    if args.delete is not None:
        try:
            found = store.find(args.delete)
        except RecordError as exc:
            return fail(str(exc), EXIT_INVALID)
        if found is None:
            return fail(f"no saved game '{printable(args.delete, 40)}' (see 'solitaire saves')")
        lock = SaveLock(store, found.record.id)
        try:
            lock.acquire()
            found.path.unlink()
        except SaveLocked as exc:
            return fail(f"cannot delete {found.id}: {exc}")
        except OSError as exc:
            return fail(f"cannot delete {printable(str(found.path))}: {exc.strerror or exc}")
        finally:
            lock.release(remove=True)
        print(f"deleted saved game {found.id} ({found.record.game}, {found.deal_text()})")
        return EXIT_OK
    saves, unreadable = store.scan()
    if unreadable and unreadable[0].path == store.folder:
        folder = printable(str(store.folder))
        return fail(f"the save folder {folder}: {unreadable[0].why}", EXIT_INVALID)
    if args.json:
        for saved in saves:
            print(json.dumps(saved.as_json()))
        for bad in unreadable:
            print(json.dumps({"id": bad.id, "file": str(bad.path), "unreadable": bad.why}))
        return EXIT_OK
    if not saves:
        print("No saved games (an unfinished game with moves is saved when you leave it).")
        _list_unreadable(unreadable)
        return EXIT_OK
    rows = [("id", "game", "deal", "moves", "home", "last played")]
    for saved in saves:
        r = saved.record
        home = f"{r.cards_home}/{r.cards}" if r.cards else "?"
        when = r.saved.replace("T", " ").rstrip("Z")[:16]
        game = printable(r.game, 30)
        rows.append((saved.id, game, saved.deal_text(), str(saved.moves), home, when))
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    for row in rows:
        cells = [
            cell.rjust(w) if k in (3, 4) and row is not rows[0] else cell.ljust(w)
            for k, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
    print("continue one with: solitaire play --resume ID")
    _list_unreadable(unreadable)
    return EXIT_OK


def _list_unreadable(unreadable: list[Unreadable]) -> None:
    if not unreadable:
        return
    print(f"{len(unreadable)} saved {'game' if len(unreadable) == 1 else 'games'} cannot be read:")
    for bad in unreadable:
        print(f"  {bad.id}  {printable(bad.path.name)}: {bad.why}")


# --- history -------------------------------------------------------------------------------


def _game_id(name: str) -> str:
    try:
        return load_game(name).id
    except UnknownGame:
        return name  # a game no longer installed is still in the history under its id


def cmd_history(args: argparse.Namespace) -> int:
    wanted = _game_id(args.game) if args.game else None
    history = History(history_path())
    try:
        games, problems = history.readable_games(wanted)
    except HistoryError as exc:
        return fail(str(exc), EXIT_INVALID)
    if problems:  # one line for them all, however many: the first says what is wrong
        rows = "1 row" if len(problems) == 1 else f"{len(problems)} rows"
        print(f"solitaire: {rows} of the history skipped: {problems[0]}", file=sys.stderr)
    if args.json:
        for g in games:
            if g.result in FINISHED:
                print(json.dumps(g.as_json()))
        return EXIT_OK
    if not games:
        which = f" of '{printable(wanted, 40)}'" if wanted else ""
        print(f"No games{which} in the history yet (it fills as you play: solitaire play GAME).")
        return EXIT_OK
    for n, summary in enumerate(summarise(games)):
        if n:
            print()
        print("\n".join(_summary_lines(summary)))
        print("\n".join(_game_lines([g for g in games if g.game == summary.game])))
    return EXIT_OK


SHOWN_GAMES = 10  # the last games of each game listed in text (--json lists them all)


def _game_lines(games: list[GameRow]) -> list[str]:
    """The last games of one game, a row each: when, deal, result, score, moves, time."""
    rows = []
    for g in games[-SHOWN_GAMES:]:
        when = printable((g.finished or g.started).replace("T", " ").rstrip("Z")[:16])
        deal = f"seed {printable(str(g.seed), 20)}" if g.seed is not None else "a given deck"
        rows.append(
            (when, deal, printable(g.result), f"{g.score}/{g.cards}", _plural(g.moves, "move"),
             time_text(g.seconds))
        )  # fmt: skip
    widths = [max(len(r[k]) for r in rows) for k in range(6)]
    earlier = len(games) - len(rows)
    head = f"  last {len(rows)} of {len(games)} games:" if earlier else "  games:"
    return [head] + [
        "    " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in rows
    ]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _summary_lines(s: Summary) -> list[str]:
    try:
        name = load_game(s.game).name
    except Exception:  # the game may be gone or broken: its history stays readable
        name = s.game
    counts = f"{s.played} played: {s.won} won, {s.lost} lost"
    if s.abandoned:
        counts += f", {s.abandoned} abandoned (not in the win rate)"
    if s.unfinished:
        counts += f", {s.unfinished} unfinished"
    lines = [f"{printable(name, 40)} ({printable(s.game, 40)})", f"  {counts}"]
    if s.win_rate is not None:
        lines.append(f"  win rate {s.win_rate:.0%} of {_plural(s.finished, 'finished game')}")
        lines.append(
            f"  streak: {_plural(s.streak, 'win')} now, best {_plural(s.best_streak, 'win')}"
        )
    best: list[str] = []
    if s.best_score is not None:
        best.append(f"score {s.best_score}/{s.cards}")
    if s.fastest_win is not None:
        best.append(f"fastest win {time_text(s.fastest_win)}")
    if s.fewest_moves is not None:
        best.append(f"fewest moves in a win {s.fewest_moves}")
    if best:
        lines.append("  best: " + ", ".join(best))
    return lines
