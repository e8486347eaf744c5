"""Moonshine: a referee for play-by-email games of Moonshine, a Diplomacy variant
set in Prohibition-era Chicago."""

__version__ = "0.1.0"
