"""The judge by mail, unattended: mailboxes, intake, the players' commands, press, votes,
replies, the outbox and SMTP, the run pass. Imports ``game`` and below."""
