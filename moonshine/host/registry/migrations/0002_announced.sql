-- What a master's mail commands leave for a game's pass, and who may see or follow a
-- game (issue 37). Applied once, in a transaction, when PRAGMA user_version is below 2.

-- How a player came to their side: 'draw' (joined before the start) or 'takeover'
-- (a vacant side): a takeover is welcomed with the side's history, never the start mail.
ALTER TABLE members ADD COLUMN came TEXT NOT NULL DEFAULT 'draw';

-- When a master terminated the game (ISO time, UTC): it may be resumed within a week
-- (paused_left then holds the time that was left to its deadline).
ALTER TABLE games ADD COLUMN ended TEXT;
-- A turn a master asked to process now ('process GAME'): the game's next pass
-- adjudicates it if every side with a player still has orders.
ALTER TABLE games ADD COLUMN process TEXT;
-- A turn a master asked to roll the game back to ('rollback GAME TURN'), done by the
-- pass's next step on the game's directory.
ALTER TABLE games ADD COLUMN rollback TEXT;
-- The players of the draw of sides, as the start mail gives them (JSON: name and
-- preferences, in the order they joined), kept from the start: a start mail written
-- later names the same players.
ALTER TABLE games ADD COLUMN drawn TEXT;

-- Who may join a private game (a master's 'invite GAME ADDRESS').
CREATE TABLE invitations (
    game TEXT NOT NULL REFERENCES games (name),
    player INTEGER NOT NULL REFERENCES players (id),
    invited TEXT NOT NULL,
    PRIMARY KEY (game, player)
);

-- Who observes a game ('observe GAME'): written into its game.yaml's observers.
CREATE TABLE observers (
    game TEXT NOT NULL REFERENCES games (name),
    player INTEGER NOT NULL REFERENCES players (id),
    since TEXT NOT NULL,
    PRIMARY KEY (game, player)
);

-- 1: the game's raid seed, revealed when a master terminated it, is to be replaced by a
-- new secret (the game was resumed within the week): done by the pass's next step.
ALTER TABLE games ADD COLUMN reseed INTEGER NOT NULL DEFAULT 0;

-- A player's change of address ('address NEW'), until the new address confirms it with
-- the code mailed to it ('confirm CODE'); it lapses a week after it was asked.
CREATE TABLE address_changes (
    player INTEGER PRIMARY KEY REFERENCES players (id),
    address TEXT NOT NULL,                 -- the new address, lower case
    code_hash TEXT NOT NULL,               -- the code's salted hash (moonshine.mail.passwords)
    asked TEXT NOT NULL                    -- ISO time, UTC
);
CREATE INDEX address_changes_by_address ON address_changes (address);

-- Every address a player had before their present one, and until when.
CREATE TABLE former_addresses (
    player INTEGER NOT NULL REFERENCES players (id),
    address TEXT NOT NULL,
    until TEXT NOT NULL,                   -- ISO time, UTC: when the new one was confirmed
    PRIMARY KEY (player, until)
);

-- What a pass needs to open a game only when it has something to do (the pass's
-- cost grows with what is due, not with the number of games): when the game's own
-- pass next has something to do without new mail (ISO time, UTC; NULL: at the next
-- pass, as for every game when this migration runs; '9999-12-31T23:59:59+00:00':
-- only mail or a change can give it something to do), and game.yaml's stamp
-- (modification time in nanoseconds and size) when its pass ended. A game is opened
-- when that time has come, when mail came for it, when a master's command by mail
-- asks something of it, when its lock is no longer sealed (a `moonshine` command
-- held it: moonshine.game.lock.sealed) or when its game.yaml is not as its pass left it.
ALTER TABLE games ADD COLUMN due_at TEXT;
ALTER TABLE games ADD COLUMN stamp TEXT;
