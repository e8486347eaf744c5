"""Words compared as players type them: ``fold`` makes a word lower case, without
accents, its typographic apostrophe a plain one, so that ``État``, ``etat`` and
``ÉTAT`` are the same word. The order readers compare keywords and names in this
form (``moonshine.variants.moonshine.parser.lexer``, the classic acknowledgement), so
do the test for chatter (``moonshine.text.chatter``) and the reader of every mail
command, a game's or the lobby's (``moonshine.mail.commands.grammar``)."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lower case without accents: the form keywords and names are compared in."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
