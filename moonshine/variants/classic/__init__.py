"""Classic Diplomacy as a second built-in variant: the standard board, standard
order notation, movement, retreat and adjustment phases, decided by the same core
as Moonshine (``moonshine.engine.resolver``)."""
