"""``python -m bench``: run every benchmark and print medians."""

from __future__ import annotations

import sys


def main() -> int:
    print("No benchmark yet.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
