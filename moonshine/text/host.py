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
    "lobby.passed_on": "Lines {lines} go to {game}, which answers them in a mail of its own.",
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
    "lobby.register.master_name": "'{name}' is the name of a game master of this judge; choose another name.",
    "lobby.address.usage": "Give the new address: address NEW (for example address ann@example.org).",
    "lobby.address.same": "{address} is your address already.",
    "lobby.address.taken": "{address} is registered already, to another player.",
    "lobby.address.limit": "Too many changes of address asked from this address today; try again tomorrow.",
    "lobby.address.asked": (
        "A code is mailed to {address}: send 'confirm CODE' from that address by {lapses}, and your address "
        "becomes it. Until then it stays {old}."
    ),
    "lobby.address.subject": "{prefix} Confirm your new address",
    "lobby.address.body": (
        "{name},\n\nThe player {name}, registered with the judge {title} as {old}, asked that their address "
        "become {address}.\n\nTo confirm it, send the judge a mail from this address with the line\n\n"
        "    confirm {code}\n\nby {lapses}. If you did not ask it, leave this mail unanswered: nothing changes."
    ),
    "lobby.address.changed.subject": "{prefix} Your address is changed",
    "lobby.address.changed.body": (
        "{name},\n\nYour address with the judge {title} is {address} from now on, for all your games: "
        "confirmed from it on {when}. Mail from {old} is no longer read as yours.\n\n"
        "If you did not ask it, someone has your password: tell the judge's operator at once."
    ),
    "lobby.confirm.usage": "Give the code the judge mailed to this address: confirm CODE.",
    "lobby.confirm.wrong": "No change of address to {address} waits for that code. Nothing was changed.",
    "lobby.confirm.done": "Your address is {address} from now on, for all your games; {old} is told.",
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
    "lobby.address.later": "The judge cannot mail {address} again today; try tomorrow.",
    "lobby.code.wrong": "That code is not one the judge mailed to this address, or it has expired.",
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
        "{name} <{address}>, time zone {zone}, language {language}, registered {registered}. Games: {games}."
    ),
    "lobby.whois.public": "{name}, registered {registered}. Games: {games}.",
    "lobby.whois.nobody": "No player is registered as '{name}'.",
    "lobby.whois.none": "none",
    "lobby.dedication": (
        "Dedication {percent}%: {on_time} of {n} turn ordered on time.",
        "Dedication {percent}%: {on_time} of {n} turns ordered on time.",
    ),
    "lobby.dedication.resigned": (
        "Among them, {n} resignation or ejection, counted as a turn missed.",
        "Among them, {n} resignations or ejections, counted as turns missed.",
    ),
    "lobby.dedication.disorder": (
        "Among them, {n} side left in civil disorder, counted as a turn missed.",
        "Among them, {n} sides left in civil disorder, counted as turns missed.",
    ),
    "lobby.dedication.finished": ("{n} game finished.", "{n} games finished."),
    # -- list ---------------------------------------------------------------------------------
    "lobby.list.forming": "Games waiting for players:",
    "lobby.list.no_forming": "No game is waiting for players.",
    "lobby.list.forming_line": (
        "  {game}: {variant}, sides free: {free} of {sides}, deadlines {rule}, press {press}{minimum}"
    ),
    "lobby.list.minimum": ", dedication at least {dedication}%",
    "lobby.rule.deadlines": "{rule}",
    "lobby.rule.every": "every {every}",
    "lobby.press.none": "none",
    "lobby.press.public": "public",
    "lobby.press.white": "white",
    "lobby.press.grey": "grey",
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
    "lobby.list.vacant_line": "  {game}: {side} ({name}), {variant}, vacant since {since}{minimum}",
    "lobby.list.game": (
        "{game}: {title}, {variant}, {status}. Masters: {masters}. Deadlines {rule} ({zone}), "
        "press {press}, {dedication}. Sides: {sides}. Players: {players}. "
        "Seed hash of the draw of sides: {seed_hash}."
    ),
    "lobby.list.game_minimum": "dedication at least {dedication}%",
    "lobby.list.game_no_minimum": "no minimum of dedication",
    "lobby.list.game_turn": "Turn {turn}, deadline {due}.",
    "lobby.list.game_paused": "Turn {turn}, paused: no deadline runs.",
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
    "lobby.takeover.none_vacant": "No side is vacant in {game}.",
    "lobby.takeover.done_paused": (
        "{side} of {game} is yours. Its history (every report so far) comes in a mail of its own. The game is "
        "paused: no deadline runs until a master resumes it; send your orders with 'game: {game}'."
    ),
    "lobby.private.not_invited": "{game} is a private game: only the players its masters invite may join it.",
    "lobby.observe.done": (
        "You observe {game}: you get its bulletins, its broadcast press and the results of its votes, and may send "
        "'status' and 'history' with a line 'game: {game}'."
    ),
    "lobby.observe.already": "You observe {game} already.",
    "lobby.observe.player": "You play in {game}: its players get everything its observers get.",
    "lobby.observe.closed": "{game} takes no observers.",
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
        "{game} is created: {variant}, sides: {sides}, deadlines {rule}, press {press}{minimum}.{private} "
        "Seed hash of the draw of sides: {seed_hash}."
    ),
    "lobby.create.private": (
        " It is private: 'list' does not show it, and only the players invited (invite GAME ADDRESS) join it."
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
    "lobby.resume.too_late": "{game} cannot be resumed: only a game terminated less than a week ago can.",
    "lobby.resume.unterminated": "{game} goes on: its end is taken back, and the deadline of {turn} is {due}.",
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
    "lobby.eject.usage": "Name the side: eject GAME SIDE.",
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
    "lobby.promote.unconfirmed": (
        "{name} has not used their password yet: only a player whose address has proven itself may be a master."
    ),
    "lobby.promote.not_registered": "{address} is not registered: they must register first (register NAME).",
    "lobby.promote.already": "{name} is a master of {game} already.",
    "lobby.deadline.usage": (
        "Give the time: deadline {game} 2026-12-05 18:00 (in the game's time zone, {zone}, unless another "
        "follows it: 2026-12-05 18:00 UTC)."
    ),
    "lobby.deadline.past": "{due} has passed: a deadline is never set before now.",
    "lobby.deadline.far": "A deadline is at most {days} days away.",
    "lobby.deadline.paused": (
        "{game} is paused: 'extend {game} HOURS' gives its players more time when it resumes; or 'resume {game}' first."
    ),
    "lobby.deadline.done": "The deadline of {turn} in {game} is now {due}. Its players are told.",
    "lobby.grace.usage": "Give the hours, from 0 to 720: grace GAME 12.",
    "lobby.process.waiting": "{game} waits for orders from {sides}: it is adjudicated at its deadline.",
    "lobby.process.done": (
        "{turn} of {game} is adjudicated at the next pass: every side with a player has orders. Its players are told."
    ),
    "lobby.rollback.usage": "Name a turn adjudicated already: rollback {game} TURN (turns: {turns}).",
    "lobby.rollback.done": (
        "{game} is back at the start of {turn}, which is played again (deadline: {due}); its results and every "
        "later turn are withdrawn, the orders kept. Its players are told."
    ),
    "lobby.set.usage": "Write: set GAME KEY VALUE, with KEY one of {keys}.",
    "lobby.set.done": "{game}: {change}. Its players are told.",
    "lobby.set.press": "press {value}",
    "lobby.set.dedication": "a dedication of at least {value}% to join or take a side over",
    "lobby.set.deadlines": "deadlines {value}",
    "lobby.set.every": "a deadline every {value}",
    "lobby.set.min_gap": "at least {value} from a turn's start to its deadline",
    "lobby.set.grace": "a grace of {value} after a deadline for a side with no orders",
    "lobby.set.no_grace": "no grace after a deadline",
    "lobby.set.reminders": "reminders {value} before a deadline",
    "lobby.set.timezone": "deadlines in the time zone {value}",
    "lobby.set.observers.open": "anyone registered may observe the game (observe GAME)",
    "lobby.set.observers.closed": "nobody more may observe the game",
    "lobby.set.private": "private: 'list' does not show it, and only invited players join it",
    "lobby.set.public": "public: 'list' shows it, and anyone may join it",
    "lobby.set.next_deadlines": "The current turn's deadline stays; the next ones follow the new setting.",
    "lobby.invite.usage": "Name the player's address: invite GAME ADDRESS (a registered player).",
    "lobby.invite.done": "{name} may join {game}; they are told.",
    "lobby.terminate.done": "{game} is terminated: no more turns. Its players are told.",
    # -- notices ---------------------------------------------------------------------------
    "lobby.notice.subject": "{prefix} {what}",
    "lobby.notice.resigned": "{name} resigned {side}",
    "lobby.notice.taken": "{name} took over {side}",
    "lobby.notice.ejected": "{name} is ejected from {side}",
    "lobby.notice.terminated": "the game is terminated",
    "lobby.notice.body": "{text}\n\n{more}",
    "lobby.notice.resigned_more": (
        "The side is vacant and its units hold; 'list vacant' offers it to the judge's players."
    ),
    "lobby.notice.ejected_more": (
        "A master of {game} ejected {side}; its units hold until another player takes it over."
    ),
    "lobby.notice.terminated_more": "A master of {game} ended it: no turn will be adjudicated any more.",
    # -- announcements to a game's players (moonshine.host.lobby.announce) -------------------
    "announce.hello": "{name},",
    "announce.paused.head": "the game is paused",
    "announce.paused": (
        "A master of {game} paused the game: no deadline runs until it resumes, nobody is reminded and no turn is "
        "adjudicated. Orders and press you send meanwhile are read and answered as usual, and the orders on file "
        "count when it goes on. When it resumes, you will have the time that was left: {left}."
    ),
    "announce.paused_no_deadline.head": "the game is paused",
    "announce.paused_no_deadline": (
        "A master of {game} paused the game: no turn is adjudicated until it resumes. Orders and press you send "
        "meanwhile are read and answered as usual, and the orders on file count when it goes on."
    ),
    "announce.paused_extended.head": "more time when the game resumes",
    "announce.paused_extended": (
        "A master of {game} gave its players {n} hour more: when the game resumes, you will have {left} for {turn}.",
        "A master of {game} gave its players {n} hours more: when the game resumes, you will have {left} for {turn}.",
    ),
    "announce.resumed.head": "the game goes on",
    "announce.resumed": "A master of {game} resumed the game. {deadline}",
    "announce.pause_ended.head": "the game goes on",
    "announce.pause_ended": (
        "The pause of {game} has lasted as long as a master may pause it (master_pause_max): the game goes on by "
        "itself. {deadline}"
    ),
    "announce.resumed_no_deadline.head": "the game goes on",
    "announce.resumed_no_deadline": "A master of {game} resumed the game.",
    "announce.deadline.head": "the deadline of {turn} moved",
    "announce.deadline": "A master of {game} moved the deadline of {turn}: orders are due by {due}. It was {was}.",
    "announce.deadline_set.head": "the deadline of {turn}",
    "announce.deadline_set": "A master of {game} set the deadline of {turn}: orders are due by {due}.",
    "announce.ejected_you.head": "you are ejected from the game",
    "announce.ejected_you": (
        "A master of {game} ejected you from the game, where you played {side}: the side is vacant, and mail you "
        "send to the game is no longer read. Your other games go on."
    ),
    "announce.ejected.head": "{side} is vacant",
    "announce.ejected": (
        "A master of {game} ejected the player of {side}: the side is vacant, and its units hold until a player "
        "takes it over."
    ),
    "announce.resigned.head": "{side} is vacant",
    "announce.resigned": (
        "The player of {side} resigned from {game}: the side is vacant, and its units hold until a player takes it "
        "over."
    ),
    "announce.taken.head": "{side} has a new player",
    "announce.taken": "{taker} took over {side} in {game}.",
    "announce.taken_anonymous.head": "{side} has a new player",
    "announce.taken_anonymous": "A new player took over {side} in {game} (an anonymous game: who, you are not told).",
    "announce.master_you.head": "you are a master of the game",
    "announce.master_you": (
        "You are a master of {game} now: you may set its deadlines and settings, pause, resume and end it, eject "
        "a side, and more ('help' to the judge lists the commands)."
    ),
    "announce.master.head": "{master} is a master of the game",
    "announce.master": "{master} is a master of {game} too.",
    "announce.settings.head": "{change}",
    "announce.settings": "A master of {game} changed a setting: {change}. {more}",
    "announce.process.head": "{turn} is adjudicated now",
    "announce.process": (
        "Every side with a player has orders for {turn}: a master of {game} asked for it to be adjudicated now, "
        "without waiting for its deadline ({was}). The reports follow."
    ),
    "announce.rollback.head": "{turn} is played again",
    "announce.rollback": (
        "A master of {game} rolled the game back to the start of {turn}: the results of {turn} and of every later "
        "turn are withdrawn, and {turn} is played again. The orders on file stand; you may send new ones until "
        "{due}. Its reports, once it is adjudicated again, come marked as corrected where they differ."
    ),
    "announce.rollback_paused.head": "{turn} is played again",
    "announce.rollback_paused": (
        "A master of {game} rolled the game back to the start of {turn}: the results of {turn} and of every later "
        "turn are withdrawn, and {turn} is played again once the game, paused, resumes. The orders on file stand; "
        "you may send new ones."
    ),
    "announce.rollback_no_deadline.head": "{turn} is played again",
    "announce.rollback_no_deadline": (
        "A master of {game} rolled the game back to the start of {turn}: the results of {turn} and of every later "
        "turn are withdrawn, and {turn} is played again. The orders on file stand; you may send new ones."
    ),
    "announce.terminated.head": "the game is terminated",
    "announce.terminated": (
        "A master of {game} ended the game, where you played {own}: no turn will be adjudicated any more. Should a "
        "master take the end back within a week, you will be told."
    ),
    "announce.terminated_forming.head": "the game is terminated",
    "announce.terminated_forming": "A master of {game} ended the game before it started: it will not be played.",
    "announce.unterminated.head": "the game goes on",
    "announce.unterminated": (
        "A master of {game} took back the end of the game: it goes on, and orders for {turn} are due by {due}."
    ),
    "announce.unterminated_seed.head": "the game goes on",
    "announce.unterminated_seed": (
        "A master of {game} took back the end of the game: it goes on, and orders for {turn} are due by {due}. "
        "Its raid seed, revealed at its end, is replaced by a new secret one for the raids from the next turn on; "
        "the bulletin says so."
    ),
    "announce.invited.head": "you are invited to the game",
    "announce.invited": "A master of {game} invites you to join the game: send 'join {game}' with your password line.",
    "announce.invited_running.head": "you are invited to the game",
    "announce.invited_running": (
        "A master of {game} invites you to the game: 'list vacant' shows its vacant sides ('takeover {game} SIDE'), "
        "and 'observe {game}' lets you follow it."
    ),
    # -- routing ----------------------------------------------------------------------------
    "lobby.route.which": "You play in {games}: name the game with a line 'game: NAME' (or [NAME] in the subject).",
    "lobby.route.no_game": "You play in no game: 'list' shows the games waiting for players, 'join GAME' joins one.",
    "lobby.route.over": "{game} is over ({status}): nothing sent to it is read any more.",
    "lobby.route.resigned": "You resigned from {game}: mail you send to it is not read any more.",
    "lobby.route.ejected": "A master of {game} ejected you from it: mail you send to it is not read any more.",
    "lobby.route.forming": "{game} has not started yet: orders are taken once it has.",
    "lobby.help": (
        "Commands of the judge (one a line; a password line 'password: ...' for all but register, confirm, "
        "list, help, forgot and reset):\n"
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
        "  observe GAME           follow a game (its bulletins, broadcast press, votes' results)\n"
        "  whois NAME             a player's public record\n"
        "Masters: create GAME VARIANT (settings below), start, pause, resume, extend GAME HOURS, "
        "deadline GAME WHEN, grace GAME HOURS, set GAME KEY VALUE, invite GAME ADDRESS, process GAME, "
        "rollback GAME TURN, eject GAME SIDE, promote GAME ADDRESS, terminate GAME.\n"
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
    "seating.takeover.note": (
        "Send your orders to this address, with these lines at the top:\n\n"
        "    game: {game}\n"
        "    {side_word}: {key}\n"
        "    password: your password (the one of all your games)"
    ),
    "seating.takeover.paused": (
        "The game is paused: no deadline runs until a master resumes it; orders you send meanwhile are read and kept."
    ),
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
