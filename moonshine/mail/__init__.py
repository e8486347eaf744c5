"""One game's mail: its mailboxes (Maildir, mbox, ``.eml`` files, IMAP), the intake of
a player's own text, the inbox that checks, saves and answers orders, the players'
commands, the outbox (settings, composing, SMTP), and the game's pass
(``moonshine run GAME``). Imports ``game`` and below, never ``host``."""
