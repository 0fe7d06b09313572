"""The phase machine of a game as a diagram, drawn by ``transitions``' own diagram support.

Built from the game's compiled transition table with the rule file's condition names as labels
(a ``[!name]`` label is an ``unless``). Mermaid needs no system library; DOT output is the
source text only, so Graphviz itself is needed only to render it.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from ...rules.errors import printable
from ..game.game import Game

Format = Literal["mermaid", "dot"]


class _Model:
    pass


def _title(name: str, fmt: Format) -> str:
    """The diagram's title: the game's name on one line. Mermaid takes it in YAML front
    matter between '---' lines, so there it is a quoted ``title:`` that no name can break."""
    line = printable(" ".join(name.split()), 200) or "game"
    return f"title: {json.dumps(line)}" if fmt == "mermaid" else line


def diagram(game: Game, fmt: Format = "mermaid") -> str:
    from transitions.extensions import GraphMachine

    states: list[dict[str, Any]] = []
    for name, spec in game.states.items():
        state: dict[str, Any] = {"name": name}
        if spec.outcome:
            state["final"] = True
        states.append(state)
    transitions = [
        {
            "trigger": t.trigger,
            "source": t.source,
            "dest": t.dest,
            "conditions": [name for name, _ in t.conditions],
            "unless": [name for name, _ in t.unless],
        }
        for t in game.flow.transitions
    ]
    model = _Model()
    GraphMachine(
        model=model,
        states=states,
        transitions=transitions,
        initial=game.initial,
        auto_transitions=False,
        show_conditions=True,
        graph_engine="mermaid" if fmt == "mermaid" else "graphviz",
        title=_title(game.name, fmt),
    )
    graph = model.get_graph()  # type: ignore[attr-defined]
    if fmt == "mermaid":
        # Mermaid's end marker for each state that ends the game, labelled with its outcome.
        ends = "".join(
            f"  {name} --> [*]: {spec.outcome}\n"
            for name, spec in game.states.items()
            if spec.outcome
        )
        return str(graph.draw(None)).rstrip("\n") + "\n" + ends
    return str(graph.source)
