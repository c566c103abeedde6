"""The text of docs/regions.md, made from the region cards themselves so the doc cannot drift."""

from ..card import card_text
from ..revisions import reading, revision
from ..scoring.changchun_money import money_markdown
from . import all_regions

HEADER = """# The regional rulesets

Made from the region cards in `rulesets/regions/` (`python -m rulesets.regions.document > docs/regions.md`);
a test keeps this file equal to the cards. Each value is followed by its provenance (`←`): a quote of
RULES.md (the digest of the seed texts), an inference RULES.md marks [analyst], a finding of RESEARCH.md,
or `default:` with the reason we chose it where the texts are silent. Every open question (marked
`(open question)` with the section of RULES.md that lists it) is a house
option with its default marked `*`; options are chosen on the front panel or with `--option KEY=VALUE`.
Each region's reading of its rules is numbered (`rulesets/revisions.py`): every hand's recorder lines
carry the number, and a version that judges or pays a region's hands otherwise raises it.
"""


MONEY = """### 长春 money: every number of the texts beside what the program pays

RULES.md §1.8 gives four worked examples, payment list 1 and payment list 2 「具体化」; they do not
agree (§1.9 S1).  Each row is one number of one line; the columns are what the program pays for a hand
of that kind (built and judged by `rulesets/scoring/changchun_money.py`) under each combination of the
two money options, `seat_doubling` and `discard_payment` (defaults marked `*`); ✓ marks a number
reproduced.  The default is the reading that reproduces the most numbers.  A 平家's discard win is read
twice, as list 2's note asks (「如果平家点炮再翻一倍，庄家不变，下同」): the dealer discarding, and a 平家
discarding; a dealer's discard win is on a 平家's discard; 摸宝 lines are self-drawn 宝 wins.
"""


def regions_markdown() -> str:
    parts = [HEADER]
    for region in all_regions():
        parts.append(f"## {region.name} `{region.id}`\n\nReading {revision(region.id)}: {reading(region.id)}.\n\n"
                     f"```text\n{card_text(region.resolve())}\n```\n")
        if region.id == "changchun":
            parts.append(MONEY + "\n" + money_markdown(region) + "\n")
    return "\n".join(parts)


if __name__ == "__main__":
    print(regions_markdown(), end="")
