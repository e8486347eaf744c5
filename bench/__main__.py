"""``python -m bench``: run every benchmark and print medians."""

from __future__ import annotations

import sys


def main() -> int:
    from bench import classic

    return classic.main()


if __name__ == "__main__":
    sys.exit(main())
