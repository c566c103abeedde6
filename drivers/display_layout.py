"""The pages and components of the table's display (protocol.md §7.3).

The display project (the .HMI file built in the Nextion editor) must use exactly these page
names, page ids, component names and component ids; every driven component has vscope=global,
so the controller can write `main.t_msg.txt=…` whichever page is showing.  Touch returns name
a component by (page id, component id); this table turns them back into names.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Mapping, Protocol, TypeVar


class _HasName(Protocol):
    @property
    def name(self) -> str: ...


Named = TypeVar("Named", bound=_HasName)


@dataclass(frozen=True)
class Component:
    name: str
    id: int
    kind: str          # 'text' (.txt), 'number' (.val) or 'button' (touch only, .txt label)


@dataclass(frozen=True)
class Page:
    name: str
    id: int
    components: tuple[Component, ...]

    def component(self, name: str) -> Component:
        found = self._by_name.get(name)
        if found is None:
            raise KeyError(f"page {self.name!r} has no component {name!r}")
        return found

    @cached_property
    def _by_name(self) -> Mapping[str, Component]:
        """The components by name (every text drawn looks one up)."""
        return _first_by_name(self.components)

    def component_by_id(self, component_id: int) -> Component | None:
        for component in self.components:
            if component.id == component_id:
                return component
        return None


def _first_by_name(items: tuple[Named, ...]) -> Mapping[str, Named]:
    """Each item by its name, the first of a name winning (as the scans these replace did)."""
    by_name: dict[str, Named] = {}
    for item in items:
        by_name.setdefault(item.name, item)
    return MappingProxyType(by_name)


def _page(name: str, page_id: int, *specs: tuple[str, str]) -> Page:
    return Page(name, page_id, tuple(Component(n, i + 1, k) for i, (n, k) in enumerate(specs)))


def _texts(prefix: str, count: int) -> list[tuple[str, str]]:
    return [(f"{prefix}{i}", "text") for i in range(count)]


@dataclass(frozen=True)
class DisplayLayout:
    pages: tuple[Page, ...]

    @property
    def by_name(self) -> Mapping[str, Page]:
        return MappingProxyType({page.name: page for page in self.pages})

    def page(self, name: str) -> Page:
        found = self._pages_by_name.get(name)
        if found is not None:
            return found
        raise KeyError(f"the display has no page {name!r}; pages: {', '.join(p.name for p in self.pages)}")

    @cached_property
    def _pages_by_name(self) -> Mapping[str, Page]:
        """The pages by name (every text drawn looks one up)."""
        return _first_by_name(self.pages)

    def page_by_id(self, page_id: int) -> Page | None:
        for page in self.pages:
            if page.id == page_id:
                return page
        return None


LAYOUT = DisplayLayout((
    # The public score page: what everyone at the table sees during play.
    _page("main", 0,
          ("t_ruleset", "text"),     # ruleset name, e.g. 长春麻将
          ("t_round", "text"),       # the hand, e.g. 第3局
          ("t_dealer", "text"),      # dealer seat / 连庄 count
          ("t_dice", "text"),        # the dice, e.g. 3+5 (rolls joined by " / ")
          ("n_left", "number"),      # stacks left in the live wall
          ("t_ind", "text"),         # public indicator tiles (财神 / 混 / 精 / 赖子皮 …)
          ("t_wild", "text"),        # the wild kinds they make
          *_texts("t_score", 4),     # the four scores, seat 0–3
          *_texts("t_name", 4),      # seat labels (东 南 西 北 / player names)
          ("t_msg", "text"),         # the message line
          ("b_menu", "button"),
          ("t_fault", "text")),      # a fault under the table while a hand goes on (its page waits for the hand's end)
    # Front-panel menu: ruleset and house options.
    _page("menu", 1,
          ("t_title", "text"),
          ("t_ruleset", "text"),
          ("b_prev", "button"),
          ("b_next", "button"),
          *_texts("t_opt", 6),
          *[(f"b_opt{i}", "button") for i in range(6)],
          ("b_ok", "button"),
          ("b_back", "button"),
          ("b_page", "button")),     # 翻页: the next page of options (added last: the ids before it stay)
    # A latched fault waiting for a person.
    _page("fault", 2,
          ("t_code", "text"),        # E01 …
          ("t_text", "text"),        # what happened
          ("t_hint", "text"),        # what to do
          ("b_ack", "button")),
    # Technician page: link statistics, versions.
    _page("service", 3,
          *_texts("t_line", 8),
          ("b_back", "button")),
))
