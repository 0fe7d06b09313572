"""The games open in the browser: one ``WebTable`` per table, kept by ``Tables``.

A table plays one game through the engine's ``Progress`` (the session, the engine's own moves,
the record), ``Keeper`` (the save and the history, in the same files as ``solitaire play``) and
``Adviser`` (hints, and whether a win is still possible). A table holds its save's lock only
while it answers a request, so that a game left in the browser can be resumed at the terminal;
when the save changed meanwhile (played elsewhere), the table reads it again first.
Everything a request can name is a game id, a deal number, a deck or a save's id: never a path.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ....rules.errors import printable
from ...core.cards import DOWN, DeckError, card_text, parse_deck
from ...core.seeds import Seed, parse_seed
from ...core.state import Action, IllegalAction, State
from ...game.game import Game
from ...play import assist
from ...play.keeper import Keeper
from ...play.progress import Deal, Progress, new_deal
from ...play.records import RecordError, check_rules, deal_order, read_record
from ...play.saves import SaveStore
from ...play.serial import position_json  # the same records as play --json
from .layout import page_layout

if TYPE_CHECKING:  # pragma: no cover
    from ...play.advice import Adviser

MAX_TABLES = 32  # tables kept in memory; the oldest is saved and let go past this
MAX_COMMAND = 200  # characters of one command: an action is a few words
_SAVE_ID = re.compile(r"[0-9a-f]{4,64}")


class Refused(Exception):
    """A request that names something that is not there, or cannot be used (4xx)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def game_by_name(name: object) -> Game:
    """A shipped game by id or alias; never a file named by the request."""
    from ....rules.catalog import find_game, looks_like_path
    from ...game.load import load_game

    if not isinstance(name, str) or not name or len(name) > 60 or looks_like_path(name):
        raise Refused("unknown game: give a game id from the list (GET /api/games)", 404)
    if find_game(name) is None:
        raise Refused(f"unknown game '{printable(name, 40)}' (GET /api/games lists them)", 404)
    return load_game(name)


def parse_deal(game: Game, seed: object, deck: object) -> Deal:
    if seed not in (None, "") and deck not in (None, ""):
        raise Refused("give a seed or a deck, not both")
    if deck not in (None, "") and not isinstance(deck, str):
        raise Refused("deck: the cards as text, separated by spaces or commas")
    if isinstance(deck, str) and deck:
        # Never read_deck_text: its '@FILE' would read a file the request names.
        names = deck.replace(",", " ").split()
        try:
            return Deal(None, parse_deck(names, game.cards))
        except DeckError as exc:
            raise Refused(f"deck: {exc}") from None
    if seed in (None, ""):
        return new_deal(game)
    if not isinstance(seed, str | int) or isinstance(seed, bool):
        raise Refused("seed: a whole number or ms:N")
    try:
        number: Seed = parse_seed(str(seed))
        return new_deal(game, number)
    except ValueError as exc:
        raise Refused(f"seed: {exc}") from None


class WebTable:
    """One game open in the browser."""

    def __init__(
        self,
        game: Game,
        deal: Deal,
        store: SaveStore,
        resume: Path | None = None,
        auto: bool = True,
    ) -> None:
        self.game = game
        self.auto = auto  # the engine's safe moves to the foundations and forced finish
        self.store = store
        self.lock = threading.Lock()  # one request at a time plays on a table
        self.keeper = Keeper(game, store=store)
        self._adviser: Adviser | None = None
        self.message = ""
        self._saved_stamp: int | None = None
        if resume is not None:
            self._resume(resume)
        else:
            self._begin(deal)

    # --- starting and resuming ------------------------------------------------------------

    def _begin(self, deal: Deal, record: Any = None, source: Path | None = None) -> None:
        self.progress = Progress(self.game, deal, record, auto=self.auto)
        self.keeper.begin(self.progress, source)
        self.seen: set[State] = {s.before for s in self.session.history}
        self.seen.add(self.session.position)
        self._adviser = None
        if self.session.is_over():
            self.keeper.game_over()
        self._saved_stamp = self._stamp()

    def _resume(self, path: Path) -> None:
        record = read_record(path)
        try:
            check_rules(record, self.game)
            deal = Deal(record.seed, deal_order(record, self.game))
        except RecordError as exc:
            raise Refused(f"cannot resume: {exc}", 409) from None
        self.keeper.claim(record.id)
        try:
            record = read_record(path)  # the last one saved, now that it is ours
            self._begin(deal, record, path)
        finally:
            self.keeper.release()

    def _stamp(self) -> int | None:
        try:
            return self.keeper.saved_path().stat().st_mtime_ns
        except OSError:
            return None

    def _catch_up(self) -> None:
        """The save changed since this table last wrote it: another program played on."""
        stamp = self._stamp()
        if stamp is None or stamp == self._saved_stamp:
            return
        path = self.keeper.saved_path()
        try:
            record = read_record(path)
        except RecordError:
            return
        if record.result is None:
            self._begin(Deal(record.seed, deal_order(record, self.game)), record, path)
            self.message = "this game was played elsewhere since: the table shows its save"

    # --- the game -------------------------------------------------------------------------

    @property
    def session(self) -> Any:
        return self.progress.session

    @property
    def adviser(self) -> Adviser:
        if self._adviser is None:
            from ...play.advice import Adviser, hint_seconds

            self._adviser = Adviser(self.game, seconds=hint_seconds(), after=self.progress.after)
        return self._adviser

    def command(self, text: str) -> dict[str, Any]:
        """Play one command: an action in ``play``'s notation, or undo, redo, hint, restart,
        new [SEED], rules. The answer is a JSON record (see docs/web.md)."""
        with self.lock:
            self.message = ""
            self.keeper.claim(self.progress.id)
            try:
                self._catch_up()
                answer = self._command(text)
                if not self.session.is_over() and self.progress.moves:
                    self.keeper.autosave()
                self._saved_stamp = self._stamp()
            finally:
                self.keeper.release()
        return answer

    def _command(self, text: str) -> dict[str, Any]:
        words = text.split()
        name = words[0].lower() if words else ""
        if name in ("undo", "redo") and len(words) == 1:
            return self._undo_redo(text, name)
        if name == "hint" and len(words) == 1:
            return self._hint(text)
        if name == "rules" and len(words) == 1:
            from ...play.rules_text import rules_text

            return self.answer(text, rules=rules_text(self.game, 90))
        if name in ("restart", "new") and len(words) <= (1 if name == "restart" else 2):
            return self._restart(text, name, words[1:])
        return self._act(text, words)

    def _act(self, text: str, words: list[str]) -> dict[str, Any]:
        session = self.session
        before = session.position
        if self.keeper.won or session.is_over():
            return self.refuse(text, "the game is over: 'restart' or 'new'")
        try:
            pile = self.game.layout.index.get(words[0]) if len(words) == 1 else None
            if pile is not None and words[0] not in self.game.notation.keys:
                found = assist.preferred(self.game, before, pile)
                if found is None:
                    raise ValueError(f"{words[0]}: no legal move now")
                action = found[0]
            else:
                action = self.game.parse_action(text, before)
            session.push(action)
        except (ValueError, IllegalAction) as exc:
            return self.refuse(text, str(exc))
        known = len(session.history) - 1
        self.progress.settle()
        self.seen.update(entry.before for entry in session.history[known:])
        self.seen.add(session.position)
        auto = [self.game.action_text(p.action, p.before) for p in session.history[known + 1 :]]
        if session.is_over():
            self.keeper.game_over()
        return self.answer(text, played=self.game.action_text(action, before), auto=auto)

    def _undo_redo(self, text: str, name: str) -> dict[str, Any]:
        refusal = self.keeper.undo_refusal() if name == "undo" else None
        if refusal:
            return self.refuse(text, refusal)
        try:
            actions = self.session.undo() if name == "undo" else self.session.redo_choice()
        except IndexError as exc:
            return self.refuse(text, str(exc))
        self.progress.sync_times()
        if name == "redo" and self.session.is_over():
            self.keeper.game_over()
        return self.answer(text, actions=[self.game.action_text(a) for a in actions])

    def _hint(self, text: str) -> dict[str, Any]:
        state = self.session.position
        advice = self.adviser.advise(state, self.seen)
        action = advice.action
        extra: dict[str, Any] = {"hint": None, "hint_kind": advice.kind}
        if action is not None:
            names = self.game.pile_names
            extra.update(
                hint=self.game.action_text(action, state),
                hint_source=names[action.src] if action.src >= 0 else None,
                hint_target=names[action.dst] if action.dst >= 0 else None,
                hint_count=max(action.n, 1),
            )
        if advice.note:
            extra["no_win"] = advice.note
        return self.answer(text, winnable=advice.winnable, **extra)

    def _restart(self, text: str, name: str, words: list[str]) -> dict[str, Any]:
        if name == "restart":
            deal = self.progress.deal
        else:
            deal = parse_deal(self.game, words[0] if words else None, None)
        self.keeper.leave(saving=False, abandon=True)
        self._begin(deal)
        return self.answer(text)

    # --- answers --------------------------------------------------------------------------

    def refuse(self, text: str, reason: str) -> dict[str, Any]:
        return self.answer(text, ok=False, error=reason)

    def answer(
        self, command: str | None, ok: bool = True, error: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        """The record of one command: ``play --json``'s fields, then the page's."""
        record: dict[str, Any] = {"command": command, "ok": ok, "error": error}
        record.update(self.state())
        record.update(extra)
        return record

    def state(self) -> dict[str, Any]:
        game, session = self.game, self.session
        state = session.position
        deal = self.progress.deal
        record: dict[str, Any] = {"game": game.id, "seed": deal.seed}
        if deal.seed is None:
            record["deck"] = [card_text(c) for c in deal.order]
        record.update(position_json(game, state))
        record.update(
            auto_moves=self.auto,
            save=self.keeper.id,
            moves=self.progress.moves,
            seconds=round(self.progress.seconds(), 1),
            cards=len(game.cards),
            score_label=game.spec.score.label,
            over=session.is_over(),
            can_undo=any(not p.auto for p in session.history) and not self.keeper.won,
            can_redo=bool(session.undone),
            legal=self._legal(state),
            hidden={
                name: down
                for name, cards in zip(game.pile_names, state.piles, strict=True)
                if (down := [i for i, card in enumerate(cards) if card & DOWN])
            },
            message=self.message,
        )
        if not session.is_over():
            warning = self.adviser.no_win(state, self.seen)
            if warning:
                record["no_win"] = warning
        return record

    def _legal(self, state: State) -> list[dict[str, Any]]:
        """The legal actions, with their piles, for the page to match clicks and drags."""
        names = self.game.pile_names
        found: list[dict[str, Any]] = []
        for action in self.session.legal_actions():
            found.append(
                {
                    "text": self.game.action_text(action, state),
                    "name": action.name,
                    "source": names[action.src] if action.src >= 0 else None,
                    "target": names[action.dst] if action.dst >= 0 else None,
                    "count": max(action.n, 1),
                    "stock": self._moves_stock(state, action),
                }
            )
        return found

    def _moves_stock(self, state: State, action: Action) -> bool:
        """Whether an action without piles changes the stock (what a click on it plays)."""
        if action.src >= 0 or action.dst >= 0:
            return False
        stocks = [p for p in range(len(self.game.layout)) if self.game.layout.role[p] == "stock"]
        after = self.game.apply(state, action)
        return any(len(after.piles[p]) != len(state.piles[p]) for p in stocks)

    def opening(self) -> dict[str, Any]:
        """What the page needs once: the game, its layout, its own actions and their keys."""
        game = self.game
        own = []
        for name, effect in game.effects.items():
            if effect.automatic or effect.takes_piles:
                continue
            keys = [k for k, v in game.notation.keys.items() if v == name and k != name]
            own.append({"name": name, "keys": keys, "help": effect.help or name})
        return {
            "name": game.name,
            "layout": page_layout(game),
            "buttons": own,
        }

    def close(self) -> None:
        """Let the game go: saved when the player moved, as a terminal's quit keeps it."""
        with self.lock:
            try:
                self.keeper.claim(self.progress.id)
            except RecordError:
                return  # another program plays it now: its save is that program's
            self.keeper.leave(saving=True)


class Tables:
    """The tables open on one server, by a random id the page keeps."""

    def __init__(self, store: SaveStore | None = None) -> None:
        self.store = store or SaveStore()
        self.tables: OrderedDict[str, WebTable] = OrderedDict()
        self.lock = threading.Lock()

    def open(self, body: dict[str, Any]) -> tuple[str, WebTable]:
        game = game_by_name(body.get("game"))
        auto = body.get("auto", True)
        if auto not in (True, False, "on", "off"):
            raise Refused("auto: true or false ('on' or 'off')")
        auto = auto in (True, "on")
        resume = body.get("resume")
        if resume not in (None, ""):
            if body.get("seed") not in (None, "") or body.get("deck") not in (None, ""):
                raise Refused("resume continues a saved deal: it takes no seed or deck")
            path = self._save_path(game, resume)
            table = WebTable(game, Deal(None, []), self.store, path, auto)
        else:
            deal = parse_deal(game, body.get("seed"), body.get("deck"))
            table = WebTable(game, deal, self.store, auto=auto)
        uid = secrets.token_hex(12)
        with self.lock:
            self.tables[uid] = table
            while len(self.tables) > MAX_TABLES:
                _, oldest = self.tables.popitem(last=False)
                oldest.close()
        return uid, table

    def _save_path(self, game: Game, wanted: object) -> Path:
        if not isinstance(wanted, str) or not _SAVE_ID.fullmatch(wanted.lower()):
            raise Refused(
                "resume: a saved game's id (letters a-f and digits, see 'solitaire saves')"
            )
        try:
            found = self.store.find(wanted)
        except RecordError as exc:
            raise Refused(str(exc)) from None
        if found is None:
            raise Refused(f"no saved game '{wanted}' (see 'solitaire saves')", 404)
        if found.record.game != game.id:
            raise Refused(
                f"saved game {wanted} is a game of '{printable(found.record.game, 40)}'", 409
            )
        return found.path

    def get(self, uid: str) -> WebTable:
        with self.lock:
            table = self.tables.get(uid)
            if table is None:
                raise Refused(
                    "no such table (the server may have restarted): open the game again", 404
                )
            self.tables.move_to_end(uid)
            return table

    def close_all(self) -> None:
        with self.lock:
            tables = list(self.tables.values())
            self.tables.clear()
        for table in tables:
            table.close()


def command_text(body: dict[str, Any]) -> str:
    text = body.get("command")
    if not isinstance(text, str) or not text.strip():
        raise Refused("command: an action in play's notation ('t3 f1', 'draw') or undo, redo, hint")
    if len(text) > MAX_COMMAND or not text.isprintable():
        raise Refused(f"command: at most {MAX_COMMAND} printable characters")
    return text.strip()
