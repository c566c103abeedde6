"""The installed package's version, for `--version`, the web's server info and the service page."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def package_version(missing: str = "unknown") -> str:
    """The version of the installed `mahjong-table`; `missing` for a source tree never installed."""
    try:
        return version("mahjong-table")
    except PackageNotFoundError:
        return missing
