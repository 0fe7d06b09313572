"""Solvitaire's presets written as our rule files, option by option.

``presets.yaml`` lists Solvitaire's 75 distinct rule records by the options that differ from
its default record. ``translate`` turns one record into a rule file of ours, following the
mapping that docs/solvitaire-presets.md shows option by option; ``python translate.py``
writes every file into ``rules/`` (the tests regenerate them and compare). A record that our
rule language cannot write raises ``Unwritable`` with the reason.

What Solvitaire's solver does to search faster is not a rule and is not written: the
"partial-if-card-above-buildable" moves are its pruning of "yes"; its safe moves to the
foundations and its "K+" stock are ways of searching the same game.
"""

from __future__ import annotations

import copy
import json
import sys
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
DATA = HERE / "presets.yaml"
RULES = HERE / "rules"
SCHEMA = "../../../rules/schema.json"

Record = dict[str, Any]
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
# Solvitaire's suit rules for building and for moving groups, as our suit rules.
SUIT_RULE = {"any-suit": "any", "red-black": "alternate", "same-suit": "same"}
# Accordion's matching rules: the two top cards relate by any of these.
MATCH_RULE: dict[str, dict[str, str]] = {
    "same-suit": {"suit": "same"},
    "same-rank": {"build": "same"},
    "red-black": {"suit": "alternate"},
    "any-suit": {},
}


class Unwritable(Exception):
    """A record our rule language cannot write; the message says why."""


@dataclass(frozen=True)
class Preset:
    """One distinct rule record of Solvitaire."""

    name: str
    game: str
    also: tuple[str, ...]
    shipped: str | None
    options: Mapping[str, Any]  # only the options that differ from the default record
    record: Record  # the whole record: the default with the options laid over it


def read_presets(path: Path = DATA) -> list[Preset]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    default: Record = data["default"]
    out: list[Preset] = []
    for name, entry in data["presets"].items():
        record = copy.deepcopy(default)
        for section, value in entry["options"].items():
            if isinstance(value, dict):
                record[section].update(value)
            else:
                record[section] = value
        out.append(
            Preset(
                name=name,
                game=entry["game"],
                also=tuple(entry.get("also", ())),
                shipped=entry.get("shipped"),
                options=entry["options"],
                record=record,
            )
        )
    return out


def rank(value: int) -> str | int:
    """A rank as rule files write it: A, J, Q, K by letter, 2..10 as numbers."""
    name = RANK_NAMES[value - 1]
    return int(name) if name.isdigit() else name


def parse_rank(text: str) -> int:
    text = str(text).upper()
    return RANK_NAMES.index(text) + 1 if text in RANK_NAMES else int(text)


def game_id(preset: str) -> str:
    """The rule file's id: the preset's name, marked as Solvitaire's and kept to 40 letters."""
    return "sv-" + preset.replace("arbitrary-built-moves", "any-runs")


def names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(1, count + 1)]


def tableau_counts(piles: int, cards: int, diagonal: bool) -> list[int]:
    """How many cards each tableau pile gets, dealt row by row as Solvitaire deals.

    A diagonal deal gives pile i (from 0) i+1 cards; its last, short row fills the piles on the
    right, and cards beyond the triangle go on in full rows.
    """
    counts = [0] * piles
    position = 0
    while cards:
        pile, row = position % piles, position // piles
        if diagonal and row < piles:
            pile = piles - pile - 1
            if pile >= row:
                counts[pile] += 1
                cards -= 1
        else:
            counts[pile] += 1
            cards -= 1
        position += 1
    return counts


@dataclass
class Draft:
    """A rule file being written: its sections as plain data, in the order they are dumped."""

    piles: dict[str, Any]
    deal: list[dict[str, Any]]
    actions: dict[str, Any]
    conditions: dict[str, Any]
    # The conditions that must not hold for each player action (absent: none).
    unless: dict[str, list[str]]
    goal: str = ""  # what the player is doing, in words
    score: dict[str, Any] | None = None  # absent: the cards on the foundations


def translate(preset: Preset) -> dict[str, Any]:
    """Our rule file for one preset, as plain data (``dump`` writes it)."""
    rec = preset.record
    fnd, hole = rec["foundations"], rec["hole"]
    accordion, sequences = rec["accordion"], rec["sequences"]
    decks = 2 if rec["two decks"] else 1
    top = int(rec["max rank"])
    families = [hole["present"], fnd["present"], accordion["size"] > 0, sequences["count"] > 0]
    if sum(map(bool, families)) != 1:  # Solvitaire refuses such a record too
        raise Unwritable("a record needs exactly one of hole, foundations, accordion, sequences")
    draft = Draft({}, [], {}, {}, {})
    left = 4 * top * decks  # cards not yet dealt
    remove = [f"{RANK_NAMES[r - 1]}{s}" for _ in range(decks) for s in SUITS
              for r in range(top + 1, 14)]  # fmt: skip

    if accordion["size"] > 0:
        won = _accordion(draft, accordion, left)
    elif sequences["count"] > 0:
        won = _gaps(draft, sequences, left, top)
    else:
        left, won = _patience(draft, rec, left, decks, top)
        if left:
            raise Unwritable(f"{left} cards left over")  # pragma: no cover - counts add up

    flow_states = {
        "playing": {"help": draft.goal},
        "won": {"outcome": "won"},
        "lost": {"outcome": "lost"},
    }
    transitions: list[dict[str, Any]] = []
    for name, action in draft.actions.items():
        if action.get("automatic"):
            continue
        step: dict[str, Any] = {"trigger": name, "source": "playing", "dest": "playing"}
        if draft.unless.get(name):
            step["unless"] = draft.unless[name]
        transitions.append(step)
    transitions.append({"trigger": "auto", "source": "playing", "dest": "won", "conditions": [won]})
    transitions.append(
        {"trigger": "auto", "source": "playing", "dest": "lost", "conditions": ["stuck"]}
    )
    draft.conditions["stuck"] = {"test": "no_legal_action", "describe": "no action is possible"}

    game: dict[str, Any] = {
        "id": game_id(preset.name),
        "name": f"{preset.game} (Solvitaire: {preset.name})",
        "description": f"Solvitaire's preset '{preset.name}', written from its options.",
    }
    if decks > 1:
        game["decks"] = decks
    if remove:
        game["remove"] = remove
    game |= {
        "piles": draft.piles,
        "deal": draft.deal,
        "actions": draft.actions,
        "conditions": draft.conditions,
        "flow": {"initial": "playing", "states": flow_states, "transitions": transitions},
    }
    if draft.score:
        game["score"] = draft.score
    return game


# --- the foundation, hole and spider families ---------------------------------------------


def _patience(draft: Draft, rec: Record, left: int, decks: int, top: int) -> tuple[int, str]:
    """The games of piles, cells, reserve, stock and waste; the cards left, the winning test."""
    tab, fnd, hole = rec["tableau piles"], rec["foundations"], rec["hole"]
    cells, stock, reserve = rec["cells"], rec["stock"], rec["reserve"]
    piles, deal = draft.piles, draft.deal
    spider = bool(fnd["present"] and fnd["only complete pile moves"])

    # Foundations: one per suit and deck, built up in suit from the base rank, which is fixed
    # or set by the first card dealt; past the King they go on to the Ace when the base is
    # not an Ace, and each holds one suit's ranks at most.
    wrap = False
    base: int | None = None  # None: the rank of the first card dealt
    if fnd["present"]:
        random_base = str(fnd["base card"]).lower() == "random"
        base = None if random_base else parse_rank(fnd["base card"])
        wrap = base != 1
        if wrap and top < 13:
            raise Unwritable("foundations that turn the corner in a deck without Kings")
        group: dict[str, Any] = {"role": "foundation", "names": names("f", 4 * decks)}
        initial = fnd["initial cards"]
        if spider:
            if initial != "none" or fnd["removable"]:
                raise Unwritable("finished runs with foundations dealt or taken back")
        else:
            accepts: dict[str, Any] = {"build": "up", "suit": "same"}
            if wrap:
                accepts["wrap"] = True
                if decks > 1:  # the next copy of the base card starts another foundation
                    accepts["max_cards"] = top
            if initial == "all":
                if base is None:
                    raise Unwritable("every foundation started with a base rank set by the deal")
                group["bases"] = [f"{RANK_NAMES[base - 1]}{s}" for _ in range(decks) for s in SUITS]
                accepts["empty"] = "none"
            elif initial == "one":
                if base is not None:
                    raise Unwritable("one foundation started with a fixed base card")
                accepts["empty"] = "group_rank"
            else:
                if base is None:
                    raise Unwritable("a base rank set by a card that stays in the deck")
                accepts["empty"] = rank(base)
            group["accepts"] = accepts
        piles["foundations"] = group
        if "bases" in group:
            deal.append({"step": "bases"})
            left -= 4 * decks
        elif fnd["initial cards"] == "one":
            deal.append({"step": "round_robin", "piles": ["f1"], "passes": 1, "face": "up"})
            left -= 1
    else:
        # The hole: one foundation that takes any suit one rank up or down, King and Ace
        # touching when it loops; it starts with its base card.
        if hole["build loops"] and top < 13:
            raise Unwritable("a hole that loops from a top rank below the King")
        accepts = {"build": "up_or_down", "suit": "any"}
        if hole["build loops"]:
            accepts["wrap"] = True
        accepts["empty"] = "none"
        group = {"role": "foundation", "names": ["f1"], "accepts": accepts}
        piles["foundations"] = group
        if str(hole["base card"]).lower() == "random":
            deal.append({"step": "round_robin", "piles": ["f1"], "passes": 1, "face": "up"})
        else:
            group["bases"] = [str(hole["base card"]).upper()]
            deal.append({"step": "bases"})
        left -= 1

    # Tableau: built down by the build rule, an empty pile taking what the spaces rule says.
    count = int(tab["count"])
    build = tab["build policy"]
    if count:
        tableau: dict[str, Any] = {"role": "tableau", "names": names("t", count)}
        if build != "no-build":  # otherwise nothing goes on a tableau pile, even an empty one
            accepts = {"build": "down", "suit": SUIT_RULE[build]}
            if wrap:
                accepts["wrap"] = True
                # Ranks run from the base up, so nothing goes on a card of the base rank.
                accepts["complete_at"] = rank(base) if base else {"rank_of": "foundations"}
            accepts["empty"] = _spaces(tab["spaces policy"], top)
            tableau["accepts"] = accepts
        piles["tableau"] = tableau

    if cells["count"]:
        piles["cells"] = {
            "role": "cell",
            "names": names("c", int(cells["count"])),
            "accepts": {"build": "none", "empty": "any"},
        }
        filled = int(cells["pre-filled"])
        if filled:
            deal.append(
                {"step": "round_robin", "piles": names("c", filled), "passes": 1, "face": "up"}
            )
            left -= filled

    # Reserve: one open pile of which only the top card plays (stacked), or one card each.
    size = int(reserve["size"])
    if size:
        if reserve["stacked"]:
            piles["reserve"] = {"role": "reserve", "names": ["r1"]}
            deal.append({"step": "round_robin", "piles": ["r1"], "passes": size, "face": "up"})
        else:
            piles["reserve"] = {"role": "reserve", "names": names("r", size)}
            deal.append({"step": "round_robin", "piles": ["reserve"], "passes": 1, "face": "up"})
        left -= size

    waste = stock["size"] > 0 and stock["deal type"] == "waste"
    if stock["size"]:
        piles["stock"] = {"role": "stock", "names": ["s"]}
        if waste:
            piles["waste"] = {"role": "waste", "names": ["w"]}

    if stock["size"]:  # dealt before the tableau, whose last step takes what is left
        deal.append(
            {"step": "round_robin", "piles": ["s"], "passes": int(stock["size"]), "face": "down"}
        )
        left -= int(stock["size"])
    dealt = left
    if count and dealt > 0:
        face = "down" if tab["face up cards"] == "top" else "up"
        step: dict[str, Any] = {"step": "round_robin", "piles": ["tableau"]}
        if tab["diagonal deal"]:
            step["counts"] = tableau_counts(count, dealt, True)
        step["face"] = face
        deal.append(step)
        left -= dealt
    elif dealt > 0:
        raise Unwritable("cards left for a tableau of no piles")

    _actions(draft, rec, spider, waste, top)
    if fnd["present"]:
        draft.conditions["all_home"] = _all_home("every card is on the foundations")
        draft.goal = "build every suit on the foundations"
    else:
        draft.conditions["all_home"] = _all_home("every card is in the hole")
        draft.goal = "play every card into the hole"
    return left, "all_home"


def _all_home(describe: str) -> dict[str, Any]:
    return {"test": "holds_all_cards", "piles": ["foundations"], "describe": describe}


def _spaces(policy: str, top: int) -> Any:
    """What an empty tableau pile accepts, by Solvitaire's spaces rule."""
    if policy == "no-build":
        return "none"
    if policy == "kings":  # rank 13 itself: with a shorter deck no card fills a space
        return "K" if top == 13 else "none"
    return "any"  # 'any', and the automatic rules, whose spaces are filled at once


def _actions(draft: Draft, rec: Record, spider: bool, waste: bool, top: int) -> None:
    tab, fnd, stock = rec["tableau piles"], rec["foundations"], rec["stock"]
    piles, actions = draft.piles, draft.actions
    has = set(piles)
    build = tab["build policy"]
    grouped = tab["move built group"]
    policy = tab["move built group policy"]
    policy = build if policy == "same-as-build" else policy
    into_tableau = "tableau" in has and build != "no-build"

    if into_tableau:
        move: dict[str, Any] = {"effect": "move", "from": ["tableau"], "to": ["tableau"]}
        if grouped in ("yes", "partial-if-card-above-buildable", "whole-pile"):
            move["cards"] = "pile" if grouped == "whole-pile" else "run"
            if policy == "no-build":
                raise Unwritable("groups that move by the 'no-build' rule")
            if policy != build or grouped == "whole-pile":
                run: dict[str, Any] = {"build": "down", "suit": SUIT_RULE[policy]}
                if "wrap" in piles["tableau"]["accepts"]:
                    run["wrap"] = True
                move["run"] = run
        elif grouped == "maximal-group":
            raise Unwritable("only the longest run moves ('maximal-group'): no move says that")
        move["help"] = {
            "run": "Move a card or a run onto another tableau pile, e.g. 't3 t5' or 't3 t5 2'.",
            "pile": "Move a whole tableau pile that is one run onto another, e.g. 't3 t5'.",
        }.get(move.get("cards", ""), "Move a tableau pile's top card onto another, e.g. 't3 t5'.")
        actions["move"] = move

    home_from = [g for g in ("tableau", "cells", "reserve") if g in has]
    if not spider:
        home: dict[str, Any] = {"effect": "move", "from": home_from, "to": ["foundations"]}
        if fnd["present"]:
            home["safe"] = "builders_home"
            home["help"] = "Move a top card onto a foundation, e.g. 't3 f1'."
        else:
            home["help"] = "Move a top card into the hole, e.g. 't3 f1'."
        actions["home"] = home
    if "cells" in has:
        park_from: list[str] = [g for g in ("tableau", "reserve") if g in has]
        if fnd["removable"]:
            park_from.append("foundations")
        actions["park"] = {
            "effect": "move",
            "from": park_from,
            "to": ["cells"],
            "help": "Put a top card into an empty cell, e.g. 't3 c1'.",
        }
    use_from = [g for g in ("cells", "reserve") if g in has]
    if into_tableau and use_from:
        actions["use"] = {
            "effect": "move",
            "from": use_from,
            "to": ["tableau"],
            "help": "Move a card from a cell or the reserve onto the tableau, e.g. 'r1 t3'.",
        }
    if fnd["removable"] and into_tableau:
        actions["back"] = {
            "effect": "move",
            "from": ["foundations"],
            "to": ["tableau"],
            "help": "Take a foundation's top card back onto the tableau, e.g. 'f1 t3'.",
        }
    if waste:
        to = [g for g in ("foundations", "tableau", "cells") if g in has]
        if spider:
            to.remove("foundations")
        if not into_tableau and "tableau" in to:
            to.remove("tableau")
        actions["play"] = {
            "effect": "move",
            "from": ["waste"],
            "to": to,
            "help": "Play the waste's top card, e.g. 'w f1' or 'w t3'.",
        }
        actions["draw"] = {
            "effect": "deal",
            "from": "s",
            "to": "w",
            "keys": ["d"],
            "help": "Turn cards from the stock onto the waste.",
        }
        if int(stock["deal count"]) > 1:
            actions["draw"]["count"] = int(stock["deal count"])
        if stock["redeal"]:
            actions["redeal"] = {
                "effect": "redeal",
                "from": "w",
                "to": "s",
                "keys": ["r"],
                "help": "Turn the waste over to make the stock again, as often as you like.",
            }
    elif stock["size"] and stock["deal type"] == "hole":
        actions["draw"] = {
            "effect": "deal",
            "from": "s",
            "to": "f1",
            "keys": ["d"],
            "help": "Turn the stock's top card into the hole, whatever its rank.",
        }
    elif stock["size"]:  # the stock deals a row onto the tableau, empty piles or not
        actions["deal"] = {
            "effect": "deal_row",
            "from": "s",
            "to": ["tableau"],
            "keys": ["d"],
            "help": "Deal one card from the stock onto every tableau pile.",
        }
    if spider:
        actions["collect"] = {
            "effect": "remove_runs",
            "from": ["tableau"],
            "to": ["foundations"],
            "length": top,
            "starts_at": rank(top),
            "help": "Take a finished run, King down to Ace in one suit, to a foundation.",
        }

    policy_space = tab["spaces policy"]
    if policy_space.startswith("auto-reserve"):
        if "reserve" not in has:
            raise Unwritable("spaces filled from a reserve that the game does not have")
        actions["fill"] = {
            "effect": "fill_gaps",
            "piles": ["tableau"],
            "size": 1,
            "from": "r1",
            "automatic": True,
            "help": "An empty tableau pile takes the reserve's top card at once.",
        }
        if policy_space == "auto-reserve-then-waste":
            # Once the reserve is out, a space is filled from the waste before anything else
            # goes onto the tableau.
            draft.conditions["space"] = {
                "test": "short_pile",
                "piles": ["tableau"],
                "size": 1,
                "describe": "a tableau pile is empty (only the waste fills it)",
            }
            for name in ("move", "use", "back"):
                if name in actions:
                    draft.unless[name] = ["space"]
    elif policy_space == "auto-waste-then-stock":
        if not waste:
            raise Unwritable("spaces filled from a waste that the game does not have")
        actions["fill"] = {
            "effect": "fill_gaps",
            "piles": ["tableau"],
            "size": 1,
            "from": "w",
            "automatic": True,
            "help": "An empty tableau pile takes the waste's top card at once.",
        }
        actions["refill"] = {
            "effect": "fill_gaps",
            "piles": ["tableau"],
            "size": 1,
            "from": "s",
            "automatic": True,
            "help": "When the waste is empty, an empty tableau pile takes the stock's top card.",
        }
    if tab["face up cards"] == "top" and "tableau" in has:
        actions["reveal"] = {
            "effect": "turn_up",
            "piles": ["tableau"],
            "automatic": True,
            "help": "A face-down card left on top of a tableau pile turns face up.",
        }


# --- Accordion and Gaps ---------------------------------------------------------------------


def _accordion(draft: Draft, spec: Record, left: int) -> str:
    size = int(spec["size"])
    relations = [MATCH_RULE[p] for p in spec["build policies"]]
    if not relations:
        raise Unwritable("an accordion whose piles never match")
    draft.piles["tableau"] = {
        "role": "tableau",
        "names": names("t", size),
        "accepts": {"any_of": relations, "empty": "none"},
    }
    draft.deal.append({"step": "round_robin", "piles": ["tableau"], "passes": 1, "face": "up"})
    if left > size:  # the cards a short row leaves out stay out of play
        draft.piles["unused"] = {"role": "stock", "names": ["s"]}
        draft.deal.append({"step": "rest", "pile": "s", "face": "down"})
    reach = [(-1 if m[0] == "L" else 1) * int(m[1:]) for m in spec["moves"]]
    draft.actions["move"] = {
        "effect": "move",
        "from": ["tableau"],
        "to": ["tableau"],
        "cards": "pile",
        "compare": "top",
        "reach": reach,
        "help": "Move a pile onto another that many places away when their top cards match.",
    }
    draft.conditions["one_pile"] = {
        "test": "count",
        "piles": ["tableau"],
        "of": "piles",
        "at_most": 1,
        "describe": "one pile is left",
    }
    draft.goal = "gather the cards into one pile"
    return "one_pile"


def _gaps(draft: Draft, spec: Record, left: int, top: int) -> str:
    rows = int(spec["count"])
    if left % rows:
        raise Unwritable("rows of different lengths")
    length = left // rows
    if spec["direction"] != "L":
        raise Unwritable("rows built from the right: no preset does it, and 'follows' looks left")
    relation = {"build": "up", "suit": SUIT_RULE[spec["build policy"]]}
    edge: Any = 2
    if spec["fixed suit"]:
        if rows > 4:
            raise Unwritable("more rows than suits, each with its own suit")
        edge = [f"2{s}" for s in SUITS[:rows]]
    draft.piles["tableau"] = {
        "role": "tableau",
        "names": names("t", left),
        "arrangement": {"grid": length},
        "accepts": {
            "max_cards": 1,
            "follows": {"side": "left", "relation": relation, "edge": edge},
        },
    }
    draft.piles["aces"] = {"role": "foundation", "names": ["f1"]}
    draft.deal.append({"step": "round_robin", "piles": ["tableau"], "passes": 1, "face": "up"})
    draft.deal.append({"step": "set_aside", "piles": ["tableau"], "rank": "A", "to": "f1"})
    draft.actions["move"] = {
        "effect": "move",
        "from": ["tableau"],
        "to": ["tableau"],
        "help": "Move a card into a gap, e.g. 't14 t2'.",
    }
    draft.conditions["in_order"] = {
        "test": "rows_built",
        "piles": "tableau",
        "length": length - 1,
        "relation": relation,
        "describe": "every row runs from the 2 up to its top rank",
    }
    draft.goal = "order each row from the 2 up"
    draft.score = {"label": "cards in order", "count": "in_place", "piles": ["tableau"]}
    return "in_order"


# --- writing ---------------------------------------------------------------------------------


def dump(preset: Preset, game: Mapping[str, Any]) -> str:
    """The rule file's text: a header that says where it comes from, then the YAML."""
    also = f" (also {', '.join(preset.also)})" if preset.also else ""
    about = f"Solvitaire's preset '{preset.name}'{also}: {preset.game}."
    head = [f"# yaml-language-server: $schema={SCHEMA}"]
    head += ["# " + line for line in textwrap.wrap(about, WIDTH - 2)]
    head += [
        "# Written by tests/solvitaire/translate.py from tests/solvitaire/presets.yaml; do not",
        "# edit by hand (docs/solvitaire-presets.md shows the mapping).",
    ]
    lines = [*head]
    for key, value in game.items():
        lines += _block(key, value, 0, top=True)
    return "\n".join(lines) + "\n"


WIDTH = 100


def _scalar(value: Any, flow: bool) -> str:
    """A scalar as YAML reads it back: plain where that is safe, else in double quotes."""
    plain = str(value).lower() if isinstance(value, bool) else str(value)
    probe = f"[{plain}]" if flow else f"k: {plain}"
    try:
        back = yaml.safe_load(probe)
    except yaml.YAMLError:
        back = None
    if back == ([value] if flow else {"k": value}):
        return plain
    return json.dumps(value)


def _flow(value: Any, inner: bool = False) -> str:
    """A value on one line, in YAML's flow style."""
    if isinstance(value, dict):
        items = (f"{k}: {_flow(v, True)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v, True) for v in value) + "]"
    return _scalar(value, inner)


def _block(key: str, value: Any, indent: int, top: bool = False) -> list[str]:
    """``key: value``, on one line when it fits (and is not a top-level section)."""
    pad = " " * indent
    line = f"{pad}{key}: {_flow(value)}"
    nested = isinstance(value, dict | list) and value
    if not nested or (not top and len(line) <= WIDTH):
        return [line]
    if isinstance(value, list) and not any(isinstance(v, dict | list) for v in value):
        return _wrapped(f"{pad}{key}: [", [_flow(v, True) for v in value])
    if isinstance(value, dict):
        return [f"{pad}{key}:"] + [
            out for k, v in value.items() for out in _block(k, v, indent + 2)
        ]
    lines = [f"{pad}{key}:"]
    for item in value:
        one = f"{pad}  - {_flow(item)}"
        if len(one) <= WIDTH or not isinstance(item, dict):
            lines.append(one)
            continue
        inner = [out for k, v in item.items() for out in _block(k, v, indent + 4)]
        lines.append(f"{pad}  - {inner[0].lstrip()}")
        lines += inner[1:]
    return lines


def _wrapped(start: str, items: list[str]) -> list[str]:
    """A long flow list over several lines, each continued under the first item."""
    lines, line = [], start
    for k, item in enumerate(items):
        piece = item + ("]" if k == len(items) - 1 else ",")
        if len(line) + len(piece) + 1 > WIDTH and line.strip() != start.strip():
            lines.append(line.rstrip())
            line = " " * len(start)
        line += piece + " "
    lines.append(line.rstrip())
    return lines


def rule_files(presets: list[Preset]) -> Iterator[tuple[Preset, str | None, str]]:
    """For each preset: the file's text (None when unwritable), and the reason if so."""
    for preset in presets:
        try:
            yield preset, dump(preset, translate(preset)), ""
        except Unwritable as why:
            yield preset, None, str(why)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else RULES
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.yaml"):
        old.unlink()
    for preset, text, why in rule_files(read_presets()):
        if text is None:
            print(f"{preset.name}: not written: {why}")
        else:
            (out / f"{preset.name}.yaml").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
