-- When a master's pause of the game ends by itself (ISO time, UTC): the pause's start
-- and the game's master_pause_max, worked out when the pause is made, so that a pass
-- learns which pauses are over without reading any paused game's game.yaml;
-- '9999-12-31T23:59:59+00:00': the game sets no limit, the pause lasts until a master
-- resumes the game. NULL while the game is not paused, and for a pause made before
-- this migration: the next pass works it out once from game.yaml and keeps it.
-- Applied once, in a transaction.
ALTER TABLE games ADD COLUMN pause_ends TEXT;
