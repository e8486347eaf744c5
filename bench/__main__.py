"""``python -m bench``: run every benchmark and print medians and ratios, in one run:
whole processes against a bare interpreter start, the Chicago turn, classic phases
against the ``diplomacy`` package, and the whole turn on grids of 1,000 and 10,000
units; the inbox's time and memory against the mailbox's size, and the inbox over
the mail corpus and 10,000 generated hostile messages; the worst hostile line each
reader of a stranger's text meets (fixed and random lines, up to the mail size limit);
a judge for many games (100 games idle, and with 800 new messages; its registry with
10,000 players); the civil-disorder player (R26) for a Chicago gang and a classic power."""

from __future__ import annotations

import sys


def main() -> int:
    from bench import adjudicator, civil_disorder, classic, inbox, judge, mailfuzz, process, readercost, wholeturn

    status = process.main()
    status = adjudicator.main() or status
    status = classic.main() or status
    status = civil_disorder.main() or status
    status = wholeturn.main([]) or status
    status = inbox.main([]) or status
    status = mailfuzz.main([]) or status
    status = readercost.main([]) or status
    return judge.main([]) or status


if __name__ == "__main__":
    sys.exit(main())
