"""The text of docs/regions.md, made from the region cards themselves so the doc cannot drift."""

from ..card import card_text
from . import all_regions

HEADER = """# The regional rulesets

Made from the region cards in `rulesets/regions/` (`python -m rulesets.regions.document > docs/regions.md`);
a test keeps this file equal to the cards. Each value is followed by its provenance (`←`): a quote of
RULES.md (the digest of the seed texts), an inference RULES.md marks [analyst], a finding of RESEARCH.md,
or `default:` with the reason we chose it where the texts are silent. Every open question (marked
`(open question)` with the section of RULES.md that lists it) is a house
option with its default marked `*`; options are chosen on the front panel or with `--option KEY=VALUE`.
"""


def regions_markdown() -> str:
    parts = [HEADER]
    for region in all_regions():
        parts.append(f"## {region.name} `{region.id}`\n\n```text\n{card_text(region.resolve())}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    print(regions_markdown(), end="")
