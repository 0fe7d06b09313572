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
