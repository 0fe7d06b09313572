"""The full-screen table: a Textual app over the player every front end shares.

The table draws the position (``layout.Table``) and turns clicks, drags and keys into actions
of the engine, which it hands to the shared ``Player`` (``engine/play/player``): the same
session, automatic moves, refusals, hints, saves, records and history as line mode. It holds no
rules: which card a click picks, and where it goes, is asked of the engine's legal actions, and
a move the engine refuses shows the engine's reason in the message bar. A hint's search runs in
a worker thread, so that the table answers while it runs.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static

from ...core.cards import DOWN
from ...core.state import Action, State
from ...game.game import Game
from ...play.keeper import Means, Question
from ...play.player import Outcome, Player, PlayOptions
from ...play.progress import Deal
from ...play.records import GameRecord
from ...play.wording import ending, time_text
from ...vocab.effects.removal import Pair
from .layout import Hit, Marks, Picture, Table

if TYPE_CHECKING:  # pragma: no cover
    from ...play.advice import Advice

MOUSE_HELP = {
    "The mouse": [
        "click a card, then the pile it goes to (click the card a run starts at to move the "
        "run), or drag it there;",
        "double-click a card to send it to a foundation;",
        "click the stock to draw (or to turn the waste over); click a gap to fill it, where "
        "the rules have such an action;",
        "click a picked card again to put it back.",
    ],
}


class TableView(Widget, can_focus=True):
    """The cards, drawn to the widget's size; clicks and drags report piles and cards."""

    DEFAULT_CSS = """
    TableView { height: 1fr; width: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1, 0)", "pile left", show=False),
        Binding("right", "cursor(1, 0)", "pile right", show=False),
        Binding("up", "cursor(0, -1)", "up", show=False),
        Binding("down", "cursor(0, 1)", "down", show=False),
        Binding("enter,space", "press", "pick / put", show=False),
        Binding("escape", "unpick", "put back", show=False),
    ]

    def __init__(self, table: Table, owner: TableApp) -> None:
        super().__init__(id="table")
        self.table = table
        self.owner = owner
        self.picture: Picture | None = None
        self._down: Hit | None = None
        self._dragged_at: tuple[int, int] | None = None

    def render(self) -> Text:
        owner = self.owner
        width, height = max(self.size.width, 1), max(self.size.height, 1)
        frame = (max(owner.size.width - width, 0), max(owner.size.height - height, 0))
        position = owner.player.session.position
        self.picture = self.table.draw(position, width, height, owner.marks, frame)
        text = Text(no_wrap=True, overflow="crop")
        for k, spans in enumerate(self.picture.lines()):
            if k:
                text.append("\n")
            for chunk, style in spans:
                text.append(chunk, style or None)
        return text

    def hit_at(self, event: events.MouseEvent) -> Hit | None:
        if self.picture is None:
            return None
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        return self.picture.hits.get((offset.x, offset.y))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._down = self.hit_at(event)
        self._dragged_at = None

    def on_mouse_up(self, event: events.MouseUp) -> None:
        start, self._down = self._down, None
        end = self.hit_at(event)
        if start is not None and end is not None and start[0] != end[0]:
            self._dragged_at = (event.screen_x, event.screen_y)
            self.owner.drag(start, end[0])

    def on_click(self, event: events.Click) -> None:
        if self._dragged_at == (event.screen_x, event.screen_y):
            self._dragged_at = None  # the end of a drag, already played
            return
        hit = self.hit_at(event)
        if hit is not None:
            self.owner.click(hit, event.chain)

    def on_key(self, event: events.Key) -> None:
        # The game's keys and the table's work where the table has the focus (not in a pane
        # or the command bar); the arrows, Enter, Space and Esc are bindings.
        if self.owner.table_key(event):
            event.stop()
            event.prevent_default()

    def action_cursor(self, dx: int, dy: int) -> None:
        self.owner.move_cursor(dx, dy)

    def action_press(self) -> None:
        self.owner.press()

    def action_unpick(self) -> None:
        self.owner.unpick()


class TextPane(ModalScreen[None]):
    """Help or rules, scrollable; any of Esc, q or Enter closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter,question_mark,i", "dismiss", "close"),
    ]
    DEFAULT_CSS = """
    TextPane { align: center middle; }
    TextPane > VerticalScroll { width: 90%; height: 90%; border: round $accent;
                                background: $surface; padding: 0 1; }
    """

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll()
        scroll.border_title = f"{self.title_text} (Esc closes, arrows scroll)"
        with scroll:
            yield Static(Text(self.body))

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)


class Asking(ModalScreen[Means]):
    """The question line mode asks before a game with moves is left, with its choices: a
    choice's key, or Enter for the first (as line mode takes it); Esc goes on playing."""

    DEFAULT_CSS = """
    Asking { align: center middle; }
    Asking > Static { width: auto; max-width: 90%; border: round $warning;
                      background: $surface; padding: 0 2; }
    """

    def __init__(self, question: Question) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(self.question.prompt().rstrip() + "  (Esc: go on playing)")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key == "escape":
            self.dismiss("cancel")
            return
        answer = "" if event.key == "enter" else (event.character or "")
        means = self.question.read(answer) if answer or event.key == "enter" else None
        if means is not None:
            self.dismiss(means)


class TableApp(App[int]):
    """One game at the table."""

    CSS = """
    Screen { layout: vertical; }
    #message { height: auto; max-height: 3; padding: 0 1; }
    #status { height: auto; max-height: 2; padding: 0 1; background: $panel; }
    #command { height: 1; border: none; padding: 0 1; }
    #banner { dock: top; height: 3; content-align: center middle; text-style: bold;
              display: none; background: $success; color: $text; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "quit", show=False, priority=True),
    ]
    ENABLE_COMMAND_PALETTE = False  # ':' opens the game's own command bar
    MESSAGE_LINES = 3  # a longer message opens in a pane

    def __init__(
        self,
        player: Player,
        *,
        resumed: str | None = None,
        ticking: bool = True,
        ascii_only: bool = False,
    ) -> None:
        super().__init__()
        self.player = player
        self.game = player.game
        plain = bool(os.environ.get("NO_COLOR")) or ascii_only
        self.table = Table(self.game, colour=not plain, symbols=not ascii_only)
        self.marks = Marks()
        self.resumed = resumed
        self.ticking = ticking
        self.message_text = ""
        self.exit_code = 0
        self.celebrated = False
        self.farewell: list[str] = []
        self.ready = False  # mounted: the widgets exist
        self.acted: tuple[int, str] | None = None  # the pile whose action the last click played
        self.thinking: State | None = None  # the position a hint is being looked for in
        self.pile_number: str | None = None  # digits typed after 't', naming a tableau pile
        self.key_uses = self.key_map()

    # --- the screen ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="banner")
            yield TableView(self.table, self)
            yield Static("", id="message")
            yield Static("", id="status")
            yield Input(placeholder=self.footer(), id="command")

    def footer(self) -> str:
        """What the player can do now, in the command bar while it is empty."""
        if self.played_itself():
            return "nothing to play: the game played itself · ':new' another deal · q quit"
        if self.player.session.is_over():
            return "the game is over · u undo · ':new' another deal · q quit"
        return (
            "click a card, then its place (or drag it) · ':' commands · "
            "u undo · h hint · ? help · q quit"
        )

    def played_itself(self) -> bool:
        """Whether the engine played this game to its end from the deal, the player having
        had no choice to make (a game whose every move is forced)."""
        session = self.player.session
        return session.is_over() and all(entry.auto for entry in session.history)

    def on_mount(self) -> None:
        self.ready = True
        self.player.width = max(self.size.width - 2, 40)
        outcome = self.player.introduce(self.resumed)
        said = [m for m in (*outcome.messages, *outcome.notes) if m]
        if self.played_itself():
            self.tell(self.played_itself_text())
        else:
            self.tell("  ".join(said) or f"{self.game.name}: ? for help")
        self.query_one(TableView).focus()
        if self.ticking:
            self.set_interval(1.0, self.update_status)
        self.redraw()

    def played_itself_text(self) -> str:
        state = self.player.session.position
        return f"{self.game.name} plays itself. {ending(self.game, state)}"

    def on_resize(self, event: events.Resize) -> None:
        self.player.width = max(event.size.width - 2, 40)

    def redraw(self) -> None:
        if not self.ready:
            return
        self.query_one(TableView).refresh()
        self.query_one("#command", Input).placeholder = self.footer()
        self.update_status()
        self.check_won()

    def update_status(self) -> None:
        player, game = self.player, self.game
        state = player.position
        parts = [
            game.name,
            f"{game.spec.score.label}: {game.score(state)}/{len(game.cards)}",
            f"moves: {player.progress.moves}",
        ]
        if self.ticking:
            parts.append(time_text(player.progress.seconds()))
        outcome = game.outcome(state)
        style = ""
        if outcome:
            parts.append(outcome.upper())
            style = "bold green" if outcome == "won" else "bold"
        elif state in player.told_lost:
            parts.append("no win is possible from here")
            style = "bold yellow"
        line = Text("  ".join(parts[:-1]) if style else "  ".join(parts))
        if style:
            line.append("  " + parts[-1], style)
        self.query_one("#status", Static).update(line)

    def tell(self, text: str) -> None:
        """A message in the bar under the table, wrapped to its width; one too long for the
        bar's lines opens in a pane, so that nothing the player must read is cut."""
        self.message_text = text
        if not self.ready:
            return
        width = max(self.size.width - 2, 10)
        lines = [row for part in text.split("\n") for row in textwrap.wrap(part, width) or [""]]
        if len(lines) > self.MESSAGE_LINES:
            self.push_screen(TextPane("Message", text))
            text = text.split("\n")[0][: width - 16] + "... (see the pane)"
        style = "bold red" if text.startswith("!") else ""
        self.query_one("#message", Static).update(Text(text, style))

    def check_won(self) -> None:
        if self.game.outcome(self.player.position) != "won":
            self.celebrated = False  # undone, or another deal
            return
        if self.celebrated:
            return
        self.celebrated = True
        banner = self.query_one("#banner", Static)
        moves = self.player.progress.moves
        suits = "♠ ♥ ♦ ♣" if self.table.symbols else "S H D C"
        banner.update(f"{suits}  You won {self.game.name} in {moves} moves!  {suits}")
        banner.display = True
        self.set_timer(4.0, lambda: setattr(banner, "display", False))

    # --- playing through the player --------------------------------------------------------

    def present(self, outcome: Outcome) -> Outcome:
        """Draw what the player did: the message, a pane for long texts, the position."""
        if outcome.quit:
            said = list(outcome.messages)
            self.farewell = said + self.result_lines(said)
            self.exit(self.exit_code)
            return outcome
        self.marks.hint = None if outcome.kind != "hint" else self.marks.hint
        if outcome.help is not None:
            self.push_screen(TextPane("Help", outcome.help + "\n\n" + self.keys_help()))
        if outcome.rules is not None:
            self.push_screen(TextPane(f"Rules of {self.game.name}", outcome.rules))
        if outcome.kind == "board":
            self.push_screen(TextPane("The board in words", self.board_text()))
        said = [m for m in (*outcome.messages, *outcome.notes) if m]
        if said:
            self.tell("  ".join(said))
        elif outcome.command and outcome.kind not in ("help", "rules", "board"):
            self.tell(outcome.command)
        self.redraw()
        return outcome

    def board_text(self) -> str:
        """The board as line mode writes it: every pile in a line, foundations with what
        they take next and where they stop."""
        from ..render import Renderer

        renderer = Renderer(self.game, symbols=self.table.symbols, width=self.pane_width())
        lines = renderer.board(self.player.position)
        return "\n".join(line.plain for line in lines)

    def run_command(self, text: str) -> None:
        """A command of line mode; one that leaves a game with moves asks first, with line
        mode's question and choices."""
        self.marks.picked = None
        player = self.player
        command = player.parse(text)
        question = player.question(command)
        if question is None:
            self.present(player.perform(command))
            return

        def answer(means: Means | None) -> None:
            self.present(player.perform(command, means or "cancel"))

        self.push_screen(Asking(question), answer)

    def play_action(self, action: Action) -> None:
        self.present(self.player.play(action))

    def result_lines(self, said: list[str]) -> list[str]:
        """The result of a finished game, for the lines printed on leaving the table, unless
        they say it already."""
        state = self.player.session.position
        outcome = self.game.outcome(state)
        if not outcome or any(outcome in line.lower() for line in said):
            return []
        if self.played_itself():
            return [self.played_itself_text()]
        return [ending(self.game, state)]

    def action_command(self, line: str) -> None:
        self.run_command(line)

    def action_command_bar(self) -> None:
        self.query_one("#command", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        event.input.value = ""
        self.query_one(TableView).focus()  # the bar closes after its command
        if not line:
            return
        self.marks.picked = None
        if self.player.parse(line).kind == "hint":
            self.action_hint()
        else:
            self.run_command(line)

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape" and isinstance(self.focused, Input):
            self.query_one(TableView).focus()
            event.stop()

    def action_hint(self) -> None:
        """The hint's search runs in a thread; the table goes on answering meanwhile."""
        self.marks.picked = None
        state = self.player.position
        if self.thinking == state:
            return
        self.thinking = state
        self.tell("hint: looking for a good move...")
        seen = self.player.seen.copy()

        def search() -> None:
            advice = self.player.advise(state, seen)
            self.call_from_thread(self.hint_found, state, advice)

        self.run_worker(search, thread=True, group="hint", exit_on_error=False)

    def hint_found(self, state: State, advice: Advice) -> None:
        if self.thinking == state:
            self.thinking = None
        if state != self.player.position:
            return  # the player moved on meanwhile: the hint is for a position gone
        outcome = self.player.hinted(state, advice)
        action = advice.action
        if action is None:
            self.marks.hint = None
        else:
            src = action.src if action.src >= 0 else self._stock_of(action)
            self.marks.hint = (src, action.dst)
        self.present(outcome)

    def _stock_of(self, action: Action) -> int:
        effect = self.game.effects[action.name]
        source = getattr(effect, "source", -1)
        return source if isinstance(source, int) else -1

    def pane_width(self) -> int:
        """The columns of text in a pane: 90% of the screen less its border and scroll bar."""
        return max(40, min(self.size.width * 9 // 10 - 6, 100))

    def action_help(self) -> None:
        self.player.help_width = self.pane_width()
        self.run_command("help")

    def action_rules(self) -> None:
        self.player.width = self.pane_width() + 1
        self.run_command("rules")
        self.player.width = max(self.size.width - 2, 40)

    def action_quit_game(self) -> None:
        self.run_command("quit")

    def action_interrupt(self) -> None:
        self.exit_code = 130
        self.present(self.player.perform(self.player.parse("quit"), "keep"))

    # --- keys ------------------------------------------------------------------------------

    def key_map(self) -> dict[str, tuple[str, Callable[[], None]]]:
        """Every key of the table, with what it does: the game's own action keys first (a
        table key the game takes for an action is the game's), then the table's."""
        game = self.game
        keys: dict[str, tuple[str, Callable[[], None]]] = {}
        for key, name in game.notation.keys.items():
            effect = game.effects[name]
            if key != name and len(key) == 1 and not effect.automatic:
                keys[key] = (name, partial(self.run_command, key))
        tableau = game.layout.with_role("tableau")
        own: list[tuple[str, str, Callable[[], None]]] = [
            ("u", "undo", partial(self.run_command, "undo")),
            ("R", "redo", partial(self.run_command, "redo")),
            ("r", "redo", partial(self.run_command, "redo")),
            ("h", "hint (the card and its target light up)", self.action_hint),
            ("m", "the legal moves", partial(self.run_command, "moves")),
            ("b", "the board in words (foundations: what they take next)",
             partial(self.run_command, "board")),
            ("?", "this help", self.action_help),
            ("i", "the rules", self.action_rules),
            ("q", "quit (asks first when the game has moves)", self.action_quit_game),
            (":", "the command bar: any command of line mode ('t3 f1', 'save FILE', 'new')",
             self.action_command_bar),
            ("f", "send the picked card (or the chosen pile's) to a foundation",
             self.send_picked_home),
        ]  # fmt: skip
        for role, key in (("stock", "s"), ("waste", "w")):
            if game.layout.with_role(role):
                own.append((key, f"pick the {role}'s card" if role == "waste" else
                            "the stock: draw", partial(self.key_role, role)))  # fmt: skip
        for k, pile in enumerate(tableau[:10]):
            own.append((str((k + 1) % 10), f"pick {game.pile_names[pile]}",
                        partial(self.key_pile, pile)))  # fmt: skip
        if tableau:
            own.append(("t", "then a number: pick that tableau pile (t12: t, 1, 2)",
                        self.begin_pile_number))  # fmt: skip
        for key, does, run in own:
            keys.setdefault(key, (does, run))
        return keys

    def keys_help(self) -> str:
        """The keys at the table, from ``keys`` (so that the help and the keys agree)."""
        width = self.pane_width()
        lines = ["At the table (these keys, and the mouse):"]
        lines.append("  arrows choose a pile; Enter or Space picks its card, or puts the picked "
                     "card there; Up and Down with a card picked make the run longer or shorter; "
                     "Esc puts it back")  # fmt: skip
        for key, (does, _) in self.key_uses.items():
            lines.append(f"  {key}  {does}")
        for heading, items in MOUSE_HELP.items():
            lines.append(f"{heading}:")
            lines += [f"  {item}" for item in items]
        return "\n".join(
            textwrap.fill(line, width, subsequent_indent="      ", break_on_hyphens=False)
            for line in lines
        )

    def table_key(self, event: events.Key) -> bool:
        """A key pressed at the table; whether it was the table's."""
        character = event.character or ""
        if self.pile_number is not None and self.more_pile_number(event.key, character):
            return True
        found = self.key_uses.get(character)
        if found is None:
            return False
        found[1]()
        return True

    def begin_pile_number(self) -> None:
        self.pile_number = ""
        self.tell("t: type the pile's number (Enter when it could go on, Esc: never mind)")

    def more_pile_number(self, key: str, character: str) -> bool:
        tableau = self.game.layout.with_role("tableau")
        typed = self.pile_number or ""
        if character.isdigit():
            typed += character
            number = int(typed)
            if number * 10 > len(tableau) or number == 0:  # no longer number names a pile
                self.pile_number = None
                self.pick_numbered(number)
            else:
                self.pile_number = typed
                self.tell(f"t{typed}: another digit, or Enter")
            return True
        self.pile_number = None
        if key in ("enter", "space") and typed:
            self.pick_numbered(int(typed))
            return True
        if key == "escape" or not typed:
            self.tell("")
            return key == "escape"
        self.pick_numbered(int(typed))
        return False

    def pick_numbered(self, number: int) -> None:
        tableau = self.game.layout.with_role("tableau")
        if 1 <= number <= len(tableau):
            self.key_pile(tableau[number - 1])
        else:
            self.tell(f"! there is no t{number} (t1..t{len(tableau)})")

    # --- clicks ----------------------------------------------------------------------------

    def pile_name(self, pile: int) -> str:
        return self.game.pile_names[pile]

    def click(self, hit: Hit, chain: int = 1, picking: bool = False) -> None:
        """A click on a card (or a pile); ``picking``: a key chose the pile, to pick its card
        (the waste's card is picked, never drawn on)."""
        pile, index = hit
        if chain >= 2 and self.marks.picked is not None and self.marks.picked[0] == pile:
            self.marks.picked = None  # the first click picked the card: now it goes home
            self.send_home(pile)
            return
        if chain >= 2 and self.acted != (pile, "free"):
            return  # the first click played this pile's own action: once is enough
        picked = self.marks.picked  # (a quick second click on the stock draws again)
        self.acted = None
        if picked is None:
            self.pick_or_act(pile, index, picking)
            return
        self.marks.picked = None
        if picked[0] == pile:
            self.tell("put back")
            self.redraw()
            return
        self.move(picked, pile)

    def drag(self, start: Hit, target: int) -> None:
        self.marks.picked = None
        if start[1] < 0:
            return
        self.move(start, target)

    def pick_or_act(self, pile: int, index: int, picking: bool = False) -> None:
        """A click with nothing picked: an action of this pile alone, or pick its card."""
        game = self.game
        state = self.player.position
        cards = state.piles[pile]
        legal = self.player.session.legal_actions()
        moves = [a for a in legal if a.src == pile and a.dst >= 0]
        own = [a for a in legal if a.src == pile and a.dst < 0]
        free = [a for a in legal if a.src < 0 and self._touches(a.name, pile, not cards)]
        face_up = bool(cards) and not cards[-1] & DOWN and game.layout.role[pile] != "stock"
        if picking and game.layout.role[pile] != "stock":  # a key picks, never draws onto it
            free = [a for a in free if pile in getattr(game.effects[a.name], "piles", ())]
            if not cards and not free:
                self.tell(f"! {self.pile_name(pile)} is empty")
                return
        if own and not moves:
            self.acted = (pile, "own")
            self.play_action(own[0])
            return
        if free and not moves and not (picking and face_up):
            self.acted = (pile, "free")
            self.play_action(free[0])
            return
        if not cards:
            untouched = [
                n for n, e in game.effects.items()
                if e.takes_piles == 0 and not e.automatic and self._touches(n, pile, True)
            ]  # fmt: skip
            if untouched:  # the engine says why it cannot be played now
                self.play_action(Action(untouched[0]))
            else:
                self.tell(f"! {self.pile_name(pile)} is empty")
            return
        start = index if 0 <= index < len(cards) else len(cards) - 1
        self.marks.picked = (pile, start)
        count = len(cards) - start
        what = "a face-down card" if cards[start] & DOWN else self.player.card_name(cards[start])
        more = f" and the {count - 1} on it" if count > 1 else ""
        self.tell(f"{self.pile_name(pile)}: {what}{more} picked; click where it goes")
        self.redraw()

    def _touches(self, name: str, pile: int, empty: bool) -> bool:
        """Whether an action that takes no piles belongs to this pile: it deals from or to it,
        starts from it, or (for an empty pile) fills it."""
        effect = self.game.effects[name]
        if pile in (getattr(effect, "source", None), getattr(effect, "target", None)):
            return True
        if pile in getattr(effect, "starts", ()):
            return True
        return empty and pile in getattr(effect, "piles", ())

    def move(self, start: Hit, target: int) -> None:
        """Cards from ``start`` (a pile and the card the run starts at) onto ``target``."""
        game = self.game
        src, index = start
        cards = self.player.position.piles[src]
        count = len(cards) - index if 0 <= index < len(cards) else 1
        legal = self.player.session.legal_actions()
        pairs = [
            a for a in legal
            if a.src == target and a.dst == src and isinstance(game.effects[a.name], Pair)
        ]  # fmt: skip
        exact = [a for a in pairs if a.n == count or (count == 1 and a.n == 0)]
        if exact:
            self.play_action(exact[0])
            return
        self.present(self.player.move(src, target, count))

    def send_home(self, pile: int) -> None:
        game = self.game
        legal = self.player.session.legal_actions()
        home = frozenset(game.foundations)
        to_home = [a for a in legal if a.src == pile and a.dst in home]
        if to_home:
            top = [a for a in to_home if a.n <= 1]
            self.play_action((top or to_home)[0])
            return
        own = [a for a in legal if a.src == pile and a.dst < 0]
        if own:
            self.play_action(own[0])
            return
        cards = self.player.position.piles[pile]
        if not cards:
            self.tell(f"! {self.pile_name(pile)} is empty")
        elif cards[-1] & DOWN:
            self.tell(f"! {self.pile_name(pile)}: its top card is face down")
        else:
            card = self.player.card_name(cards[-1])
            where = "no foundation takes" if home else "there is no foundation for"
            self.tell(f"! {where} {card} now")
        self.redraw()

    # --- the cursor ------------------------------------------------------------------------

    def _anchors(self) -> dict[int, tuple[int, int]]:
        view = self.query_one(TableView)
        return view.picture.anchor if view.picture is not None else {}

    def move_cursor(self, dx: int, dy: int) -> None:
        picked = self.marks.picked
        if dy and picked is not None:  # a longer or shorter run
            cards = self.player.position.piles[picked[0]]
            index = min(max(picked[1] + dy, 0), len(cards) - 1)
            self.marks.picked = (picked[0], index)
            self.redraw()
            return
        anchors = self._anchors()
        if not anchors:
            return
        current = self.marks.cursor
        if current not in anchors:
            self.marks.cursor = min(anchors, key=lambda p: (anchors[p][1], anchors[p][0]))
            self.redraw()
            return
        x0, y0 = anchors[current]

        def distance(p: int) -> tuple[int, int]:
            x, y = anchors[p]
            if dx:
                return (abs(y - y0), abs(x - x0))
            return (abs(x - x0), abs(y - y0))

        if dx:
            ahead = [p for p in anchors if (anchors[p][0] - x0) * dx > 0 and anchors[p][1] == y0]
            if not ahead:
                ahead = [p for p in anchors if (anchors[p][0] - x0) * dx > 0]
        else:
            ahead = [p for p in anchors if (anchors[p][1] - y0) * dy > 0]
        if ahead:
            self.marks.cursor = min(ahead, key=distance)
        self.redraw()

    def press(self) -> None:
        pile = self.marks.cursor
        if pile is None:
            self.move_cursor(0, 0)
            return
        self.click((pile, -1), picking=self.marks.picked is None)

    def unpick(self) -> None:
        self.marks.picked = None
        self.marks.hint = None
        self.tell("")
        self.redraw()

    def key_pile(self, pile: int) -> None:
        """A key naming a pile: put the picked card there, or pick the pile's card."""
        self.marks.cursor = pile
        self.click((pile, -1), picking=True)

    def key_role(self, role: str) -> None:
        piles = self.game.layout.with_role(role)
        if piles:
            self.key_pile(piles[0])

    def send_picked_home(self) -> None:
        pile = self.marks.picked[0] if self.marks.picked else self.marks.cursor
        self.marks.picked = None
        if pile is not None:
            self.send_home(pile)
        else:
            self.tell("! pick a card first (a pile's key, or click it)")


def make_app(
    game: Game,
    options: PlayOptions,
    deal: Deal,
    ref: str,
    record: GameRecord | None = None,
    source: Path | None = None,
    offered: Sequence[str] = (),
    *,
    ascii: bool = False,
    ticking: bool = True,
) -> TableApp:
    """The table for a game of ``deal`` (or the saved game ``record``, read from ``source``)."""
    player = Player(game, options, ref)
    if record is not None and source is not None:
        record, deal = player.claim_saved(record, source)
    player.begin(deal, record, source)
    player.offered = list(offered)
    resumed = str(source) if source is not None else None
    return TableApp(player, resumed=resumed, ticking=ticking, ascii_only=ascii)


def run(app: TableApp) -> int:
    """Run the table on the terminal; then say what line mode says when a game is left."""
    code = app.run(mouse=True)
    farewell = app.farewell
    for text in farewell:
        print(text)
    player = app.player
    if not farewell:  # closed some other way
        if player.session.is_over():
            print(f"{app.game.name}: {ending(app.game, player.position)}")
        else:
            saved = player.leave(saving=True)
            if saved:
                for line in player.saved_lines(saved):
                    print(line)
    return code if isinstance(code, int) else 0
