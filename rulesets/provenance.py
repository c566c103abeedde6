"""Where every value of a region comes from.

A region's rule card must be checkable against the texts line by line, so each value carries a
`Source`: a quote from RULES.md (the digest of the seed texts), a finding of RESEARCH.md, or a
stated default with its reason.  A value is either `Given` (one value, one source), a `Choice`
made by a house option, `Derived` from several options by a small function, or `Amended` by one
more option.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Generic, Mapping, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Source:
    """kind: "text" (a statement of the texts, via RULES.md), "analyst" (RULES.md's stated
    inference, e.g. arithmetic), "research" (RESEARCH.md) or "default" (our choice, with reason)."""

    kind: str               # "text", "analyst", "research", "default" or "open"
    ref: str
    quote: str = ""
    chosen: str = ""        # the house options that chose this value, e.g. "reserve_reading=R-B"

    def __str__(self) -> str:
        if self.kind == "default":
            text = f"default: {self.quote}"
        else:
            text = {"analyst": f"{self.ref} [analyst]", "open": f"{self.ref} (open question)"}.get(self.kind, self.ref)
            if self.quote:
                text += f" 「{self.quote}」" if self.kind == "text" else f" — {self.quote}"
        return f"{text} [option {self.chosen}]" if self.chosen else text


def text(section: str, quote: str = "") -> Source:
    """A statement of the source texts, quoted as RULES.md digests it."""
    return Source("text", f"RULES.md {section}", quote)


def analyst(section: str, note: str) -> Source:
    """An inference RULES.md marks [analyst] (arithmetic, physical reading)."""
    return Source("analyst", f"RULES.md {section}", note)


def open_question(section: str, reason: str) -> Source:
    """A question the texts leave open (RULES.md lists it); `reason` says why the default was chosen."""
    return Source("open", f"RULES.md {section}", reason)


def research(section: str, note: str = "") -> Source:
    return Source("research", f"RESEARCH.md {section}", note)


def default(reason: str) -> Source:
    """Our choice where the texts are silent; the reason says why."""
    return Source("default", "default", reason)


@dataclass(frozen=True)
class Given(Generic[T]):
    value: T
    source: Source

    def resolve(self, options: Mapping[str, str]) -> tuple[T, Source]:
        return self.value, self.source


@dataclass(frozen=True)
class Choice(Generic[T]):
    """A value chosen by one house option: each option value maps to a sourced value."""

    option: str
    values: tuple[tuple[str, Given[T]], ...]

    def resolve(self, options: Mapping[str, str]) -> tuple[T, Source]:
        chosen = dict(self.values)[options[self.option]]
        return chosen.value, replace(chosen.source, chosen=f"{self.option}={options[self.option]}")


@dataclass(frozen=True)
class Derived(Generic[T]):
    """A value built from several house options by `build`; `source` says what the options decide."""

    build: Callable[[Mapping[str, str]], T]
    source: Source
    options: tuple[str, ...]

    def resolve(self, options: Mapping[str, str]) -> tuple[T, Source]:
        chosen = ", ".join(f"{key}={options[key]}" for key in self.options)
        return self.build(options), replace(self.source, chosen=chosen)


@dataclass(frozen=True)
class Amended(Generic[T]):
    """A sourced value that one more house option changes: `amend(value, option value)`.

    The base keeps its own source (a quote stays a quote); the option is named beside its choices.
    """

    base: "Given[T] | Choice[T] | Derived[T]"
    option: str
    amend: Callable[[T, str], T]

    def resolve(self, options: Mapping[str, str]) -> tuple[T, Source]:
        value, source = self.base.resolve(options)
        chosen = ", ".join(part for part in (source.chosen, f"{self.option}={options[self.option]}") if part)
        return self.amend(value, options[self.option]), replace(source, chosen=chosen)


Sourced = Given[Any] | Choice[Any] | Derived[Any] | Amended[Any]


def choice(option: str, values: Mapping[str, Given[T]]) -> Choice[T]:
    """A value chosen by the house option `option`: {option value: sourced value}."""
    return Choice(option, tuple(values.items()))
