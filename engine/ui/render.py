"""Drawing a position: a clock face for piles with hours, rows otherwise.

The board tells the player what the rules would otherwise leave to memory:

- each foundation shows its top card, the card it takes next and the card where it stops
  (``f11 4S>5S ..JS``), worked out from the pile's accept rule, whatever that rule is;
- the top cards that some legal action can take are emphasised;
- cards are written ``10H``, ``QS``; on a colour terminal with suit symbols (``10♥``), hearts and
  diamonds in red; ``##`` is a card face down and ``__`` a gap that the stock fills;
- the columns of a clock face have fixed widths (from the terminal's width, not the cards), so
  nothing moves sideways as piles grow: a pile longer than its place shows ``+N`` for the cards
  left out at its bottom.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence

from ..core.accept_rules import AcceptRule
from ..core.cards import DOWN, FACE, MASK, RANK, SUIT
from ..core.state import State
from ..game.game import Game

# Card names and times as every front end writes them (imported from here by the table too).
from ..play.wording import face_name as face_name
from ..play.wording import time_text as time_text
from .screen import Line

# Where each hour sits on a 5 x 5 grid, and where the centre goes.
DIAL_CELLS = {
    11: (0, 1), 12: (0, 2), 1: (0, 3),
    10: (1, 0), 2: (1, 4),
    9: (2, 0), 3: (2, 4),
    8: (3, 0), 4: (3, 4),
    7: (4, 1), 6: (4, 2), 5: (4, 3),
}  # fmt: skip
CENTRE = (2, 2)
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
MIN_WIDTH, MAX_CELL = 60, 24


def dial_places(game: Game) -> tuple[list[int], set[int]]:
    """Where the display puts each pile on a clock layout: its hour (0: none), and the piles
    of the centre."""
    layout = game.layout
    hours = [0] * len(layout)
    centre: set[int] = set()
    for group, shown in game.spec.display.groups.items():
        piles = layout.groups[group]
        for pile, hour in zip(piles, shown.hours or (), strict=False):
            hours[pile] = hour
        if shown.position == "centre":
            centre.update(piles)
    return hours, centre


def covered_places(game: Game, piles: list[int]) -> dict[int, tuple[int, int]]:
    """Where piles that cover one another (a pyramid, peaks: ``covered_by``) lie: for each,
    its row (0 at the top) and its column in half cards. A pile that nothing covers lies in
    the bottom row, in the order of the group; any other lies midway between the piles that
    cover it, a row above the highest of them. Empty when no pile of ``piles`` is covered."""
    members = set(piles)
    covers = {p: [c for c in game.layout.covered_by[p] if c in members] for p in piles}
    if not any(covers.values()):
        return {}
    height: dict[int, int] = {}

    def level(pile: int, seen: frozenset[int] = frozenset()) -> int:
        if pile not in height:
            above = [c for c in covers[pile] if c not in seen]  # a cycle is cut, not followed
            height[pile] = 1 + max((level(c, seen | {pile}) for c in above), default=-1)
        return height[pile]

    for pile in piles:
        level(pile)
    top = max(height.values())
    half: dict[int, int] = {}
    for pile in sorted(piles, key=lambda p: height[p]):
        shown = [half[c] for c in covers[pile] if c in half]
        half[pile] = sum(shown) // len(shown) if shown else 2 * len(half)
    places: dict[int, tuple[int, int]] = {}
    for row in range(top + 1):
        right = -2
        for pile in sorted((p for p in piles if height[p] == top - row), key=lambda p: half[p]):
            right = max(half[pile], right + 2)  # two piles of a row never share a place
            places[pile] = (row, right)
    return places


def faces_text(faces: frozenset[int], symbols: bool = False) -> str:
    """A set of cards in a few characters: one card, a rank in any suit, or 'any'."""
    if len(faces) == 1:
        return face_name(next(iter(faces)), symbols)
    ranks = {f % 13 for f in faces}
    if len(ranks) == 1:
        rank = _RANKS[ranks.pop()]
        if len(faces) == 4:
            return rank
        return "/".join(face_name(f, symbols) for f in sorted(faces))
    if len(faces) == 52:
        return "any"
    if len(faces) == 4 * len(ranks):  # whole ranks, any suit: 'A/2'
        return "/".join(_RANKS[r] for r in sorted(ranks))
    return "/".join(face_name(f, symbols) for f in sorted(faces)[:2]) + ("/.." * (len(faces) > 2))


def progress(
    rule: AcceptRule, pile: Sequence[int], nxt: frozenset[int] | None = None
) -> tuple[frozenset[int], frozenset[int] | None]:
    """What a pile takes next and where its building stops, from its accept rule.

    The cards that may follow are traced through the rule's table: the stop is the last set of
    cards before the rule accepts nothing more (None when building never stops, as when it
    wraps round for ever). Both are empty when the pile takes nothing now. ``nxt``: what the
    pile takes next when other piles decide it (an empty pile that takes its group's rank).
    """
    if nxt is None:
        nxt = rule.wanted(tuple(pile))
    if not nxt:
        return nxt, None
    current, seen = nxt, {nxt}
    for _ in range(53):
        after: frozenset[int] = frozenset().union(*(rule.on_top[f] for f in current))
        if not after:
            return nxt, current
        if after in seen:
            return nxt, None
        seen.add(after)
        current = after
    return nxt, None  # pragma: no cover - 53 distinct sets of a rank chain cannot occur


def foundation_forms(game: Game, state: State, pile: int, symbols: bool) -> list[Line]:
    """What a foundation takes next and where it stops, longest form first, to write after
    its top card: ``>5S ..JS``, ``>5S..JS``, ``>5S``; `` done`` once complete (or nothing)."""
    rule = game.layout.accepts[pile]
    cards = state.piles[pile]
    first = rule.wanted_at(state.piles, pile) if rule.reads_others else None
    nxt, stop = progress(rule, cards, first)
    if not nxt:
        return [Line(" done" if cards and rule.complete_rank is not None else "", "green")]
    ahead = faces_text(nxt, symbols)
    last = faces_text(stop, symbols) if stop is not None else ""
    forms: list[Line] = []
    if last and stop != nxt:
        forms.append(Line(">", "dim").add(ahead, "bold").add(f" ..{last}", "dim"))
        forms.append(Line(">", "dim").add(ahead, "bold").add(f"..{last}", "dim"))
    elif last:
        forms.append(Line(">", "dim").add(ahead, "bold").add(" last", "dim"))
    forms.append(Line(">", "dim").add(ahead, "bold"))
    return forms


class Renderer:
    """Draws positions of one game for a given width, with or without suit symbols."""

    def __init__(self, game: Game, *, symbols: bool = False, width: int = 100) -> None:
        self.game = game
        self.symbols = symbols
        self.width = max(width, MIN_WIDTH)
        layout = game.layout
        display = game.spec.display
        widths: dict[str, int] = {}
        for pile, name in enumerate(layout.names):
            group = layout.group_of[pile]
            widths[group] = max(widths.get(group, 0), len(name) + 1)
        self.name_width = [widths[layout.group_of[p]] for p in range(len(layout))]
        self.hour, self.centre = dial_places(game)
        self.label = {group: shown.label for group, shown in display.groups.items() if shown.label}
        self.gap_size: dict[int, int] = {}
        for effect in game.effects.values():
            # By the effect's tag: a game without fill_gaps need not import its module.
            if getattr(effect.spec, "effect", None) == "fill_gaps":
                from ..vocab.effects.dealing import FillGaps

                assert isinstance(effect, FillGaps)
                for pile in effect.piles:
                    self.gap_size[pile] = effect.size
        self.dial = display.layout == "clock" and any(self.hour)
        # Columns of the clock face: five of one fixed width.
        self.cell = min(MAX_CELL, (self.width - 4) // 5)
        # Lines given to each pile on the clock face: enough for as many of the widest cards
        # (10H) as it is dealt, so that a dealt pile always shows whole, face up or down.
        dealt = game.deal_seed(0)
        self.dealt_sizes = [len(cards) for cards in dealt.piles]
        self._packing: dict[tuple[str, int], list[list[int]]] = {}
        widest = next((c for c in layout.cards if RANK[c] == 10), layout.cards[0])  # a ten
        self.lines_for = [
            1 if layout.role[p] in ("foundation", "stock", "waste") else
            len(self._fit(p, [widest] * len(dealt.piles[p]), (), self.cell))
            for p in range(len(layout))
        ]  # fmt: skip

    # --- cards and piles ----------------------------------------------------------------------

    def card(self, card: int, strong: bool = False) -> tuple[str, str]:
        emphasis = " bold underline" if strong else ""
        if card & DOWN:
            return "##", ("dim" + emphasis).strip()
        style = "red" if SUIT[card] in (1, 2) else ""
        return face_name(FACE[card & MASK], self.symbols), (style + emphasis).strip()

    def _name(self, pile: int) -> Line:
        return Line(f"{self.game.pile_names[pile]:<{self.name_width[pile]}}", "cyan")

    def foundation(self, state: State, pile: int, width: int) -> Line:
        """``f11 4S>5S ..JS``: top card, next card, last card; shorter forms when narrow."""
        cards = state.piles[pile]
        forms = foundation_forms(self.game, state, pile, self.symbols)
        if cards or not forms[0].plain.startswith(">"):
            top = Line(*self.card(cards[-1])) if cards else Line("-", "dim")
        else:
            top = Line()  # an empty pile shows only what it takes: 'f1 >A ..K'
        forms = [Line().extend(top).extend(form) for form in forms]
        name = self._name(pile)
        form = next((f for f in forms if len(name) + len(f) <= width), forms[-1])
        return name.extend(form)

    def _fit(
        self,
        pile: int,
        cards: Sequence[int],
        strong: Container[int],
        width: int,
        gaps: int = 0,
        left_out: int = 0,
    ) -> list[Line]:
        """A pile's cards over as many lines of ``width`` as they need, its name first.

        ``left_out``: that many cards at the bottom are not shown (``+N`` stands for them).
        """
        last = len(cards) - 1
        words: list[tuple[str, str]] = [("+" + str(left_out), "dim")] if left_out else []
        words += [
            self.card(c, i == last and pile in strong) for i, c in enumerate(cards) if i >= left_out
        ]
        words += [("__", "yellow")] * gaps
        if not words:
            words = [("-", "dim")]
        indent = self.name_width[pile]
        lines: list[Line] = [self._name(pile)]
        for text, style in words:
            line = lines[-1]
            sep = " " if len(line) > indent else ""
            if len(line) + len(sep) + len(text) > width and len(line) > indent:
                lines.append(Line(" " * indent))
                line, sep = lines[-1], ""
            line.add(sep).add(text, style)
        return lines

    def pile(
        self, state: State, pile: int, strong: Container[int], width: int, room: int = 0
    ) -> list[Line]:
        """The lines of one pile within ``width``; at most ``room`` lines (0: as many as needed),
        leaving out bottom cards to fit."""
        game = self.game
        cards = state.piles[pile]
        role = game.layout.role[pile]
        if role == "stock" and not (cards and not cards[-1] & DOWN):
            return [self._name(pile).add(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")]
        if role in ("stock", "waste"):  # a stock whose top card lies face up shows it
            line = self._name(pile)
            if cards:
                line.add(*self.card(cards[-1], strong=pile in strong))
                line.add(f" ({len(cards)})", "dim")
            else:
                line.add("-", "dim")
            return [line]
        if role == "foundation":
            return [self.foundation(state, pile, width)]
        gaps = max(0, self.gap_size.get(pile, 0) - len(cards))
        lines = self._fit(pile, cards, strong, width, gaps)
        left_out = 0
        while room and len(lines) > room and left_out < len(cards) - 1:
            left_out += 1
            lines = self._fit(pile, cards, strong, width, gaps, left_out)
        return lines

    # --- the board ----------------------------------------------------------------------------

    def playable(self, state: State) -> frozenset[int]:
        """The piles whose top card (or the pile itself) some legal action takes now."""
        return frozenset(a.src for a in self.game.legal_actions(state) if a.src >= 0)

    def board(self, state: State, strong: Container[int] | None = None) -> list[Line]:
        if strong is None:
            strong = self.playable(state)
        piles = range(len(self.game.pile_names))
        if self.dial:
            return self._dial(state, strong)
        return self._rows(state, piles, strong)

    def _dial(self, state: State, strong: Container[int]) -> list[Line]:
        cells: dict[tuple[int, int], list[Line]] = {}
        # A row of piles that all have room for more than one line needs no blank line below.
        airy: dict[int, bool] = {}
        others: list[int] = []
        width = self.cell
        for pile, hour in enumerate(self.hour):
            if hour:
                where = DIAL_CELLS[hour]
            elif pile in self.centre:
                where = CENTRE
            else:
                others.append(pile)
                continue
            room = self.lines_for[pile]
            airy[where[0]] = airy.get(where[0], True) and room > 1
            lines = self.pile(state, pile, strong, width, room)
            lines += [Line() for _ in range(room - len(lines))]
            cells.setdefault(where, []).extend(lines)
        out: list[Line] = []
        for row in range(5):
            height = max(len(cells.get((row, col), [])) for col in range(5))
            for k in range(height):
                line = Line()
                for col in range(5):
                    cell = cells.get((row, col), [])
                    part = cell[k] if k < len(cell) else Line()
                    if col:
                        line.add(" ")
                    line.extend(Line().extend(part).pad(width))
                out.append(line)
            if row < 4 and not airy.get(row, False):
                out.append(Line())
        if others:
            out.append(Line())
            out += self._rows(state, others, strong)
        return out

    def _rows(self, state: State, piles: Iterable[int], strong: Container[int]) -> list[Line]:
        layout = self.game.layout
        shown = [p for p in piles]
        labels = [self.label.get(layout.group_of[p], "") for p in shown]
        label_width = max((len(label) for label in labels), default=0)
        indent = label_width + 2 if label_width else 2
        out: list[Line] = []
        previous = None
        k = 0
        while k < len(shown):
            pile, label = shown[k], labels[k]
            text = label if label != previous else ""
            previous = label
            group = layout.group_of[pile]
            end = k + 1
            while end < len(shown) and layout.group_of[shown[end]] == group:
                end += 1
            run = shown[k:end]  # the piles of this group listed next to each other
            key = (group, self.width - indent)
            if key not in self._packing:  # the same for every position: worked out once
                self._packing[key] = self._packed(group, run, self.width - indent)
            rows = self._packing[key]
            if rows:  # a group of short piles: side by side, in rows
                width = self._cell_width(group)
                for r, row in enumerate(rows):
                    head = Line(f"{text if r == 0 else '':<{indent}}", "dim")
                    if self.game.spec.piles[group].arrangement == "pyramid":  # each row centred
                        widest = max(len(r) for r in rows)
                        head.add(" " * ((width + 1) // 2 * (widest - len(row))))
                    for c, member in enumerate(row):
                        cell = self.pile(state, member, strong, width)[0]
                        head.add(" " if c else "").extend(
                            cell.pad(width) if c < len(row) - 1 else cell
                        )
                    out.append(head)
                k += len(run)
                continue
            lines = self.pile(state, pile, strong, self.width - indent)
            for n, line in enumerate(lines):
                head = Line(f"{text if n == 0 else '':<{indent}}", "dim")
                out.append(head.extend(line))
            k += 1
        return out

    def _cell_width(self, group: str) -> int:
        """The fixed width of each pile of a group shown side by side: its name and either a
        foundation's progress (``4S>5S ..JS``) or one card."""
        layout = self.game.layout
        piles = layout.groups[group]
        name = self.name_width[piles[0]]
        if layout.role[piles[0]] == "foundation":
            return name + 11
        if all(layout.accepts[p].max_cards == 1 for p in piles) or (
            self.game.spec.piles[group].arrangement
            is not None  # a grid or a pyramid of single cards
        ):
            return name + 3
        return name + 7  # a pile that grows: '+2 10S', its top card and how many lie below

    def _packed(self, group: str, run: list[int], room: int) -> list[list[int]]:
        """The rows of a group shown side by side, or [] when its piles get a line each:
        foundations, cells, groups laid out in a grid or a pyramid whose piles hold one card,
        and long rows of piles dealt one card each, when a row of at least two fits."""
        layout = self.game.layout
        if len(run) < 2 or len(run) != len(layout.groups[group]):
            return []
        arrangement = self.game.spec.piles[group].arrangement
        single = all(layout.accepts[p].max_cards == 1 for p in run)
        role = layout.role[run[0]]
        # Many piles dealt one card each (a row of them): side by side too.
        row = len(run) > 8 and all(self.dealt_sizes[p] <= 1 for p in run)
        if not (role in ("foundation", "cell") or single or arrangement is not None or row):
            return []
        if arrangement is not None and not all(
            len(self.game.deal_seed(0).piles[p]) <= 1 for p in run
        ):
            return []
        per_row = room // (self._cell_width(group) + 1)
        if per_row < 2:
            return []
        if arrangement == "pyramid":
            rows, size, k = [], 1, 0
            while k < len(run):
                rows.append(run[k : k + size])
                k, size = k + size, size + 1
            # A row wider than the screen wraps, as a grid's does, rather than a pile a line.
            return [row[i : i + per_row] for row in rows for i in range(0, len(row), per_row)]
        columns = getattr(arrangement, "grid", None) or per_row
        if columns > per_row:
            columns = per_row
        return [run[i : i + columns] for i in range(0, len(run), columns)]

    def status(
        self, state: State, moves: int | None = None, seconds: float | None = None
    ) -> list[Line]:
        """The game's name, score, moves made, time played, and the phase's help (on a line of
        its own when it does not fit beside them)."""
        game = self.game
        line = Line(game.name, "bold")
        line.add(f"  {game.spec.score.label}: {game.score(state)}/{len(game.cards)}")
        if moves is not None:
            line.add(f"  moves: {moves}")
        if seconds is not None:
            line.add(f"  {time_text(seconds)}")
        outcome = game.outcome(state)
        if outcome:
            line.add(f"  {outcome.upper()}", "bold green" if outcome == "won" else "bold")
        elif game.states[state.phase].help:
            help_text = f"({game.states[state.phase].help})"
            if len(line) + 2 + len(help_text) <= self.width:
                line.add("  " + help_text, "dim")
            else:
                return [line, Line(help_text, "dim")]
        return [line]
