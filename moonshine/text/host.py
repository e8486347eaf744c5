"""The words of the host of many games, in English (the gettext catalogue translates
them: ``moonshine.text.catalogue``): the lobby's replies, refusals and notices
(``moonshine.host.lobby``), and the start and reveal mails of its games
(``moonshine.host.games``). Part of the mail catalogue:
``moonshine.render.mailwords.MESSAGES`` takes them in, and they are written through
``mailwords.text`` like every other sentence of the referee's mail."""

from __future__ import annotations

from moonshine.text.catalogue import Catalogue

MESSAGES: Catalogue = {
    # -- the lobby's replies, refusals and notices (moonshine.host.lobby) ------------------------
    "lobby.subject": "{prefix} Your mail to the judge",
    "lobby.hello": "Hello {name},",
    "lobby.hello_stranger": "Hello,",
    "lobby.intro": "The judge read your mail of {received}. What it did:",
    "lobby.done": "line {line}: {command}: done. {text}",
    "lobby.refused": "line {line}: {command}: refused. {text}",
    "lobby.ignored": (
        "Lines {lines}: no command of the judge; ignored. Orders go in a mail of their own with a 'game:' line."
    ),
    "lobby.nothing": "Your mail holds no command of the judge. Send 'help' for the list.",
    "lobby.too_many": ("Only the first command of a mail is done.", "Only the first {n} commands of a mail are done."),
    "lobby.too_long": "Longer than {n} characters, not read: lines {lines}.",
    "lobby.unknown": "'{word}' is no command of the judge. Did you mean '{keyword}'?",
    "lobby.unknown_plain": "'{word}' is no command of the judge. Send 'help' for the list.",
    "lobby.same": "line {line}: the same command as line {first}, answered there.",
    "lobby.cut": (
        "{n} more line is left out: a reply of the judge holds {size} KB at most.",
        "{n} more lines are left out: a reply of the judge holds {size} KB at most.",
    ),
    "lobby.failed": "The judge could not do it ({error}); the judge's masters are told.",
    "lobby.signature": "{title}",
    # -- who is writing -------------------------------------------------------------------
    "lobby.auth.not_registered": "{address} is not registered: send 'register Your Name' first.",
    "lobby.auth.no_password": "This command needs your password: add a line 'password: ...'.",
    "lobby.auth.wrong_password": "Wrong password for {address}. Nothing was changed.",
    "lobby.auth.no_password_yet": "Your password is on its way in a mail of its own; send this again with it.",
    # -- register, password, whois ----------------------------------------------------------
    "lobby.register.done": (
        "You are registered as {name} ({address}). Your password comes in a mail of its own: one "
        "password for all your games. Your first mail with it confirms your registration; one not "
        "confirmed within {days} days is forgotten."
    ),
    "lobby.register.already": "{address} is registered already, as {name}.",
    "lobby.register.no_name": (
        "Give your name: register Your Name, Europe/Paris, fr (the time zone and the language may be left out)."
    ),
    "lobby.register.bad_zone": "Unknown time zone '{zone}' (for example Europe/Paris, America/Chicago, UTC).",
    "lobby.register.bad_language": "Unknown language '{language}' (expected {languages}).",
    "lobby.register.limit": "Too many registrations from this address today; try again tomorrow.",
    "lobby.password.done": "Your password is changed, for all your games.",
    "lobby.password.weak": (
        "That password is too short or too easy: at least 10 characters, words rather than one "
        "character repeated or only digits, and no common word or keyboard run with digits around it "
        "(password12), nor your name."
    ),
    "lobby.name.bad": (
        "A name is {low} to {high} characters: letters (of any alphabet), digits, spaces, hyphens and "
        "apostrophes, beginning with a letter; no link, no address."
    ),
    "lobby.name.taken": "The name '{name}' is taken: choose another.",
    "lobby.rename.done": "Your name was {old}; it is {name} now, in every game.",
    "lobby.rename.same": "Your name is {name} already.",
    "lobby.address.usage": "Give the new address: address NEW@EXAMPLE.ORG.",
    "lobby.address.same": "{address} is your address already.",
    "lobby.address.taken": "{address} is registered already.",
    "lobby.address.later": "The judge cannot mail {address} again today; try tomorrow.",
    "lobby.address.sent": (
        "A code is on its way to {address}. Send 'confirm CODE' from that address, with your password "
        "line, within {days} days; until then your address stays as it is."
    ),
    "lobby.address.done": "Your address is {address} now (it was {old}), in every game; the old one is told.",
    "lobby.address.subject": "{prefix} The code for your new address",
    "lobby.address.body": (
        "{name},\n\nThe judge {title} was asked to make {address} your address. If you asked for it, "
        "send from this address a mail with these two lines:\n\n    password: your password\n    confirm {code}\n\n"
        "The code is good for two days. If you did not ask for it, do nothing: nothing changes."
    ),
    "lobby.moved.subject": "{prefix} Your address is changed",
    "lobby.moved.body": (
        "{name},\n\nYour address with the judge {title} is {address} now (it was {old}). If you did not "
        "ask for it, tell the judge's masters at once."
    ),
    "lobby.code.wrong": "That code is not one the judge mailed to this address, or it has expired.",
    "lobby.code.password": "The code needs your password line too (the one of all your games).",
    "lobby.forgot.sent": (
        "Your code: {code}. Send 'reset {code}' from this address within {days} days, and a new password "
        "comes in a mail of its own; until then your password stays as it is. If you did not ask for it, "
        "do nothing."
    ),
    "lobby.forgot.pending": "A code went to this address already; it is good for {days} days.",
    "lobby.reset.done": "A new password comes in a mail of its own; the old one no longer works.",
    "lobby.password.subject": "{prefix} Your password",
    "lobby.password.body": (
        "{name},\n\nYou are registered with the judge {title} as {name} ({address}).\n\n"
        "Your password, for all your games: {password}\n\n"
        "Put it on a line 'password: ...' in every mail to the judge. To change it, send "
        "'password NEW' with your password line. Keep this mail private."
    ),
    "lobby.whois": (
        "{name} <{address}>, time zone {zone}, language {language}, registered {registered}. "
        "Dedication {percent}%: turns ordered on time, {on_time} of {due}; resignations: {resigned}; "
        "sides left in civil disorder: {disorder}; games finished: {finished}. Games: {games}."
    ),
    "lobby.whois.none": "none",
    # -- list ---------------------------------------------------------------------------------
    "lobby.list.forming": "Games waiting for players:",
    "lobby.list.no_forming": "No game is waiting for players.",
    "lobby.list.forming_line": (
        "  {game}: {variant}, sides free: {free} of {sides}, deadlines {rule}, press {press}, "
        "dedication at least {dedication}%"
    ),
    "lobby.list.forming_anonymous": "    anonymous: no player is told who plays which side",
    "lobby.list.anonymous_players": (
        "{n} (an anonymous game: its players are not named)",
        "{n} (an anonymous game: its players are not named)",
    ),
    "lobby.list.running": "Games being played:",
    "lobby.list.no_running": "No game is being played.",
    "lobby.list.running_line": "  {game}: {variant}, {status}, vacant sides: {vacant}",
    "lobby.list.vacant": "Vacant sides (takeover GAME SIDE):",
    "lobby.list.no_vacant": "No side is vacant.",
    "lobby.list.vacant_more": "  and {n} more.",
    "lobby.list.vacant_line": (
        "  {game}: {side} ({name}), {variant}, vacant since {since}, dedication at least {dedication}%"
    ),
    "lobby.list.game": (
        "{game}: {title}, {variant}, {status}. Masters: {masters}. Deadlines {rule} ({zone}), "
        "press {press}, dedication at least {dedication}%. Sides: {sides}. Players: {players}. "
        "Seed hash of the draw of sides: {seed_hash}."
    ),
    "lobby.list.game_turn": "Turn {turn}, deadline {due}.",
    "lobby.list.nobody": "none yet",
    "lobby.status.forming": "waiting for players",
    "lobby.status.starting": "starting",
    "lobby.status.running": "being played",
    "lobby.status.paused": "paused",
    "lobby.status.finished": "finished",
    "lobby.status.terminated": "terminated",
    # -- join, leave, resign, takeover ------------------------------------------------------
    "lobby.game.none": "Name the game: a line 'game: NAME', or the command followed by its name ({games}).",
    "lobby.game.unknown": "No game '{game}' (send 'list' for the games).",
    "lobby.join.done": "You joined {game}: places taken, {n} of {sides}. It starts when it is full.",
    "lobby.join.full": "You joined {game}, and it is full: it starts now. Your side comes in the start mail.",
    "lobby.join.not_forming": (
        "{game} is not waiting for players (it is {status}); 'list vacant' shows the sides to take over."
    ),
    "lobby.join.already": "You are in {game} already.",
    "lobby.join.dedication": "{game} asks for a dedication of at least {minimum}%; yours is {percent}%.",
    "lobby.join.master_anonymous": (
        "You are a master of {game}, an anonymous game: its masters know who plays which side, so they do "
        "not play in it."
    ),
    "lobby.join.bad_side": "No side '{side}' in {game} (sides: {sides}).",
    "lobby.leave.done": "You left {game}.",
    "lobby.leave.not_member": "You are not in {game}.",
    "lobby.leave.started": "{game} has started: 'resign {game}' leaves your side vacant.",
    "lobby.resign.done": (
        "You resigned from {game}: {side} is vacant, its units hold until someone takes it over; the masters are told."
    ),
    "lobby.resign.not_playing": "You play no side in {game}.",
    "lobby.takeover.done": (
        "{side} of {game} is yours. Its history (every report so far) comes in a mail of its own; "
        "send your orders with 'game: {game}'."
    ),
    "lobby.takeover.not_vacant": "{side} is not vacant in {game} (vacant: {vacant}).",
    "lobby.takeover.in_game": "You play in {game} already.",
    "lobby.takeover.usage": "Name the side: takeover GAME SIDE.",
    "lobby.takeover.ejected": "You were ejected from {game}: you cannot take a side of it again.",
    "lobby.takeover.resigned": (
        "You resigned from {game} less than {n} hour ago: you may take a side of it again after that.",
        "You resigned from {game} less than {n} hours ago: you may take a side of it again after that.",
    ),
    # -- masters ----------------------------------------------------------------------------
    "lobby.master.not_master": "Only a master of {game} may do this.",
    "lobby.master.not_creator": "Only the judge's masters may create games.",
    "lobby.create.done": (
        "{game} is created: {variant}, sides: {sides}, deadlines {rule}, press {press}, dedication "
        "at least {dedication}%. Seed hash of the draw of sides: {seed_hash}."
    ),
    "lobby.create.usage": (
        "Create a game with: create NAME VARIANT (variants: {variants}), its settings on the lines below."
    ),
    "lobby.create.bad_name": (
        "'{game}' cannot name a game: 2 to 24 lower-case letters, digits or dashes, starting with a letter."
    ),
    "lobby.create.exists": "There is a game '{game}' already.",
    "lobby.create.bad_setting": "Setting '{key}': {why}",
    "lobby.create.unknown_setting": "Unknown setting '{key}' (settings: {keys}).",
    "lobby.create.failed": "The game could not be made: {why}",
    "lobby.create.on_disk": (
        "A directory games/{game} is on the judge's disk already, not in its registry: the judge never "
        "writes over it. Choose another name, or ask the judge's operator."
    ),
    "lobby.start.done": "{game} starts now; players: {n}; sides without a player (their units hold): {vacant}.",
    "lobby.start.not_forming": "{game} has started already.",
    "lobby.start.nobody": "{game} has no player yet.",
    "lobby.pause.done": (
        "{game} is paused: no deadline runs until 'resume', which gives its players back the time "
        "they had left. Orders and press sent meanwhile are read and answered as usual."
    ),
    "lobby.pause.not_running": "{game} is not being played (it is {status}).",
    "lobby.resume.done": "{game} goes on: the deadline of {turn} is {due}.",
    "lobby.resume.not_paused": "{game} is not paused.",
    "lobby.extend.done": "The deadline of {turn} in {game} is now {due}.",
    "lobby.extend.paused": (
        "{game} is paused: when it resumes, its players will have {n} hour more than they had left.",
        "{game} is paused: when it resumes, its players will have {n} hours more than they had left.",
    ),
    "lobby.extend.usage": "Give the hours, from 1 to 720: extend GAME 24.",
    "lobby.extend.no_deadline": "{game} has no deadline to extend.",
    "lobby.extend.over_max": (
        "{game} lets a master move its deadline {n} hour at most (master_pause_max).",
        "{game} lets a master move its deadline {n} hours at most (master_pause_max).",
    ),
    "lobby.eject.done": "{side} ({name}) is ejected from {game}: the side is vacant, its units hold.",
    "lobby.eject.no_player": "No player plays '{side}' in {game}.",
    "lobby.promote.done": "{name} is a master of {game} too.",
    "lobby.promote.plays_anonymous": (
        "{name} plays in {game}, an anonymous game: its masters know who plays which side, so none of its "
        "players may be one."
    ),
    "lobby.create.anonymous_at_end": (
        "It is anonymous: no player or observer is told who plays which side until the game is over, when "
        "every player is told. Its masters know, and do not play in it."
    ),
    "lobby.create.anonymous_never": (
        "It is anonymous: no player or observer is told who plays which side, even once the game is over. "
        "Its masters know, and do not play in it."
    ),
    "lobby.promote.usage": "Name the new master's address: promote GAME ADDRESS (a registered player).",
    "lobby.promote.creator": "Only the creator of {game} (or a master of the judge) may promote a master.",
    "lobby.promote.already": "{name} is a master of {game} already.",
    "lobby.terminate.done": "{game} is terminated: no more turns. Its players are told.",
    # -- notices ---------------------------------------------------------------------------
    "lobby.notice.subject": "{prefix} {game}: {what}",
    "lobby.notice.resigned": "{name} resigned {side}",
    "lobby.notice.taken": "{name} took over {side}",
    "lobby.notice.ejected": "{side} ejected",
    "lobby.notice.terminated": "the game is terminated",
    "lobby.notice.promoted": "{name} is a master of the game too",
    "lobby.notice.body": "{text}\n\n{more}",
    "lobby.notice.resigned_more": (
        "The side is vacant and its units hold; 'list vacant' offers it to the judge's players."
    ),
    "lobby.notice.ejected_more": (
        "A master of {game} ejected {side}; its units hold until another player takes it over."
    ),
    "lobby.notice.terminated_more": "A master of {game} ended it: no turn will be adjudicated any more.",
    "lobby.notice.promoted_more": (
        "A master of {game} may start, pause, resume, extend, eject and terminate it; only its creator "
        "and the judge's masters promote."
    ),
    # -- routing ----------------------------------------------------------------------------
    "lobby.route.which": "You play in {games}: name the game with a line 'game: NAME' (or [NAME] in the subject).",
    "lobby.route.no_game": "You play in no game: 'list' shows the games waiting for players, 'join GAME' joins one.",
    "lobby.route.over": "{game} is over ({status}): nothing sent to it is read any more.",
    "lobby.route.forming": "{game} has not started yet: orders are taken once it has.",
    "lobby.help": (
        "Commands of the judge (one a line; a password line 'password: ...' for all but register, list, help, "
        "forgot and reset):\n"
        "  register NAME[, TIME ZONE][, LANGUAGE]   your password comes by mail\n"
        "  password NEW           change your password\n"
        "  whois                  your record and dedication\n"
        "  rename NAME            change your name\n"
        "  address NEW            change your address (a code comes to the new one: confirm CODE from it)\n"
        "  forgot                 a code to reset a lost password (reset CODE: a new one by mail)\n"
        "  list [GAME | vacant]   games waiting for players and being played; a game; vacant sides\n"
        "  join GAME [SIDE...]    join a game (the sides you prefer, in order)\n"
        "  leave GAME             leave a game before it starts\n"
        "  resign GAME            leave a game being played: your side is vacant\n"
        "  takeover GAME SIDE     take a vacant side\n"
        "Masters: create GAME VARIANT (settings below), start, pause, resume, extend GAME HOURS, "
        "eject GAME SIDE, promote GAME ADDRESS, terminate GAME.\n"
        "Orders and a game's commands go in a mail with 'game: NAME', your side's line and your password."
    ),
    # -- the start and reveal mails of the judge's games (moonshine.host.games) ---------------
    "seating.start.subject": "{prefix} The game starts: you play {side}",
    "seating.start.body": (
        "{name},\n\n"
        "The game {game} ({variant}) starts: you play {side}.\n\n"
        "The first deadline: {due}.\n\n"
        "The sides:\n{sides}\n\n"
        "Send your orders to this address, with these lines at the top:\n\n"
        "    game: {game}\n"
        "    {side_word}: {key}\n"
        "    password: your password (the one of all your games)\n\n"
        "The draw of the sides can be checked: its seed is {seed} (SHA-256 {seed_hash}, published "
        "when the game was created); the players in the order they joined, with their preferences: "
        "{joined}."
    ),
    "seating.start.body_anonymous": (
        "{name},\n\n"
        "The game {game} ({variant}) starts: you play {side}.\n\n"
        "It is an anonymous game: {secrecy}\n\n"
        "The first deadline: {due}.\n\n"
        "The sides:\n{sides}\n\n"
        "Send your orders to this address, with these lines at the top:\n\n"
        "    game: {game}\n"
        "    {side_word}: {key}\n"
        "    password: your password (the one of all your games)\n\n"
        "The draw of the sides can be checked: its seed is {seed} (SHA-256 {seed_hash}, published "
        "when the game was created). In it each player is a token that only they are told: yours is "
        "{token}. The players' tokens in the order they joined, with their preferences: {joined}. "
        "The sides above show the token of the player each was drawn for."
    ),
    "seating.start.secrecy_at_end": (
        "no player or observer is told who plays which side, nor which side you play, until the game is "
        "over; then every player is told."
    ),
    "seating.start.secrecy_never": (
        "no player or observer is told who plays which side, nor which side you play, even once the game is over."
    ),
    "seating.start.token": "a player (token {token})",
    "seating.start.vacant": "no player (its units hold; 'list vacant' offers it)",
    "seating.reveal.subject": "{prefix} {game} is over: its raid seed is public",
    "seating.reveal.body": (
        "{name},\n\n"
        "The game {game} is over. Its raid seed, secret until now, is public; with it anyone can "
        'recompute every raid of the game (RULES.md, "Auditing the raid draw"):\n\n{seeds}'
    ),
    "seating.reveal.seed": "  {seed} (SHA-256 {sha256}): the raids of every turn",
    "seating.reveal.seed_until": "  {seed} (SHA-256 {sha256}): the raids of the turns up to {last}",
    "seating.reveal.seed_from": "  {seed} (SHA-256 {sha256}): the raids of the turns from {first} on",
    "seating.reveal.seed_between": "  {seed} (SHA-256 {sha256}): the raids of the turns from {first} to {last}",
    "seating.reveal.subject_cd": "{prefix} {game} is over: its secret seed is public",
    "seating.reveal.body_cd": (
        "{name},\n\n"
        "The game {game} is over. Its secret seed, secret until now, is public; with it anyone can "
        'recompute the orders the civil-disorder player wrote (RULES.md, "Auditing the civil-disorder '
        'player"):\n\n{seeds}'
    ),
    "seating.reveal.seed_cd": "  {seed} (SHA-256 {sha256})",
    "seating.start.line": "  {side}: {player}",
    "seating.start.no_preference": "no preference",
}
