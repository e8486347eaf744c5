"""``python -m bench``: run every benchmark and print medians."""

from __future__ import annotations

import sys


def main() -> int:
    from bench import adjudicator, classic

    status = adjudicator.main()
    return classic.main() or status


if __name__ == "__main__":
    sys.exit(main())
