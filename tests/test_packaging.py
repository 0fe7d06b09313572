"""The installed package holds every module: pyproject.toml lists every package folder."""

from __future__ import annotations

import tomllib

from conftest import ROOT


def test_every_package_folder_is_listed_for_installation() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {
        "yaml_solitaire." + ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("engine", "rules", "games")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert folders - listed == set(), "package folders a non-editable install would leave out"


def test_the_browser_tables_page_is_package_data() -> None:
    from fnmatch import fnmatch

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["yaml_solitaire.engine.ui.web"]
    web = ROOT / "engine" / "ui" / "web"
    files = [p.relative_to(web).as_posix() for p in (web / "static").rglob("*") if p.is_file()]
    assert files and [f for f in files if not any(fnmatch(f, p) for p in patterns)] == []
