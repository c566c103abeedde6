"""Write `_summaries.py`, the region summaries `rules list` shows (summaries.py says why).

    python -m rulesets.regions.build_summaries
"""

from __future__ import annotations

import sys
from pathlib import Path

from .summaries import resolved, source

SUMMARIES_PATH = Path(__file__).with_name("_summaries.py")


def main() -> int:
    SUMMARIES_PATH.write_text(source(resolved()), encoding="utf-8")
    print(f"wrote {SUMMARIES_PATH}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
