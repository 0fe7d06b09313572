"""Guards that hold even for a game the validator would refuse: the engine never hangs."""

from __future__ import annotations

import pytest
import yaml

from conftest import ROOT
from yaml_solitaire.engine import Game, GameStalled, Session
from yaml_solitaire.engine.vocab import VOCABULARY


def test_a_self_playing_phase_that_repeats_itself_stops_with_a_message() -> None:
    # The validator refuses this file (its autoplay state plays a move that can go back and
    # forth); built from its shape alone, the engine still ends the loop with a message.
    text = (ROOT / "tests" / "broken" / "autoplay_back_and_forth.yaml").read_text()
    spec = VOCABULARY.validate(yaml.safe_load(text))
    game = Game(spec)
    session = Session(game, game.deal_seed(1))
    with pytest.raises(GameStalled, match="stopped making progress"):
        session.autoplay()
