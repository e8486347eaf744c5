"""``python -m bench``: run every benchmark and print medians and ratios, in one run:
whole processes against a bare interpreter start, the Chicago turn, classic phases
against the ``diplomacy`` package, and the whole turn on grids of 1,000 and 10,000
units."""

from __future__ import annotations

import sys


def main() -> int:
    from bench import adjudicator, classic, process, wholeturn

    status = process.main()
    status = adjudicator.main() or status
    status = classic.main() or status
    return wholeturn.main([]) or status


if __name__ == "__main__":
    sys.exit(main())
