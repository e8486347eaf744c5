"""Every word a player reads: messages as values, one gettext catalogue per language,
numbers, lists and money in words. Imports nothing of the project but ``errors``."""
