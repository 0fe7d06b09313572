"""Fuzzing the command line: random rule files, decks, commands and options (issue 11).

Whatever the input, the program must answer within a bounded time, never with a traceback
(here: an exception out of ``main``, or 'Traceback' on stderr), with exit code 0, 1 or 2, and
a refused command must leave the position as it was.

The budget is small here (``SOLITAIRE_FUZZ_EXAMPLES`` examples per property, 20 by default);
``python benchmarks/fuzz.py --examples 5000`` runs the same properties with a larger one.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conftest import CANONICAL, GAMES, Result, run_cli
from yaml_solitaire.engine import Session, load_game

EXAMPLES = int(os.environ.get("SOLITAIRE_FUZZ_EXAMPLES", "20"))
SECONDS = 10.0  # the most CPU time one example may take (most take a few milliseconds)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None if EXAMPLES <= 100 else settings.default.database,
)

SHIPPED = {p.name: p.read_bytes() for p in sorted(GAMES.glob("*.yaml"))}
GAME_OF = {name: load_game(name) for name in ("big-ben", "clock-peek", "grandfathers-clock")}
WORK = Path(tempfile.mkdtemp(prefix="solitaire-fuzz-"))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)


@contextlib.contextmanager
def fuzzing() -> Iterator[None]:
    """No rule-file cache (thousands of one-off files), and a folder of one's own."""
    saved_cwd, saved_env = os.getcwd(), os.environ.get("SOLITAIRE_NO_CACHE")
    os.environ["SOLITAIRE_NO_CACHE"] = "1"
    os.chdir(WORK)
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        if saved_env is None:
            del os.environ["SOLITAIRE_NO_CACHE"]
        else:
            os.environ["SOLITAIRE_NO_CACHE"] = saved_env


def run(*args: str, stdin: str = "", codes: tuple[int, ...] = (0, 1, 2)) -> Result:
    """The command in-process; it must end in time, in a documented way.

    Time is this process's CPU time, so that a busy machine does not fail an example."""
    began = time.process_time()
    with fuzzing():
        result = run_cli(*args, stdin=stdin)
    took = time.process_time() - began
    assert took < SECONDS, f"{args}: {took:.1f} s of CPU"
    assert "Traceback" not in result.err, result.err
    assert result.code in codes, (args, result.code, result.err)
    if result.code:  # said on stderr (or, for 'validate --json', in the JSON lines)
        assert result.err.strip() or result.out.strip(), f"{args}: exit {result.code}, silent"
    return result


# --- rule files ---------------------------------------------------------------------------

JUNK = [
    b":", b"- ", b"[", b"]", b"{", b"}", b",", b"&a ", b"*a", b"!!str ", b"!!binary ", b"%YAML",
    b"---\n", b"...\n", b"\t", b"\n", b"  ", b'"', b"'", b"#", b"|", b">", b"? ", b"<<: *a",
    b"\x00", b"\x1b[2J", b"\xff", b"\xef\xbb\xbf", b"\\e", b"\\x07", b'"\\ud800"', b"~",
]  # fmt: skip
VALUES = [
    "0", "-1", "1", "2", "13", "52", "999", "99999999999999999999", "1.5", "-0.0", "1e9", "nan",
    ".inf", "true", "false", "null", "~", "''", '""', "[]", "{}", "[[]]", "x", "h1", "t1",
    "f1", "s", "w", "centre", "hours", "tableau", "stock", "won", "lost", "playing", "auto",
    "move", "turn", "pick", "draw", "fill", "clock", "big-ben", "./missing.yaml", "/dev/zero",
    "AC", "KS", "10H", "T♦", "'\\u001b'", "x" * 300, "[a, b]", "{a: 1}", "&x 1", "*x",
]  # fmt: skip
KEYS = [
    "id", "name", "extends", "decks", "remove", "piles", "deal", "actions", "conditions",
    "flow", "score", "display", "accepts", "build", "suit", "rank", "wrap", "empty", "role",
    "names", "bases", "effect", "from", "to", "source", "target", "passes", "states",
    "initial", "transitions", "trigger", "dest", "outcome", "autoplay", "unless", "count",
    "face", "bogus", "x" * 100,
]  # fmt: skip


@st.composite
def mutated_rule_file(draw: st.DrawFn) -> bytes:
    """A shipped rule file after a few random edits (bytes, lines, keys and values)."""
    data = bytearray(SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "value",
                                     "key", "line"]))  # fmt: skip
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            junk = draw(st.one_of(st.sampled_from(JUNK), st.binary(max_size=12)))
            data[at:at] = junk
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == "truncate":
            del data[at:]
        else:
            lines = bytes(data).split(b"\n")
            n = draw(st.integers(0, max(0, len(lines) - 1)))
            line = lines[n]
            indent = line[: len(line) - len(line.lstrip())]
            value = draw(st.sampled_from(VALUES)).encode()
            if kind == "value" and b": " in line:
                lines[n] = line.split(b": ", 1)[0] + b": " + value
            elif kind == "key":
                key = draw(st.sampled_from(KEYS)).encode()
                lines.insert(n, indent + key + b": " + value)
            else:  # a line repeated or removed
                if draw(st.booleans()):
                    lines.insert(n, line)
                else:
                    del lines[n]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


@FUZZ
@given(text=mutated_rule_file(), seed=st.integers(0, 2**63 - 1))
def test_any_rule_file_gets_an_answer(text: bytes, seed: int) -> None:
    path = WORK / "fuzzed.yaml"
    path.write_bytes(text)
    checked = run("validate", str(path))
    played = run("play", str(path), "--seed", str(seed), "--json")
    event(f"validate: exit {checked.code}, play: exit {played.code}")
    if played.code == 0:
        assert checked.code == 0, "a file that plays validates"
        json.loads(played.out.splitlines()[0])
    run("graph", str(path))


# --- decks --------------------------------------------------------------------------------

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@st.composite
def deck_text(draw: st.DrawFn) -> tuple[str, str, bool]:
    """A game, the text of a --deck for it, and whether it names exactly the game's cards."""
    game, copies = draw(st.sampled_from([("clock", 1), ("big-ben", 2)]))
    cards = CANONICAL * copies
    draw(st.randoms(use_true_random=False)).shuffle(cards)
    exact = True
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["drop", "double", "junk", "spell", "swap"]))
        at = draw(st.integers(0, len(cards) - 1))
        if kind == "drop":
            del cards[at]
            exact = False
        elif kind == "double":
            cards.insert(at, cards[at])
            exact = False
        elif kind == "junk":
            cards.insert(at, draw(st.text(min_size=1, max_size=30)))
            exact = False
        elif kind == "spell" and cards[at] in CANONICAL:  # the same card written another way
            card = cards[at]
            rank, suit = card[:-1], card[-1]
            spellings = [card.lower(), rank.replace("10", "T") + suit, rank + SUITS[suit]]
            cards[at] = draw(st.sampled_from(spellings))
        elif kind == "swap":
            j = draw(st.integers(0, len(cards) - 1))
            cards[at], cards[j] = cards[j], cards[at]
    separators = draw(st.lists(st.sampled_from([" ", ",", ", ", "\n", "\t", "  ", " ,"]),
                               min_size=1, max_size=3))  # fmt: skip
    text = "".join(card + separators[i % len(separators)] for i, card in enumerate(cards))
    if draw(st.booleans()):
        text = "\ufeff" + text
    return game, text, exact and all(c.strip() and "," not in c for c in cards)


@FUZZ
@given(deck=deck_text(), from_file=st.booleans())
def test_any_deck_gets_an_answer(deck: tuple[str, str, bool], from_file: bool) -> None:
    game, text, exact = deck
    if from_file:
        path = WORK / "deck.txt"
        path.write_text(text, encoding="utf-8")
        text = f"@{path}"
    result = run("play", game, "--deck", text, "--json", codes=(0, 1))
    if exact:
        assert result.code == 0, result.err
    if result.code == 0:
        assert json.loads(result.out.splitlines()[0])["seed"] is None
    else:
        assert len(result.err.splitlines()) == 1 and result.out == ""


# --- commands in play ---------------------------------------------------------------------

WORDS = [
    "t1", "t5", "t12", "t13", "f1", "f12", "s", "w", "h1", "h12", "centre", "c1", "T1", "F3",
    "move", "draw", "d", "fill", "g", "pick", "turn", "undo", "u", "redo", "hint", "h",
    "moves", "m", "board", "b", "help", "?", "rules", "save", "restart", "new", "quit", "q",
    "0", "-1", "3", "999", "#", "\x1b[31m", "\x00", "\x7f", "\u202e", "x" * 40, "t1,f1",
]  # fmt: skip


@st.composite
def command_line(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=4))
    return " ".join(words).replace("\n", " ").replace("\r", " ")


def legal_playout(game_id: str, seed: int, picks: list[int]) -> list[str]:
    """The text of a random legal game from a deal, as the player would type it."""
    game = GAME_OF[game_id]
    session = Session(game, game.deal_seed(seed))
    session.autoplay()
    texts: list[str] = []
    for pick in picks:
        actions = session.legal_actions()
        if not actions or session.is_over():
            break
        action = actions[pick % len(actions)]
        texts.append(game.action_text(action, session.position))
        session.push(action)
        session.autoplay()
    return texts


INFORMATION = {"moves", "m", "hint", "h", "board", "b", "help", "?"}


@FUZZ
@given(
    game=st.sampled_from(["big-ben", "clock-peek", "grandfathers-clock"]),
    seed=st.integers(0, 10**6),
    picks=st.lists(st.integers(0, 10**6), max_size=30),
    noise=st.lists(st.tuples(st.integers(0, 30), command_line()), max_size=30),
)
def test_a_refused_command_changes_nothing(
    game: str, seed: int, picks: list[int], noise: list[tuple[int, str]]
) -> None:
    # A legal game with random commands in between (after which its moves may be refused).
    lines = legal_playout(game, seed, picks)
    for at, line in sorted(noise, key=lambda item: -item[0]):
        lines.insert(min(at, len(lines)), line)
    stdin = "".join(line + "\n" for line in lines)
    result = run("play", game, "--seed", str(seed), "--json", stdin=stdin, codes=(0,))
    records = result.json_lines()
    if "command" not in records[0]:  # the engine played the whole deal by itself
        assert len(records) == 1 and records[0]["result"] in ("won", "lost")
        return
    assert records[0]["command"] is None
    for before, after in itertools.pairwise(records):
        same = (after["piles"], after["phase"], after["face_down"]) == (
            before["piles"], before["phase"], before["face_down"])  # fmt: skip
        if not after["ok"]:
            assert same, f"refused {after['command']!r} changed the position"
            assert after["error"] and "\n" not in after["error"]
        elif after["command"].strip().lower() in INFORMATION:
            assert same, f"{after['command']!r} changed the position"


# --- options ------------------------------------------------------------------------------

GAME_NAMES = ["clock", "big-ben", "bigben", "peek", "clock-peek", "grandfathers-clock", "clok",
              str(GAMES / "clock.yaml"), "./missing.yaml", "/dev/zero", "/", "x" * 300]  # fmt: skip
OPTIONS: dict[str, list[str]] = {
    "list": ["--json"],
    "play": ["--seed", "--deck", "--trace", "--json", "--resume", "--no-auto", "--ascii",
             "--no-record"],
    "stats": ["--deals", "--seed", "--jobs", "--json", "--solve", "--results"],
    "solve": ["--seed", "--deck", "--json"],
    "validate": ["--strict", "--json"],
    "schema": ["--format"],
    "graph": ["--format"],
    "rules": [],
    "replay": ["--json", "--ascii"],
    "history": ["--json"],
    "new": ["--output", "-o", "--force"],
}  # fmt: skip
TAKES_VALUE = {"--seed", "--deck", "--deals", "--jobs", "--format", "--output", "-o",
               "--results"}  # fmt: skip
FILES = ["/dev/zero", "/", "./missing.json", "x" * 300, str(GAMES / "clock.yaml")]
ARGUMENTS = [
    "0", "1", "2", "-1", "-5", str(2**63 - 1), str(2**63), "1e3", "0x10", "ms:3", "", " ",
    "mermaid", "dot", "json", "markdown", "@", "@/dev/zero", "@./missing", "AC 2C", "My Game",
    "new.yaml", "sub/new.yaml", "/dev/null", "\x1b[2J", "\x00", "--", "-", "--help", "x" * 300,
]  # fmt: skip


@st.composite
def command_line_arguments(draw: st.DrawFn) -> list[str]:
    """A subcommand with its arguments and options, values often wrong, sometimes junk."""
    junk = st.one_of(st.sampled_from(ARGUMENTS), st.text(max_size=10))
    command = draw(st.sampled_from([*OPTIONS, "frobnicate", "--help", ""]))
    argv = [command] if command else []
    if command in ("play", "stats", "graph", "rules", "solve", "history"):
        argv.append(draw(st.one_of(st.sampled_from(GAME_NAMES), junk)))
    elif command == "replay":
        argv.append(draw(st.one_of(st.sampled_from(FILES), junk)))
    elif command == "validate":
        argv += draw(st.lists(st.sampled_from(GAME_NAMES[7:]), min_size=1, max_size=3))
    elif command == "new":
        argv.append(draw(st.one_of(st.sampled_from(["My Game", "x", "!!", "x" * 300]), junk)))
    for _ in range(draw(st.integers(0, 4))):
        option = draw(st.sampled_from(OPTIONS.get(command) or ["--json"]))
        argv.append(option)
        if option in TAKES_VALUE:
            if command == "stats" and option == "--deals":
                argv.append(draw(st.sampled_from(["-5", "0", "1", "2", str(2**63), "x"])))
            else:
                argv.append(draw(junk))
    if draw(st.integers(0, 9)) == 0:  # a stray token somewhere
        argv.insert(draw(st.integers(0, len(argv))), draw(junk))
    return argv


def few_deals(argv: list[str]) -> list[str]:
    """At most 2 deals for 'stats', wherever the count ended up."""
    out = []
    for token in argv:
        try:
            out.append("2" if int(token) > 2 else token)
        except ValueError:
            out.append(token)
    return out


@FUZZ
@given(argv=command_line_arguments())
def test_any_command_line_gets_an_answer(argv: list[str]) -> None:
    if argv[:1] == ["stats"]:
        argv = few_deals(argv)
    if argv[:1] in (["solve"], ["stats"]):  # the solver's default budget is 10 s a deal
        argv += ["--budget-nodes", "2000"]
    result = run(*argv)
    event(f"{argv[0] if argv else ''}: exit {result.code}")
