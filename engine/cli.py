"""The ``solitaire`` command: list, play, stats, validate.

Argument parsing, rendering and the interactive loop; no rules of its own. Every failure the
user can cause ends in one clear message on stderr and exit 1 (2 for usage errors).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, NoReturn, TextIO

from rich.console import Console
from rich.table import Table

from rules import RuleError, check_rules, shipped_games

from .cards import DOWN, DeckError, card_text, face_down_count, parse_deck, read_deck_text
from .effects import Action, Step
from .game import Game, IllegalAction, State, UnknownGame, load_game
from .hints import suggest
from .render import Renderer
from .session import Session
from .stats import run_deals, summarise

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _console(stream: TextIO | None = None) -> Console:
    out = stream or sys.stdout
    # Off a terminal (a pipe, a file) there is no width to fit: use a generous one.
    width = None if out.isatty() else 120
    # NO_COLOR (any value) asks for plain text: no colour, and no bold or dim either.
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(
        file=out,
        highlight=False,
        soft_wrap=False,
        width=width,
        color_system=None if plain else "auto",
    )


def _fail(message: str, code: int = EXIT_INVALID) -> int:
    print(f"solitaire: {message}", file=sys.stderr)
    return code


# --- list ----------------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    games = shipped_games()
    if args.json:
        for g in games:
            print(
                json.dumps(
                    {"id": g.id, "name": g.name, "decks": g.decks, "aliases": list(g.aliases)}
                )
            )
        return EXIT_OK
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("id", "name", "decks", "aliases"):
        table.add_column(column)
    for g in games:
        table.add_row(g.id, g.name, str(g.decks), ", ".join(g.aliases))
    _console().print(table)
    return EXIT_OK


# --- validate ------------------------------------------------------------------------------


def cmd_validate(args: argparse.Namespace) -> int:
    failed = False
    for path in args.files:
        items = check_rules(path)
        errors = [d for d in items if d.severity == "error"]
        warnings = [d for d in items if d.severity == "warning"]
        bad = bool(errors) or (args.strict and bool(warnings))
        failed |= bad
        if args.json:
            for d in items:
                print(json.dumps(d.as_json()))
            continue
        for d in items:
            print(str(d), file=sys.stderr if d.severity == "error" else sys.stdout)
        if not bad:
            note = (
                f" ({len(warnings)} warning{'s' if len(warnings) != 1 else ''})" if warnings else ""
            )
            print(f"{path}: ok{note}")
    return EXIT_INVALID if failed else EXIT_OK


# --- play ----------------------------------------------------------------------------------


def _start(game: Game, args: argparse.Namespace) -> tuple[State, int | None]:
    if args.deck is not None:
        order = parse_deck(read_deck_text(args.deck), game.cards)
        return game.deal(order), None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000_000)
    return game.deal_seed(seed), seed


def _piles_json(game: Game, state: State) -> dict[str, list[str]]:
    return {name: [card_text(c) for c in state.piles[i]] for i, name in enumerate(game.pile_names)}


def _position_json(game: Game, state: State) -> dict[str, Any]:
    hidden = {
        name: n
        for i, name in enumerate(game.pile_names)
        if (n := sum(1 for c in state.piles[i] if c & DOWN))
    }
    return {
        "phase": state.phase,
        "result": game.outcome(state),
        "cards_placed": game.score(state),
        "foundation_cards": game.foundation_cards(state),
        "piles": _piles_json(game, state),
        "face_down": hidden,
    }


def _trace_lines(game: Game, steps: Sequence[Step], before: int = 0) -> Iterator[str]:
    for n, step in enumerate(steps, before + 1):
        src, dst = game.pile_names[step.src], game.pile_names[step.dst]
        yield f"{n:3}. {card_text(step.card):>3}  {src} -> {dst}"


def _trace_json(steps: Sequence[Step] | None) -> dict[str, list[str]]:
    """The ``trace`` field of a JSON record: the cards moved, in order (absent without --trace)."""
    return {} if steps is None else {"trace": [card_text(s.card) for s in steps]}


def _seed_line(game: Game, seed: int, ref: str) -> str:
    return f"{game.name}, seed {seed} (replay: solitaire play {ref} --seed {seed})"


def _ending(game: Game, state: State) -> str:
    outcome = game.outcome(state)
    score = f"{game.score(state)} {game.spec.score.label}"
    if outcome == "won":
        return f"Won: {score}."
    hidden = face_down_count(state.piles)
    extra = f", {hidden} card{'s' if hidden != 1 else ''} still face down" if hidden else ""
    if outcome == "lost":
        return f"Lost: {score}{extra}."
    return f"Game not finished: {score}{extra}."


class Player:
    """The interactive loop: reads commands, plays them, reports in text or JSON lines."""

    COMMANDS: ClassVar[tuple[str, ...]] = ("undo", "redo", "hint", "moves", "board", "help", "quit")
    SHORT: ClassVar[dict[str, str]] = {
        "u": "undo", "h": "hint", "m": "moves", "b": "board", "?": "help", "q": "quit",
        "exit": "quit",
    }  # fmt: skip

    def __init__(
        self, game: Game, session: Session, seed: int | None, as_json: bool, ref: str
    ) -> None:
        self.ref = ref  # how the user named the game, for the replay hint
        self.game = game
        self.session = session
        self.seed = seed
        self.as_json = as_json
        self.console = _console()
        self.renderer = Renderer(game)
        self.seen: set[State] = {session.position}
        self.steps: list[Step] | None = None  # with --trace: every card moved so far
        self.shown = 0  # how many of the steps have been reported

    def emit(self, command: str | None, ok: bool, error: str | None, **extra: Any) -> None:
        record: dict[str, Any] = {"command": command, "ok": ok, "error": error}
        if command is None:
            record.update(game=self.game.id, seed=self.seed)
        record.update(_position_json(self.game, self.session.position))
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
        for name, effect in self.game.effects.items():
            keys = [k for k, v in self.game.keys.items() if v == name and k != name]
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
            self.emit(None, True, None, **_trace_json(steps))
        else:
            for text in _trace_lines(self.game, steps or []):
                self.say(text)
            if self.seed is not None:
                self.say(_seed_line(self.game, self.seed, self.ref))
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
        name = self.SHORT.get(words[0].lower(), words[0].lower())
        if len(words) > 1 or name not in self.COMMANDS:
            name = "action"
        if name == "quit":
            if self.as_json:
                self.emit(line, True, None)
            return "quit"
        if name in ("undo", "redo"):
            try:
                (session.pop if name == "undo" else session.redo)()
                if name == "undo":
                    # Undo what the engine played by itself too, back to the player's last choice.
                    while session.history and self.game.autoplays(session.history[-1][0]):
                        session.pop()
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
            self.emit(line, True, None, **_trace_json(steps))
            return "ok"
        for text in _trace_lines(self.game, steps or [], self.shown - len(steps or [])):
            self.say(text)
        self.show()
        if self.session.is_over():
            self.say(_ending(self.game, self.session.position))
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
    start, seed = _start(game, args)
    session = Session(game, start)
    steps: list[Step] = []
    session.trace = steps if args.trace else None
    session.autoplay()
    if session.is_over() and all(game.autoplays(before) for before, _ in session.history):
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
        record.update(_position_json(game, state))
        record.update(_trace_json(steps))
        print(json.dumps(record))
        return EXIT_OK
    console = _console()
    if seed is not None:
        console.print(_seed_line(game, seed, ref), markup=False)
    if steps is not None:
        for line in _trace_lines(game, steps):
            console.print(line, markup=False)
        console.print()
    renderer = Renderer(game)
    console.print(renderer.board(state))
    console.print(_ending(game, state), markup=False)
    return EXIT_OK


# --- stats ---------------------------------------------------------------------------------


def cmd_stats(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    if args.deals < 1:
        raise UsageError("--deals must be at least 1")
    show_bar = sys.stderr.isatty() and not args.json
    if show_bar:
        from rich.progress import Progress

        with Progress(console=Console(file=sys.stderr), transient=True) as bar:
            task = bar.add_task(f"{game.name}", total=args.deals)
            results = run_deals(
                game, args.seed, args.deals, args.jobs, lambda n: bar.advance(task, n)
            )
    else:
        results = run_deals(game, args.seed, args.deals, args.jobs)
    summary = summarise(game, args.seed, results)
    if args.json:
        print(json.dumps(summary.as_json()))
        return EXIT_OK
    low, high = summary.interval
    console = _console()
    console.print(
        f"{game.name}: {summary.deals} deals (seeds {args.seed}..{args.seed + summary.deals - 1})",
        markup=False,
    )
    console.print(
        f"won {summary.wins} ({summary.win_rate:.2%}), 95% CI {low:.2%} .. {high:.2%}",
        markup=False,
    )
    if summary.unfinished:
        console.print(
            f"unfinished (the policy had only repeated positions left, or hit the move limit): "
            f"{summary.unfinished}",
            markup=False,
        )
    console.print(f"{summary.score_label}: mean {summary.mean_score:.1f}", markup=False)
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column(summary.score_label, justify="right")
    table.add_column("deals", justify="right")
    table.add_column("share", justify="right")
    table.add_column("")
    rows = _score_rows(summary.scores)
    top = max(n for _, n in rows)
    for label, n in rows:
        table.add_row(label, str(n), f"{n / summary.deals:.1%}", "#" * max(1, 40 * n // top))
    console.print(table)
    return EXIT_OK


def _score_rows(scores: Counter[int], most: int = 16) -> list[tuple[str, int]]:
    """The score distribution as table rows: one per score, or ranges when there are many."""
    if len(scores) <= most:
        return [(str(k), n) for k, n in sorted(scores.items())]
    low, high = min(scores), max(scores)
    width = -(-(high - low + 1) // most)
    rows = []
    for start in range(low, high + 1, width):
        stop = min(start + width - 1, high)
        n = sum(scores[k] for k in range(start, stop + 1))
        rows.append((f"{start}..{stop}" if stop > start else str(start), n))
    return rows


# --- authoring -----------------------------------------------------------------------------


def cmd_schema(args: argparse.Namespace) -> int:
    from rules.schema import reference_markdown, schema_text

    sys.stdout.write(schema_text() if args.format == "json" else reference_markdown())
    return EXIT_OK


def cmd_graph(args: argparse.Namespace) -> int:
    from .diagram import diagram

    sys.stdout.write(diagram(load_game(args.game), args.format))
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rules.schema import SCHEMA_FILE

    slug = "-".join(re.findall(r"[a-z0-9]+", args.name.lower()))
    if not slug:
        raise UsageError(f"a game name needs letters or digits: {args.name!r}")
    path = Path(args.output) if args.output else Path(slug.replace("-", "_") + ".yaml")
    if path.exists() and not args.force:
        return _fail(f"{path} exists already (use --force to replace it)")
    template = (SCHEMA_FILE.parent / "starter.yaml").read_text(encoding="utf-8")
    title = args.name.strip() if args.name.strip() != slug else slug.replace("-", " ").title()
    text = (
        template.replace("{schema}", SCHEMA_FILE.as_uri())
        .replace("{file}", str(path))
        .replace("{id}", slug)
        .replace("{name}", json.dumps(title))
    )
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write {path}: {exc.strerror or exc}")
    print(f"wrote {path}: try 'solitaire play {path}'")
    return EXIT_OK


# --- main ----------------------------------------------------------------------------------


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a seed is 0 or more")
    return value


def _positive(text: str) -> int:
    value = _seed(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="solitaire",
        description="Play and study solitaire games defined by YAML rule files.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("list", help="list the shipped games")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("play", help="play a game (a game id or a rule file path)")
    p.add_argument("game", help="game id (see 'solitaire list') or path to a rule file")
    deal = p.add_mutually_exclusive_group()
    deal.add_argument("--seed", type=_seed, help="deal number N (same N, same deal, forever)")
    deal.add_argument(
        "--deck",
        help="the deal order: cards separated by spaces or commas, "
        "or @FILE; the first card listed is dealt first",
    )
    p.add_argument("--trace", action="store_true", help="list every card the engine moved")
    p.add_argument("--json", action="store_true", help="machine-readable JSON lines")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("stats", help="play many deals and report the win rate")
    p.add_argument("game")
    p.add_argument("--deals", type=_positive, required=True, help="how many deals")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the first deal (default 0)")
    p.add_argument("--jobs", type=_positive, default=1, help="processes to use (default 1)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(run=cmd_stats)

    p = sub.add_parser("validate", help="check rule files")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--strict", action="store_true", help="fail on warnings too")
    p.add_argument("--json", action="store_true", help="diagnostics as JSON lines")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("schema", help="print the JSON Schema of rule files (or the reference)")
    p.add_argument("--format", choices=["json", "markdown"], default="json")
    p.set_defaults(run=cmd_schema)

    p = sub.add_parser("graph", help="print a game's phase machine as a diagram")
    p.add_argument("game")
    p.add_argument("--format", choices=["mermaid", "dot"], default="mermaid")
    p.set_defaults(run=cmd_graph)

    p = sub.add_parser("new", help="write a starter rule file that validates and plays")
    p.add_argument("name", help="the new game's name, e.g. 'My Patience'")
    p.add_argument("--output", "-o", help="file to write (default: NAME.yaml here)")
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.set_defaults(run=cmd_new)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except UsageError as exc:
        return _fail(str(exc), EXIT_USAGE)
    except (UnknownGame, DeckError) as exc:
        return _fail(str(exc))
    except RuleError as exc:
        for d in exc.diagnostics:
            print(str(d), file=sys.stderr)
        return EXIT_INVALID
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
