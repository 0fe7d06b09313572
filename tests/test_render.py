"""Colour on a terminal, plain text for NO_COLOR (checked with a stream that says it is a tty)."""

from __future__ import annotations

import io

import pytest

from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.ui.cli.output import console as _console
from yaml_solitaire.engine.ui.render import Renderer


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _draw(monkeypatch: pytest.MonkeyPatch, no_color: str | None) -> str:
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    monkeypatch.delenv("TERM", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    game = load_game("big-ben")
    stream = _Terminal()
    _console(stream).print(Renderer(game).board(game.deal_seed(3)))
    return stream.getvalue()


def test_a_terminal_gets_red_hearts_and_diamonds(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _draw(monkeypatch, None)
    assert "\x1b[" in out and "5D" in out


def test_no_color_gives_plain_text_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _draw(monkeypatch, "1")
    assert "\x1b[" not in out
    assert "f12 5D need 7" in out and "t12 7C AS JC" in out
