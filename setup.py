"""Compiles the engine's hot modules with mypyc when it can; pure Python otherwise.

pyproject.toml holds the package's description; setuptools reads this file as well, for the
extension modules. The modules listed in ``engine/build.py`` (``HOT``) are compiled by mypyc
(which comes with mypy, a build requirement), each into an extension module beside its source
and the shared library that holds its code (``name__mypyc``). Pure Python is installed
instead, with the same results, when ``YAML_SOLITAIRE_PURE`` is set, when mypyc cannot be
imported or rejects the code, or when the C compiler is missing or fails.

The repository's root is the package ``yaml_solitaire`` (``[tool.setuptools.package-dir]``).
mypyc names modules after folders, so it reads the sources through a link named
``yaml_solitaire`` that points at the root (``build/mypyc-src/yaml_solitaire``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import traceback
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _build_module() -> Any:
    spec = importlib.util.spec_from_file_location("_solitaire_build", ROOT / "engine/build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _build_module()
RECORD = ROOT / "engine" / BUILD.RECORD


def say(text: str) -> None:
    print(f"yaml-solitaire: {text}", file=sys.stderr)


def remove_compiled_in_tree() -> None:
    """Remove extension modules an earlier editable compiled build left beside the sources:
    they would be imported in place of the sources."""
    from importlib.machinery import EXTENSION_SUFFIXES

    for module in BUILD.HOT:
        stem = BUILD.source_path(module, ROOT / "engine").with_suffix("")
        for suffix in EXTENSION_SUFFIXES:
            for name in (stem.name, stem.name + "__mypyc"):  # the module, its shared library
                stem.with_name(name + suffix).unlink(missing_ok=True)
    RECORD.unlink(missing_ok=True)


def compiled_extensions() -> list[Any]:
    """mypyc's extension modules for the hot modules (C sources written under build/), or []
    when pure Python is asked for or mypyc cannot compile them."""
    if os.environ.get(BUILD.PURE_VARIABLE, "") not in ("", "0"):
        say(f"{BUILD.PURE_VARIABLE} is set: pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        say(f"mypyc is not available ({error}): pure Python")
        return []
    link = ROOT / "build" / "mypyc-src" / "yaml_solitaire"
    paths = [str(BUILD.source_path(m, link / "engine")) for m in BUILD.HOT]
    saved = os.environ.get("MYPYPATH")
    try:
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(ROOT, target_is_directory=True)
        os.environ["MYPYPATH"] = str(link.parent)
        # C written by an earlier build can name what a changed module no longer exports, and
        # the compiler then fails (a silent fall back to pure Python): every build starts clean.
        shutil.rmtree(ROOT / "build" / "mypyc", ignore_errors=True)
        extensions: list[Any] = mypycify(
            ["--explicit-package-bases", *paths],
            separate=True,  # a shared library per module, beside it: right __file__ values
            target_dir=str(ROOT / "build" / "mypyc"),
            opt_level="3",
        )
    except (Exception, SystemExit) as error:  # mypyc reports its errors and exits
        say(f"mypyc could not compile the engine ({error!r}): pure Python")
        return []
    finally:
        if saved is None:
            os.environ.pop("MYPYPATH", None)
        else:
            os.environ["MYPYPATH"] = saved
        if link.is_symlink():
            link.unlink()
    sources = {m: BUILD.source_hash(BUILD.source_path(m, ROOT / "engine")) for m in BUILD.HOT}
    RECORD.write_text(json.dumps({"sources": sources}, indent=1) + "\n", encoding="utf-8")
    return extensions


class OptionalBuildExt(build_ext):
    """build_ext that installs pure Python when the C compiler is missing or fails: every
    compiled module or none (a module whose shared library failed would not import)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:  # one compiler per core: the modules are compiled apart
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:
            traceback.print_exc()
            say(f"the C compiler failed ({error}): pure Python")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            Path(self.build_lib, "yaml_solitaire", "engine", BUILD.RECORD).unlink(missing_ok=True)
            if self.inplace or getattr(self, "editable_mode", False):
                remove_compiled_in_tree()
            self.extensions = []


# setuptools runs this file for the package's metadata too (egg_info, dist_info): mypyc only
# runs for the commands that build.
BUILDING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
extensions: list[Any] = []
if BUILDING & set(sys.argv[1:]):
    # What an earlier build left in build/lib (other modules, the other build) must not reach
    # the wheel; mypyc's C sources and the compiled objects in build/temp are reused while
    # they are current.
    for old in ROOT.glob("build/lib*"):
        shutil.rmtree(old, ignore_errors=True)
    extensions = compiled_extensions()
    if not extensions and "editable_wheel" in sys.argv:
        remove_compiled_in_tree()
    shutil.rmtree(ROOT / "build" / "mypyc-src", ignore_errors=True)

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
