"""Where each pile of a game goes on a table of a given size, and what is under each cell.

Nothing here knows a game: the picture comes from the rule file's pile roles and its
``display:`` part. Before anything is drawn, every pile gets a box of its own (``Plan``): piles
with hours go round a clock face, each hour a box for each of its piles side by side; stock,
waste, reserves, cells and foundations sit in a row at the top; a pyramid is drawn as a
pyramid, a grid as a grid, groups of many one-card piles wrap in rows of cards, and every other
pile is a column of fanned cards. The plan tries the biggest cards first and shrinks them, the
top card's height, the blank lines and the foundations' notes until every box fits the screen
beside the others; only then does it fold a row of columns into bands. When even the smallest
plan does not fit, the table says which size it needs. Inside its box a pile folds what does
not fit (face-down cards into a count, then its oldest face-up cards into ``+N``), so that its
top card is always drawn whole, in its own box.

``draw`` gives a ``Picture``: lines of styled spans (Rich style strings), each pile's box, and
a map from each cell to the pile and the card drawn there (-1: the pile itself).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from ...core.cards import DOWN, FACE, MASK, SUIT
from ...core.state import State
from ...game.game import Game
from ..render import (
    CENTRE,
    DIAL_CELLS,
    covered_places,
    dial_places,
    face_name,
    faces_text,
    foundation_forms,
    progress,
)

Span = tuple[str, str]
Hit = tuple[int, int]  # (pile, card index in the pile; -1 for the pile itself)

TOP_ROLES = ("stock", "waste", "reserve", "cell")
SLOT_ROLES = ("foundation", "stock", "waste")  # drawn as their top card, also on a clock face
NOTE_WIDTH = 9  # room for a foundation's note: '>10S..10S' (a space more when it fits)
MARKER = 3  # '+12': the cards a fan or a column leaves out
GROWTH = 2  # lines a column keeps for cards beyond its deal, when it can


@dataclass(frozen=True)
class Box:
    """A pile's rectangle on the table: it draws only inside it."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def meets(self, other: Box) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def holds(self, x: int, y: int) -> bool:
        return self.x <= x < self.right and self.y <= y < self.bottom


@dataclass(frozen=True)
class Size:
    """One try at fitting a game to the screen."""

    cw: int  # a card's width
    tall: int  # lines of a top card
    notes: str  # where a foundation's note goes: 'name' (its line), 'below' (the card), ''
    air: int  # blank lines between rows of piles
    whole: bool  # columns and fans have room for the cards they are dealt
    bands: bool  # a row of columns wider than the screen may wrap into bands


@dataclass
class Plan:
    """Every pile's box and how it is drawn there: 'slot' (its name, then its top card),
    'column' (its name, then its cards downwards), 'fan' (its name, then its cards
    sideways), 'place' (its top card alone: a pyramid's or a grid's)."""

    size: Size
    boxes: dict[int, Box] = field(default_factory=dict)
    kinds: dict[int, str] = field(default_factory=dict)
    needed: tuple[int, int] = (0, 0)  # the least width and height of this plan

    def put(self, pile: int, kind: str, box: Box) -> None:
        self.boxes[pile] = box
        self.kinds[pile] = kind


@dataclass
class Marks:
    """What the table emphasises: the picked card, the hint, the keyboard's pile."""

    picked: Hit | None = None
    hint: tuple[int, int] | None = None  # source and target piles
    cursor: int | None = None


@dataclass
class Picture:
    width: int
    height: int
    grid: list[list[Span]] = field(default_factory=list)
    hits: dict[tuple[int, int], Hit] = field(default_factory=dict)
    anchor: dict[int, tuple[int, int]] = field(default_factory=dict)  # pile -> a cell of it
    boxes: dict[int, Box] = field(default_factory=dict)
    needed: tuple[int, int] | None = None  # the table's least size, when this one is too small

    def __post_init__(self) -> None:
        self.grid = [[(" ", "")] * self.width for _ in range(self.height)]

    def put(
        self, x: int, y: int, text: str, style: str = "", hit: Hit | None = None,
        box: Box | None = None,
    ) -> None:  # fmt: skip
        """Text from (x, y); with a box, cut at its edges."""
        if not 0 <= y < self.height:
            return
        right = self.width if box is None else min(self.width, box.right)
        if box is not None and not box.y <= y < box.bottom:
            return
        row = self.grid[y]
        for k, ch in enumerate(text):
            if 0 <= x + k < right:
                row[x + k] = (ch, style)
                if hit is not None:
                    self.hits[(x + k, y)] = hit

    def claim(self, box: Box, hit: Hit) -> None:
        """Cells that pick a pile without drawing anything (the room around its cards)."""
        for yy in range(box.y, min(box.bottom, self.height)):
            for xx in range(box.x, min(box.right, self.width)):
                self.hits.setdefault((xx, yy), hit)

    def lines(self) -> list[list[Span]]:
        """Each line as runs of one style."""
        out: list[list[Span]] = []
        for row in self.grid:
            spans: list[Span] = []
            for ch, style in row:
                if spans and spans[-1][1] == style:
                    spans[-1] = (spans[-1][0] + ch, style)
                else:
                    spans.append((ch, style))
            out.append(spans)
        return out

    def text(self) -> str:
        return "\n".join("".join(ch for ch, _ in row).rstrip() for row in self.grid)


class Table:
    """Plans and draws the positions of one game."""

    def __init__(self, game: Game, *, colour: bool = True, symbols: bool = True) -> None:
        self.game = game
        self.colour = colour
        self.symbols = symbols
        layout = game.layout
        display = game.spec.display
        self.hour, self.centre = dial_places(game)
        self.dial = display.layout == "clock" and any(self.hour)
        dealt = game.deal_seed(0)
        self.dealt = dealt.piles
        # Foundations that take cards one by one have a note: what comes next, where it stops.
        self.noted = any(
            foundation_forms(game, dealt, p, symbols)[0].plain
            for p in layout.with_role("foundation")
        )
        self.names = [len(name) for name in game.pile_names]
        self.blocks: list[tuple[str, list[int]]] = []  # (kind, piles) below the top row
        # Piles that cover one another (a pyramid, peaks): (row, column in half cards).
        self.covered: dict[int, tuple[int, int]] = {}
        self.top: list[int] = []
        self.top_right: list[int] = []
        self.cells: dict[tuple[int, int], list[int]] = {}  # the clock face: (row, col) -> piles
        others: list[int] = []
        for pile in range(len(layout)):
            hour = self.hour[pile] if self.dial else 0
            if hour or (self.dial and pile in self.centre):
                row, col = DIAL_CELLS[hour] if hour else CENTRE
                # Five rows of three places: the hours of each side share a column.
                place = col - 1 if row in (0, 4) else col // 2
                self.cells.setdefault((row, place), []).append(pile)
            else:
                others.append(pile)
        for group, piles in layout.groups.items():
            members = [p for p in piles if p in others]
            if not members:
                continue
            role = layout.role[members[0]]
            arrangement = game.spec.piles[group].arrangement if group in game.spec.piles else None
            single = all(len(self.dealt[p]) <= 1 for p in members)
            if role == "foundation":
                self.top_right += members
            elif role in TOP_ROLES:
                self.top += members
            elif single and (places := covered_places(game, members)):
                self.covered.update(places)
                self.blocks.append(("covered", members))
            elif arrangement is not None and single:
                self.blocks.append((f"grid:{getattr(arrangement, 'grid', 0)}", members))
            elif single and (
                len(members) > 8 or all(layout.accepts[p].max_cards == 1 for p in members)
            ):
                self.blocks.append(("grid:0", members))
            else:
                self.blocks.append(("columns", members))
        self._plans: dict[tuple[int, int], tuple[Plan, bool]] = {}

    # --- the plan ---------------------------------------------------------------------------

    def plan(self, width: int, height: int) -> tuple[Plan, bool]:
        """The biggest plan that fits ``width`` x ``height``, and True; or the smallest plan
        and False (its ``needed`` is the size it takes)."""
        key = (width, height)
        if key not in self._plans:
            smallest: Plan | None = None
            found: tuple[Plan, bool] | None = None
            for size in self._sizes(width, height):
                plan = self._layout(size, width, height)
                smallest = plan
                if plan.needed[0] <= width and plan.needed[1] <= height:
                    found = (self._spread(plan, width, height), True)
                    break
            assert smallest is not None
            self._plans[key] = found or (smallest, False)
        return self._plans[key]

    def _spread(self, plan: Plan, width: int, height: int) -> Plan:
        """A clock face with lines to spare (nothing below it grows) spaced out: a blank line
        more between its rows."""
        if not self.dial or any(kind == "columns" for kind, _ in self.blocks):
            return plan
        wider = self._layout(replace(plan.size, air=plan.size.air + 1), width, height)
        return wider if wider.needed[1] <= height else plan

    def _sizes(self, width: int, height: int) -> Iterator[Size]:
        """The tries, best first. Most wanted: room for the dealt cards, then no row of
        columns folded into bands; then the foundations' notes (beside their names, below
        their cards, none); then wide cards, tall top cards, blank lines between rows."""
        least = 4 if self.colour else 5  # '[10H]' needs five columns without a card's colour
        most = max(least, min(9, 4 + width // 40))
        notes = ("name", "below", "") if self.noted else ("",)
        tries = itertools.product(
            ((True, False), (False, False), (False, True)),
            notes,
            range(most, least - 1, -1),
            (3, 1),
            (1, 0),
        )
        for (whole, bands), note, cw, tall, air in tries:
            if tall == 3 and not self.dial and height < 36:
                continue  # tall cards only where the columns keep their room
            yield Size(cw, tall, note, air, whole, bands)

    def _slot_size(self, pile: int, z: Size) -> tuple[int, int]:
        """A slot's width and height: its name, its top card, and a foundation's note."""
        name = self.names[pile]
        if self.game.layout.role[pile] != "foundation" or not z.notes:
            return max(z.cw, min(name, z.cw + 1)), 1 + z.tall
        if z.notes == "name":
            return max(z.cw, name + 1 + NOTE_WIDTH), 1 + z.tall
        return max(z.cw, name, NOTE_WIDTH // 2), 1 + z.tall + 2  # '>10S' and '..10S' below

    def _fan_least(self, pile: int, z: Size) -> int:
        """The width a fan needs: its dealt cards side by side, or '+N' and its top card."""
        cards = self.dealt[pile]
        if z.whole and cards:
            return z.cw + sum(1 if c & DOWN else 4 for c in cards[:-1])  # '10S ' at most
        return z.cw + MARKER

    def _column_least(self, piles: list[int], z: Size) -> int:
        """The height a column needs: its name, its dealt cards (face-down ones folded), room
        to grow and the rest of a tall top card; or only a line of folded cards and the top
        card."""
        if not z.whole:
            return 2 + z.tall
        lines = 0
        for pile in piles:
            cards = self.dealt[pile]
            down = sum(1 for c in cards if c & DOWN)
            lines = max(lines, len(cards) - down + min(down, 1))
        return 1 + max(lines, 1) + GROWTH + z.tall - 1

    def _layout(self, z: Size, width: int, height: int) -> Plan:
        plan = Plan(z)
        y, need_w = 0, 0
        if self.dial:
            y, need_w = self._plan_dial(plan, z, width)
        if self.top or self.top_right:
            y, w = self._plan_top(plan, z, width, y)
            need_w = max(need_w, w)
        step = z.cw + 1
        fixed = 0
        column_blocks: list[tuple[list[int], int, int]] = []  # piles, per band, least height
        for kind, piles in self.blocks:
            if kind == "columns":
                per_row = max(1, (width + 1) // step) if z.bands else len(piles)
                band_lines = -(-len(piles) // per_row)
                need_w = max(need_w, min(len(piles), per_row) * step - 1)
                least = self._column_least(piles, z)
                column_blocks.append((piles, per_row, least))
                fixed += band_lines * (least + z.air)
            elif kind == "covered":
                rows, wide = self._covered_span(piles, z)
                need_w = max(need_w, wide)
                fixed += rows + z.air
            else:
                columns = int(kind[5:])
                per_row = columns or max(1, (width + 1) // step)
                need_w = max(need_w, min(per_row, len(piles)) * step - 1)
                fixed += -(-len(piles) // per_row) + z.air
        least_height = y + fixed - z.air
        spare = max(0, height - y - fixed)
        band_count = sum(-(-len(p) // n) for p, n, _ in column_blocks)
        for kind, piles in self.blocks:
            if kind == "columns":
                _, per_row, least = next(b for b in column_blocks if b[0] is piles)
                bands = [piles[i : i + per_row] for i in range(0, len(piles), per_row)]
                for band in bands:
                    room = least + spare // max(band_count, 1)
                    left = max(0, (width - len(band) * step + 1) // 2)
                    for k, pile in enumerate(band):
                        plan.put(pile, "column", Box(left + k * step, y, z.cw, room))
                    y += room + z.air
            elif kind == "covered":
                rows, wide = self._covered_span(piles, z)
                left = max(0, (width - wide) // 2)
                for pile in piles:
                    row, half = self.covered[pile]
                    plan.put(pile, "place", Box(left + half * step // 2, y + row, z.cw, 1))
                y += rows + z.air
            else:
                columns = int(kind[5:])
                per_row = columns or max(1, (width + 1) // step)
                left = max(0, (width - per_row * step + 1) // 2) if columns else 0
                for k, pile in enumerate(piles):
                    r, c = divmod(k, per_row)
                    plan.put(pile, "place", Box(left + c * step, y + r, z.cw, 1))
                y += -(-len(piles) // per_row) + z.air
        plan.needed = (need_w, max(least_height, 1))
        return plan

    def _covered_span(self, piles: list[int], z: Size) -> tuple[int, int]:
        """The rows and the width that piles covering one another take, a card a line."""
        rows = 1 + max(self.covered[p][0] for p in piles)
        half = max(self.covered[p][1] for p in piles)
        return rows, half * (z.cw + 1) // 2 + z.cw

    def _plan_top(self, plan: Plan, z: Size, width: int, y: int) -> tuple[int, int]:
        """The row of stock, waste, reserves and cells (left) and foundations (right),
        wrapped into more rows when it is wider than the screen."""
        sizes = {p: self._slot_size(p, z) for p in self.top + self.top_right}
        gap = 1

        def span(piles: list[int]) -> int:
            return sum(sizes[p][0] for p in piles) + gap * max(len(piles) - 1, 0)

        def rows(piles: list[int]) -> list[list[int]]:
            out: list[list[int]] = []
            for pile in piles:
                if out and span(out[-1] + [pile]) <= width:
                    out[-1].append(pile)
                else:
                    out.append([pile])
            return out

        left, right = list(self.top), list(self.top_right)
        whole = span(left) + span(right) + (2 if left and right else 0)
        if whole <= width:
            lines = [(left, right)]
        elif z.notes == "name" and not z.bands:
            return y, whole  # notes beside the names only where the row fits as one
        else:
            lines = [(row, []) for row in rows(left)] + [([], row) for row in rows(right)]
        need = max(sizes[p][0] for p in sizes)
        for row_left, row_right in lines:
            x = 0
            for pile in row_left:
                plan.put(pile, "slot", Box(x, y, *sizes[pile]))
                x += sizes[pile][0] + gap
            x = max(x, width - span(row_right))
            for pile in row_right:
                plan.put(pile, "slot", Box(x, y, *sizes[pile]))
                x += sizes[pile][0] + gap
            need = max(
                need, span(row_left) + span(row_right) + (2 if row_left and row_right else 0)
            )
            y += max(sizes[p][1] for p in row_left + row_right) + z.air
        return y, need

    def _plan_dial(self, plan: Plan, z: Size, width: int) -> tuple[int, int]:
        """The clock face: five rows of three places (the hours of each side in a column,
        the centre in the middle), each place its piles side by side."""
        layout = self.game.layout
        gap = 1

        def least(pile: int) -> tuple[int, int]:
            if layout.role[pile] in SLOT_ROLES:
                return self._slot_size(pile, z)
            return self._fan_least(pile, z), 1 + z.tall

        sizes = {p: least(p) for ps in self.cells.values() for p in ps}
        cell_w = {
            at: sum(sizes[p][0] for p in ps) + gap * (len(ps) - 1) for at, ps in self.cells.items()
        }
        col_w = [
            max((w for (r, c), w in cell_w.items() if c == col), default=0) for col in range(3)
        ]
        need = sum(col_w) + 2 * gap
        spare = max(0, width - need)
        widths = [w + spare // 3 for w in col_w]
        xs = [0, widths[0] + gap, widths[0] + widths[1] + 2 * gap]
        y = 0
        for row in range(5):
            here = [(c, ps) for (r, c), ps in self.cells.items() if r == row]
            if not here:
                continue
            tall = max(sizes[p][1] for _, ps in here for p in ps)
            for col, piles in here:
                fans = [p for p in piles if layout.role[p] not in SLOT_ROLES]
                extra = widths[col] - cell_w[(row, col)]
                x = xs[col]
                for pile in piles:
                    w, h = sizes[pile]
                    if pile in fans:
                        w += extra // len(fans) + (1 if fans.index(pile) < extra % len(fans) else 0)
                        h = tall
                    plan.put(pile, "fan" if pile in fans else "slot", Box(x, y, w, h))
                    x += w + gap
            y += tall + z.air
        return y, need

    # --- cards ----------------------------------------------------------------------------

    def face(self, card: int) -> str:
        return face_name(FACE[card & MASK], self.symbols)

    def glyph(self, card: int | None, cw: int, mark: str = "", label: str = "") -> Span:
        """One line of a card ``cw`` wide: a face, a back, or an empty place (``None``)."""
        if card is None:
            inner = label[: cw - 2].center(cw - 2)
            style = "dim" if not mark else self._mark(mark, "dim")
            return "[" + inner + "]", style
        if card & DOWN:
            if self.colour:
                return "░" * cw, self._mark(mark, "blue on #1c3f94")
            return "[" + "#" * (cw - 2) + "]", self._mark(mark, "")
        name = self.face(card)
        red = SUIT[card & MASK] in (1, 2)
        if self.colour:
            style = ("#c00000" if red else "black") + " on #f4f4f0"
            return (" " + name).ljust(cw)[:cw], self._mark(mark, style)
        return ("[" + name.ljust(cw - 2) + "]")[: max(cw, len(name) + 2)], self._mark(mark, "")

    def body(self, card: int, cw: int, row: int, rows: int, mark: str = "") -> Span:
        """The lines below a tall card's first: blank, its suit in the middle, its name last."""
        text, style = self.glyph(card, cw, mark)
        if card & DOWN:
            return text, style
        name = self.face(card)
        if row == rows - 1:
            inner = name.rjust(cw - 1) + " " if self.colour else "[" + name.rjust(cw - 2) + "]"
        elif row == rows // 2 and self.symbols:
            inner = name[-1].center(cw) if self.colour else "[" + name[-1].center(cw - 2) + "]"
        else:
            inner = " " * cw if self.colour else "[" + " " * (cw - 2) + "]"
        return inner[:cw], style

    def _mark(self, mark: str, style: str) -> str:
        if not mark:
            return style
        if not self.colour:
            return {"picked": "reverse", "hint": "bold underline", "cursor": "underline"}[mark]
        colours = {"picked": "black on #ffd75f", "hint": "black on #87d787", "cursor": ""}
        if mark == "cursor":
            return (style + " underline").strip()
        return "bold " + colours[mark]

    def _label(self, state: State, pile: int) -> str:
        """What an empty pile takes, when it is short: 'A', 'K'."""
        rule = self.game.layout.accepts[pile]
        try:
            first = rule.wanted_at(state.piles, pile) if rule.reads_others else None
            nxt, _ = progress(rule, (), first)
        except (IndexError, KeyError, ValueError):  # pragma: no cover - defensive
            return ""
        if not nxt or len(nxt) == 52:
            return ""
        return faces_text(nxt, self.symbols)

    def _card_mark(self, pile: int, index: int, size: int, marks: Marks) -> str:
        picked = marks.picked
        if picked is not None and picked[0] == pile and index >= max(picked[1], 0):
            return "picked"
        if marks.hint is not None and index == size - 1 and pile in marks.hint:
            return "hint"
        return ""

    def _empty(self, pic: Picture, state: State, pile: int, x: int, y: int, box: Box,
               cw: int, marks: Marks) -> None:  # fmt: skip
        mark = "hint" if marks.hint is not None and pile in marks.hint else ""
        text, style = self.glyph(None, cw, mark, self._label(state, pile))
        pic.put(x, y, text, style, (pile, -1), box)

    # --- the picture ----------------------------------------------------------------------

    def draw(
        self, state: State, width: int, height: int, marks: Marks | None = None,
        frame: tuple[int, int] = (0, 0),
    ) -> Picture:  # fmt: skip
        """The table at ``width`` x ``height``; ``frame``: the columns and lines around it on
        the screen (a too small screen is told the size it needs, frame included)."""
        marks = marks or Marks()
        plan, fits = self.plan(width, height)
        pic = Picture(width, height)
        if not fits:
            need_w = max(plan.needed[0], width) + frame[0]
            need_h = max(plan.needed[1], height) + frame[1]
            pic.needed = (need_w, need_h)
            words = (
                f"{self.game.name} needs a terminal of at least {need_w}x{need_h} "
                f"(this one is {width + frame[0]}x{height + frame[1]}): make it bigger, "
                "or play in line mode (solitaire play --line)."
            ).split()
            lines = [""]
            for word in words:
                if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
                    lines.append(word)
                else:
                    lines[-1] = (lines[-1] + " " + word).strip()
            for k, line in enumerate(lines):
                pic.put(0, k, line, "bold")
            return pic
        z = plan.size
        for pile, box in plan.boxes.items():
            pic.boxes[pile] = box
            pic.anchor[pile] = (box.x, box.y)
            kind = plan.kinds[pile]
            if kind == "slot":
                self._slot(pic, state, pile, box, z, marks)
            elif kind == "column":
                self._column(pic, state, pile, box, z, marks)
            elif kind == "fan":
                self._fan(pic, state, pile, box, z, marks)
            else:
                self._place(pic, state, pile, box, z, marks)
            pic.claim(box, (pile, -1))
        return pic

    def _name(self, pile: int, state: State, marks: Marks) -> tuple[str, str]:
        name = self.game.pile_names[pile]
        role = self.game.layout.role[pile]
        count = len(state.piles[pile])
        if role in ("stock", "reserve", "waste") and count:
            name = f"{name} {count}"
        style = "reverse" if marks.cursor == pile else "dim"
        return name, style

    def _top(self, pic: Picture, state: State, pile: int, x: int, y: int, box: Box, z: Size,
             tall: int, marks: Marks) -> None:  # fmt: skip
        """A pile's top card, ``tall`` lines from (x, y), or its empty place."""
        cards = state.piles[pile]
        if not cards:
            self._empty(pic, state, pile, x, y, box, z.cw, marks)
            return
        index = len(cards) - 1
        mark = self._card_mark(pile, index, len(cards), marks)
        text, style = self.glyph(cards[-1], z.cw, mark)
        pic.put(x, y, text, style, (pile, index), box)
        for row in range(1, tall):
            text, style = self.body(cards[-1], z.cw, row, tall, mark)
            pic.put(x, y + row, text, style, (pile, index), box)

    def _slot(self, pic: Picture, state: State, pile: int, box: Box, z: Size,
              marks: Marks) -> None:  # fmt: skip
        """A pile as its name (and a foundation's note) above its top card."""
        name, style = self._name(pile, state, marks)
        pic.put(box.x, box.y, name, style, (pile, -1), box)
        tall = min(z.tall, box.h - 1)
        self._top(pic, state, pile, box.x, box.y + 1, box, z, tall, marks)
        if self.game.layout.role[pile] != "foundation" or not z.notes:
            return
        forms = [f.spans for f in foundation_forms(self.game, state, pile, self.symbols)]
        if z.notes == "name":
            room = box.w - len(name) - 1
            for spans in [*forms, []]:
                if sum(len(t) for t, _ in spans) <= room:
                    x = box.x + len(name) + 1
                    for text, span_style in spans:
                        pic.put(x, box.y, text, span_style, (pile, -1), box)
                        x += len(text)
                    break
            return
        # Below the card: what it takes next, then where it stops, a line each.
        ahead, stop = forms[-1], forms[0][len(forms[-1]) :]
        y = box.y + 1 + tall
        for spans in (ahead, [(t.strip(), s) for t, s in stop]):
            x = box.x
            for text, span_style in spans:
                pic.put(x, y, text, span_style, (pile, -1), box)
                x += len(text)
            y += 1

    def _place(self, pic: Picture, state: State, pile: int, box: Box, z: Size,
               marks: Marks) -> None:  # fmt: skip
        """A place in a pyramid or a grid: its top card, or a gap that is still a target."""
        if state.piles[pile]:
            self._top(pic, state, pile, box.x, box.y, box, z, 1, marks)
            return
        mark = "hint" if marks.hint is not None and pile in marks.hint else ""
        pic.put(box.x, box.y, " " * box.w, self._mark(mark, ""), (pile, -1), box)

    def _column(self, pic: Picture, state: State, pile: int, box: Box, z: Size,
                marks: Marks) -> None:  # fmt: skip
        name, style = self._name(pile, state, marks)
        pic.put(box.x, box.y, name, style, (pile, -1), box)
        cards = state.piles[pile]
        rows = box.h - 1
        if not cards:
            self._empty(pic, state, pile, box.x, box.y + 1, box, z.cw, marks)
            return
        top_rows = z.tall if len(fold(cards, rows)) + z.tall - 1 <= rows else 1
        plan = fold(cards, rows - top_rows + 1)
        yy = box.y + 1
        size = len(cards)
        cw = z.cw
        for kind, index, count in plan:
            mark = self._card_mark(pile, index, size, marks)
            if kind == "card":
                text, style = self.glyph(cards[index], cw, mark)
            elif kind == "down":
                text = ("░" * (cw - 3) + f"{count:>3}")[-cw:] if self.colour else f"[#x{count}]"
                style = self._mark(mark, "blue on #1c3f94") if self.colour else ""
            else:
                text, style = f"+{count}".center(cw), self._mark(mark, "dim")
            pic.put(box.x, yy, text, style, (pile, index), box)
            yy += 1
        for row in range(1, top_rows):
            mark = self._card_mark(pile, size - 1, size, marks)
            text, style = self.body(cards[-1], cw, row, top_rows, mark)
            pic.put(box.x, yy, text, style, (pile, size - 1), box)
            yy += 1

    def _fan(self, pic: Picture, state: State, pile: int, box: Box, z: Size,
             marks: Marks) -> None:  # fmt: skip
        """A pile fanned sideways: covered face-down cards show an edge, covered face-up
        ones their corner (rank and suit); what the box cannot hold folds into '+N'."""
        name, style = self._name(pile, state, marks)
        pic.put(box.x, box.y, name, style, (pile, -1), box)
        cards = state.piles[pile]
        cw = z.cw
        tall = min(z.tall, box.h - 1)
        if not cards:
            self._empty(pic, state, pile, box.x, box.y + 1, box, cw, marks)
            return
        room = box.w - cw  # the columns left for the covered cards
        # A covered face-down card shows its edge; a face-up one its corner and a space.
        widths = [1 if c & DOWN else len(self.face(c)) + 1 for c in cards[:-1]]
        left_out = 0
        while sum(widths[left_out:]) + (MARKER if left_out else 0) > room:
            left_out += 1
        shown = widths[left_out:]
        face_up = [i for i, w in enumerate(shown) if w > 1]
        if face_up and not left_out:  # spread the corners when there is room: up to whole cards
            extra = (room - sum(shown)) // len(face_up)
            shown = [w + min(extra, cw + 1 - w) if w > 1 else w for w in shown]
        size = len(cards)
        x = box.x
        if left_out:
            mark = self._card_mark(pile, 0, size, marks)
            pic.put(x, box.y + 1, f"+{left_out}".ljust(MARKER), self._mark(mark, "dim"),
                    (pile, 0), box)  # fmt: skip
            x += MARKER
        for k, width in enumerate(shown):
            index = left_out + k
            card = cards[index]
            mark = self._card_mark(pile, index, size, marks)
            text, card_style = self.glyph(card, cw, mark)
            if not card & DOWN and width <= len(self.face(card)) + 1:
                text = self.face(card)  # a narrow corner: its rank and suit, then a space
            for row in range(tall):
                if row == 0:
                    part = text
                elif card & DOWN:
                    part = self.body(card, cw, row, tall, mark)[0]
                else:  # the covered card's lower part: blank, or its edge without colour
                    part = " " * width if self.colour else "[" + " " * width
                pic.put(x, box.y + 1 + row, part[:width].ljust(width), card_style,
                        (pile, index), box)  # fmt: skip
            x += width
        self._top(pic, state, pile, x, box.y + 1, box, z, tall, marks)


def fold(cards: Sequence[int], rows: int) -> list[tuple[str, int, int]]:
    """The lines of a column of ``cards`` in ``rows`` lines: ('card', index, 1) for a card,
    ('down', first, count) for face-down cards folded into one line, ('more', first, count) for
    face-up cards left out at the bottom of the run."""
    rows = max(rows, 1)
    plan = [("card", i, 1) for i in range(len(cards))]
    if len(plan) <= rows:
        return plan
    down = 0
    while down < len(cards) and cards[down] & DOWN:
        down += 1
    if down > 1:
        plan = [("down", 0, down)] + [("card", i, 1) for i in range(down, len(cards))]
    if len(plan) <= rows:
        return plan
    head = plan[:1] if plan[0][0] == "down" else []
    faces = [p for p in plan if p[0] == "card"]
    keep = rows - len(head) - 1
    hidden = faces[: len(faces) - keep] if keep > 0 else []
    if not hidden:  # no room for the fold: the top cards only
        return plan[-rows:]
    return [*head, ("more", hidden[0][1], len(hidden)), *faces[len(faces) - keep :]]
