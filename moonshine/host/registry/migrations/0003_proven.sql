-- The judge's open edge (issue 39): addresses that prove themselves, names and
-- addresses with their history, codes mailed to an address, who created a game.
-- Applied once, in a transaction.

-- When the player's address was proven: the first mail with the password the judge
-- mailed to it (a registration is confirmed by it; one never confirmed expires).
-- Players registered before: as proven as they were.
ALTER TABLE players ADD COLUMN confirmed TEXT;
UPDATE players SET confirmed = registered;

-- The player who created the game (the first of its masters): only they, or the
-- judge's masters, may promote another master.
ALTER TABLE games ADD COLUMN creator INTEGER REFERENCES players (id);
UPDATE games SET creator = (SELECT m.player FROM masters m WHERE m.game = games.name ORDER BY m.rowid LIMIT 1);

-- Every change of a player's name or address: what it was, what it became, when.
CREATE TABLE player_history (
    player INTEGER NOT NULL REFERENCES players (id),
    at TEXT NOT NULL,                      -- ISO time, UTC
    kind TEXT NOT NULL,                    -- name, address
    old TEXT NOT NULL,
    new TEXT NOT NULL
);
CREATE INDEX player_history_by_player ON player_history (player);

-- A code mailed to an address, kept as its hash until it is used or expires: the
-- confirmation of a new address ('address NEW'), a password's reset ('forgot').
CREATE TABLE codes (
    digest TEXT PRIMARY KEY,               -- sha256 of the code
    player INTEGER NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL,                    -- address, reset
    value TEXT NOT NULL,                   -- the new address; '' for a reset
    created TEXT NOT NULL,
    expires TEXT NOT NULL
);
CREATE INDEX codes_by_player ON codes (player);
