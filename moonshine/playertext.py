"""The words of the players' commands by mail (``moonshine.mailcmd``: press,
votes, status, history, help, observe, predict) in English and French. Part of
the mail catalogue: ``moonshine.mailtext.MESSAGES`` takes them in, and they are
written through ``mailtext.text`` like every other phrase of the referee's mail."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # -- the acknowledgement's section on commands ----------------------------------------
    "cmd.heading": {"en": "Commands:", "fr": "Commandes :"},
    "cmd.done": {"en": "done", "fr": "fait"},
    "cmd.refused": {"en": "REFUSED", "fr": "REFUSÉ"},
    "cmd.line": {"en": "line {n}: {written} -> {mark}:", "fr": "ligne {n} : {written} -> {mark} :"},
    "cmd.failed": {
        "en": "the referee could not do it ({error}); the game master has been told.",
        "fr": "l'arbitre n'a pas pu le faire ({error}) ; le meneur de jeu est prévenu.",
    },
    "cmd.unknown": {
        "en": "unknown command '{word}'. Did you mean '{keyword}'? Send 'help' for the list.",
        "fr": "commande inconnue « {word} ». Vouliez-vous dire « {keyword} » ? Envoyez « aide » pour la liste.",
    },
    "cmd.players_only": {
        "en": "'{command}' is for the players of this game, with their gang line and password.",
        "fr": "« {command} » est réservé aux joueurs de la partie, avec leur ligne de gang et leur mot de passe.",
    },
    "subject.commands": {"en": "{prefix} {turn}: your commands", "fr": "{prefix} {turn} : vos commandes"},
    "reply.commands": {
        "en": "Commands for {gang}, {turn}, received {received} from {sender}. No orders were in this message: "
        "your orders on file, if any, stand.",
        "fr": "Commandes de {gang} pour {turn}, reçues le {received} de {sender}. Ce message ne contenait aucun "
        "ordre : vos ordres déjà reçus, s'il y en a, restent valables.",
    },
    "reply.commands_stranger": {
        "en": "Your message to the referee of {title}, received {received}, was read for commands.",
        "fr": "Votre message à l'arbitre de {title}, reçu le {received}, a été lu pour ses commandes.",
    },
    # -- press ----------------------------------------------------------------------------------
    "press.not_player": {
        "en": "press is relayed only for the players of this game; {sender} is not a player's address "
        "(or the gang line and password were missing).",
        "fr": "la presse n'est relayée que pour les joueurs de la partie ; {sender} n'est pas l'adresse d'un joueur "
        "(ou la ligne de gang et le mot de passe manquaient).",
    },
    "press.none": {
        "en": "this game has no press (press: none).",
        "fr": "cette partie n'a pas de presse (press: none).",
    },
    "press.white_only": {
        "en": "anonymous press is not allowed in this game (white press: every message is signed).",
        "fr": "la presse anonyme n'est pas permise dans cette partie (presse blanche : tout message est signé).",
    },
    "press.retreats": {
        "en": "press is not allowed during retreats in this game.",
        "fr": "la presse n'est pas permise pendant les retraites dans cette partie.",
    },
    "press.after_deadline": {
        "en": "press is allowed only before the deadline ({due}) in this game.",
        "fr": "la presse n'est permise qu'avant la date limite ({due}) dans cette partie.",
    },
    "press.unclosed": {
        "en": "no 'end press' line: nothing was relayed, so that no order below it is sent by mistake.",
        "fr": "aucune ligne « fin presse » : rien n'a été relayé, pour qu'aucun ordre placé après ne parte par erreur.",
    },
    "press.empty": {"en": "the press has no text: nothing relayed.", "fr": "la presse est vide : rien n'a été relayé."},
    "press.unknown_recipient": {
        "en": "no gang or power called '{names}'; the names are: {known}.",
        "fr": "aucun gang ni puissance ne s'appelle « {names} » ; les noms sont : {known}.",
    },
    "press.no_recipient": {
        "en": "name at least one other gang after 'press to', or use 'broadcast'.",
        "fr": "nommez au moins un autre gang après « presse à », ou utilisez « diffusion ».",
    },
    "press.anonymous_sender": {"en": "an anonymous gang", "fr": "un gang anonyme"},
    "press.everyone": {"en": "everyone", "fr": "tout le monde"},
    "press.head": {
        "en": "Press from {sender} to {to}, {turn}, relayed by the referee:",
        "fr": "Presse de {sender} à {to}, {turn}, relayée par l'arbitre :",
    },
    "press.how_to_answer": {
        "en": "To answer, write to the referee (not by replying to this address's sender): "
        "'press to GANG' ... 'end press'.",
        "fr": "Pour répondre, écrivez à l'arbitre : « presse à GANG » ... « fin presse ».",
    },
    "press.how_to_answer_anonymous": {
        "en": "The sender chose to stay anonymous. To speak to everyone: 'broadcast' ... 'end'.",
        "fr": "L'expéditeur a choisi l'anonymat. Pour parler à tous : « diffusion » ... « fin ».",
    },
    "subject.press": {"en": "{prefix} {turn}: press from {sender}", "fr": "{prefix} {turn} : presse de {sender}"},
    "subject.broadcast": {
        "en": "{prefix} {turn}: broadcast from {sender}",
        "fr": "{prefix} {turn} : diffusion de {sender}",
    },
    "press.sent": {"en": "relayed to {to}.", "fr": "relayée à {to}."},
    "press.sent_some": {
        "en": "{sent} Not mailed to {missing}: no address in the game (kept in their log).",
        "fr": "{sent} Non envoyée à {missing} : aucune adresse dans la partie (gardée dans leur journal).",
    },
    "press.broadcast_sent": {
        "en": "relayed to every player and observer.",
        "fr": "relayée à tous les joueurs et observateurs.",
    },
    # -- draws and concessions -----------------------------------------------------------------
    "vote.draw": {"en": "proposal {n}: a draw shared by {gangs}", "fr": "proposition {n} : une nulle entre {gangs}"},
    "vote.concession": {
        "en": "proposal {n}: a concession of the game to {gang}",
        "fr": "proposition {n} : la partie concédée à {gang}",
    },
    "vote.game_over": {
        "en": "the game has already ended by a vote.",
        "fr": "la partie est déjà terminée par un vote.",
    },
    "vote.eliminated_proposer": {
        "en": "only a surviving gang may propose a draw or a concession.",
        "fr": "seul un gang encore en jeu peut proposer une nulle ou une concession.",
    },
    "vote.bad_date": {
        "en": "the deadline could not be read: write it as 'by 2024-03-10' or 'by 2024-03-10 18:00' (UTC).",
        "fr": "la date limite est illisible : écrivez « avant 2024-03-10 » ou « avant 2024-03-10 18:00 » (UTC).",
    },
    "vote.not_survivor": {
        "en": "no longer in the game: {gangs}.",
        "fr": "plus en jeu : {gangs}.",
    },
    "vote.concede_one": {
        "en": "name the one gang you concede the game to (not your own): 'concede to GANG'.",
        "fr": "nommez le gang auquel vous concédez la partie (pas le vôtre) : « concéder à GANG ».",
    },
    "vote.deadline_range": {
        "en": "the deadline ({deadline}) must be in the future, and within 60 days.",
        "fr": "la date limite ({deadline}) doit être à venir, et dans les 60 jours.",
    },
    "vote.same_open": {
        "en": "the same proposal is already open (number {n}): vote on it with 'vote yes {n}'.",
        "fr": "la même proposition est déjà ouverte (numéro {n}) : votez avec « vote oui {n} ».",
    },
    "vote.opened": {
        "en": "{what} is open until {deadline}; your vote is yes. Every surviving gang is asked to vote "
        "'vote yes {n}' or 'vote no {n}'.",
        "fr": "{what} est ouverte jusqu'au {deadline} ; votre vote est oui. Chaque gang en jeu est invité à voter "
        "« vote oui {n} » ou « vote non {n} ».",
    },
    "vote.how": {
        "en": "write 'vote yes N' or 'vote no N', N being the proposal's number.",
        "fr": "écrivez « vote oui N » ou « vote non N », N étant le numéro de la proposition.",
    },
    "vote.eliminated": {
        "en": "your gang is no longer in the game: it does not vote.",
        "fr": "votre gang n'est plus en jeu : il ne vote pas.",
    },
    "vote.no_such": {"en": "there is no proposal {n}.", "fr": "il n'y a pas de proposition {n}."},
    "vote.which": {
        "en": "several proposals are open: give the number ('vote yes N').",
        "fr": "plusieurs propositions sont ouvertes : donnez le numéro (« vote oui N »).",
    },
    "vote.none_open": {"en": "no proposal is open.", "fr": "aucune proposition n'est ouverte."},
    "vote.not_voter": {
        "en": "your gang does not vote on proposal {n} (it was not in the game when the proposal opened).",
        "fr": "votre gang ne vote pas sur la proposition {n} (il n'était pas en jeu à son ouverture).",
    },
    "vote.closed": {"en": "proposal {n} ended on {when}.", "fr": "la proposition {n} s'est terminée le {when}."},
    "vote.recorded_yes": {
        "en": "your vote on proposal {n} is yes (secret; you may change it until {deadline}).",
        "fr": "votre vote sur la proposition {n} est oui (secret ; modifiable jusqu'au {deadline}).",
    },
    "vote.recorded_no": {
        "en": "your vote on proposal {n} is no (secret; you may change it until {deadline}).",
        "fr": "votre vote sur la proposition {n} est non (secret ; modifiable jusqu'au {deadline}).",
    },
    "vote.status_line": {"en": "Open: {what}, until {deadline}.", "fr": "Ouverte : {what}, jusqu'au {deadline}."},
    "vote.yours_yes": {"en": "Your vote: yes.", "fr": "Votre vote : oui."},
    "vote.yours_no": {"en": "Your vote: no.", "fr": "Votre vote : non."},
    "vote.yours_none": {"en": "You have not voted yet.", "fr": "Vous n'avez pas encore voté."},
    "vote.notice_open": {
        "en": "A vote is open: {what}. It passes only if every surviving gang votes yes before {deadline}. "
        "Votes are secret. Send 'vote yes {n}' or 'vote no {n}' with your gang line and password.",
        "fr": "Un vote est ouvert : {what}. Elle n'est adoptée que si chaque gang en jeu vote oui avant le "
        "{deadline}. Les votes sont secrets. Envoyez « vote oui {n} » ou « vote non {n} » avec votre ligne de "
        "gang et votre mot de passe.",
    },
    "vote.notice_remind": {
        "en": "Reminder: {what} ends at {deadline}. Send 'vote yes {n}' or 'vote no {n}'.",
        "fr": "Rappel : {what} se termine le {deadline}. Envoyez « vote oui {n} » ou « vote non {n} ».",
    },
    "vote.passed_draw": {
        "en": "Passed: {what}, by the vote of every surviving gang on {when}. The game ends in this draw.",
        "fr": "Adoptée : {what}, par le vote de chaque gang en jeu le {when}. La partie se termine sur cette nulle.",
    },
    "vote.passed_concession": {
        "en": "Passed: {what}, by the vote of every surviving gang on {when}. The game ends.",
        "fr": "Adoptée : {what}, par le vote de chaque gang en jeu le {when}. La partie se termine.",
    },
    "vote.failed": {
        "en": "Not passed: {what}. At its deadline ({when}) not every surviving gang had voted yes. The game goes on.",
        "fr": "Non adoptée : {what}. À sa date limite ({when}), les gangs en jeu n'avaient pas tous voté oui. "
        "La partie continue.",
    },
    "subject.vote_open": {"en": "{prefix} vote {n} is open", "fr": "{prefix} le vote {n} est ouvert"},
    "subject.vote_remind": {"en": "{prefix} vote {n}: reminder", "fr": "{prefix} vote {n} : rappel"},
    "subject.vote_bulletin": {
        "en": "{prefix} bulletin: the result of vote {n}",
        "fr": "{prefix} bulletin : le résultat du vote {n}",
    },
    # -- status, history, help, observe ---------------------------------------------------------
    "status.done": {"en": "the game as it stands:", "fr": "la partie en ce moment :"},
    "status.turn": {"en": "Turn: {turn}.", "fr": "Tour : {turn}."},
    "status.in": {"en": "Orders received from: {gangs}.", "fr": "Ordres reçus de : {gangs}."},
    "status.waiting": {"en": "Orders awaited from: {gangs}.", "fr": "Ordres attendus de : {gangs}."},
    "status.nobody": {"en": "none", "fr": "aucun"},
    "status.press.none": {"en": "Press: none.", "fr": "Presse : aucune."},
    "status.press.white": {"en": "Press: white (signed).", "fr": "Presse : blanche (signée)."},
    "status.press.grey": {
        "en": "Press: grey (anonymous allowed).",
        "fr": "Presse : grise (anonymat permis).",
    },
    "history.none": {"en": "no turn has been played yet.", "fr": "aucun tour n'a encore été joué."},
    "history.turns": {"en": "turns played: {turns}.", "fr": "tours joués : {turns}."},
    "history.how": {
        "en": "Send 'history TURN' (e.g. 'history spring-1924') for that turn's bulletin.",
        "fr": "Envoyez « historique TOUR » (par ex. « historique printemps 1924 ») pour le bulletin de ce tour.",
    },
    "history.unknown": {
        "en": "no turn '{turn}' has been played; the turns played are: {turns}.",
        "fr": "aucun tour « {turn} » n'a été joué ; les tours joués sont : {turns}.",
    },
    "history.no_bulletin": {
        "en": "the bulletin of {turn} is not written yet.",
        "fr": "le bulletin de {turn} n'est pas encore écrit.",
    },
    "history.bulletin": {"en": "the bulletin of {turn}:", "fr": "le bulletin de {turn} :"},
    "help.done": {"en": "the commands:", "fr": "les commandes :"},
    "help.cmd.press": {
        "en": "{keyword} to GANG, GANG [anonymous] ... end press: a private message",
        "fr": "{keyword} à GANG, GANG [anonyme] ... fin presse : un message privé",
    },
    "help.cmd.broadcast": {
        "en": "{keyword} [anonymous] ... end: a message to everyone",
        "fr": "{keyword} [anonyme] ... fin : un message à tous",
    },
    "help.cmd.draw": {
        "en": "{keyword} [all | GANG, GANG] [by DATE]: propose a draw",
        "fr": "{keyword} [tous | GANG, GANG] [avant DATE] : proposer une nulle",
    },
    "help.cmd.concede": {
        "en": "{keyword} to GANG [by DATE]: propose to concede the game",
        "fr": "{keyword} à GANG [avant DATE] : proposer de concéder la partie",
    },
    "help.cmd.vote": {
        "en": "{keyword} yes|no N: your secret vote on proposal N",
        "fr": "{keyword} oui|non N : votre vote secret sur la proposition N",
    },
    "help.cmd.status": {
        "en": "{keyword}: the turn, its deadline, open votes",
        "fr": "{keyword} : le tour, sa date limite, les votes ouverts",
    },
    "help.cmd.history": {
        "en": "{keyword} [TURN]: the turns played, a turn's bulletin",
        "fr": "{keyword} [TOUR] : les tours joués, le bulletin d'un tour",
    },
    "help.cmd.help": {"en": "{keyword}: this list", "fr": "{keyword} : cette liste"},
    "help.cmd.predict": {
        "en": "{keyword} ... end predict: adjudicate orders you give for every gang, without touching the game",
        "fr": "{keyword} ... fin prédire : arbitrer les ordres que vous donnez pour chaque gang, "
        "sans toucher à la partie",
    },
    "help.cmd.observe": {"en": "{keyword}: ask to follow the game", "fr": "{keyword} : demander à suivre la partie"},
    "help.more": {
        "en": "Commands go in the same message as orders, with the gang line and password (help, observe: by anyone).",
        "fr": "Les commandes vont dans le même message que les ordres, avec la ligne de gang et le mot de passe "
        "(aide, observer : par tous).",
    },
    "predict.unclosed": {
        "en": "no 'end predict' line: nothing was adjudicated (the orders after it are read as your orders).",
        "fr": "aucune ligne « fin prédire » : rien n'a été arbitré.",
    },
    "predict.no_gang": {
        "en": "line {n}: no gang called '{name}'.",
        "fr": "ligne {n} : aucun gang ne s'appelle « {name} ».",
    },
    "predict.bad_line": {"en": "line {n}: {text}: {reason}", "fr": "ligne {n} : {text} : {reason}"},
    "predict.refused": {
        "en": "nothing was adjudicated: {n} line(s) of the prediction are no order of any gang on the board:",
        "fr": "rien n'a été arbitré : {n} lignes de la prédiction ne sont l'ordre d'aucun gang sur la carte :",
    },
    "predict.refused#one": {
        "en": "nothing was adjudicated: a line of the prediction is no order of any gang on the board:",
        "fr": "rien n'a été arbitré : une ligne de la prédiction n'est l'ordre d'aucun gang sur la carte :",
    },
    "predict.empty": {"en": "the prediction holds no order.", "fr": "la prédiction ne contient aucun ordre."},
    "predict.done": {
        "en": "{n} order(s) adjudicated on this turn's position, without touching the game; the result and the "
        "map picture are mailed to you separately.",
        "fr": "{n} ordres arbitrés sur la position de ce tour, sans toucher à la partie ; le résultat et la carte "
        "vous sont envoyés à part.",
    },
    "predict.head": {
        "en": "Prediction for {turn}: the orders you gave, adjudicated on this turn's position (units without an "
        "order hold). Nothing in the game has changed.",
        "fr": "Prédiction pour {turn} : les ordres que vous avez donnés, arbitrés sur la position de ce tour (les "
        "unités sans ordre tiennent). Rien n'a changé dans la partie.",
    },
    "predict.no_order": {"en": "{unit} (no order: holds)", "fr": "{unit} (sans ordre : tient)"},
    "predict.ok": {"en": "succeeds", "fr": "réussit"},
    "predict.failed": {"en": "fails", "fr": "échoue"},
    "predict.disbanded": {"en": "disbanded", "fr": "renvoyé"},
    "predict.dislodged": {"en": "{unit} is dislodged by {by}: {where}.", "fr": "{unit} est délogé par {by} : {where}."},
    "predict.skipped": {
        "en": "Not adjudicated (sales, bids, recruits, disbands), lines: {lines}.",
        "fr": "Non arbitrés (ventes, pots-de-vin, recrutements, renvois), lignes : {lines}.",
    },
    "predict.note": {
        "en": "The real result depends on the orders the gangs really send, and the raid on the turn's secret draw.",
        "fr": "Le vrai résultat dépend des ordres réellement envoyés par les gangs, et la descente du tirage "
        "secret du tour.",
    },
    "predict.note_classic": {
        "en": "The real result depends on the orders the powers really send.",
        "fr": "Le vrai résultat dépend des ordres réellement envoyés par les puissances.",
    },
    "predict.title": {"en": "Prediction, {turn}", "fr": "Prédiction, {turn}"},
    "subject.predict": {"en": "{prefix} {turn}: your prediction", "fr": "{prefix} {turn} : votre prédiction"},
    "observe.already": {"en": "you are an observer of this game.", "fr": "vous êtes observateur de cette partie."},
    "observe.player": {"en": "you play in this game.", "fr": "vous jouez dans cette partie."},
    "observe.asked": {
        "en": "your request was passed to the game master, who lists the observers.",
        "fr": "votre demande a été transmise au meneur de jeu, qui tient la liste des observateurs.",
    },
}
