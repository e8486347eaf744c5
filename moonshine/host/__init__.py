"""The host of many games (``moonshine judge init``, ``moonshine run DIR``): its
settings file, its registry of players and games, the lobby's commands by mail, the
games on disk, and its pass over one mailbox for every game. Imports ``mail`` and
below."""
