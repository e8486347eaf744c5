"""The words of the players' commands by mail (``moonshine.mail.commands``: press,
votes, status, history, help, observe, predict), in English (the gettext catalogue
translates them: ``moonshine.text.catalogue``). Part of the mail catalogue:
``moonshine.render.mailwords.MESSAGES`` takes them in, and they are written through
``moonshine.render.mailwords.text`` like every other phrase of the referee's mail."""

from __future__ import annotations

from moonshine.text.catalogue import Catalogue

MESSAGES: Catalogue = {
    # -- the acknowledgement's section on commands ----------------------------------------
    "cmd.heading": "Commands:",
    "cmd.done": "done",
    "cmd.refused": "REFUSED",
    "cmd.line": "line {n}: {written} -> {mark}:",
    "cmd.failed": "the referee could not do it ({error}); the game master has been told.",
    "cmd.unknown": "unknown command '{word}'. Did you mean '{keyword}'? Send 'help' for the list.",
    "cmd.players_only": "'{command}' is for the players of this game, with their gang line and password.",
    "subject.commands": "{prefix} {turn}: your commands",
    "reply.commands": (
        "Commands for {gang}, {turn}, received {received} from {sender}. No orders were in this message: "
        "your orders on file, if any, stand."
    ),
    "reply.commands_stranger": "Your message to the referee of {title}, received {received}, was read for commands.",
    # -- press ----------------------------------------------------------------------------------
    "press.not_player": (
        "press is relayed only for the players of this game; {sender} is not a player's address (or the gang "
        "line and password were missing)."
    ),
    "press.none": "this game has no press (press: none).",
    "press.public_only": (
        "this game has public press only: a message to everyone ('broadcast' ... 'end'), never to some gangs "
        "alone; nothing was relayed."
    ),
    "press.public_signed": "anonymous press is not allowed in this game (public press: every broadcast is signed).",
    "press.white_only": "anonymous press is not allowed in this game (white press: every message is signed).",
    "press.retreats": "press is not allowed during retreats in this game.",
    "press.after_deadline": "press is allowed only before the deadline ({due}) in this game.",
    "press.unclosed": (
        "no 'end press' line: nothing was relayed, so that no order below it is sent by mistake; the lines "
        "after it are read as your orders."
    ),
    "press.empty": "the press has no text: nothing relayed.",
    "press.unknown_recipient": "no gang or power called '{names}'; the names are: {known}.",
    "press.no_recipient": "name at least one other gang after 'press to', or use 'broadcast'.",
    "press.anonymous_sender": "an anonymous gang",
    "press.everyone": "everyone",
    "press.head": "Press from {sender} to {to}, {turn}, relayed by the referee:",
    "press.how_to_answer": (
        "To answer, write to the referee (not by replying to this address's sender): 'press to GANG' ... 'end press'."
    ),
    "press.how_to_answer_anonymous": "The sender chose to stay anonymous. To speak to everyone: 'broadcast' ... 'end'.",
    "subject.press": "{prefix} {turn}: press from {sender}",
    "subject.broadcast": "{prefix} {turn}: broadcast from {sender}",
    "press.sent": "relayed to {to}.",
    "press.sent_some": "{sent} Not mailed to {missing}: no address in the game (kept in their log).",
    "press.broadcast_sent": "relayed to every player and observer.",
    # -- draws and concessions -----------------------------------------------------------------
    "vote.draw": "proposal {n}: a draw shared by {gangs}",
    "vote.concession": "proposal {n}: a concession of the game to {gang}",
    "vote.game_over": "the game has already ended by a vote.",
    "vote.eliminated_proposer": "only a surviving gang may propose a draw or a concession.",
    "vote.bad_date": "the deadline could not be read: write it as 'by 2024-03-10' or 'by 2024-03-10 18:00' (UTC).",
    "vote.not_survivor": "no longer in the game: {gangs}.",
    "vote.concede_one": "name the one gang you concede the game to (not your own): 'concede to GANG'.",
    "vote.deadline_range": "the deadline ({deadline}) must be in the future, and within 60 days.",
    "vote.same_open": "the same proposal is already open (number {n}): vote on it with 'vote yes {n}'.",
    "vote.opened": (
        "{what} is open until {deadline}; your vote is yes. Every surviving gang is asked to vote 'vote yes "
        "{n}' or 'vote no {n}'."
    ),
    "vote.how": "write 'vote yes N' or 'vote no N', N being the proposal's number.",
    "vote.eliminated": "your gang is no longer in the game: it does not vote.",
    "vote.no_such": "there is no proposal {n}.",
    "vote.which": "several proposals are open: give the number ('vote yes N').",
    "vote.none_open": "no proposal is open.",
    "vote.not_voter": "your gang does not vote on proposal {n} (it was not in the game when the proposal opened).",
    "vote.closed": "proposal {n} ended on {when}.",
    "vote.recorded_yes": "your vote on proposal {n} is yes (secret; you may change it until {deadline}).",
    "vote.recorded_no": "your vote on proposal {n} is no (secret; you may change it until {deadline}).",
    "vote.deciding": (
        "your vote on proposal {n} is yes, the last one it needed: it has passed and the game is over (every "
        "player is told)."
    ),
    "vote.status_line": "Open: {what}, until {deadline}.",
    "vote.yours_yes": "Your vote: yes.",
    "vote.yours_no": "Your vote: no.",
    "vote.yours_none": "You have not voted yet.",
    "vote.notice_open": (
        "A vote is open: {what}. It passes only if every surviving gang votes yes before {deadline}. Votes "
        "are secret. Send 'vote yes {n}' or 'vote no {n}' with your gang line and password."
    ),
    "vote.notice_remind": "Reminder: {what} ends on {deadline}. Send 'vote yes {n}' or 'vote no {n}'.",
    "vote.passed_draw": "Passed: {what}, by the vote of every surviving gang on {when}. The game ends in this draw.",
    "vote.passed_concession": "Passed: {what}, by the vote of every surviving gang on {when}. The game ends.",
    "vote.failed": (
        "Not passed: {what}. At its deadline ({when}) not every surviving gang had voted yes. The game goes on."
    ),
    "subject.vote_open": "{prefix} vote {n} is open",
    "subject.vote_remind": "{prefix} vote {n}: reminder",
    "subject.vote_bulletin": "{prefix} bulletin: the result of vote {n}",
    # -- status, history, help, observe ---------------------------------------------------------
    "status.done": "the game as it stands:",
    "status.turn": "Turn: {turn}.",
    "status.in": "Orders received from: {gangs}.",
    "status.waiting": "Orders awaited from: {gangs}.",
    "status.nobody": "none",
    "status.press.none": "Press: none.",
    "status.press.public": "Press: public (broadcasts only, signed).",
    "status.press.white": "Press: white (signed).",
    "status.press.grey": "Press: grey (anonymous allowed).",
    "history.none": "no turn has been played yet.",
    "history.turns": "turns played: {turns}.",
    "history.how": "Send 'history TURN' (e.g. 'history spring-1924') for that turn's bulletin.",
    "history.unknown": "no turn '{turn}' has been played; the turns played are: {turns}.",
    "history.no_bulletin": "the bulletin of {turn} is not written yet.",
    "history.bulletin": "the bulletin of {turn}:",
    "help.done": "the commands:",
    "help.cmd.press": "{keyword} to GANG, GANG [anonymous] ... end press: a private message",
    "help.cmd.broadcast": "{keyword} [anonymous] ... end: a message to everyone",
    "help.cmd.draw": "{keyword} [all | GANG, GANG] [by DATE]: propose a draw",
    "help.cmd.concede": "{keyword} to GANG [by DATE]: propose to concede the game",
    "help.cmd.vote": "{keyword} yes|no N: your secret vote on proposal N",
    "help.cmd.status": "{keyword}: the turn, its deadline, open votes",
    "help.cmd.history": "{keyword} [TURN]: the turns played, a turn's bulletin",
    "help.cmd.help": "{keyword}: this list",
    "help.cmd.predict": (
        "{keyword} ... end predict: adjudicate orders you give for every gang, without touching the game"
    ),
    "help.cmd.observe": "{keyword}: ask to follow the game",
    "help.more": (
        "Commands go in the same message as orders, with the gang line and password (help, observe: by anyone)."
    ),
    "predict.unclosed": "no 'end predict' line: nothing was adjudicated (the orders after it are read as your orders).",
    "predict.no_gang": "line {n}: no gang called '{name}'.",
    "predict.bad_line": "line {n}: {text}: {reason}",
    "predict.refused": (
        "nothing was adjudicated: a line of the prediction is no order of any gang on the board:",
        "nothing was adjudicated: {n} lines of the prediction are no order of any gang on the board:",
    ),
    "predict.empty": "the prediction holds no order.",
    "predict.done": (
        "{n} order adjudicated on this turn's position, without touching the game; the result and the map "
        "picture are mailed to you separately.",
        "{n} orders adjudicated on this turn's position, without touching the game; the result and the map "
        "picture are mailed to you separately.",
    ),
    "predict.head": (
        "Prediction for {turn}: the orders you gave, adjudicated on this turn's position (units without an "
        "order hold). Nothing in the game has changed."
    ),
    "predict.no_order": "{unit} (no order: holds)",
    "predict.ok": "succeeds",
    "predict.failed": "fails",
    "predict.disbanded": "disbanded",
    "predict.dislodged": "{unit} is dislodged by {by}: {where}.",
    "predict.skipped": "Not adjudicated (sales, bids, recruits, disbands), lines: {lines}.",
    "predict.note": (
        "The real result depends on the orders the gangs really send, and the raid on the turn's secret draw."
    ),
    "predict.note_classic": "The real result depends on the orders the powers really send.",
    "predict.title": "Prediction, {turn}",
    "subject.predict": "{prefix} {turn}: your prediction",
    "observe.already": "you are an observer of this game.",
    "observe.player": "you play in this game.",
    "observe.asked": "your request was passed to the game master, who lists the observers.",
}
