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
from typing import TYPE_CHECKING, Any, ClassVar

from ....rules.errors import printable
from ....rules.files import file_problem
from ....rules.model import RESERVED_COMMANDS
from ...core.cards import DOWN, FACE, MASK, card_text, parse_deck, read_deck_text
from ...core.seeds import Seed, parse_seed
from ...core.state import Action, IllegalAction, State, Step
from ...game.game import Game
from ...game.load import load_game
from ...play import assist
from ...play.keeper import Keeper, Leaving, Means
from ...play.progress import Deal, Progress, new_deal
from ...play.records import GameRecord, RecordError
from ...play.saves import SavedGame
from ...play.session import Session
from ..render import Renderer, face_name, symbols_in, time_text
from ..screen import Screen
from .output import (
    EXIT_INVALID,
    EXIT_OK,
    InputError,
    Stopped,
    UsageError,
    ending,
    fail,
    position_json,
    seed_line,
    trace_json,
    trace_lines,
)

if TYPE_CHECKING:  # pragma: no cover
    from ...play.advice import Adviser

PREFER = assist.PREFERENCE
BUILT_INS = (
    "undo [u], redo, hint [h], moves [m], board [b], rules, auto on|off, save FILE, "
    "restart, new [SEED], help [?], quit [q]"
)


class Player:
    """One player's games in one run of ``solitaire play``: the loop, the reports, the saves."""

    COMMANDS: ClassVar[tuple[str, ...]] = (
        "undo", "redo", "hint", "moves", "board", "rules", "help", "save", "restart", "new",
        "quit", "exit",
    )  # fmt: skip

    def __init__(self, game: Game, args: argparse.Namespace, ref: str) -> None:
        self.game = game
        self.ref = ref  # how the user named the game, for the replay hint
        self.as_json: bool = args.json
        self.trace_all: bool = args.trace
        self.record_history: bool = not args.no_record
        self.auto: bool = not args.no_auto
        self.interactive = False
        self.screen = Screen(sys.stdout, colour=None if not args.ascii else False)
        self.renderer = Renderer(
            game, symbols=self.screen.colour and not self.as_json, width=self.screen.width()
        )
        self.shown = 0  # how many of the cards moved have been listed (--trace)
        self.keeper = Keeper(game, record_history=self.record_history, warn=self.warn)
        self.offered: list[str] = []  # saved games of the deal asked for, not taken up

    # --- one game -------------------------------------------------------------------------

    def begin(
        self, deal: Deal, record: GameRecord | None = None, source: Path | None = None
    ) -> None:
        """Start a game on ``deal``, or continue the one in ``record`` (read from ``source``)."""
        self.progress = Progress(self.game, deal, record, auto=self.auto)
        self.keeper.begin(self.progress, source)
        self.shown = len(self.steps) if record is not None else 0  # a resumed game's are old
        self.seen: set[State] = {s.before for s in self.session.history}
        self.seen.add(self.session.position)
        self.told_lost: set[State] = set()  # positions where 'no win is possible' was said
        self._adviser: Adviser | None = None  # made at the first hint or check
        if self.session.is_over():
            self.game_over()

    @property
    def adviser(self) -> Adviser:
        """Hints, the winning line they follow, and what is known lost (imported and made
        when first needed: a game that plays itself never needs the solver)."""
        if self._adviser is None:
            from ...play.advice import Adviser, hint_seconds

            self._adviser = Adviser(self.game, seconds=hint_seconds(), after=self.progress.after)
        return self._adviser

    @property
    def session(self) -> Session:
        return self.progress.session

    @property
    def deal(self) -> Deal:
        return self.progress.deal

    @property
    def steps(self) -> list[Step]:
        return self.progress.steps

    def settle(self) -> list[Action]:
        self.progress.auto = self.auto
        return self.progress.settle()

    def write_record(self, path: Path, make_folder: bool = False) -> None:
        from ..atomic import write_text

        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, self.progress.record().dumps())

    def autosave(self) -> str | None:
        """Save an unfinished game in which the player has moved; the file, or None."""
        saved = self.keeper.autosave()
        return str(saved) if saved is not None else None

    def game_over(self) -> None:
        self.keeper.game_over()

    def leave(self, saving: bool, abandon: bool = False) -> str | None:
        """The player leaves this game unfinished (see ``Keeper.leave``); the save, or None."""
        saved = self.keeper.leave(saving, abandon)
        return str(saved) if saved is not None else None

    def saved_lines(self, saved: str) -> list[str]:
        """Where a game was saved and how to go on with it (the path whole, on its own line)."""
        uid = self.keeper.id
        return [
            f"Saved as game {uid}; continue with: solitaire play --resume {uid}",
            f"  ({printable(saved, None)})",
        ]

    def ask(self, leaving: Leaving) -> Means:
        """On a terminal, what the player wants done with a game with moves before
        ``leaving`` it; without a terminal (a script) the answer is ``keep`` for quit and
        ``abandon`` for restart and new, as documented."""
        question = self.keeper.question(leaving)
        if question is None:
            return "abandon"
        if not self.interactive:
            return "keep" if leaving == "quit" else "abandon"
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

    def emit(self, command: str | None, ok: bool, error: str | None, **extra: Any) -> None:
        record: dict[str, Any] = {"command": command, "ok": ok, "error": error}
        if command is None:
            record.update(game=self.game.id, seed=self.deal.seed)
        record.update(position_json(self.game, self.session.position))
        record.update(extra)
        print(json.dumps(record), flush=True)

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

    def card_name(self, card: int) -> str:
        """A card as the board writes it (with a suit symbol on a colour terminal)."""
        return face_name(FACE[card & MASK], self.renderer.symbols)

    def show(self) -> None:
        state = self.session.position
        seconds = self.progress.seconds() if self.interactive else None
        lines = self.renderer.board(state)
        lines += self.renderer.status(state, self.progress.moves, seconds)
        self.screen.write(lines)

    def introduce(self, resumed: str | None = None, command: str | None = None) -> None:
        """The first lines of a game: which deal it is, and the board."""
        warning = None if self.session.is_over() else self.no_win_yet()
        if self.as_json:
            extra: dict[str, Any] = {"resumed": resumed} if resumed else {}
            if command is not None:
                extra.update(game=self.game.id, seed=self.deal.seed)
            if warning:
                extra["no_win"] = warning
            if self.offered and command is None:
                extra["saved_games"] = self.offered
            self.emit(command, True, None, **extra, **self.trace_extra())
            return
        self.list_steps()
        if self.offered and command is None:
            others = len(self.offered) - 1
            more = f" (and {others} more: solitaire saves)" if others else ""
            self.say(
                "You have an unfinished game of this deal, kept apart from this one: "
                f"solitaire play --resume {self.offered[0]}{more}"
            )
        if resumed:
            moves = self.progress.moves
            played = time_text(self.progress.seconds())
            source = self.keeper.source
            where = (
                f"game {self.keeper.id}"
                if source is not None and self.keeper.is_saved()
                else f"from {printable(resumed, None)}"
            )
            self.say(
                f"{self.game.name}: resumed {where} "
                f"({moves} move{'s' if moves != 1 else ''}, {played} played)"
            )
        if self.deal.seed is not None:
            self.say(seed_line(self.game, self.deal.seed, self.ref, self.renderer.width))
        self.show()
        if self.session.is_over():
            self.say(ending(self.game, self.session.position))
        elif warning:
            self.say(warning)

    def trace_extra(self) -> dict[str, list[str]]:
        if not self.trace_all:
            self.shown = len(self.steps)
            return {}
        fresh = self.steps[self.shown :]
        self.shown = len(self.steps)
        return trace_json(fresh)

    def list_steps(self) -> None:
        """With --trace, every card moved since the last listing."""
        if not self.trace_all:
            self.shown = len(self.steps)
            return
        fresh = self.steps[self.shown :]
        for text in trace_lines(self.game, fresh, self.shown):
            self.say(text)
        self.shown = len(self.steps)

    def report(self, action: Action, steps: list[Step]) -> str | None:
        """One line for an action that moved several cards: 'fill: t12 <- 4H, t1 <- 9C'."""
        moved = [s for s in steps if s.src != s.dst]  # a card turned where it lies did not move
        if len(moved) < 2:
            return None
        names = self.game.pile_names
        parts = [f"{names[s.dst]} <- {self.card_name(s.card)}" for s in moved]
        return self.fitted(f"{self.game.action_text(action)}: ", parts, f"{len(moved)} cards")

    def fitted(self, head: str, parts: list[str], total: str) -> str:
        """``head`` and as many ``parts`` as fit the board's width, then '... (total)'."""
        width = self.renderer.width
        for shown in range(len(parts), -1, -1):
            more = f", ... ({total})" if shown < len(parts) else ""
            text = head + ", ".join(parts[:shown]) + more
            if len(text) <= width or shown == 0:
                return text.replace(": , ...", ": ...")
        return head  # pragma: no cover - the loop always returns

    # --- the loop -------------------------------------------------------------------------

    def run(self, lines: Iterator[str]) -> int:
        try:
            for raw in lines:
                line = raw.strip()
                if not line or line.startswith("#"):
                    continue
                if self.handle(line) == "quit":
                    return EXIT_OK
        except KeyboardInterrupt:
            saved = self.leave(saving=True)  # first: after a hang-up no output may get through
            with contextlib.suppress(OSError, ValueError):
                if self.interactive:
                    print(flush=True)  # off the prompt's line
                if saved:
                    self.warn(f"interrupted; the game is saved in {printable(saved, None)}")
                    self.warn(f"continue it with: solitaire play --resume {self.keeper.id}")
            raise
        # End of input: on a terminal the player left (Ctrl-D), a script just ended.
        saved = self.leave(saving=self.interactive)
        if saved and not self.as_json:
            self.say("\n".join(self.saved_lines(saved)))
        return EXIT_OK

    def handle(self, line: str) -> str:
        words = line.split()
        first = words[0].lower()
        name = RESERVED_COMMANDS.get(first, "")
        takes_word = name in ("save", "new")  # 'save FILE', 'new SEED'; the others stand alone
        if name not in self.COMMANDS or (len(words) > 1 and not takes_word):
            name = ""
        if first == "auto" and len(words) <= 2 and first not in self.game.notation.keys:
            return self.switch_auto(line, words[1:])
        if name in ("quit", "exit"):
            return self.quit(line)
        if name in ("undo", "redo"):
            return self.undo_redo(line, name)
        if name in ("hint", "moves", "board", "help", "rules"):
            return self.inform(line, name)
        if name == "save":
            return self.save(line, line.split(None, 1)[1:])
        if name in ("restart", "new"):
            return self.restart(line, name, words[1:])
        return self.act(line, words)

    def quit(self, line: str) -> str:
        state = self.session.position
        means = self.ask("quit")
        if means == "cancel":
            self.say("the game goes on")
            return "ok"
        saved = self.leave(saving=means == "keep", abandon=means == "abandon")
        if self.as_json:
            self.emit(line, True, None, **({"saved": saved} if saved else {}))
            return "quit"
        moves = self.progress.moves
        summary = (
            f"{self.game.name}: {moves} move{'s' if moves != 1 else ''}, "
            f"{self.game.score(state)}/{len(self.game.cards)} {self.game.spec.score.label}"
        )
        if self.interactive:
            summary += f", {time_text(self.progress.seconds())} played"
        self.say(summary + ".")
        if saved:
            self.say("\n".join(self.saved_lines(saved)))
        elif means == "abandon" and moves and not self.session.is_over():
            self.say("Abandoned.")
        return "quit"

    def switch_auto(self, line: str, words: list[str]) -> str:
        if words and words[0].lower() not in ("on", "off"):
            return self.refuse(line, "auto takes 'on' or 'off'")
        if words:
            self.auto = words[0].lower() == "on"
        state = "on" if self.auto else "off"
        played = self.settle() if self.auto else []
        if played:
            self.seen.add(self.session.position)
            if self.session.is_over():
                self.game_over()
        if self.as_json:
            self.emit(line, True, None, auto_moves=self.auto, **self.played_extra(played))
            return "ok"
        self.say(
            f"automatic moves: {state} (safe moves to the foundations, and the finish when "
            "only moves to the foundations are left)"
        )
        if played:
            self.after(played, None)
        return "ok"

    def undo_redo(self, line: str, name: str) -> str:
        session = self.session
        refusal = self.keeper.undo_refusal() if name == "undo" else None
        if refusal:
            return self.refuse(line, refusal)
        try:
            actions = session.undo() if name == "undo" else session.redo_choice()
        except IndexError as exc:
            return self.refuse(line, str(exc))
        self.progress.sync_times()
        if name == "redo" and session.is_over():
            self.game_over()
        texts = [self.game.action_text(a) for a in actions]
        if self.as_json:
            self.emit(line, True, None, actions=texts, **self.trace_extra())
            return "ok"
        self.list_steps()
        self.say(f"{'undone' if name == 'undo' else 'redone'}: {', '.join(texts)}")
        self.show()
        return "ok"

    def inform(self, line: str, name: str) -> str:
        state = self.session.position
        game = self.game
        if name == "hint":
            advice = self.adviser.advise(state, self.seen)
            action = advice.action
            text = game.action_text(action, state) if action else None
            if self.as_json:
                extra = {"no_win": advice.note} if advice.note else {}
                self.emit(line, True, None, hint=text, hint_kind=advice.kind,
                          winnable=advice.winnable, **extra)  # fmt: skip
            elif action is None:
                self.say(advice.note or "no legal action is left")
                self.told_lost.add(state)  # said: the board need not say it again
            else:
                why = {
                    "winning": "the next move of a winning line",
                    "heuristic": "a guess: no winning line found in a short search",
                }[advice.kind]
                if advice.winnable is False:
                    why = symbols_in(advice.note, self.renderer.symbols)
                self.say(f"hint: {text}{self.describe(state, action)}; {why}")
        elif name == "moves":
            texts = [game.action_text(a, state) for a in self.session.legal_actions()]
            if self.as_json:
                self.emit(line, True, None, moves=texts)
            else:
                self.say("legal: " + (", ".join(texts) if texts else "none"))
        elif name == "board":
            if self.as_json:
                self.emit(line, True, None)
            else:
                self.show()
        elif name == "rules":
            from ..rules_text import rules_text

            text = rules_text(game, min(self.renderer.width, 100) - 1)
            if self.as_json:
                self.emit(line, True, None, rules=text)
            else:
                self.page(text)
        else:
            if self.as_json:
                self.emit(line, True, None, help=self.help_text())
            else:
                self.say(self.help_text())
        return "ok"

    def describe(self, state: State, action: Action, verb: str = "moves ") -> str:
        """' (moves 5C)' for an action that moves a top card; ' (moves 2H and the 3 cards on
        it)' for several."""
        pile = state.piles[action.src] if action.src >= 0 else ()
        if action.dst < 0 or not pile:
            return ""
        if 1 < action.n <= len(pile):
            above = action.n - 1
            more = f" and the {above} card{'s' if above > 1 else ''} on it"
            return f" ({verb}{self.card_name(pile[-action.n])}{more})"
        return f" ({verb}{self.card_name(pile[-1])})"

    def help_text(self) -> str:
        lines = ["Actions:"]
        notation = self.game.notation
        by_itself = []
        for name, effect in self.game.effects.items():
            if effect.automatic:  # not a command: the program plays it
                by_itself.append(f"  {(effect.help or name).rstrip('.')} (played by itself).")
                continue
            keys = [k for k, v in notation.keys.items() if v == name and k != name]
            form = {
                0: name,
                1: f"{name} PILE",
                2: f"SOURCE TARGET (e.g. {self._example_move(name)})",
            }[effect.takes_piles]
            alias = f" [{', '.join(keys)}]" if keys else ""
            lines.append(f"  {form}{alias}: {effect.help or name}")
        sources = [s for e in self.game.effects.values() for s in getattr(e, "sources", ())]
        if sources:
            example = self.game.pile_names[sources[0]]
            lines.append(f"  PILE alone (e.g. {example}): its top card's only move, or {PREFER}")
        lines += by_itself
        lines.append(f"Commands: {BUILT_INS}")
        width = max(40, self.screen.width())  # wrapped at a word, not cut by the terminal
        import textwrap  # only when the help is shown

        return "\n".join(
            textwrap.fill(line, width, subsequent_indent="      ", break_on_hyphens=False)
            for line in lines
        )

    def _example_move(self, name: str) -> str:
        """A legal move of this action now, or else its first source and target."""
        for action in self.session.legal_actions():
            if action.name == name:
                return self.game.action_text(action, self.session.position)
        effect = self.game.effects[name]
        src, dst = getattr(effect, "sources", (0,))[0], getattr(effect, "targets", (1,))[0]
        return self.game.action_text(Action(name, src, dst))

    def save(self, line: str, words: list[str]) -> str:
        if not words:
            return self.refuse(line, "save needs a file name, e.g. 'save game.json'")
        path = Path(words[0])
        try:
            self.write_record(path)
        except OSError as exc:
            return self.refuse(line, f"cannot save to {printable(words[0])}: {exc.strerror or exc}")
        if self.as_json:
            self.emit(line, True, None, saved=str(path))
        else:
            self.say(f"saved: {printable(str(path))} (continue with: solitaire play --resume FILE)")
        return "ok"

    def restart(self, line: str, name: str, words: list[str]) -> str:
        if name == "restart" and words:
            return self.refuse(line, "restart takes no argument")
        seed: Seed | None = None
        if words:
            try:
                seed = parse_seed(words[0])
                deal = new_deal(self.game, seed)
            except ValueError as exc:
                return self.refuse(line, str(exc))
        else:
            deal = new_deal(self.game)
        means = self.ask("restart" if name == "restart" else "new")
        if means == "cancel":
            return self.refuse(line, f"{name} cancelled: the game goes on")
        saved = self.leave(saving=means == "keep", abandon=means == "abandon")
        if saved and not self.as_json:
            self.say(self.saved_lines(saved)[0].replace("continue", "continue it"))
        self.begin(self.deal if name == "restart" else deal)
        self.introduce(command=line)
        return "ok"

    def act(self, line: str, words: list[str]) -> str:
        """A game action: its text ('t3 f5', 'd'), or a pile name alone ('t3')."""
        session = self.session
        game = self.game
        before = session.position
        chosen: str | None = None
        try:
            if len(words) == 1 and words[0] not in game.notation.keys:
                pile = game.layout.index.get(words[0], game.layout.index.get(words[0].lower()))
                if pile is not None:
                    action, chosen = self.choose(pile)
                else:
                    action = game.parse_action(line, before)
            else:
                action = game.parse_action(line, before)
            mark = len(self.steps)
            session.push(action)
        except (ValueError, IllegalAction) as exc:
            return self.refuse(line, str(exc))
        own = self.steps[mark:]
        known = len(session.history) - 1
        played = self.settle()
        self.seen.update(entry.before for entry in session.history[known:])
        self.seen.add(session.position)
        if session.is_over():
            self.game_over()
        elif self.interactive:
            self.autosave()
        if self.as_json:
            extra: dict[str, Any] = {"played": game.action_text(action, before)} if chosen else {}
            warning = None if session.is_over() else self.no_win_yet()
            if warning:
                extra["no_win"] = warning
            self.emit(line, True, None, **extra, **self.played_extra(played))
            return "ok"
        if chosen:
            self.say(f"{game.action_text(action, before)}{self.describe(before, action)}: {chosen}")
        self.after(played, (action, own))
        return "ok"

    def played_extra(self, played: list[Action]) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if played:
            history = self.session.history[len(self.session.history) - len(played) :]
            extra["auto"] = [self.game.action_text(p.action, p.before) for p in history]
        extra.update(self.trace_extra())
        return extra

    def after(self, played: list[Action], own: tuple[Action, list[Step]] | None) -> None:
        """Report what an action did and what the engine then played, and show the board."""
        if self.trace_all:
            self.list_steps()
        else:
            lines: list[str] = []
            if own is not None:
                text = self.report(*own)
                if text:
                    lines.append(text)
            auto = self.auto_report(played)
            if auto:
                lines.append(auto)
            for text in lines:
                self.say(text)
            self.shown = len(self.steps)
        self.show()
        if self.session.is_over():
            self.say(ending(self.game, self.session.position))
            if self.interactive:
                self.say("Type 'new' for another deal, 'restart' to play this one again, or 'q'.")
        else:
            warning = self.no_win_yet()
            if warning:
                self.say(warning)

    def no_win_yet(self) -> str | None:
        """Said once, when the position is proved lost (or only undoing moves remain)."""
        state = self.session.position
        if state in self.told_lost:
            return None
        warning = self.adviser.no_win(state, self.seen)
        if warning:
            self.told_lost.add(state)
        return warning

    def auto_report(self, played: list[Action]) -> str | None:
        """'auto: t3 f5 (5C), w f1 (AC)' for the actions the engine played after a command."""
        if not played:
            return None
        history = self.session.history[len(self.session.history) - len(played) :]
        parts = [
            self.game.action_text(p.action, p.before) + self.describe(p.before, p.action, "")
            for p in history
        ]
        return self.fitted("auto: ", parts, f"{len(played)} actions")

    def choose(self, pile: int) -> tuple[Action, str]:
        """The action a pile name alone stands for; ValueError when there is none."""
        state = self.session.position
        found = assist.preferred(self.game, state, pile)
        if found is not None:
            return found
        name = self.game.pile_names[pile]
        cards = state.piles[pile]
        if not cards:
            raise ValueError(f"{name} is empty")
        top = cards[-1]
        what = "its top card" if top & DOWN else f"its top card ({self.card_name(top)})"
        raise ValueError(f"{name}: {what} has no legal move now")

    def refuse(self, line: str, reason: str) -> str:
        if self.as_json:
            self.emit(line, False, reason)
        else:
            self.say(f"! {symbols_in(reason, self.renderer.symbols)}")
        return "refused"


# --- reading commands ---------------------------------------------------------------------


def _terminal_lines(player: Player) -> Iterator[str]:
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
        from ..atomic import write_text

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
        raise UsageError("play needs a GAME (see 'solitaire list'), or --resume")
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

        deck = None if deal.seed is not None else [card_text(c) for c in deal.order]
        saves = SaveStore().of_deal(game.id, deal.seed, deck)
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
    deal = _checked_deal(record, game, path)
    ref = args.game or record.game
    try:
        return _play(game, args, deal, ref, record, path)
    except RecordError as exc:
        raise RecordError(f"{printable(str(path))}: {exc}") from None


def _checked_deal(record: GameRecord, game: Game, path: Path) -> Deal:
    from ...play.records import check_rules, deal_order

    try:
        check_rules(record, game)
        order = deal_order(record, game)
    except RecordError as exc:
        raise RecordError(f"{printable(str(path))}: {exc}") from None
    return Deal(record.seed, order)


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
        from ..table.app import make_app, run  # Textual is imported only for the table

        return run(make_app(game, args, deal, ref, record, source, offered))
    player = Player(game, args, ref)
    if record is not None and source is not None:
        record, deal = claim_saved(player, game, record, source)
    player.begin(deal, record, source)
    session = player.session
    played_itself = all(entry.auto for entry in session.history)
    if record is None and session.is_over() and played_itself:
        return _report_autoplayed(player)
    player.interactive = _interactive(args)
    player.offered = list(offered)
    with _saving_on_signals():
        player.introduce(str(source) if source is not None else None)
        if player.interactive:
            player.say("Type 'help' for the commands, 'rules' for the rules.")
            return player.run(_terminal_lines(player))
        return player.run(_piped_lines())


def claim_saved(
    player: Player, game: Game, record: GameRecord, source: Path
) -> tuple[GameRecord, Deal]:
    """A saved game locked for this player, then read again (so that the game played is the
    last one saved), with its deal."""
    from ...play.records import read_record

    player.keeper.claim(record.id)
    record = read_record(source)
    return record, _checked_deal(record, game, source)


@contextlib.contextmanager
def _saving_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP (a terminal window closed) stop the game as Ctrl-C does: the game
    is saved, and the exit code is 128 plus the signal's number."""
    import signal

    def stop(signum: int, _frame: object) -> None:
        for name in ("SIGTERM", "SIGHUP"):  # once stopping, stop: the save is not cut short
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_IGN)
        raise Stopped(signum)

    kept: list[tuple[int, Any]] = []
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            with contextlib.suppress(ValueError, OSError):  # not the main thread
                kept.append((number, signal.signal(number, stop)))
    try:
        yield
    finally:
        for number, handler in kept:
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler)


def _wants_table(args: argparse.Namespace) -> bool:
    """The full-screen table: on a terminal (both ends), unless --line or --json."""
    if getattr(args, "line", False) or args.json or os.environ.get("TERM") == "dumb":
        return False
    streams = (sys.stdin, sys.stdout)
    return all(s is not None and s.isatty() for s in streams)


def _report_autoplayed(player: Player) -> int:
    """A game the engine played to its end by itself: the final board and the result."""
    game = player.game
    state = player.session.position
    seed = player.deal.seed
    if player.as_json:
        record: dict[str, Any] = {"game": game.id, "seed": seed}
        record.update(position_json(game, state))
        record.update(trace_json(player.steps if player.trace_all else None))
        print(json.dumps(record))
        return EXIT_OK
    if seed is not None:
        player.say(seed_line(game, seed, player.ref, player.renderer.width))
    if player.trace_all:
        for line in trace_lines(game, player.steps):
            player.say(line)
        player.say("")
    player.screen.write(player.renderer.board(state, ()))
    player.say(ending(game, state))
    return EXIT_OK
