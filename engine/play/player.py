"""One player for every front end: commands and actions in, outcomes out.

``Player`` plays one game after another of one rule file through a ``Progress`` (the session,
the engine's own moves, the times) and a ``Keeper`` (saves, the history, the questions before
a game with moves is left). A front end hands it either a text command (``parse`` reads every
command of line mode, in this one place) or an action it chose itself (a click, a drag), and
gets back an ``Outcome``: what was played, what the engine then played by itself, a refusal and
its reason, the position, a hint, whether the game is over and how it ended, and the messages
for the player, worded once for every front end. Line mode prints an outcome, the terminal
table draws it, and ``serial.outcome_record`` makes the JSON object of ``play --json`` (and of
the web server) from it. The player never prints, never asks and never reads a terminal: a
command that would leave a game with moves (quit, restart, new) comes with the player's answer
(``question`` gives what to ask).

Hints run the solver for up to about a second: ``advise`` is the long part and touches nothing
the front end reads, so that a front end with a UI thread runs it in a worker and hands the
advice to ``hinted`` on its own thread.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ...rules.errors import printable
from ...rules.model import RESERVED_COMMANDS
from ..core.cards import DOWN, FACE, MASK
from ..core.seeds import Seed, parse_seed
from ..core.state import Action, IllegalAction, State, Step
from ..game.game import Game
from . import assist
from .hints import Played
from .keeper import Keeper, Leaving, Means, Question
from .progress import Deal, Progress, new_deal
from .records import GameRecord
from .saves import SaveStore
from .session import Session
from .wording import counted, ending, face_name, seed_line, symbols_in, time_text, trace_lines

if TYPE_CHECKING:  # pragma: no cover
    from .advice import Advice, Adviser

Kind = Literal[
    "deal", "action", "undo", "redo", "hint", "moves", "board", "rules", "help", "save",
    "restart", "new", "auto", "quit", "refused",
]  # fmt: skip
BUILT_INS = (
    "undo [u], redo, hint [h], moves [m], board [b], rules, auto on|off, save FILE, "
    "restart, new [SEED], help [?], quit [q]"
)
# The built-in commands a player types; 'auto' is read apart (a game may name an action so).
COMMANDS = (
    "undo", "redo", "hint", "moves", "board", "rules", "help", "save", "restart", "new",
    "quit", "exit",
)  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class PlayOptions:
    """How a player plays, whichever front end: the typed form of ``play``'s options."""

    auto: bool = True  # the engine plays safe moves home and the forced finish by itself
    record_history: bool = True  # every game played goes to the player's history
    trace: bool = False  # every card moved is listed (``--trace``)
    symbols: bool = False  # messages name cards with suit symbols ('10♥'), else letters
    interactive: bool = False  # a person plays: autosave after each move or undo; times shown


_LEAVING: dict[str, Leaving] = {"quit": "quit", "restart": "restart", "new": "new"}


@dataclass(frozen=True, kw_only=True)
class Command:
    """A command as typed, read once: its kind, and what it needs or why it cannot be."""

    text: str
    kind: Kind
    words: tuple[str, ...] = ()
    argument: str | None = None  # save's FILE, auto's on/off
    deal: Deal | None = None  # the deal of 'new SEED'
    error: str | None = None  # why it is refused before it is tried

    @property
    def leaving(self) -> Leaving | None:
        """Whether the command leaves the game (and so may need the player's answer)."""
        if self.error is not None:
            return None
        return _LEAVING.get(self.kind)


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """What a command or an action did, for any front end to show.

    ``messages`` are said before the board (shown when ``board``), ``notes`` after it; long
    texts (``help``, ``rules``) are apart, for a pager or a pane. The other fields are the
    facts the messages word: a front end that draws its own way reads them."""

    command: str | None  # the command's text; None for the first report of a deal
    kind: Kind
    position: State
    ok: bool = True
    error: str | None = None  # the refusal's reason (the position did not change)
    played: Action | None = None  # the player's action
    played_text: str | None = None  # and in play's notation (as it reads in the position before)
    chosen: str | None = None  # why a pile name alone stood for ``played``
    auto: tuple[str, ...] = ()  # the actions the engine then played by itself
    actions: tuple[str, ...] = ()  # what undo or redo took back or played again
    advice: Advice | None = None  # a hint
    hint: str | None = None  # the hint's action in play's notation
    moves: tuple[str, ...] | None = None  # the legal actions, for 'moves'
    saved: str | None = None  # the file the game was saved to
    no_win: str | None = None  # said when the position is proved lost
    trace: tuple[Step, ...] | None = None  # the cards moved (with ``trace`` on)
    trace_from: int = 0  # how many were moved before them
    rules: str | None = None
    help: str | None = None
    resumed: str | None = None  # the record a resumed game was read from
    game_id: str | None = None  # with ``seed``, for the report of a deal
    seed: Seed | None = None
    saved_games: tuple[str, ...] = ()  # unfinished games of the same deal, not taken up
    auto_moves: bool | None = None  # automatic moves on or off, after 'auto'
    result: str | None = None  # 'won' or 'lost' once the game is over
    over: bool = False
    quit: bool = False  # the player left: the front end ends
    board: bool = False
    messages: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass
class _Said:
    """Messages being gathered for an outcome."""

    messages: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Player:
    """One player's games of one rule file, for any front end (see the module's docstring)."""

    def __init__(
        self,
        game: Game,
        options: PlayOptions,
        ref: str | None = None,
        *,
        warn: Callable[[str], None] = lambda _: None,
        store: SaveStore | None = None,
    ) -> None:
        self.game = game
        self.options = options
        self.ref = ref or game.id  # how the user named the game, for the replay hint
        self.auto = options.auto
        self.width = 80  # lists of actions are cut to this width, the rules wrapped to it
        self.help_width = 80  # the help is wrapped to this width
        self.keeper = Keeper(game, record_history=options.record_history, store=store, warn=warn)
        self.offered: list[str] = []  # saved games of the deal asked for, not taken up
        self.shown = 0  # how many of the cards moved have been reported (--trace)

    # --- one game -------------------------------------------------------------------------

    def begin(
        self, deal: Deal, record: GameRecord | None = None, source: Path | None = None
    ) -> None:
        """Start a game on ``deal``, or continue the one in ``record`` (read from ``source``)."""
        self.progress = Progress(self.game, deal, record, auto=self.auto)
        self.keeper.begin(self.progress, source)
        self.source = source
        self.shown = len(self.steps) if record is not None else 0  # a resumed game's are old
        self.seen = Played(self.game, [s.before for s in self.session.history])
        self.seen.add(self.session.position)
        # Positions where 'no win is possible' (or why no hint is left) was said, with what
        # was said: a front end that shows it for as long as the position stays reads it here.
        self.told_lost: dict[State, str] = {}
        self._adviser: Adviser | None = None  # made at the first hint or check
        if self.session.is_over():
            self.keeper.game_over()

    def claim_saved(self, record: GameRecord, source: Path) -> tuple[GameRecord, Deal]:
        """A saved game locked for this player, then read again (so that the game played is
        the last one saved), with its deal; RecordError when it cannot be played."""
        from .records import read_record

        self.keeper.claim(record.id)
        record = read_record(source)
        return record, checked_deal(record, self.game, source)

    @property
    def adviser(self) -> Adviser:
        """Hints, the winning line they follow, and what is known lost (imported and made
        when first needed: a game that plays itself never needs the solver)."""
        if self._adviser is None:
            from .advice import Adviser, hint_seconds

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

    @property
    def position(self) -> State:
        return self.session.position

    def autosave(self) -> str | None:
        """Save an unfinished game in which the player has moved; the file, or None."""
        saved = self.keeper.autosave()
        return str(saved) if saved is not None else None

    def leave(self, saving: bool, abandon: bool = False) -> str | None:
        """The player leaves this game unfinished (see ``Keeper.leave``); the save, or None."""
        saved = self.keeper.leave(saving, abandon)
        return str(saved) if saved is not None else None

    def question(self, command: Command) -> Question | None:
        """What to ask before ``command`` leaves a game with moves; None: nothing to ask."""
        leaving = command.leaving
        return None if leaving is None else self.keeper.question(leaving)

    def saved_lines(self, saved: str) -> list[str]:
        """Where a game was saved and how to go on with it (the path whole, on its own line)."""
        uid = self.keeper.id
        return [
            f"Saved as game {uid}; continue with: solitaire play --resume {uid}",
            f"  ({printable(saved, None)})",
        ]

    def card_name(self, card: int) -> str:
        """A card as the messages write it (with a suit symbol when ``symbols``)."""
        return face_name(FACE[card & MASK], self.options.symbols)

    # --- reading commands -----------------------------------------------------------------

    def parse(self, text: str) -> Command:
        """A command as typed ('t3 f5', 'd', 'undo', 'new 7', 'save FILE', a pile name)."""
        line = text.strip()
        words = tuple(line.split())
        if not words:
            return Command(text=line, kind="refused", error="empty command")
        first = words[0].lower()
        name = RESERVED_COMMANDS.get(first, "")
        takes_word = name in ("save", "new")  # 'save FILE', 'new SEED'; the others stand alone
        if name not in COMMANDS or (len(words) > 1 and not takes_word):
            name = ""
        if first == "auto" and len(words) <= 2 and first not in self.game.notation.keys:
            switch = words[1].lower() if len(words) > 1 else None
            error = None if switch in (None, "on", "off") else "auto takes 'on' or 'off'"
            return Command(text=line, kind="auto", words=words, argument=switch, error=error)
        if name in ("quit", "exit"):
            return Command(text=line, kind="quit", words=words)
        if name in ("undo", "redo", "hint", "moves", "board", "help", "rules"):
            return Command(text=line, kind=name, words=words)  # type: ignore[arg-type]
        if name == "save":
            rest = line.split(None, 1)[1:]
            error = None if rest else "save needs a file name, e.g. 'save game.json'"
            return Command(
                text=line, kind="save", words=words, argument=rest[0] if rest else None,
                error=error,
            )  # fmt: skip
        if name in ("restart", "new"):
            return self._parse_leaving(line, name, words)
        return Command(text=line, kind="action", words=words)

    def _parse_leaving(self, line: str, name: str, words: tuple[str, ...]) -> Command:
        kind: Kind = "restart" if name == "restart" else "new"
        if kind == "restart" and len(words) > 1:
            return Command(text=line, kind=kind, words=words, error="restart takes no argument")
        deal: Deal | None = None
        if kind == "new":
            try:
                deal = new_deal(self.game, parse_seed(words[1]) if len(words) > 1 else None)
            except ValueError as exc:
                return Command(text=line, kind=kind, words=words, error=str(exc))
        return Command(text=line, kind=kind, words=words, deal=deal)

    # --- doing ----------------------------------------------------------------------------

    def command(self, text: str, means: Means | None = None) -> Outcome:
        """Read and perform a typed command (``means``: the answer, when it leaves a game)."""
        return self.perform(self.parse(text), means)

    def perform(self, command: Command, means: Means | None = None) -> Outcome:
        """Do ``command``. A command that leaves a game with moves takes the player's answer
        to ``question`` in ``means``; without one, quit keeps the game and restart and new
        abandon it (as for a script)."""
        if command.error is not None:
            return self.refused(command.text, command.error)
        kind = command.kind
        if kind == "auto":
            return self.switch_auto(command)
        if kind == "quit":
            return self.quit(command.text, means or self._default("quit"))
        if kind in ("undo", "redo"):
            return self.undo_redo(command.text, kind)
        if kind == "hint":
            state = self.position
            return self.hinted(state, self.advise(state), command.text)
        if kind in ("moves", "board", "help", "rules"):
            return self.inform(command.text, kind)
        if kind == "save":
            return self.save(command.text, command.argument or "")
        if kind in ("restart", "new"):
            return self.restart(command, means or self._default(kind))
        return self.act(command)

    def _default(self, leaving: Leaving) -> Means:
        if self.keeper.question(leaving) is None:
            return "abandon"
        return "keep" if leaving == "quit" else "abandon"

    def outcome(
        self, command: str | None, kind: Kind, said: _Said | None = None, **facts: object
    ) -> Outcome:
        state = self.position
        result = self.game.outcome(state)
        return Outcome(
            command=command,
            kind=kind,
            position=state,
            result=result,
            over=self.game.is_terminal(state),
            messages=tuple(said.messages) if said else (),
            notes=tuple(said.notes) if said else (),
            **facts,  # type: ignore[arg-type]
        )

    def refused(self, command: str | None, reason: str) -> Outcome:
        """A refusal: nothing changed; the reason said as the board writes cards."""
        said = _Said([f"! {symbols_in(reason, self.options.symbols)}"])
        return self.outcome(command, "refused", said, ok=False, error=reason)

    def introduce(
        self, resumed: str | None = None, command: str | None = None, kind: Kind = "deal"
    ) -> Outcome:
        """The first report of a game: which deal it is, the board, and how it stands."""
        state = self.position
        warning = None if self.session.is_over() else self.no_win_yet()
        said = _Said(self._trace_lines())
        trace = self._fresh_steps()
        if self.offered and command is None:
            others = len(self.offered) - 1
            more = f" (and {others} more: solitaire saves)" if others else ""
            said.messages.append(
                "You have an unfinished game of this deal, kept apart from this one: "
                f"solitaire play --resume {self.offered[0]}{more}"
            )
        if resumed:
            moves = self.progress.moves
            where = (
                f"game {self.keeper.id}"
                if self.keeper.source is not None and self.keeper.is_saved()
                else f"from {printable(resumed, None)}"
            )
            said.messages.append(
                f"{self.game.name}: resumed {where} "
                f"({counted(moves, 'moves')}, {time_text(self.progress.seconds())} played)"
            )
        if self.deal.seed is not None:
            said.messages.append(seed_line(self.game, self.deal.seed, self.ref, self.width))
        if self.session.is_over():
            said.notes.append(ending(self.game, state))
        elif warning:
            said.notes.append(warning)
        return self.outcome(
            command, kind, said, board=True, resumed=resumed, game_id=self.game.id,
            seed=self.deal.seed, no_win=warning, trace=trace,
            trace_from=self.shown - len(trace or ()),
            saved_games=tuple(self.offered) if command is None else (),
        )  # fmt: skip

    def _fresh_steps(self) -> tuple[Step, ...] | None:
        """The cards moved since the last report (with ``trace``), now reported."""
        fresh = tuple(self.steps[self.shown :])
        self.shown = len(self.steps)
        return fresh if self.options.trace else None

    def _trace_lines(self) -> list[str]:
        """With ``trace``, a line for every card moved since the last report (not yet
        counted as reported: ``_fresh_steps`` does that)."""
        if not self.options.trace:
            return []
        return list(trace_lines(self.game, self.steps[self.shown :], self.shown))

    def quit(self, command: str, means: Means) -> Outcome:
        if means == "cancel":
            return self.outcome(command, "quit", _Said(["the game goes on"]))
        state = self.position
        saved = self.leave(saving=means == "keep", abandon=means == "abandon")
        game = self.game
        moves = self.progress.moves
        result = game.outcome(state)
        summary = (
            f"{game.name}{f' {result}' if result else ''}: {counted(moves, 'moves')}, "
            f"{game.score(state)}/{len(game.cards)} {game.spec.score.label}"
        )
        if self.options.interactive:
            summary += f", {time_text(self.progress.seconds())} played"
        said = _Said([summary + "."])
        if saved:
            said.messages.append("\n".join(self.saved_lines(saved)))
        elif means == "abandon" and moves and not self.session.is_over():
            said.messages.append("Abandoned.")
        return self.outcome(command, "quit", said, saved=saved, quit=True)

    def switch_auto(self, command: Command) -> Outcome:
        if command.argument is not None:
            self.auto = command.argument == "on"
        self.progress.auto = self.auto
        played = self.progress.settle() if self.auto else []
        if played:
            self.seen.add(self.position)
            if self.session.is_over():
                self.keeper.game_over()
        said = _Said(
            [
                f"automatic moves: {'on' if self.auto else 'off'} (safe moves to the "
                "foundations, and the finish when only moves to the foundations are left)"
            ]
        )
        facts = self._after(played, None, said) if played else self._quiet_after(played)
        facts["no_win"] = None  # said after the board, not reported apart (as ever for auto)
        return self.outcome(command.text, "auto", said, auto_moves=self.auto, **facts)

    def undo_redo(self, command: str, kind: Literal["undo", "redo"]) -> Outcome:
        session = self.session
        refusal = self.keeper.undo_refusal() if kind == "undo" else None
        if refusal:
            return self.refused(command, refusal)
        try:
            actions = session.undo() if kind == "undo" else session.redo_choice()
        except IndexError as exc:
            return self.refused(command, str(exc))
        self.progress.sync_times()
        if kind == "redo" and session.is_over():
            self.keeper.game_over()
        elif self.options.interactive:
            self.autosave()  # a game left now resumes as it is, not as before the undo
        texts = tuple(self.game.action_text(a) for a in actions)
        said = _Said(self._trace_lines())
        trace = self._fresh_steps()
        said.messages.append(f"{'undone' if kind == 'undo' else 'redone'}: {', '.join(texts)}")
        return self.outcome(
            command, kind, said, actions=texts, board=True, trace=trace,
            trace_from=self.shown - len(trace or ()),
        )  # fmt: skip

    # --- hints ----------------------------------------------------------------------------

    def advise(self, state: State, seen: Container[State] | None = None) -> Advice:
        """The hint for ``state`` (never back to a position in ``seen``, by default those
        played): the long part, up to about a second of search. It changes nothing a front
        end reads, so it may run off the front end's thread (given a copy of ``seen``)."""
        return self.adviser.advise(state, self.seen if seen is None else seen)

    def hinted(self, state: State, advice: Advice, command: str = "hint") -> Outcome:
        """The outcome of a hint ``advice`` found for ``state`` (the position now, or the
        hint is stale and the front end drops it)."""
        game = self.game
        action = advice.action
        text = game.action_text(action, state) if action else None
        said = _Said()
        if action is None:
            said.messages.append(advice.note or "no legal action is left")
            self.told_lost[state] = said.messages[-1]  # said: the board need not say it again
        else:
            why = {
                "winning": "the next move of a winning line",
                "heuristic": "a guess: no winning line found in a short search",
            }.get(advice.kind, "")
            if advice.winnable is False:
                why = symbols_in(advice.note, self.options.symbols)
            said.messages.append(f"hint: {text}{self.describe(state, action)}; {why}")
        return self.outcome(
            command, "hint", said, advice=advice, hint=text, no_win=advice.note or None
        )

    def inform(self, command: str, kind: Kind) -> Outcome:
        game = self.game
        if kind == "moves":
            texts = tuple(text for _, text in self.legal_moves())
            said = _Said(["legal: " + (", ".join(texts) if texts else "none")])
            return self.outcome(command, kind, said, moves=texts)
        if kind == "board":
            return self.outcome(command, kind, board=True)
        if kind == "rules":
            from .rules_text import rules_text

            width = min(self.width, 100) - 1
            return self.outcome(command, kind, rules=rules_text(game, width))
        return self.outcome(command, kind, help=self.help_text())

    def legal_moves(self) -> list[tuple[Action, str]]:
        """The legal actions now, each with its text in play's notation (as 'moves' lists
        them)."""
        state = self.position
        return [(a, self.game.action_text(a, state)) for a in self.session.legal_actions()]

    def describe(self, state: State, action: Action, verb: str = "moves ") -> str:
        """' (moves 5C)' for an action that moves a top card; ' (moves 2H and the 3 cards on
        it)' for several."""
        pile = state.piles[action.src] if action.src >= 0 else ()
        if action.dst < 0 or not pile:
            return ""
        if 1 < action.n <= len(pile):
            above = action.n - 1
            more = f" and the {counted(above, 'cards')} on it"
            return f" ({verb}{self.card_name(pile[-action.n])}{more})"
        return f" ({verb}{self.card_name(pile[-1])})"

    def help_text(self, built_ins: str = BUILT_INS) -> str:
        """The commands: the game's actions (with their keys), then ``built_ins``, wrapped
        to ``help_width``."""
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
            lines.append(
                f"  PILE alone (e.g. {example}): its top card's only move, or {assist.PREFERENCE}"
            )
        lines += by_itself
        lines.append(f"Commands: {built_ins}")
        width = max(40, self.help_width)  # wrapped at a word, not cut by the terminal
        return "\n".join(
            textwrap.fill(line, width, subsequent_indent="      ", break_on_hyphens=False)
            for line in lines
        )

    def _example_move(self, name: str) -> str:
        """A legal move of this action now, or else its first source and target."""
        for action in self.session.legal_actions():
            if action.name == name:
                return self.game.action_text(action, self.position)
        effect = self.game.effects[name]
        src, dst = getattr(effect, "sources", (0,))[0], getattr(effect, "targets", (1,))[0]
        return self.game.action_text(Action(name, src, dst))

    def save(self, command: str, name: str) -> Outcome:
        from .atomic import write_text

        path = Path(name)
        try:
            write_text(path, self.progress.record().dumps())
        except OSError as exc:
            return self.refused(command, f"cannot save to {printable(name)}: {exc.strerror or exc}")
        said = _Said(
            [f"saved: {printable(str(path))} (continue with: solitaire play --resume FILE)"]
        )
        return self.outcome(command, "save", said, saved=str(path))

    def restart(self, command: Command, means: Means) -> Outcome:
        kind = command.kind
        deal = command.deal if kind == "new" else self.deal
        if deal is None:  # pragma: no cover - parse gives 'new' its deal
            raise ValueError("no deal")
        if means == "cancel":
            return self.refused(command.text, f"{kind} cancelled: the game goes on")
        saved = self.leave(saving=means == "keep", abandon=means == "abandon")
        # Worded before the next game begins: the id is the game left's.
        line = self.saved_lines(saved)[0].replace("continue", "continue it") if saved else None
        self.begin(deal)
        dealt = self.introduce(command=command.text, kind=kind)
        return dealt if line is None else _with_first(dealt, line)

    # --- actions --------------------------------------------------------------------------

    def act(self, command: Command) -> Outcome:
        """A game action as typed ('t3 f5', 'd'), or a pile name alone ('t3')."""
        game = self.game
        before = self.position
        words = command.words
        chosen: str | None = None
        try:
            if len(words) == 1 and words[0] not in game.notation.keys:
                pile = game.layout.index.get(words[0], game.layout.index.get(words[0].lower()))
                if pile is not None:
                    action, chosen = self.choose(pile)
                else:
                    action = game.parse_action(command.text, before)
            else:
                action = game.parse_action(command.text, before)
        except ValueError as exc:
            return self.refused(command.text, str(exc))
        return self.play(action, command.text, chosen)

    def move(self, src: int, dst: int, count: int) -> Outcome:
        """``count`` cards from ``src`` onto ``dst``, as a front end saw them dragged: the
        legal action that moves them, or the engine's reason why none does."""
        legal = [a for a in self.session.legal_actions() if a.src == src and a.dst == dst]
        exact = [a for a in legal if a.n == count or (count == 1 and a.n == 0)]
        if exact:
            return self.play(exact[0])
        names = self.game.pile_names
        text = f"{names[src]} {names[dst]}" + (f" {count}" if count > 1 else "")
        return self.act(self.parse(text))  # read as typed: the notation explains a refusal

    def play(
        self, action: Action, command: str | None = None, chosen: str | None = None
    ) -> Outcome:
        """Play ``action`` (chosen by the front end, or read from ``command``), then what the
        engine plays by itself; a refusal with the engine's reason changes nothing."""
        session = self.session
        game = self.game
        before = session.position
        text = command if command is not None else game.action_text(action, before)
        mark = len(self.steps)
        try:
            session.push(action)
        except (ValueError, IllegalAction) as exc:
            return self.refused(text, str(exc))
        own = self.steps[mark:]
        known = len(session.history) - 1
        played = self.progress.settle()
        self.seen.update(entry.before for entry in session.history[known:])
        self.seen.add(session.position)
        if session.is_over():
            self.keeper.game_over()
        elif self.options.interactive:
            self.autosave()
        said = _Said()
        played_text = game.action_text(action, before)
        if chosen:
            said.messages.append(f"{played_text}{self.describe(before, action)}: {chosen}")
        facts = self._after(played, (action, own), said)
        return self.outcome(
            text, "action", said, played=action, chosen=chosen, played_text=played_text, **facts
        )

    def _after(
        self, played: list[Action], own: tuple[Action, list[Step]] | None, said: _Said
    ) -> dict[str, object]:
        """Report what an action did and what the engine then played; the board, then how
        the game stands. The facts for the outcome."""
        if self.options.trace:
            said.messages += self._trace_lines()
        else:
            if own is not None:
                report = self.report(*own)
                if report:
                    said.messages.append(report)
            auto = self.auto_report(played)
            if auto:
                said.messages.append(auto)
        trace = self._fresh_steps()
        warning = None
        if self.session.is_over():
            said.notes.append(ending(self.game, self.position))
            if self.options.interactive:
                said.notes.append(
                    "Type 'new' for another deal, 'restart' to play this one again, or 'q'."
                )
        else:
            warning = self.no_win_yet()
            if warning:
                said.notes.append(warning)
        return {
            "auto": self._auto_texts(played), "trace": trace, "no_win": warning, "board": True,
            "trace_from": self.shown - len(trace or ()),
        }  # fmt: skip

    def _quiet_after(self, played: list[Action]) -> dict[str, object]:
        trace = self._fresh_steps()
        return {"auto": self._auto_texts(played), "trace": trace,
                "trace_from": self.shown - len(trace or ())}  # fmt: skip

    def _auto_texts(self, played: list[Action]) -> tuple[str, ...]:
        if not played:
            return ()
        history = self.session.history[len(self.session.history) - len(played) :]
        return tuple(self.game.action_text(p.action, p.before) for p in history)

    def no_win_yet(self) -> str | None:
        """Said once, when the position is proved lost (or only undoing moves remain)."""
        state = self.position
        if state in self.told_lost:
            return None
        warning = self.adviser.no_win(state, self.seen)
        if warning:
            self.told_lost[state] = warning
        return warning

    def report(self, action: Action, steps: list[Step]) -> str | None:
        """One line for an action that moved several cards: 'fill: t12 <- 4H, t1 <- 9C'."""
        moved = [s for s in steps if s.src != s.dst]  # a card turned where it lies did not move
        if len(moved) < 2:
            return None
        names = self.game.pile_names
        parts = [f"{names[s.dst]} <- {self.card_name(s.card)}" for s in moved]
        return self.fitted(f"{self.game.action_text(action)}: ", parts, f"{len(moved)} cards")

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

    def fitted(self, head: str, parts: list[str], total: str) -> str:
        """``head`` and as many ``parts`` as fit ``width``, then '... (total)'."""
        for shown in range(len(parts), -1, -1):
            more = f", ... ({total})" if shown < len(parts) else ""
            text = head + ", ".join(parts[:shown]) + more
            if len(text) <= self.width or shown == 0:
                return text.replace(": , ...", ": ...")
        return head  # pragma: no cover - the loop always returns

    def choose(self, pile: int) -> tuple[Action, str]:
        """The action a pile name alone stands for; ValueError when there is none."""
        state = self.position
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


def checked_deal(record: GameRecord, game: Game, path: Path) -> Deal:
    """The deal of a saved game, checked against the rules it is played with (RecordError)."""
    from .records import RecordError, check_rules, deal_order

    try:
        check_rules(record, game)
        order = deal_order(record, game)
    except RecordError as exc:
        raise RecordError(f"{printable(str(path))}: {exc}") from None
    return Deal(record.seed, order)


def _with_first(outcome: Outcome, message: str) -> Outcome:
    """``outcome`` with ``message`` said first."""
    import dataclasses

    return dataclasses.replace(outcome, messages=(message, *outcome.messages))
