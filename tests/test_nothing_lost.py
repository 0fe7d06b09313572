"""Nothing lost (issue 35): a save is known by the file it is, however its path was written;
lock files are never followed through links and are kept or removed with their save."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from yaml_solitaire.engine.game.load import load_game
from yaml_solitaire.engine.play.player import PlayOptions
from yaml_solitaire.engine.play.progress import Deal
from yaml_solitaire.engine.play.records import deal_order, read_record
from yaml_solitaire.engine.play.saves import SaveStore
from yaml_solitaire.engine.ui.table.app import make_app


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "yaml-solitaire"


def saved_klondike() -> Path:
    """A Klondike game with two moves, left and saved; its save."""
    begun = run_cli("play", "klondike", "--seed", "3", "--line", stdin="d\nd\nq\n")
    assert begun.code == 0 and "Saved as game" in begun.out, begun.err
    saves = SaveStore().all()
    assert len(saves) == 1
    return saves[0].path


# Each way of writing the save's path: (what to write, the folder to be in), made from the save.
def absolute(save: Path, tmp: Path) -> tuple[str, Path]:
    return str(save), tmp


def relative(save: Path, tmp: Path) -> tuple[str, Path]:
    return os.path.relpath(save, tmp), tmp


def bare_name(save: Path, tmp: Path) -> tuple[str, Path]:
    return save.name, save.parent


def dot_dot(save: Path, tmp: Path) -> tuple[str, Path]:
    return f"../{save.parent.name}/./{save.name}", save.parent


def linked(save: Path, tmp: Path) -> tuple[str, Path]:
    link = tmp / "my-game.json"
    link.symlink_to(save)
    return "my-game.json", tmp


def linked_folder(save: Path, tmp: Path) -> tuple[str, Path]:
    folder = tmp / "saves-link"
    folder.symlink_to(save.parent, target_is_directory=True)
    return str(folder / save.name), tmp


WAYS: list[Callable[[Path, Path], tuple[str, Path]]] = [
    absolute,
    relative,
    bare_name,
    dot_dot,
    linked,
    linked_folder,
]


def assert_still_saved(save: Path, moves: int) -> None:
    assert save.is_file(), "the save was deleted"
    listed = run_cli("saves", "--json")
    assert len(listed.json_lines()) == 1, listed.out
    assert listed.json_lines()[0]["moves"] == moves
    assert read_record(save).result is None


def resumed_by(
    way: Callable[[Path, Path], tuple[str, Path]], tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, str]:
    """A saved game, and its path written ``way`` from the folder now current."""
    save = saved_klondike()
    written, folder = way(save, tmp)
    monkeypatch.chdir(folder)
    return save, written


@pytest.mark.parametrize("way", WAYS, ids=lambda w: w.__name__)
def test_resuming_in_line_mode_keeps_the_save(
    way: Callable[[Path, Path], tuple[str, Path]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    save, written = resumed_by(way, tmp_path, monkeypatch)
    left = run_cli("play", "--resume", written, "--line", stdin="q\n")
    assert left.code == 0 and "Saved as game" in left.out, left.err
    assert_still_saved(save, 2)
    again = run_cli("play", "--resume", written, "--line", stdin="d\nq\n")
    assert again.code == 0 and "Saved as game" in again.out, again.err
    assert_still_saved(save, 3)
    history = run_cli("history", "klondike").out
    assert "1 played: 0 won, 0 lost, 1 unfinished" in history, history


def table_options() -> PlayOptions:
    return PlayOptions(symbols=True, interactive=True)


@pytest.mark.parametrize("way", WAYS, ids=lambda w: w.__name__)
def test_resuming_at_the_table_keeps_the_save(
    way: Callable[[Path, Path], tuple[str, Path]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    save, written = resumed_by(way, tmp_path, monkeypatch)
    game = load_game("klondike")
    record = read_record(Path(written))
    deal = Deal(record.seed, deal_order(record, game))
    app = make_app(game, table_options(), deal, "klondike", record, Path(written), ticking=False)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("u")  # a change: the game is saved again, with one move
            await pilot.press("q")
            await pilot.press("y")
            await pilot.pause()

    asyncio.run(main())
    assert not app.is_running
    assert any("Saved" in text for text in app.farewell), app.farewell
    assert_still_saved(save, 1)


def test_a_game_abandoned_after_resuming_by_a_relative_path_removes_its_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = saved_klondike()
    monkeypatch.chdir(save.parent)
    ended = run_cli("play", "--resume", save.name, "--line", stdin="new\nq\n")
    assert ended.code == 0, ended.err
    assert not save.exists()
    assert run_cli("saves", "--json").out == ""


def lock_of(save: Path) -> Path:
    return save.with_suffix(".lock")


def test_a_lock_file_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    save = saved_klondike()
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    lock = lock_of(save)
    lock.unlink(missing_ok=True)
    lock.symlink_to(victim)
    result = run_cli("play", "--resume", save.stem[:8], "--line", stdin="q\n")
    assert victim.read_text() == "keep me\n"
    assert result.code == 1, result.out
    assert "lock" in result.err and "not a regular file" in result.err, result.err
    assert save.is_file()


def test_a_lock_file_that_is_a_folder_or_fifo_is_refused(tmp_path: Path) -> None:
    save = saved_klondike()
    lock = lock_of(save)
    lock.unlink(missing_ok=True)
    os.mkfifo(lock)
    result = run_cli("play", "--resume", save.stem[:8], "--line", stdin="q\n")
    assert result.code == 1 and "not a regular file" in result.err, result.err
    assert save.is_file()


WIN = (ROOT / "tests" / "data" / "grandfathers_clock_seed_1_win.txt").read_text().split("\n")
WIN_MOVES = [m for m in WIN if m.strip()]


def test_the_lock_file_stays_with_a_kept_save_and_goes_with_a_won_game() -> None:
    begun = run_cli(
        "play", "grandfathers-clock", "--seed", "1", "--no-auto", "--line",
        stdin="".join(f"{m}\n" for m in [*WIN_MOVES[:3], "q"]),
    )  # fmt: skip
    assert begun.code == 0 and "Saved as game" in begun.out, begun.err
    (save,) = [s.path for s in SaveStore().all()]
    assert lock_of(save).is_file(), (
        "a kept save keeps its lock file (another program may wait on it)"
    )
    won = run_cli(
        "play", "--resume", save.stem[:8], "--no-auto", "--json",
        stdin="".join(f"{m}\n" for m in WIN_MOVES[3:]),
    )  # fmt: skip
    assert won.code == 0 and won.json_lines()[-1]["result"] == "won", won.err
    assert not save.exists() and not lock_of(save).exists(), "a won game leaves no save, no lock"


def test_an_abandoned_game_leaves_no_lock_file() -> None:
    save = saved_klondike()
    left = run_cli("play", "--resume", save.stem[:8], "--line", stdin="new\nq\n")
    assert left.code == 0, left.err
    assert not save.exists() and not lock_of(save).exists()
