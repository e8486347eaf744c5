"""Moonshine: a referee for play-by-email games of Moonshine, a Diplomacy variant
set in Prohibition-era Chicago."""

__version__ = "0.1.0"

# The cyclic collector's thresholds while a command runs (``moonshine.cli``): a
# collection every 50,000 new objects, not 700 (why: ``moonshine.cli._tune_collector``).
GC_THRESHOLDS = (50_000, 20, 10)
