-- The judge's registry of players and games (moonshine.host.registry).
-- Applied once, in a transaction, when PRAGMA user_version is below 1.

-- A registered player: one address, one password for all their games.
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL UNIQUE,          -- lower case
    name TEXT NOT NULL,
    timezone TEXT,                         -- IANA name, or NULL: the judge's
    language TEXT NOT NULL DEFAULT 'en',
    password_hash TEXT,                    -- scrypt$N$r$p$salt$hash (moonshine.mail.passwords)
    password_mailed INTEGER NOT NULL DEFAULT 0,  -- 0: a new password is still to be mailed
    registered TEXT NOT NULL               -- ISO time, UTC
);

-- A game of the judge; its directory is games/NAME/.
CREATE TABLE games (
    name TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    status TEXT NOT NULL,                  -- forming, starting, running, paused, finished, terminated
    created TEXT NOT NULL,
    settings TEXT NOT NULL,                -- JSON: deadlines, press, house rules, minimum dedication
    paused_at TEXT,                        -- while paused: when, and the time left to the deadline
    paused_left INTEGER,                   -- seconds
    deadline TEXT,                         -- a deadline the game directory is to be given: TURN ISO-TIME
    sync INTEGER NOT NULL DEFAULT 1,       -- 1: game.yaml's players are to be written from the seats
    recorded TEXT                          -- the last turn whose dedication is counted
);
CREATE INDEX games_by_status ON games (status);

-- Who masters a game (registered players).
CREATE TABLE masters (
    game TEXT NOT NULL REFERENCES games (name),
    player INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (game, player)
);

-- A player in a game: before the start with their preferences, then with their side.
CREATE TABLE members (
    game TEXT NOT NULL REFERENCES games (name),
    player INTEGER NOT NULL REFERENCES players (id),
    side TEXT,
    preferences TEXT NOT NULL DEFAULT '',  -- sides in order, space separated
    joined TEXT NOT NULL,
    welcomed INTEGER NOT NULL DEFAULT 0,   -- 1: the start mail (or a side's history) is in the game's outbox
    PRIMARY KEY (game, player)
);
CREATE INDEX members_by_player ON members (player);
CREATE UNIQUE INDEX members_by_side ON members (game, side) WHERE side IS NOT NULL;

-- A side without a player, open to a takeover.
CREATE TABLE vacancies (
    game TEXT NOT NULL REFERENCES games (name),
    side TEXT NOT NULL,
    since TEXT NOT NULL,
    PRIMARY KEY (game, side)
);

-- Dedication: each turn a player owed orders, and whether they came in time.
CREATE TABLE turns (
    player INTEGER NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    turn TEXT NOT NULL,
    side TEXT NOT NULL,
    on_time INTEGER NOT NULL,
    PRIMARY KEY (player, game, turn)
);

-- What became of a player in a game, by player: each kind once a game. The kinds:
-- resigned; ejected (by a master); removed (out of the game by the missed-turn policy,
-- or their side in civil disorder taken over); disorder (a side of theirs went into
-- civil disorder); finished (the game ended with them in it).
CREATE TABLE events (
    player INTEGER NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    kind TEXT NOT NULL,                    -- resigned, ejected, removed, disorder, finished
    at TEXT NOT NULL,
    PRIMARY KEY (player, game, kind)
);

-- Mail the lobby answered: never answered twice.
CREATE TABLE messages (
    key TEXT PRIMARY KEY,                  -- sha256 of the message's bytes
    processed TEXT NOT NULL,
    sender TEXT NOT NULL,
    outcome TEXT NOT NULL
);

-- What an address asked of the lobby, by day: the bounded cost of a stranger.
CREATE TABLE requests (
    address TEXT NOT NULL,
    day TEXT NOT NULL,
    kind TEXT NOT NULL,                    -- register, message
    n INTEGER NOT NULL,
    PRIMARY KEY (address, day, kind)
);

-- Mail the lobby has decided to send, kept in the transaction that decided it and
-- written to the lobby's outbox just after: a pass killed in between writes it the
-- next time. A row goes once its file is written.
CREATE TABLE mail (
    name TEXT NOT NULL,                    -- the outbox file
    folder TEXT NOT NULL,                  -- outbox/FOLDER/
    message TEXT NOT NULL,                 -- the message, as the outbox writes it
    PRIMARY KEY (folder, name)
);
