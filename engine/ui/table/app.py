"""The full-screen table: a Textual app over the same player as line mode.

The table draws the position (``layout.Table``) and turns clicks, drags and keys into the
commands of line mode, which it hands to the line mode's ``Player``: the same session,
automatic moves, refusals, hints, saves, records and history. It holds no rules: which card a
click picks, and where it goes, is asked of the engine's legal actions, and a move the engine
refuses shows the engine's reason in the status bar.
"""

from __future__ import annotations

import argparse
import io
import os
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static

from ...core.cards import DOWN
from ...core.state import Action
from ...game.game import Game
from ...play.keeper import Leaving, Means
from ...play.progress import Deal
from ...play.records import GameRecord
from ...vocab.effects.removal import Pair
from ..cli.output import ending
from ..cli.play import Player, claim_saved
from ..render import time_text
from ..screen import Screen
from .layout import Hit, Marks, Picture, Table

MOUSE_HELP = {
    "The mouse": [
        "click a card, then the pile it goes to (click the card a run starts at to move the "
        "run), or drag it there;",
        "double-click a card to send it to a foundation;",
        "click the stock to draw (or to turn the waste over); click a gap to fill it, where "
        "the rules have such an action;",
        "click a picked card again to put it back.",
    ],
    "The keys": [
        "arrows choose a pile; Enter or Space picks its card, or puts the picked card there;",
        "Up and Down with a card picked make the run longer or shorter;",
        "1..9 and 0 pick t1..t10, s the stock, w the waste; f sends the picked card home; "
        "Esc puts it back;",
        "u undo, r redo, h hint (the card and its target light up), i the rules, ? this help;",
        ": the command bar: every command of line mode ('t3 f1', 'draw', 'save FILE', "
        "'new'...); Esc leaves it;",
        "q quits; the game is saved, to be resumed here or in line mode "
        "('solitaire play --resume').",
    ],
}


def mouse_help(width: int) -> str:
    lines: list[str] = []
    for heading, items in MOUSE_HELP.items():
        lines.append(f"{heading}:")
        lines += [textwrap.fill(item, width, initial_indent="  ", subsequent_indent="    ")
                  for item in items]  # fmt: skip
    return "\n".join(lines)


class PaneWidth(Screen):
    """Line mode's screen, as wide as the table's text pane (help is wrapped to fit it)."""

    def __init__(self) -> None:
        super().__init__(io.StringIO(), colour=False)
        self.columns = 70

    def width(self, default: int = 80) -> int:
        return self.columns


class TablePlayer(Player):
    """Line mode's player, reporting to the table instead of a terminal."""

    def __init__(self, game: Game, args: argparse.Namespace, ref: str) -> None:
        super().__init__(game, args, ref)
        self.screen = self.pane = PaneWidth()
        self.interactive = True
        self.heard: list[str] = []
        self.listener: TableApp | None = None
        self.ascii_only: bool = args.ascii
        self.renderer.symbols = not args.ascii  # the table's messages name cards as it draws them

    def say(self, text: str) -> None:
        self.heard.append(text)

    def warn(self, text: str) -> None:
        self.heard.append(text)

    def ask(self, leaving: Leaving) -> Means:
        """A game left at the table is kept saved, never thrown away: the table asks its own
        question before quitting, and a restart or a new deal keeps the game it leaves."""
        return "keep"

    def show(self) -> None:
        if self.listener is not None:
            self.listener.redraw()


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
        # The game's keys work where the table has the focus (not in a pane or the command bar).
        Binding("u", "app.command('undo')", "undo"),
        Binding("r", "app.command('redo')", "redo"),
        Binding("h", "app.hint", "hint"),
        Binding("question_mark", "app.help", "help"),
        Binding("i", "app.rules", "rules"),
        Binding("q", "app.quit_game", "quit"),
        Binding("colon", "app.command_bar", "command"),
        Binding("s", "app.key_role('stock')", "stock", show=False),
        Binding("w", "app.key_role('waste')", "waste", show=False),
        Binding("f", "app.home", "home", show=False),
        *(
            Binding(str(k % 10), f"app.key_tableau({k - 1})", f"t{k}", show=False)
            for k in range(1, 11)
        ),
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


class Question(ModalScreen[bool]):
    """A yes-or-no question."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]
    DEFAULT_CSS = """
    Question { align: center middle; }
    Question > Static { width: auto; max-width: 90%; border: round $warning;
                        background: $surface; padding: 0 2; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text + "  [y/n]")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class TableApp(App[int]):
    """One game at the table."""

    CSS = """
    Screen { layout: vertical; }
    #message { height: 1; padding: 0 1; }
    #status { height: 1; padding: 0 1; background: $panel; }
    #command { height: 1; border: none; padding: 0 1; }
    #banner { dock: top; height: 3; content-align: center middle; text-style: bold;
              display: none; background: $success; color: $text; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "quit", show=False, priority=True),
    ]
    ENABLE_COMMAND_PALETTE = False  # ':' opens the game's own command bar

    def __init__(self, player: TablePlayer, *, resumed: str | None = None, ticking: bool = True):
        super().__init__()
        self.player = player
        self.game = player.game
        plain = bool(os.environ.get("NO_COLOR")) or player.ascii_only
        self.table = Table(self.game, colour=not plain, symbols=not player.ascii_only)
        self.marks = Marks()
        self.resumed = resumed
        self.ticking = ticking
        self.message_text = ""
        self.exit_code = 0
        self.celebrated = False
        self.farewell: list[str] = []
        self.ready = False  # mounted: the widgets exist
        self.acted: tuple[int, str] | None = None  # the pile whose action the last click played
        player.listener = self

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
        had no choice to make (Clock)."""
        session = self.player.session
        return session.is_over() and all(entry.auto for entry in session.history)

    def on_mount(self) -> None:
        self.ready = True
        self.player.introduce(self.resumed)
        heard = [h for h in self.player.heard if h]
        self.player.heard.clear()
        if self.played_itself():
            self.tell(self.played_itself_text())
        else:
            self.tell("  ".join(heard) or f"{self.game.name}: ? for help")
        self.query_one(TableView).focus()
        if self.ticking:
            self.set_interval(1.0, self.update_status)
        self.redraw()

    def played_itself_text(self) -> str:
        state = self.player.session.position
        return f"{self.game.name} plays itself. {ending(self.game, state)}"

    def redraw(self) -> None:
        if not self.ready:
            return
        self.query_one(TableView).refresh()
        self.query_one("#command", Input).placeholder = self.footer()
        self.update_status()
        self.check_won()

    def update_status(self) -> None:
        player, game = self.player, self.game
        state = player.session.position
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
        self.message_text = text
        if self.ready:
            style = "bold red" if text.startswith("!") else ""
            self.query_one("#message", Static).update(Text((text.splitlines() or [""])[0], style))

    def check_won(self) -> None:
        if self.game.outcome(self.player.session.position) != "won":
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

    # --- playing through line mode ---------------------------------------------------------

    def run_command(self, line: str) -> str:
        """One line-mode command; what the player said about it goes to the status bar."""
        player = self.player
        player.heard.clear()
        before = player.session.position
        result = player.handle(line)
        heard = [h for h in player.heard if h]
        player.heard.clear()
        if player.session.position != before:
            self.marks.hint = None
        if result == "quit":
            self.farewell = heard + self.result_lines(heard)
            self.exit(self.exit_code)
            return result
        long = [h for h in heard if h.count("\n") > 2]
        if long:
            self.push_screen(TextPane(line, long[0]))
            heard = [h for h in heard if h not in long]
        if heard:
            self.tell("  ".join(h.replace("\n", " ") for h in heard[-2:]))
        else:
            self.tell(line)
        self.redraw()
        return result

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
        self.marks.picked = None
        self.run_command(line)

    def action_command_bar(self) -> None:
        self.query_one("#command", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        event.input.value = ""
        if not line:
            self.query_one(TableView).focus()
            return
        self.marks.picked = None
        words = line.lower().split()
        if words in (["help"], ["?"]):
            self.action_help()
        elif words == ["rules"]:
            self.action_rules()
        else:
            self.run_command(line)

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape" and isinstance(self.focused, Input):
            self.query_one(TableView).focus()
            event.stop()

    def action_hint(self) -> None:
        self.marks.picked = None
        self.run_command("hint")
        player = self.player
        advice = player.adviser.advise(player.session.position, player.seen)
        action = advice.action
        if action is None:
            self.marks.hint = None
        else:
            src = action.src if action.src >= 0 else self._stock_of(action)
            self.marks.hint = (src, action.dst)
        self.redraw()

    def _stock_of(self, action: Action) -> int:
        effect = self.game.effects[action.name]
        source = getattr(effect, "source", -1)
        return source if isinstance(source, int) else -1

    def pane_width(self) -> int:
        """The columns of text in a pane: 90% of the screen less its border and scroll bar."""
        return max(40, min(self.size.width * 9 // 10 - 6, 100))

    def action_help(self) -> None:
        self.player.pane.columns = self.pane_width()
        self.push_screen(
            TextPane("Help", self.player.help_text() + "\n\n" + mouse_help(self.pane_width()))
        )

    def action_rules(self) -> None:
        from ..rules_text import rules_text

        text = rules_text(self.game, self.pane_width())
        self.push_screen(TextPane(f"Rules of {self.game.name}", text))

    def action_quit_game(self) -> None:
        player = self.player
        if player.session.is_over() or not player.progress.moves:
            self.run_command("quit")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.run_command("quit")

        self.push_screen(Question("Quit? This game is saved: 'solitaire play --resume'."), answer)

    def action_interrupt(self) -> None:
        self.exit_code = 130
        self.run_command("quit")

    # --- clicks ----------------------------------------------------------------------------

    def pile_name(self, pile: int) -> str:
        return self.game.pile_names[pile]

    def click(self, hit: Hit, chain: int = 1) -> None:
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
            self.pick_or_act(pile, index)
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

    def pick_or_act(self, pile: int, index: int) -> None:
        """A click with nothing picked: an action of this pile alone, or pick its card."""
        game = self.game
        state = self.player.session.position
        cards = state.piles[pile]
        legal = self.player.session.legal_actions()
        moves = [a for a in legal if a.src == pile and a.dst >= 0]
        own = [a for a in legal if a.src == pile and a.dst < 0]
        free = [a for a in legal if a.src < 0 and self._touches(a.name, pile, not cards)]
        if own and not moves:
            self.acted = (pile, "own")
            self.run_command(game.action_text(own[0]))
            return
        if free and not moves:
            self.acted = (pile, "free")
            self.run_command(game.action_text(free[0]))
            return
        if not cards:
            untouched = [
                n for n, e in game.effects.items()
                if e.takes_piles == 0 and not e.automatic and self._touches(n, pile, True)
            ]  # fmt: skip
            if untouched:  # the engine says why it cannot be played now
                self.run_command(untouched[0])
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
        cards = self.player.session.position.piles[src]
        count = len(cards) - index if 0 <= index < len(cards) else 1
        legal = self.player.session.legal_actions()
        fits = [a for a in legal if a.src == src and a.dst == target]
        fits += [
            a for a in legal
            if a.src == target and a.dst == src and isinstance(game.effects[a.name], Pair)
        ]  # fmt: skip
        exact = [a for a in fits if a.n == count or (count == 1 and a.n == 0)]
        if exact:
            self.run_command(game.action_text(exact[0]))
            return
        text = f"{self.pile_name(src)} {self.pile_name(target)}"
        self.run_command(text + (f" {count}" if count > 1 else ""))

    def send_home(self, pile: int) -> None:
        game = self.game
        legal = self.player.session.legal_actions()
        home = frozenset(game.foundations)
        to_home = [a for a in legal if a.src == pile and a.dst in home]
        if to_home:
            top = [a for a in to_home if a.n <= 1]
            self.run_command(game.action_text((top or to_home)[0]))
            return
        own = [a for a in legal if a.src == pile and a.dst < 0]
        if own:
            self.run_command(game.action_text(own[0]))
            return
        cards = self.player.session.position.piles[pile]
        if not cards:
            self.tell(f"! {self.pile_name(pile)} is empty")
        elif cards[-1] & DOWN:
            self.tell(f"! {self.pile_name(pile)}: its top card is face down")
        else:
            card = self.player.card_name(cards[-1])
            where = "no foundation takes" if home else "there is no foundation for"
            self.tell(f"! {where} {card} now")
        self.redraw()

    # --- keys ------------------------------------------------------------------------------

    def _anchors(self) -> dict[int, tuple[int, int]]:
        view = self.query_one(TableView)
        return view.picture.anchor if view.picture is not None else {}

    def move_cursor(self, dx: int, dy: int) -> None:
        picked = self.marks.picked
        if dy and picked is not None:  # a longer or shorter run
            cards = self.player.session.position.piles[picked[0]]
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
        self.click((pile, -1))

    def unpick(self) -> None:
        self.marks.picked = None
        self.marks.hint = None
        self.tell("")
        self.redraw()

    def action_key_tableau(self, k: int) -> None:
        piles = [p for p in range(len(self.game.layout)) if self.game.layout.role[p] == "tableau"]
        if k < len(piles):
            self.marks.cursor = piles[k]
            self.click((piles[k], -1))

    def action_key_role(self, role: str) -> None:
        piles = self.game.layout.with_role(role)
        if piles:
            self.marks.cursor = piles[0]
            self.click((piles[0], -1))

    def action_home(self) -> None:
        pile = self.marks.picked[0] if self.marks.picked else self.marks.cursor
        self.marks.picked = None
        if pile is not None:
            self.send_home(pile)


def make_app(
    game: Game,
    args: argparse.Namespace,
    deal: Deal,
    ref: str,
    record: GameRecord | None = None,
    source: Path | None = None,
    offered: Sequence[str] = (),
    *,
    ticking: bool = True,
) -> TableApp:
    player = TablePlayer(game, args, ref)
    if record is not None and source is not None:
        record, deal = claim_saved(player, game, record, source)
    player.begin(deal, record, source)
    player.offered = list(offered)
    resumed = str(source) if source is not None else None
    return TableApp(player, resumed=resumed, ticking=ticking)


def run(app: TableApp) -> int:
    """Run the table on the terminal; then say what line mode says when a game is left."""
    code = app.run(mouse=True)
    farewell = app.farewell
    for text in farewell:
        print(text)
    if not farewell and not app.player.session.is_over():  # closed some other way
        saved = app.player.leave(saving=True)
        if saved:
            for line in app.player.saved_lines(saved):
                print(line)
    return code if isinstance(code, int) else 0
