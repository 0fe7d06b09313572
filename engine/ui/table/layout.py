"""Where each card of a position goes on a table of a given size, and what is under each cell.

Nothing here knows a game: the picture comes from the rule file's pile roles and its
``display:`` part. Piles with hours go round a clock face; stock, waste, reserves, cells and
foundations sit in a row at the top; a pyramid is drawn as a pyramid, a grid as a grid, groups of
many one-card piles wrap in rows of cards, and every other pile is a column of fanned cards,
face-down cards as backs. Bigger terminals get wider cards and taller top cards; a column longer
than its room folds its face-down cards into one line, then its oldest face-up ones.

``draw`` gives a ``Picture``: lines of styled spans (Rich style strings) and a map from each
cell to the pile and the card drawn there (-1: the pile itself, below or above its cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...core.cards import DOWN, FACE, MASK, SUIT
from ...core.state import State
from ...game.game import Game
from ..render import CENTRE, DIAL_CELLS, dial_places, face_name, faces_text, progress

Span = tuple[str, str]
Hit = tuple[int, int]  # (pile, card index in the pile; -1 for the pile itself)

TOP_ROLES = ("stock", "waste", "reserve", "cell")


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

    def __post_init__(self) -> None:
        self.grid = [[(" ", "")] * self.width for _ in range(self.height)]

    def put(self, x: int, y: int, text: str, style: str = "", hit: Hit | None = None) -> None:
        if not 0 <= y < self.height:
            return
        row = self.grid[y]
        for k, ch in enumerate(text):
            if 0 <= x + k < self.width:
                row[x + k] = (ch, style)
                if hit is not None:
                    self.hits[(x + k, y)] = hit
        if hit is not None and hit[0] not in self.anchor and 0 <= x < self.width:
            self.anchor[hit[0]] = (x, y)

    def claim(self, x: int, y: int, w: int, h: int, hit: Hit) -> None:
        """Cells that pick a pile without drawing anything (the room below a column)."""
        for yy in range(y, min(y + h, self.height)):
            for xx in range(x, min(x + w, self.width)):
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
    """Draws the positions of one game."""

    def __init__(self, game: Game, *, colour: bool = True, symbols: bool = True) -> None:
        self.game = game
        self.colour = colour
        self.symbols = symbols
        layout = game.layout
        display = game.spec.display
        self.hour, self.centre = dial_places(game)
        self.dial = display.layout == "clock" and any(self.hour)
        dealt = game.deal_seed(0).piles
        self.blocks: list[tuple[str, list[int]]] = []  # (kind, piles) below the top row
        self.top: list[int] = []
        self.top_right: list[int] = []
        others = [
            p for p in range(len(layout)) if not (self.dial and (self.hour[p] or p in self.centre))
        ]
        for group, piles in layout.groups.items():
            members = [p for p in piles if p in others]
            if not members:
                continue
            role = layout.role[members[0]]
            arrangement = game.spec.piles[group].arrangement if group in game.spec.piles else None
            single = all(len(dealt[p]) <= 1 for p in members)
            if role == "foundation":
                self.top_right += members
            elif role in TOP_ROLES:
                self.top += members
            elif arrangement == "pyramid" and single:
                self.blocks.append(("pyramid", members))
            elif arrangement is not None and single:
                self.blocks.append((f"grid:{getattr(arrangement, 'grid', 0)}", members))
            elif single and (
                len(members) > 8 or all(layout.accepts[p].max_cards == 1 for p in members)
            ):
                self.blocks.append(("grid:0", members))
            else:
                self.blocks.append(("columns", members))

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

    # --- the picture ----------------------------------------------------------------------

    def draw(self, state: State, width: int, height: int, marks: Marks | None = None) -> Picture:
        marks = marks or Marks()
        best: Picture | None = None
        for cw, tall in self._sizes(width, height):
            pic = Picture(width, height)
            used = self._draw(pic, state, cw, tall, marks)
            if used <= height:
                return pic
            best = best or pic
        assert best is not None
        return best

    def _sizes(self, width: int, height: int) -> list[tuple[int, int]]:
        """Card widths and top-card heights to try, biggest first."""
        slots = max(
            [len(self.top) + len(self.top_right) + 1]
            + [len(p) if kind == "columns" else 0 for kind, p in self.blocks]
        )
        if self.dial:
            slots = max(slots, 15)
        fit = max(4, min(5 + width // 40, (width + 1) // max(slots, 1) - 1))
        least = 4 if self.colour else 5  # '[10H]' needs five columns without a card's colour
        sizes = [(cw, tall) for cw in range(max(fit, least), least - 1, -1) for tall in (3, 1)]
        return [(cw, tall) for cw, tall in sizes if tall == 1 or height >= 36 or self.dial]

    def _draw(self, pic: Picture, state: State, cw: int, tall: int, marks: Marks) -> int:
        y = 0
        if self.dial:
            y = self._draw_dial(pic, state, cw, tall, marks)
        if self.top or self.top_right:
            y = self._draw_top(pic, state, y, cw, tall, marks)
        kinds = [kind for kind, _ in self.blocks]
        fixed = sum(self._block_height(kind, piles, cw, pic.width) for kind, piles in self.blocks)
        columns = kinds.count("columns")
        room = pic.height - y - fixed
        for kind, piles in self.blocks:
            if kind == "columns":
                share = max(3, room // max(columns, 1))
                y = self._draw_columns(pic, state, piles, y, share, cw, tall, marks)
            elif kind == "pyramid":
                y = self._draw_pyramid(pic, state, piles, y, cw, marks)
            else:
                y = self._draw_grid(pic, state, piles, y, cw, int(kind[5:]), marks)
        return y

    def _block_height(self, kind: str, piles: list[int], cw: int, width: int) -> int:
        if kind == "columns":
            return 0
        if kind == "pyramid":
            rows, n = 0, 0
            while n < len(piles):
                rows += 1
                n += rows
            return rows + 1
        per_row = int(kind[5:]) or max(1, (width + 1) // (cw + 1))
        return -(-len(piles) // per_row) + 1

    def _name(self, pile: int, state: State, marks: Marks) -> tuple[str, str]:
        name = self.game.pile_names[pile]
        role = self.game.layout.role[pile]
        count = len(state.piles[pile])
        if role in ("stock", "reserve", "waste") and count:
            name = f"{name} {count}"
        style = "reverse" if marks.cursor == pile else "dim"
        return name, style

    def _slot(
        self, pic: Picture, state: State, pile: int, x: int, y: int, cw: int, tall: int,
        marks: Marks, named: bool = True,
    ) -> None:  # fmt: skip
        """One pile as its top card (or its empty place), its name above."""
        cards = state.piles[pile]
        if named:
            name, style = self._name(pile, state, marks)
            pic.put(x, y, name[: cw + 1], style, (pile, -1))
            y += 1
        if cards:
            index = len(cards) - 1
            mark = self._card_mark(pile, index, len(cards), marks)
            text, style = self.glyph(cards[-1], cw, mark)
            pic.put(x, y, text, style, (pile, index))
            for row in range(1, tall):
                text, style = self.body(cards[-1], cw, row, tall, mark)
                pic.put(x, y + row, text, style, (pile, index))
        else:
            mark = "hint" if marks.hint is not None and pile in marks.hint else ""
            if named:
                text, style = self.glyph(None, cw, mark, self._label(state, pile))
            else:  # a place in a pyramid or a grid: a gap, still a target
                text, style = " " * cw, self._mark(mark, "")
            pic.put(x, y, text, style, (pile, -1))
            pic.claim(x, y + 1, cw, tall - 1, (pile, -1))

    def _draw_top(
        self, pic: Picture, state: State, y: int, cw: int, tall: int, marks: Marks
    ) -> int:
        step = cw + 1
        per_row = max(1, (pic.width + 1) // step)
        left, right = list(self.top), list(self.top_right)
        while left or right:
            if len(left) + len(right) + (1 if left and right else 0) <= per_row:
                row_left, row_right = left, right
                left, right = [], []
            elif left:
                row_left, left, row_right = left[:per_row], left[per_row:], []
            else:
                row_left, row_right, right = [], right[:per_row], right[per_row:]
            for k, pile in enumerate(row_left):
                self._slot(pic, state, pile, k * step, y, cw, tall, marks)
            start = pic.width - len(row_right) * step + 1
            for k, pile in enumerate(row_right):
                self._slot(pic, state, pile, start + k * step, y, cw, tall, marks)
            y += tall + 1
        return y + 1

    def _draw_columns(
        self, pic: Picture, state: State, piles: list[int], y: int, room: int, cw: int,
        tall: int, marks: Marks,
    ) -> int:  # fmt: skip
        step = cw + 1
        per_row = max(1, (pic.width + 1) // step)
        bands = [piles[i : i + per_row] for i in range(0, len(piles), per_row)]
        share = max(3, room // len(bands))
        for band in bands:
            left = max(0, (pic.width - len(band) * step + 1) // 2)
            for k, pile in enumerate(band):
                self._column(pic, state, pile, left + k * step, y, share, cw, tall, marks)
            y += share
        return y

    def _column(
        self, pic: Picture, state: State, pile: int, x: int, y: int, room: int, cw: int,
        tall: int, marks: Marks,
    ) -> None:  # fmt: skip
        name, style = self._name(pile, state, marks)
        pic.put(x, y, name[:cw], style, (pile, -1))
        cards = state.piles[pile]
        rows = room - 2  # the name above, a blank line below
        pic.claim(x, y + 1, cw, room - 1, (pile, -1))
        if not cards:
            mark = "hint" if marks.hint is not None and pile in marks.hint else ""
            text, style = self.glyph(None, cw, mark, self._label(state, pile))
            pic.put(x, y + 1, text, style, (pile, -1))
            return
        top_rows = tall if len(cards) + tall - 1 <= rows else 1
        plan = fold(cards, rows - top_rows + 1)
        yy = y + 1
        size = len(cards)
        for kind, index, count in plan:
            mark = self._card_mark(pile, index, size, marks)
            if kind == "card":
                text, style = self.glyph(cards[index], cw, mark)
            elif kind == "down":
                text = ("░" * (cw - 3) + f"{count:>3}")[-cw:] if self.colour else f"[#x{count}]"
                style = self._mark(mark, "blue on #1c3f94") if self.colour else ""
                text = text.ljust(cw)[: max(cw, len(text))]
            else:
                text, style = f"+{count}".center(cw), self._mark(mark, "dim")
            pic.put(x, yy, text, style, (pile, index))
            yy += 1
        for row in range(1, top_rows):
            mark = self._card_mark(pile, size - 1, size, marks)
            text, style = self.body(cards[-1], cw, row, top_rows, mark)
            pic.put(x, yy, text, style, (pile, size - 1))
            yy += 1

    def _draw_pyramid(
        self, pic: Picture, state: State, piles: list[int], y: int, cw: int, marks: Marks
    ) -> int:
        rows: list[list[int]] = []
        size, k = 1, 0
        while k < len(piles):
            rows.append(piles[k : k + size])
            k, size = k + size, size + 1
        step = cw + 1
        widest = len(rows[-1]) * step - 1
        left = max(0, (pic.width - widest) // 2)
        for r, row in enumerate(rows):
            x0 = left + (len(rows[-1]) - len(row)) * step // 2
            for c, pile in enumerate(row):
                self._slot(pic, state, pile, x0 + c * step, y + r, cw, 1, marks, named=False)
        return y + len(rows) + 1

    def _draw_grid(
        self, pic: Picture, state: State, piles: list[int], y: int, cw: int, columns: int,
        marks: Marks,
    ) -> int:  # fmt: skip
        step = cw + 1
        per_row = columns or max(1, (pic.width + 1) // step)
        rows = [piles[i : i + per_row] for i in range(0, len(piles), per_row)]
        left = max(0, (pic.width - per_row * step + 1) // 2) if columns else 0
        for r, row in enumerate(rows):
            for c, pile in enumerate(row):
                self._slot(pic, state, pile, left + c * step, y + r, cw, 1, marks, named=False)
        return y + len(rows) + 1

    # --- the clock face -------------------------------------------------------------------

    def _fan_width(self, cards: Sequence[int], cw: int, step: int) -> int:
        if not cards:
            return cw
        return cw + sum(1 if c & DOWN else step for c in cards[:-1])

    def _cell_piles(self) -> dict[tuple[int, int], list[int]]:
        cells: dict[tuple[int, int], list[int]] = {}
        for pile, hour in enumerate(self.hour):
            if hour:
                cells.setdefault(DIAL_CELLS[hour], []).append(pile)
            elif pile in self.centre:
                cells.setdefault(CENTRE, []).append(pile)
        return cells

    def _draw_dial(self, pic: Picture, state: State, cw: int, tall: int, marks: Marks) -> int:
        cells = self._cell_piles()
        dealt = self.game.deal_seed(0).piles
        step = cw
        while True:

            def need(piles: list[int], step: int = step) -> int:
                widths = [
                    self._fan_width(dealt[p], cw, step)
                    if self.game.layout.role[p] not in ("foundation", "stock", "waste")
                    else cw
                    for p in piles
                ]
                return sum(widths) + len(widths) - 1

            col = [
                max((need(cells.get((r, c), [])) for r in range(5)), default=cw) for c in range(5)
            ]
            col = [max(w, cw) for w in col]
            if sum(col) + 4 <= pic.width or step == 1:
                break
            step -= 1
        spare = max(0, pic.width - sum(col) - 4) // 6
        xs: list[int] = []
        x = spare
        for c in range(5):
            xs.append(x)
            x += col[c] + 1 + spare
        height = tall + 1
        for (r, c), piles in cells.items():
            x = xs[c]
            y = r * height
            for pile in piles:
                role = self.game.layout.role[pile]
                if role in ("foundation", "stock", "waste"):
                    self._slot(pic, state, pile, x, y, cw, tall, marks)
                    x += cw + 1
                else:
                    x = self._fan(pic, state, pile, x, y, cw, tall, step, marks) + 1
        return 5 * height + 1

    def _fan(
        self, pic: Picture, state: State, pile: int, x: int, y: int, cw: int, tall: int,
        step: int, marks: Marks,
    ) -> int:  # fmt: skip
        """A pile fanned sideways (covered cards show their left edge); where it ends."""
        name, style = self._name(pile, state, marks)
        pic.put(x, y, name, style, (pile, -1))
        cards = state.piles[pile]
        if not cards:
            mark = "hint" if marks.hint is not None and pile in marks.hint else ""
            text, style = self.glyph(None, cw, mark, self._label(state, pile))
            pic.put(x, y + 1, text, style, (pile, -1))
            return x + cw
        size = len(cards)
        for index, card in enumerate(cards):
            mark = self._card_mark(pile, index, size, marks)
            text, style = self.glyph(card, cw, mark)
            shown = cw if index == size - 1 else (1 if card & DOWN else step)
            if shown < cw and not card & DOWN and self.colour and shown <= len(self.face(card)):
                text = self.face(card)  # the covered card's corner: its rank and suit
            for row in range(tall):
                if row == 0:
                    part = text
                elif index == size - 1 or card & DOWN:
                    part = self.body(card, cw, row, tall, mark)[0]
                else:  # the covered card's lower part: blank, or its edge without colour
                    part = " " * shown if self.colour else "[" + " " * shown
                pic.put(x, y + 1 + row, part[:shown].ljust(shown), style, (pile, index))
            x += shown
        return x


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
