"""``solitaire play``: deal, then read the player's commands and report in text or JSON lines."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from typing import Any, ClassVar

from ....rules.model import RESERVED_COMMANDS
from ...core.cards import parse_deck, read_deck_text
from ...core.game import Game
from ...core.load import load_game
from ...core.state import Action, IllegalAction, State, Step
from ...play.hints import suggest
from ...play.session import Session
from ..render import Renderer
from .output import (
    EXIT_OK,
    console,
    ending,
    position_json,
    seed_line,
    trace_json,
    trace_lines,
)


def start(game: Game, args: argparse.Namespace) -> tuple[State, int | None]:
    if args.deck is not None:
        order = parse_deck(read_deck_text(args.deck), game.cards)
        return game.deal(order), None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000_000)
    return game.deal_seed(seed), seed


class Player:
    """The interactive loop: reads commands, plays them, reports in text or JSON lines."""

    COMMANDS: ClassVar[tuple[str, ...]] = ("undo", "redo", "hint", "moves", "board", "help", "quit")

    def __init__(
        self, game: Game, session: Session, seed: int | None, as_json: bool, ref: str
    ) -> None:
        self.ref = ref  # how the user named the game, for the replay hint
        self.game = game
        self.session = session
        self.seed = seed
        self.as_json = as_json
        self.console = console()
        self.renderer = Renderer(game)
        self.seen: set[State] = {session.position}
        self.steps: list[Step] | None = None  # with --trace: every card moved so far
        self.shown = 0  # how many of the steps have been reported

    def emit(self, command: str | None, ok: bool, error: str | None, **extra: Any) -> None:
        record: dict[str, Any] = {"command": command, "ok": ok, "error": error}
        if command is None:
            record.update(game=self.game.id, seed=self.seed)
        record.update(position_json(self.game, self.session.position))
        record.update(extra)
        print(json.dumps(record), flush=True)

    def show(self) -> None:
        state = self.session.position
        self.console.print(self.renderer.board(state))
        self.console.print(self.renderer.status(state))

    def say(self, text: str) -> None:
        self.console.print(text, markup=False)

    def help_text(self) -> str:
        lines = ["Actions:"]
        notation = self.game.notation
        for name, effect in self.game.effects.items():
            keys = [k for k, v in notation.keys.items() if v == name and k != name]
            form = {
                0: name,
                1: f"{name} PILE",
                2: f"SOURCE TARGET (e.g. {self._example_move(name)})",
            }[effect.takes_piles]
            alias = f" [{', '.join(keys)}]" if keys else ""
            lines.append(f"  {form}{alias}: {effect.help or name}")
        lines.append("Commands: undo [u], redo, hint [h], moves [m], board [b], help [?], quit [q]")
        return "\n".join(lines)

    def _example_move(self, name: str) -> str:
        """A legal move of this action now, or else its first source and target."""
        for action in self.session.legal_actions():
            if action.name == name:
                return self.game.action_text(action)
        effect = self.game.effects[name]
        src, dst = getattr(effect, "sources", (0,))[0], getattr(effect, "targets", (1,))[0]
        return self.game.action_text(Action(name, src, dst))

    def run(self, lines: Iterator[str], interactive: bool) -> int:
        steps = self.new_steps()
        if self.as_json:
            self.emit(None, True, None, **trace_json(steps))
        else:
            for text in trace_lines(self.game, steps or []):
                self.say(text)
            if self.seed is not None:
                self.say(seed_line(self.game, self.seed, self.ref))
            self.show()
            if interactive:
                self.say("Type 'help' for the commands.")
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if self.handle(line) == "quit":
                break
        return EXIT_OK

    def handle(self, line: str) -> str:
        session = self.session
        words = line.split()
        name = RESERVED_COMMANDS.get(words[0].lower(), "")
        if len(words) > 1 or name not in self.COMMANDS:
            name = "action"
        if name == "quit":
            if self.as_json:
                self.emit(line, True, None)
            return "quit"
        if name in ("undo", "redo"):
            try:
                session.undo() if name == "undo" else session.redo_choice()
            except IndexError as exc:
                return self.refuse(line, str(exc))
            return self.done(line)
        if name in ("hint", "moves", "board", "help"):
            return self.inform(line, name)
        try:
            action = self.game.parse_action(line)
            session.push(action)
        except (ValueError, IllegalAction) as exc:
            return self.refuse(line, str(exc))
        session.autoplay()
        self.seen.add(session.position)
        return self.done(line)

    def inform(self, line: str, name: str) -> str:
        state = self.session.position
        if name == "hint":
            action = suggest(self.game, state, self.seen)
            text = self.game.action_text(action) if action else None
            if self.as_json:
                self.emit(line, True, None, hint=text)
            else:
                self.say(f"hint: {text}" if text else "no legal action is left")
        elif name == "moves":
            texts = [self.game.action_text(a) for a in self.session.legal_actions()]
            if self.as_json:
                self.emit(line, True, None, moves=texts)
            else:
                self.say("legal: " + (", ".join(texts) if texts else "none"))
        elif name == "board":
            if self.as_json:
                self.emit(line, True, None)
            else:
                self.show()
        else:
            if self.as_json:
                self.emit(line, True, None, help=self.help_text())
            else:
                self.say(self.help_text())
        return "ok"

    def refuse(self, line: str, reason: str) -> str:
        if self.as_json:
            self.emit(line, False, reason)
        else:
            self.say(f"! {reason}")
        return "refused"

    def new_steps(self) -> list[Step] | None:
        """The cards moved since the last report (None without --trace)."""
        if self.steps is None:
            return None
        fresh = self.steps[self.shown :]
        self.shown = len(self.steps)
        return fresh

    def done(self, line: str) -> str:
        steps = self.new_steps()
        if self.as_json:
            self.emit(line, True, None, **trace_json(steps))
            return "ok"
        for text in trace_lines(self.game, steps or [], self.shown - len(steps or [])):
            self.say(text)
        self.show()
        if self.session.is_over():
            self.say(ending(self.game, self.session.position))
        return "ok"


def _input_lines(interactive: bool) -> Iterator[str]:
    if not interactive:
        yield from sys.stdin
        return
    while True:
        try:
            yield input("> ")
        except EOFError:
            print()
            return


def cmd_play(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    start_state, seed = start(game, args)
    session = Session(game, start_state)
    steps: list[Step] = []
    session.trace = steps if args.trace else None
    session.autoplay()
    if session.is_over() and all(entry.auto for entry in session.history):
        trace = steps if args.trace else None
        return _report_autoplayed(game, session, seed, trace, args.json, args.game)
    player = Player(game, session, seed, args.json, args.game)
    player.steps = steps if args.trace else None
    interactive = sys.stdin.isatty() and not args.json
    return player.run(_input_lines(interactive), interactive)


def _report_autoplayed(
    game: Game,
    session: Session,
    seed: int | None,
    steps: list[Step] | None,
    as_json: bool,
    ref: str,
) -> int:
    """A game the engine played to its end by itself: the final board and the result."""
    state = session.position
    if as_json:
        record: dict[str, Any] = {"game": game.id, "seed": seed}
        record.update(position_json(game, state))
        record.update(trace_json(steps))
        print(json.dumps(record))
        return EXIT_OK
    out = console()
    if seed is not None:
        out.print(seed_line(game, seed, ref), markup=False)
    if steps is not None:
        for line in trace_lines(game, steps):
            out.print(line, markup=False)
        out.print()
    renderer = Renderer(game)
    out.print(renderer.board(state))
    out.print(ending(game, state), markup=False)
    return EXIT_OK
