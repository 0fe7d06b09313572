"""Crafted deals for the tests: put chosen cards where the deal lays them.

``slots(game)`` deals the canonical order (C, D, H, S, each A..K) and reads, for every pile,
which places of the deck order it received (bottom to top). ``deck(game, ...)`` then builds a
deck order that puts chosen cards in those places and the game's other cards, in canonical
order, everywhere else. Base cards (``bases``) keep their places, so a deal that takes them out
first still lays the rest where ``slots`` says. Deal steps that rearrange piles by what their
cards are (``sink``) are not followed: build those decks by hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from conftest import ROOT, run_cli
from yaml_solitaire.engine import Game
from yaml_solitaire.engine.core.cards import MASK, card_text


def slots(game: Game) -> dict[str, list[int]]:
    """For each pile, the places in the deck order of its dealt cards, bottom to top."""
    place = {card: k for k, card in enumerate(game.cards)}
    state = game.deal(list(game.cards))
    return {
        name: [place[card & MASK] for card in state.piles[i]]
        for i, name in enumerate(game.pile_names)
    }


def deck(
    game: Game,
    piles: Mapping[str, Sequence[str]] | None = None,
    stock: Sequence[str] | None = (),
    *,
    tops: Mapping[str, str] | None = None,
) -> list[str]:
    """A deck order that deals ``piles`` (each pile's top cards, bottom to top: the last one
    listed is the top card), the top cards ``tops``
    and the first stock cards ``stock`` (the first listed is the stock's top card)."""
    where = slots(game)
    canonical = [card_text(c) for c in game.cards]
    order: list[str | None] = [None] * len(canonical)

    def put(place: int, card: str) -> None:
        assert order[place] is None, f"place {place} given twice"
        order[place] = card

    for name, cards in (piles or {}).items():
        assert len(cards) <= len(where[name]), f"{name} is dealt {len(where[name])} cards"
        for place, card in zip(where[name][len(where[name]) - len(cards) :], cards, strict=True):
            put(place, card)
    for name, card in (tops or {}).items():
        put(where[name][-1], card)
    for place, card in zip(reversed(where.get("s", [])), stock or (), strict=False):
        put(place, card)
    for pile in game.layout.bases:  # base cards stay where the canonical deal has them
        first = where[game.pile_names[pile]][0]
        put(first, canonical[first])
    left = Counter(canonical)
    left.subtract(card for card in order if card is not None)
    assert min(left.values()) >= 0, "a card is given more often than the game has it"
    rest = iter([card for card in canonical if _take(left, card)])
    return [card if card is not None else next(rest) for card in order]


def _take(left: Counter[str], card: str) -> bool:
    if left[card] > 0:
        left[card] -= 1
        return True
    return False


def play(
    game: str, order: Sequence[str] | str, *commands: str, auto: bool = False
) -> list[dict[str, Any]]:
    """Play ``commands`` on a deal (a deck order, 'seed N' / 'seed ms:N', or options such as
    ['--seed', '3']) through the CLI
    with --json, automatic moves off unless ``auto``; one record for the deal and one per
    command."""
    if isinstance(order, str):
        deal = ["--seed", order.split()[1]]
    elif order and order[0].startswith("--"):  # the deal given as options already
        deal = list(order)
    else:
        deal = ["--deck", " ".join(order)]
    flags = [] if auto else ["--no-auto"]
    result = run_cli(
        "play", game, *deal, "--json", *flags, stdin="".join(c + "\n" for c in commands)
    )
    assert result.code == 0, result.err
    records = result.json_lines()
    assert len(records) == 1 + len(commands), result.err
    return records


def commands_of(name: str) -> list[str]:
    """The commands of a reference deal stored in tests/data (one per line)."""
    text = (ROOT / "tests" / "data" / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def oks(records: list[dict[str, Any]]) -> list[object]:
    """Whether each command of ``play``'s records was accepted."""
    return [r["ok"] for r in records[1:]]


def check_empty_pile_takes_only_a_king(
    game_id: str, game: Game, column: Sequence[str], clear: Sequence[str]
) -> None:
    """Deal ``column`` onto t1, clear it with the commands ``clear``: the emptied t1 refuses
    t2's top card (5H) and takes t3's (KH)."""
    order = deck(game, piles={"t1": column}, tops={"t2": "5H", "t3": "KH"})
    records = play(game_id, order, *clear, "t2 t1", "t3 t1")
    assert all(oks(records)[:-2]), records
    assert records[-3]["piles"]["t1"] == []
    assert records[-2]["error"] == "t1 is empty and accepts only cards of rank K"
    assert records[-1]["ok"] and records[-1]["piles"]["t1"] == ["KH"]


def check_a_row_from_the_stock(game_id: str, piles: int, size: int, down: int) -> None:
    """Seed 1 deals ``piles`` tableau piles of ``size`` cards, ``down`` of them face down; 'd'
    deals one more card onto each of them from the stock."""
    first, after = play(game_id, "seed 1", "d")
    names = [f"t{k}" for k in range(1, piles + 1)]
    assert [len(first["piles"][t]) for t in names] == [size] * piles
    assert first["face_down"]["t1"] == down
    assert after["ok"] and [len(after["piles"][t]) for t in names] == [size + 1] * piles
    assert len(after["piles"]["s"]) == len(first["piles"]["s"]) - piles
