"""``solitaire play``: deal (or resume), then read the player's commands and report.

The loop reads commands from a terminal (with line editing and a history of commands) or from a
pipe, plays them through the session, lets the engine play what needs no decision (a phase that
plays itself, safe moves to the foundations, a forced finish), and reports in text or JSON lines.
An unfinished game is saved (in a file of its own, locked while played: ``Keeper``) when the
player quits, at the end of input on a terminal, on Ctrl-C, SIGTERM and SIGHUP; on a terminal,
restart, new and quit of a game with moves ask first. Every game played is written to the
player's history unless ``--no-record``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ....rules.errors import printable
from ....rules.files import file_problem
from ...core.cards import parse_deck, read_deck_text
from ...game.game import Game
from ...game.load import load_game
from ...play.keeper import Means, Question
from ...play.player import Outcome, Player, PlayOptions, checked_deal
from ...play.progress import Deal, new_deal
from ...play.records import GameRecord, RecordError
from ...play.saves import SavedGame
from ...play.serial import outcome_record, position_json, trace_json
from ...play.wording import ending, seed_line, trace_lines
from ..render import Renderer
from ..screen import Screen
from .output import EXIT_INVALID, EXIT_OK, InputError, Stopped, UsageError, fail


class LineMode:
    """One player's games in one run of ``solitaire play`` in line mode: the loop that reads
    commands, the questions, and the outcomes of the shared ``Player`` printed as text or as
    JSON lines."""

    def __init__(self, game: Game, args: argparse.Namespace, ref: str) -> None:
        self.game = game
        self.as_json: bool = args.json
        self.interactive = _interactive(args)
        self.screen = Screen(sys.stdout, colour=None if not args.ascii else False)
        self.renderer = Renderer(
            game, symbols=self.screen.colour and not self.as_json, width=self.screen.width()
        )
        self.player = Player(game, play_options(args, self.renderer.symbols), ref, warn=self.warn)
        self.player.width = self.renderer.width

    def ask(self, question: Question) -> Means:
        """The player's answer at the terminal (Enter: the first choice; end of input: go on)."""
        while True:
            try:
                answer = input(question.prompt())
            except EOFError:
                print()
                return "cancel"
            means = question.read(answer)
            if means is not None:
                return means
            keys = "/".join(c.key for c in question.choices)
            self.say(f"! answer {keys}, or Enter for the first")

    # --- output ---------------------------------------------------------------------------

    def warn(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # a terminal gone: the game still saves
            print(f"solitaire: {text}", file=sys.stderr, flush=True)

    def say(self, text: str) -> None:
        self.screen.say(text)

    def page(self, text: str) -> None:
        """Long text a screenful at a time on a terminal (Enter: the next, q: stop)."""
        lines = text.split("\n")
        height = self.screen.height() if self.interactive else 0
        if height < 5 or len(lines) < height:
            self.say(text)
            return
        step = height - 1  # the last line of the screen is the question
        for start in range(0, len(lines), step):
            self.screen.write(lines[start : start + step])
            if start + step >= len(lines):
                return
            try:
                answer = input(f"-- {start + step} of {len(lines)} lines: Enter for more, q --")
            except EOFError:
                print()
                return
            if answer.strip().lower() in ("q", "quit"):
                return

    def show(self) -> None:
        player = self.player
        state = player.position
        seconds = player.progress.seconds() if self.interactive else None
        lines = self.renderer.board(state)
        lines += self.renderer.status(state, player.progress.moves, seconds)
        self.screen.write(lines)

    def tell(self, outcome: Outcome) -> None:
        """An outcome: one JSON line, or its messages, the board and what follows it."""
        if self.as_json:
            print(json.dumps(outcome_record(self.game, outcome)), flush=True)
            return
        for text in outcome.messages:
            self.say(text)
        if outcome.help is not None:
            self.say(outcome.help)
        if outcome.rules is not None:
            self.page(outcome.rules)
        if outcome.board:
            self.show()
        for text in outcome.notes:
            self.say(text)

    # --- the loop -------------------------------------------------------------------------

    def run(self, lines: Iterator[str]) -> int:
        player = self.player
        try:
            for raw in lines:
                line = raw.strip()
                if not line or line.startswith("#"):
                    continue
                if self.handle(line):
                    return EXIT_OK
        except KeyboardInterrupt:
            saved = player.leave(saving=True)  # first: after a hang-up no output may get through
            with contextlib.suppress(OSError, ValueError):
                if self.interactive:
                    print(flush=True)  # off the prompt's line
                if saved:
                    self.warn(f"interrupted; the game is saved in {printable(saved, None)}")
                    self.warn(f"continue it with: solitaire play --resume {player.keeper.id}")
            raise
        # End of input: on a terminal the player left (Ctrl-D), a script just ended.
        saved = player.leave(saving=self.interactive)
        if saved and not self.as_json:
            self.say("\n".join(player.saved_lines(saved)))
        return EXIT_OK

    def handle(self, line: str) -> bool:
        """Play one command and report it; whether the player quit."""
        player = self.player
        command = player.parse(line)
        means: Means | None = None
        question = player.question(command)
        if question is not None and self.interactive:
            means = self.ask(question)
        player.help_width = self.screen.width()
        outcome = player.perform(command, means)
        self.tell(outcome)
        return outcome.quit


def play_options(
    args: argparse.Namespace, symbols: bool = False, interactive: bool | None = None
) -> PlayOptions:
    """``play``'s options as the player takes them."""
    return PlayOptions(
        auto=not args.no_auto,
        record_history=not args.no_record,
        trace=args.trace,
        symbols=symbols,
        interactive=_interactive(args) if interactive is None else interactive,
    )


# --- reading commands ---------------------------------------------------------------------


def _terminal_lines() -> Iterator[str]:
    """Lines typed at the prompt, with line editing and a history of commands (readline)."""
    history = _setup_readline()
    try:
        while True:
            try:
                line = input("> ")
            except EOFError:
                print()
                return
            yield line
    finally:
        history()


def _setup_readline() -> Callable[[], None]:
    """Line editing for ``input()``; returns what saves the history of commands at the end."""
    try:
        import readline
    except ImportError:  # pragma: no cover - platforms without readline
        return lambda: None
    from ...play.userdata import command_history_path

    path = command_history_path()
    if file_problem(path) is None:  # a regular file of a sane size (a FIFO would hang)
        with contextlib.suppress(OSError, ValueError):
            readline.read_history_file(path)
    readline.set_history_length(1000)

    def save() -> None:
        from ...play.atomic import write_text

        count = readline.get_current_history_length()
        items = [readline.get_history_item(i) for i in range(1, count + 1)]
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(path, "".join(f"{item}\n" for item in items if item))
        except OSError:
            pass

    return save


MAX_LINE = 1_000  # characters in one line of commands; a command is a few words


def _piped_lines() -> Iterator[str]:
    """Commands from a pipe or a file, a bounded line at a time: a stream without line breaks
    (/dev/zero, a binary file) is refused at its first long line instead of filling memory;
    a closed stdin is no commands."""
    stream = sys.stdin
    number = 0
    while stream is not None and (line := stream.readline(MAX_LINE + 1)):
        number += 1
        if len(line) > MAX_LINE and not line.endswith("\n"):
            raise InputError(
                f"line {number} of the input is longer than {MAX_LINE:,} characters: not a command"
            )
        yield line


# --- the command ----------------------------------------------------------------------------


def _resume_source(args: argparse.Namespace) -> tuple[Path, Game | None]:
    """The record to resume and, when GAME was given, the game: ``--resume FILE``, ``--resume
    ID`` (a saved game), ``--resume GAME`` or ``GAME --resume`` (that game's last save), or
    ``--resume`` alone (the last game saved)."""
    from ...game.load import UnknownGame
    from ...play.saves import SaveStore

    store = SaveStore()
    wanted: str = args.resume
    if wanted and os.path.exists(wanted):
        return Path(wanted), load_game(args.game) if args.game else None
    if wanted:
        found = store.find(wanted)
        if found is not None:
            return found.path, load_game(args.game) if args.game else None
        if args.game is not None:
            raise RecordError(
                f"no saved game '{printable(wanted, 40)}' and no such file (see 'solitaire saves')"
            )
        try:  # 'play --resume GAME': that game's last
            game: Game | None = load_game(wanted)
        except UnknownGame:
            raise RecordError(
                f"no saved game, file or game '{printable(wanted, 40)}' (see 'solitaire saves')"
            ) from None
    else:
        game = load_game(args.game) if args.game else None
    latest = store.latest(game.id if game else None)
    if latest is None:
        which = f" of '{game.id}'" if game else ""
        raise RecordError(f"there is no unfinished game{which} to resume")
    return latest.path, game


def cmd_play(args: argparse.Namespace) -> int:
    if args.resume is not None:
        if args.seed is not None or args.deck is not None:
            raise UsageError("--resume continues a saved deal: it takes no --seed or --deck")
        try:
            return _resume(args)
        except RecordError as exc:
            return fail(f"cannot resume: {exc}", EXIT_INVALID)
    if args.game is None:
        if not _wants_table(args):  # a script, a pipe or line mode: the game must be named
            raise UsageError("play needs a GAME (see 'solitaire list'), or --resume")
        from ..launch import choose_game_at_table  # Textual is imported only for the table

        chosen = choose_game_at_table()
        if chosen is None:
            return EXIT_OK
        args.game = chosen
    if (args.winnable and args.deck is not None) or (args.unproved and not args.winnable):
        raise UsageError("--winnable deals from a deal number; --unproved goes with it")
    game = load_game(args.game)
    if args.deck is not None:
        deal = Deal(None, parse_deck(read_deck_text(args.deck), game.cards))
    elif args.winnable:
        from ...play.winnable_deals import winnable_seed

        if args.seed is not None and not isinstance(args.seed, int):
            raise UsageError("--winnable searches from a deal number N (not ms:N)")
        seed, told = winnable_seed(game, args.seed, args.unproved)
        print(f"solitaire: {told}", file=sys.stderr)
        if seed is None:
            return EXIT_INVALID
        deal = new_deal(game, seed)
    else:
        deal = new_deal(game, args.seed)
    offered: list[str] = []
    if args.seed is not None or args.deck is not None:
        from ...play.saves import SaveStore

        saves = SaveStore().of_deal(game.id, deal.seed, deal.deck)
        if saves and _interactive(args) and _take_offer(saves[0]):
            args.resume = str(saves[0].path)
            try:
                return _resume(args)
            except RecordError as exc:
                return fail(f"cannot resume: {exc}", EXIT_INVALID)
        offered = [s.id for s in saves]
    return _play(game, args, deal, args.game, offered=offered)


def _interactive(args: argparse.Namespace) -> bool:
    return sys.stdin is not None and sys.stdin.isatty() and not args.json


def _take_offer(saved: SavedGame) -> bool:
    """Ask whether to continue the saved game of the deal asked for (Enter: yes)."""
    record = saved.record
    home = f", {record.cards_home}/{record.cards} cards home" if record.cards else ""
    moves = saved.moves
    while True:
        try:
            answer = input(
                f"You have an unfinished game of this deal ({saved.id}: {moves} "
                f"move{'s' if moves != 1 else ''}{home}, last played {saved.record.saved}). "
                "Continue it? [Y/n] "
            )
        except EOFError:
            print()
            return False
        text = answer.strip().lower()
        if text in ("", "y", "yes"):
            return True
        if text in ("n", "no"):
            return False


def _resume(args: argparse.Namespace) -> int:
    from ...play.records import read_record

    path, game = _resume_source(args)
    record = read_record(path)
    if game is None:
        game = game_of(record)
    deal = checked_deal(record, game, path)
    ref = args.game or record.game
    try:
        return _play(game, args, deal, ref, record, path)
    except RecordError as exc:
        raise RecordError(f"{printable(str(path))}: {exc}") from None


def game_of(record: GameRecord) -> Game:
    """The game a record was played with: the rule file it names, or else its game id."""
    from ...game.load import UnknownGame

    if record.rules_file and os.path.isfile(record.rules_file):
        return load_game(record.rules_file)
    try:
        return load_game(record.game)
    except UnknownGame:
        raise RecordError(
            f"the game '{printable(record.game, 40)}' is not a shipped game and its rule file "
            "is gone; give it: solitaire play RULE_FILE --resume RECORD"
        ) from None


def _play(
    game: Game,
    args: argparse.Namespace,
    deal: Deal,
    ref: str,
    record: GameRecord | None = None,
    source: Path | None = None,
    offered: Sequence[str] = (),
) -> int:
    if _wants_table(args):
        from ..launch import play_at_table

        options = play_options(args, symbols=not args.ascii, interactive=True)
        return play_at_table(game, options, deal, ref, record, source, offered, ascii=args.ascii)
    mode = LineMode(game, args, ref)
    player = mode.player
    if record is not None and source is not None:
        record, deal = player.claim_saved(record, source)
    player.begin(deal, record, source)
    session = player.session
    played_itself = all(entry.auto for entry in session.history)
    if record is None and session.is_over() and played_itself:
        return _report_autoplayed(mode)
    player.offered = list(offered)
    with _saving_on_signals():
        mode.tell(player.introduce(str(source) if source is not None else None))
        if mode.interactive:
            mode.say("Type 'help' for the commands, 'rules' for the rules.")
            return mode.run(_terminal_lines())
        return mode.run(_piped_lines())


@contextlib.contextmanager
def _saving_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP (a terminal window closed) stop the game as Ctrl-C does: the game
    is saved, and the exit code is 128 plus the signal's number."""
    import signal

    stopping: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        for name in ("SIGTERM", "SIGHUP"):  # once stopping, stop: the save is not cut short
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_IGN)
        stopping.append(signum)
        raise Stopped(signum)

    kept: list[tuple[int, Any]] = []
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            with contextlib.suppress(ValueError, OSError):  # not the main thread
                kept.append((number, signal.signal(number, stop)))
    try:
        with _signals_reach_the_wait({number for number, _ in kept}, stopping):
            yield
    finally:
        for number, handler in kept:
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler)


@contextlib.contextmanager
def _signals_reach_the_wait(numbers: set[int], handled: list[int]) -> Iterator[None]:
    """A signal among ``numbers`` that lands just before a wait for input still stops it.

    Python runs a signal's handler between two steps of its own code, or when the signal
    breaks a wait (EINTR). One that lands after the last step and before the wait begins (as
    readline draws the prompt, say) waits with it: for a key that may never come, in a
    terminal window left open. So a thread, woken by the signal's number on the wakeup fd,
    sends the signal again to the main thread, at 20 ms intervals, until its handler has
    run (it appends to ``handled``).
    """
    import select
    import signal
    import threading

    if not numbers or not hasattr(signal, "pthread_kill"):
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        previous = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except ValueError:  # not the main thread: its handlers do not run here anyway
        os.close(read_end)
        os.close(write_end)
        yield
        return
    main = threading.main_thread().ident
    assert main is not None

    def watch() -> None:
        caught = 0
        while True:
            nudging = caught != 0 and not handled
            if select.select([read_end], [], [], 0.02 if nudging else None)[0]:
                woken = os.read(read_end, 64)
                if not woken or 0 in woken:  # 0 is no signal's number: the game has ended
                    return
                caught = caught or next((n for n in woken if n in numbers), 0)
                if nudging:
                    continue  # a nudge's own echo: the next one after a pause
            if caught and not handled:
                with contextlib.suppress(OSError):
                    signal.pthread_kill(main, caught)

    watcher = threading.Thread(target=watch, name="signals", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            signal.set_wakeup_fd(previous)
        with contextlib.suppress(OSError):
            os.write(write_end, b"\0")
        watcher.join(timeout=1.0)
        os.close(write_end)
        if not watcher.is_alive():  # else left open for it, as the process ends soon after
            os.close(read_end)


def _wants_table(args: argparse.Namespace) -> bool:
    """The full-screen table: on a terminal (both ends), unless --line or --json."""
    if getattr(args, "line", False) or args.json or os.environ.get("TERM") == "dumb":
        return False
    streams = (sys.stdin, sys.stdout)
    return all(s is not None and s.isatty() for s in streams)


def _report_autoplayed(mode: LineMode) -> int:
    """A game the engine played to its end by itself: the final board and the result."""
    player = mode.player
    game = player.game
    state = player.position
    seed = player.deal.seed
    if mode.as_json:
        record: dict[str, Any] = {"game": game.id, "seed": seed}
        record.update(position_json(game, state))
        record.update(trace_json(player.steps if player.options.trace else None))
        print(json.dumps(record))
        return EXIT_OK
    if seed is not None:
        mode.say(seed_line(game, seed, player.ref, mode.renderer.width))
    if player.options.trace:
        for line in trace_lines(game, player.steps):
            mode.say(line)
        mode.say("")
    mode.screen.write(mode.renderer.board(state, ()))
    mode.say(ending(game, state))
    return EXIT_OK
