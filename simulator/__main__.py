"""`python -m simulator serve …`: the simulated table in its own process (simulator/process.py)."""

import sys

from .process import main

sys.exit(main(sys.argv[1:]))
