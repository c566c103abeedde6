"""The front-panel menu: choose the ruleset (all 31) and its house options; remembered.

The menu is driven by the front panel's keys: 菜单 opens it, ◀ ▶ move (on the ruleset line they
change the ruleset, on the option lines they move the cursor), 确认 selects or cycles an option's
value, 升降 saves, 返回 leaves.  The display's buttons drive it too (protocol.md §7.3): 菜单 on
the main page opens it; on the menu page ◀ ▶ change the ruleset wherever the cursor is, an option
line's button cycles that option (the cursor moves to it), 翻页 turns to the next page of options
(the cursor to its first line), 确定 saves as 升降 does, 返回 leaves.  Browsing the rulesets
forgets no choice: one shown again shows the options edited for it since the menu opened (the one in
play, the options in play; another, its defaults).  It is pure state: it returns what the display
should show, and the chosen settings are saved by `Settings`.

Everything it shows is Chinese from the rule cards (`HouseOption.label_zh`, `value_label`) and
GB2312, the display's encoding: the cursor is "→", not "▶" (which GB2312 lacks).  The menu page has
six option lines; a ruleset with more (长春 has 13) is shown a page at a time, the page following
the cursor, and the title says which page of how many ("房规 2/3").
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from drivers.display_layout import LAYOUT
from drivers.table_ui import Key
from rulesets.definition import options_text
from rulesets.regions import REGION_IDS, get_region

from .records.ledger import check_ledger_file
from .records.store import KEPT, LOCKED, WRITE_ERRORS, Store, disk_trouble

log = logging.getLogger("firmware.panel")

DEFAULT_RULESET = "changchun"
BUSY_TIMEOUT_S = 0.5            # another program's write on table.db waited for this long, then the save is refused
CURSOR = "→"                   # in GB2312 (▶ is not: the display would show "?")
NO_CURSOR = "　"               # an ideographic space, as wide as the cursor
OPTION_LINES = sum(1 for c in LAYOUT.page("menu").components if c.name.startswith("t_opt"))
MENU_LINE_BYTES = 36           # an option line's room on the display (protocol.md §7.3), in GB2312 bytes
OPTION_BUTTONS = {f"b_opt{slot}": slot for slot in range(OPTION_LINES)}     # a line's button → its slot
BUTTON_KEYS = {"b_ok": Key.LIFT, "b_back": Key.BACK}      # 确定 saves as 升降 does; 返回 leaves
PAGE_BUTTON = "b_page"         # 翻页: the screen's only way to options past the first page (its ◀ ▶ change the ruleset)


class Settings:
    """The front panel's choices in SQLite, so a restart keeps the table's rules.

    The file is the ledger's, which people open by hand (the sqlite3 shell): a saved value this
    version cannot play is said in one line, naming it, and the rules fall back to the defaults;
    it never stops the table from starting."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        check_ledger_file(path)             # they share the ledger's file: another program's is left as it was
        # saved on the table store's one thread during play (FrontPanel.write_with); waits a moment, not
        # sqlite3's 5 s, for another program's write (a person's sqlite3 shell) before saying so
        self.path = str(path)
        self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self._db.commit()

    def get(self, key: str, default: str | None = None) -> str | None:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def put(self, key: str, value: str) -> None:
        with self._db:
            self._put(key, value)

    def _put(self, key: str, value: str) -> None:
        self._db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                         (key, value))

    def ruleset_choice(self) -> tuple[str, dict[str, str]]:
        """The saved ruleset and options; a saved value this version cannot play is warned of (named,
        with what is played instead) and left out: the default ruleset, or that option's default."""
        region_id = self.get("ruleset")
        if region_id is None:               # never chosen
            return DEFAULT_RULESET, {}
        if region_id not in REGION_IDS:     # (a person's edit, or a ruleset taken out since)
            log.warning("the rules saved on the front panel name ruleset %r, which this version does not know: "
                        "%s (the default) is played; choose the rules on the front panel (菜单) to save them again",
                        region_id, DEFAULT_RULESET)
            return DEFAULT_RULESET, {}
        saved = self.get(f"options:{region_id}")
        if saved is None:
            return region_id, {}
        options = _saved_options(saved)
        if options is None:                 # not JSON, or not a JSON object (edited by hand)
            log.warning("the house options saved on the front panel for %s (options:%s = %s) are not a JSON object "
                        "of option values: %s is played with its default options; choose the rules on the front "
                        "panel (菜单) to save them again", region_id, region_id, _shown(saved), region_id)
            return region_id, {}
        return region_id, _playable_options(region_id, options)

    def save_choice(self, region_id: str, options: dict[str, str]) -> None:
        """The ruleset and its options, in one transaction: a power cut (or a refused write) leaves the
        choice saved before, never the new ruleset with other options than those chosen."""
        get_region(region_id).check_options(options)
        with self._db:
            self._put("ruleset", region_id)
            self._put(f"options:{region_id}", json.dumps(options, sort_keys=True))

    def close(self) -> None:
        self._db.close()


def _saved_options(text: str) -> dict[str, Any] | None:
    """A saved options value read, or None when it is not a JSON object (`kong_value=5`, `null`, `[]`, `5`)."""
    try:
        options = json.loads(text)
    except ValueError:
        return None
    return options if isinstance(options, dict) else None


def _playable_options(region_id: str, options: dict[str, Any]) -> dict[str, str]:
    """The saved options this version plays; the others are named in a warning.  An option it does
    not know was saved by another version of the rules (an option taken out since, or added in a
    newer one): the rest are kept (one unknown key dropped them all: a downgrade lost every house
    option the owner had chosen, without a word).  A value the option does not allow is a person's
    edit, or a value taken out: its default is played."""
    region = get_region(region_id)
    playable, rest = region.known_options(options)
    by_key = {option.key: option for option in region.options}
    unknown = {key: value for key, value in rest.items() if key not in by_key}
    refused = {key: value for key, value in rest.items() if key in by_key}
    if unknown:
        log.warning("the saved choice of %s holds options this version does not know (%s): played without "
                    "them", region_id, ", ".join(f"{key}={_shown(value)}" for key, value in sorted(unknown.items())))
    for key, value in sorted(refused.items()):
        option = by_key[key]
        log.warning("the saved choice of %s sets %s to %s, which is not one of its values (%s): its default, %s, "
                    "is played; choose the rules on the front panel (菜单) to save them again", region_id, key,
                    _shown(value), ", ".join(option.values), option.default)
    return playable


def _what_to_do(error: BaseException, path: str) -> str:
    """What a person does about a save the disk refused: by what refused it (`disk_trouble`, as E24
    tells it), a full card told apart from a failing one."""
    if disk_trouble(error) == LOCKED:
        return (f"another program holds {path} (a sqlite3 shell left open?): close it, then choose the rules on "
                "the front panel again")
    code = getattr(error, "sqlite_errorcode", -1) & 0xFF
    if code == sqlite3.SQLITE_FULL or getattr(error, "errno", None) == errno.ENOSPC or "full" in str(error):
        return "the storage card is full: free space on it or replace it, then choose the rules on the front panel again"
    return ("the storage card may be failing or read-only: replace it, then choose the rules on the front panel "
            "again")


def _shown(value: Any) -> str:
    """A saved value as the owner typed it: a text as it is, anything else as JSON (`2`, `null`)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


Choice = tuple[str, dict[str, str]]                      # a ruleset's id and its house options


@dataclass
class Menu:
    """Menu state: which ruleset is shown, which line is selected, and the options being edited."""

    region_index: int = 0
    line: int = 0                      # 0 = the ruleset line, 1.. = option lines
    options: dict[str, str] = field(default_factory=dict)
    open: bool = False
    # the options edited for each ruleset browsed past, found again when it is shown again (◀ ▶ wiped
    # them: back at the rules in play, 升降 saved their defaults over the house options in play)
    kept: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def starting_at(cls, region_id: str, options: dict[str, str], pending: Choice | None = None) -> "Menu":
        """The menu on the rules in play, or on a choice saved and not yet played (`pending`: reopened,
        the menu showed the rules in play, and 升降 then undid the choice without a word: a probe);
        browsing back to the ruleset in play shows its options in play."""
        if pending is None or pending[0] == region_id:
            shown = pending or (region_id, options)
            return cls(REGION_IDS.index(region_id), 0, dict(shown[1]))
        return cls(REGION_IDS.index(pending[0]), 0, dict(pending[1]), kept={region_id: dict(options)})

    @property
    def region_id(self) -> str:
        return REGION_IDS[self.region_index]

    def press(self, key: Key) -> str | None:
        """Apply one key; returns "save" when the choice is confirmed, "close" when left."""
        region = get_region(self.region_id)
        lines = 1 + len(region.options)
        if key == Key.MENU:
            self.open = True
        elif key == Key.BACK:
            self.open = False
            return "close"
        elif key in (Key.LEFT, Key.RIGHT) and self.line == 0:
            self._turn_region(1 if key == Key.RIGHT else -1)
        elif key in (Key.LEFT, Key.RIGHT):
            self.line = (self.line + (1 if key == Key.RIGHT else -1)) % lines
        elif key == Key.CONFIRM and self.line == 0:
            if lines > 1:
                self.line = 1
            else:
                self.open = False
                return "save"
        elif key == Key.CONFIRM:
            option = region.options[self.line - 1]
            current = self.options.get(option.key, option.default)
            values = option.values
            self.options[option.key] = values[(values.index(current) + 1) % len(values)]
        elif key == Key.LIFT:
            self.open = False
            return "save"
        return None

    def _turn_region(self, step: int) -> None:
        """Show the ruleset `step` away, with the options edited for it before in this menu (its
        defaults if none); this one's edits are kept for when it is shown again."""
        self.kept[self.region_id] = self.options
        self.region_index = (self.region_index + step) % len(REGION_IDS)
        self.options = self.kept.pop(self.region_id, {})

    def touch(self, button: str) -> str | None:
        """Apply one touched button of the menu page (as `press`); a button it lacks, or an option
        line left blank on this page, does nothing."""
        if button in ("b_prev", "b_next"):
            self.line = 0
            return self.press(Key.LEFT if button == "b_prev" else Key.RIGHT)
        if button == PAGE_BUTTON:
            self._turn_page()
            return None
        if button in OPTION_BUTTONS:
            index = self._page() * OPTION_LINES + OPTION_BUTTONS[button]
            if index >= len(get_region(self.region_id).options):
                return None
            self.line = index + 1
            return self.press(Key.CONFIRM)
        key = BUTTON_KEYS.get(button)
        return self.press(key) if key is not None else None

    def _turn_page(self) -> None:
        """翻页: the cursor to the first line of the next page of options, round from the last to the
        first (a probe: by touch alone 长春's options past the sixth could not be reached).  Options
        that fit one page have none to turn to."""
        pages = self._pages()
        if pages > 1:
            self.line = (self._page() + 1) % pages * OPTION_LINES + 1

    def _page(self) -> int:
        """The page of option lines showing: the one the cursor is on (the first on the ruleset line)."""
        return (self.line - 1) // OPTION_LINES if self.line else 0

    def _pages(self) -> int:
        return max(1, -(-len(get_region(self.region_id).options) // OPTION_LINES))

    def view(self) -> dict[str, str]:
        """Text for every component of the display's menu page (lines past the options are blank)."""
        region = get_region(self.region_id)
        options = region.options
        pages = self._pages()
        page = self._page()
        position = f"{self.region_index + 1}/{len(REGION_IDS)}"
        view = {"t_title": "规则选择" if self.line == 0 else "房规" + (f" {page + 1}/{pages}" if pages > 1 else ""),
                "t_ruleset": f"{CURSOR if self.line == 0 else NO_CURSOR}{region.name} {position}"}
        for slot in range(OPTION_LINES):
            index = page * OPTION_LINES + slot
            if index >= len(options):
                view[f"t_opt{slot}"] = ""
                continue
            option = options[index]
            marker = CURSOR if self.line == index + 1 else NO_CURSOR
            value = option.value_label(self.options.get(option.key, option.default))
            view[f"t_opt{slot}"] = f"{marker}{option.label_zh}：{value}"
        return view


class Emitter(Protocol):
    def emit(self, event: str, **fields: Any) -> dict[str, Any]: ...


MenuShower = Callable[[dict[str, str], bool], None]     # Presenter.menu(view, open)


class FrontPanel:
    """The front panel's menu keys: the menu state, its page on the display, the saved choice.

    A saved choice waits in `take_choice()` until the session can apply it (between hands).
    """

    def __init__(self, show: MenuShower, recorder: Emitter, settings: Settings | None = None,
                 on_changed: Callable[[Choice], None] = lambda choice: None,
                 on_not_saved: Callable[[Choice | None], None] = lambda choice: None) -> None:
        self._show = show
        self._recorder = recorder
        self._settings = settings
        self._on_changed = on_changed      # rules other than those in play saved: the person is told when they start
        # the disk refused the choice: the person is told a restart would lose it (and, for new rules,
        # when they start again: the refusal's note took the place of that one)
        self._on_not_saved = on_not_saved
        self._store: Store | None = None
        self._menu: Menu | None = None
        self._choice: tuple[str, dict[str, str]] | None = None

    def write_with(self, store: Store) -> None:
        """Save choices on the table's writer thread (the session's store), in order with its other
        writes: a slow card's fsync, or another program holding the file, never holds the loop (a
        probe: a save while a sqlite3 shell held table.db held the loop 5 s, then stopped the table)."""
        self._store = store

    @property
    def menu_open(self) -> bool:
        return self._menu is not None and self._menu.open

    def wants(self, key: Key) -> bool:
        """菜单 opens the menu; while it is open every front-panel key is the menu's."""
        return key == Key.MENU or self.menu_open

    @staticmethod
    def wants_touch(page: str, button: str) -> bool:
        """The display's 菜单 button, and every button of the menu page, are the menu's."""
        return (page, button) == ("main", "b_menu") or page == "menu"

    def press(self, key: Key, current: tuple[str, dict[str, str]]) -> None:
        """One key; `current` is the ruleset and options in play (where the menu opens)."""
        if self._menu is None:
            self._menu = Menu.starting_at(*current, pending=self._choice)
        self._after(self._menu.press(key), current)

    def touch(self, page: str, button: str, current: tuple[str, dict[str, str]]) -> None:
        """One touched button (`wants_touch`); `current` as for `press`.  A touch on a menu page the
        menu has already left (it crossed the page change on the wire, or the display kept the page
        across a restart) changes nothing and puts the main page back."""
        if page == "main":
            self.press(Key.MENU, current)
        elif self._menu is not None:
            self._after(self._menu.touch(button), current)
        else:
            self._show({}, False)

    def _after(self, outcome: str | None, current: tuple[str, dict[str, str]] | None = None) -> None:
        """Show the menu as it is now; save a confirmed choice (other rules than `current`, those in
        play, are said to start at the next hand); forget a menu that closed."""
        menu = self._menu
        assert menu is not None
        self._show(menu.view(), menu.open)
        choice = (menu.region_id, dict(menu.options))
        undone = self._choice is not None and self._choice != current      # a choice waiting, taken back
        if outcome == "save":
            self._choice = choice
            self._recorder.emit("ruleset_chosen", hand=0, ruleset=menu.region_id, options=dict(menu.options))
        if not menu.open:
            self._menu = None
        if outcome == "save":
            new = choice != current
            if new or undone:               # (the rules in play saved over a choice waiting: said too)
                self._on_changed(choice)
            self._save(choice, new)         # (after: a refusal's note is the last word on the display)

    def _save(self, choice: Choice, new: bool = True) -> None:
        """The choice saved for the next start; a disk that refuses it (full, failing, or the file held
        by another program) is said, and the choice is played all the same (`take_choice` holds it)."""
        settings = self._settings
        if settings is None:
            return
        if self._store is None:             # (no table store: a panel without a session) written here
            try:
                settings.save_choice(*choice)
            except WRITE_ERRORS as error:
                self._not_saved(choice, error, new)
            return
        loop = asyncio.get_running_loop()

        def write() -> object:
            try:
                settings.save_choice(*choice)
            except WRITE_ERRORS as error:
                try:
                    loop.call_soon_threadsafe(self._not_saved, choice, error, new)
                except RuntimeError:        # (the loop has closed: the log is all that is left to say it)
                    log.warning("%s", self._not_saved_line(choice, error))
                # KEPT leaves the store's word on the disk as it was: nothing retries this write, so it is no
                # E24 (which only a landed retry clears), and the recorder's lines keep following the journal
                return KEPT
            return None
        self._store.submit(write)

    def _not_saved(self, choice: Choice, error: BaseException, new: bool) -> None:
        """Recorded (and so logged) in one line with what to do, and noted on the display."""
        self._recorder.emit("warning", message=self._not_saved_line(choice, error))
        self._on_not_saved(choice if new else None)

    def _not_saved_line(self, choice: tuple[str, dict[str, str]], error: BaseException) -> str:
        region_id, options = choice
        chosen = " ".join((region_id, options_text(options))).strip()
        path = self._settings.path if self._settings is not None else "table.db"
        return (f"the rules chosen on the front panel ({chosen}) could not be saved ({error}); they are played as "
                f"chosen, but a restart would not know them: {_what_to_do(error, path)}")

    def leave(self) -> None:
        """Close an open menu as 返回 does (its unsaved changes forgotten)."""
        if self.menu_open:
            assert self._menu is not None
            self._after(self._menu.press(Key.BACK))

    def take_choice(self) -> tuple[str, dict[str, str]] | None:
        choice, self._choice = self._choice, None
        return choice
