"""``solitaire solve``: search a deal for a win; won with the line, lost (proved), or unknown."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ...core.cards import parse_deck, read_deck_text
from ...game.load import load_game
from ...play import lines
from ...play.solver import Budget, Solver
from .output import EXIT_OK, console


def cmd_solve(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    if args.deck is not None:
        seed = None
        order = parse_deck(read_deck_text(args.deck), game.cards)
    else:
        seed = args.seed if args.seed is not None else 0
        order = game.seed_order(seed)
    budget = Budget(args.budget_nodes, args.budget_seconds, args.max_positions)
    found = Solver(game).solve(game.deal(order), budget)
    actions = lines.typed(game, found.line)
    auto = False
    if args.auto and found.result == "won":
        # The same budget again at most, for the searches automatic moves may call for.
        replayed = lines.with_auto(game, order, found, budget)
        if replayed is not None:
            actions, auto = replayed, True
    if args.json:
        record: dict[str, Any] = {
            "game": game.id,
            "seed": seed,
            "result": found.result,
            "actions": actions,
            "auto": auto,
            "nodes": found.nodes,
            "seconds": round(found.seconds, 3),
        }
        if found.reason:
            record["reason"] = found.reason
        print(json.dumps(record))
        return EXIT_OK
    if args.line and found.result == "won":
        print("\n".join(actions))
        return EXIT_OK
    out = console(sys.stderr) if args.line else console()
    deal = f"seed {seed}" if seed is not None else "the given deck"
    searched = f"{found.nodes:,} positions in {found.seconds:.2f} CPU s"
    if found.result == "won":
        out.print(f"{game.name}, {deal}: won in {len(actions)} actions ({searched}).", markup=False)
        for start in range(0, len(actions), 12):
            out.print("  " + ", ".join(actions[start : start + 12]), markup=False)
        replay = f"--seed {seed}" if seed is not None else "--deck ..."
        if args.auto and not auto:
            out.print(
                "Automatic moves led off this line and no other was found within the budget: "
                "it is the line for automatic moves off.",
                markup=False,
            )
        flag = "" if auto else " --no-auto"
        out.print(
            f"Replay: solitaire solve {args.game} {replay}{_budget_flags(args)} --line"
            f" | solitaire play {args.game} {replay}{flag} --line",
            markup=False,
            soft_wrap=True,  # a command to copy: never broken across lines
        )
    elif found.result == "lost":
        out.print(
            f"{game.name}, {deal}: lost. No line of play wins this deal ({searched}).",
            markup=False,
        )
    else:
        out.print(
            f"{game.name}, {deal}: unknown. {found.reason.capitalize()} before a win was found "
            f"or every position was tried ({searched}).",
            markup=False,
        )
    return EXIT_OK


def _budget_flags(args: argparse.Namespace) -> str:
    """The options that found this line, for the command that prints it again."""
    flags = ""
    for option in ("budget_nodes", "budget_seconds", "max_positions"):
        value = getattr(args, option)
        if value is not None:
            flags += f" --{option.replace('_', '-')} {value}"
    return flags + (" --auto" if args.auto else "")
