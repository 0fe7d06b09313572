"""A game in progress: its deal, its identity, the time played and the engine's own moves.

``Progress`` wraps a ``Session`` with what a player's program keeps about one game: how it was
dealt (a seed or a deck order), a random id that stays with it through saves and resumes, when
it started and how long it has been played (with the time of each action, for the record), and
``settle``: the actions the engine plays by itself after each of the player's (a phase that
plays itself; with automatic moves on, safe moves to the foundations and a forced finish).
It makes the game's record and its row in the history.
"""

from __future__ import annotations

import os
import random
import time
from typing import TYPE_CHECKING

from ..core.cards import card_text
from ..core.seeds import Seed
from ..core.state import Action, State, Step
from ..game.game import Game
from . import assist
from .records import GameRecord, make_record, now, replay
from .session import Safe, Session

if TYPE_CHECKING:  # pragma: no cover
    from .history import GameRow


class Deal:
    """How a game was dealt: a seed (None for a given deck) and the deal order."""

    def __init__(self, seed: Seed | None, order: list[int]) -> None:
        self.seed = seed
        self.order = order

    @property
    def deck(self) -> list[str] | None:
        """A given deck's cards in deal order, as records write them; None for a seed."""
        return None if self.seed is not None else [card_text(c) for c in self.order]


def new_deal(game: Game, seed: Seed | None = None) -> Deal:
    """Deal number ``seed``, or a deal chosen at random (its seed is kept, to replay it)."""
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000_000)
    return Deal(seed, game.seed_order(seed))


class Progress:
    """One game in progress; ``record`` continues a saved one (RecordError if it cannot)."""

    def __init__(
        self, game: Game, deal: Deal, record: GameRecord | None = None, auto: bool = True
    ) -> None:
        self.game = game
        self.deal = deal
        self.auto = auto
        self.safe: Safe = assist.safe_moves(game)
        foundations = frozenset(game.foundations)
        self.home: Safe = lambda _, action: action.dst in foundations
        self.session = Session(game, game.deal(deal.order))
        self.steps: list[Step] = []  # every card moved, for reports and --trace
        self.session.trace = self.steps
        self._t0 = time.monotonic()
        self._stopped: float | None = None
        if record is None:
            self.id = os.urandom(16).hex()
            self.started = now()
            self._base = 0.0
            self.times: list[float] = []
            self.settle()
        else:
            self.id = record.id
            self.started = record.started
            self._base = record.seconds
            replay(record, game, self.session)
            self.times = [a.at for a in record.actions]
            self.session.autoplay()
        self.sync_times()

    @property
    def moves(self) -> int:
        return self.session.moves_made()

    def seconds(self) -> float:
        """Time played: saved time plus the time since this run started (stopped at the end)."""
        if self._stopped is not None:
            return self._stopped
        return self._base + time.monotonic() - self._t0

    def stop(self) -> None:
        if self._stopped is None:
            self._stopped = self.seconds()

    def sync_times(self) -> None:
        """Keep one time per action of the history (after undo, redo and new actions)."""
        n = len(self.session.history)
        del self.times[n:]
        self.times += [self.seconds()] * (n - len(self.times))

    def settle(self) -> list[Action]:
        """Play what needs no decision: phases that play themselves and, with ``auto``, safe
        moves to the foundations and a forced finish. The actions played, in order."""
        session = self.session
        played: list[Action] = []
        seen = {session.position}
        while not session.is_over():
            more = session.autoplay()
            if self.auto:
                more += session.play_automatic(self.safe)
                if assist.finishing_moves(self.game, session.position) is not None:
                    more += session.play_automatic(self.home)
            if not more:
                break
            played += more
            # Each round is decided by the position alone: one that comes back would come
            # back for ever.
            if session.position in seen:
                raise session.stalled(more[-1])
            seen.add(session.position)
        self.sync_times()
        return played

    def after(self, state: State, action: Action) -> State:
        """The position the player sees after ``action`` in ``state``: with what the engine
        then plays by itself, as ``settle`` plays it (the session is left as it is)."""
        game = self.game
        state = game.apply(state, action)
        for _ in range(4 * len(game.cards) + 1):
            if game.is_terminal(state):
                break
            actions = game.legal_actions(state)
            follow = actions[0] if game.autoplays(state) and len(actions) == 1 else None
            if follow is None and self.auto:
                follow = next((a for a in actions if self.safe(state, a)), None)
                if follow is None and assist.finishing_moves(game, state) is not None:
                    follow = next((a for a in actions if self.home(state, a)), None)
            if follow is None:
                break
            state = game.apply(state, follow)
        return state

    def record(self) -> GameRecord:
        return make_record(
            self.game,
            self.session,
            seed=self.deal.seed,
            order=self.deal.order,
            uid=self.id,
            started=self.started,
            seconds=self.seconds(),
            times=self.times,
        )

    def row(self, result: str) -> GameRow:
        """The game's row in the history, with ``result`` (won, lost, abandoned, unfinished)."""
        from .history import GameRow

        state = self.session.position
        deal = self.deal
        return GameRow(
            id=self.id,
            game=self.game.id,
            seed=deal.seed,
            deck=None if deal.deck is None else " ".join(deal.deck),
            result=result,
            score=self.game.score(state),
            cards=len(self.game.cards),
            moves=self.moves,
            started=self.started,
            seconds=round(self.seconds(), 1),
            finished=None if result == "unfinished" else now(),
        )
