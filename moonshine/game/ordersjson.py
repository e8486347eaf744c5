"""Orders sent as JSON (``docs/orders.schema.json``, ``docs/orders-json.md``) made into
the orders text of a game, which the game's family then reads as any orders text:
the acknowledgement and the receipt are those of the same orders typed.

``orders_text_from_json`` is what the mail's reader calls for a JSON attachment or
body (``moonshine.mail.intake.json_documents`` finds them; ``looks_like_json`` tells a
text meant as one), and ``moonshine check FILE.json`` (``moonshine.game.acknowledge``)
for a file; ``envelope`` reads a document's game (for a judge's routing) and password
(masked in what is written) before it is checked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from moonshine.variants.ordersjson import OrdersJsonError as OrdersJsonError
from moonshine.variants.ordersjson import check_game, orders_text, parse, validate
from moonshine.variants.ordersjson import envelope as envelope
from moonshine.variants.ordersjson import is_other_document as is_other_document
from moonshine.variants.ordersjson import looks_like_json as looks_like_json

if TYPE_CHECKING:
    from moonshine.game.directory import Game


def orders_text_from_json(game: Game, raw: bytes, *, password: str | None = None) -> str:
    """The orders text that the JSON document ``raw`` stands for in ``game``: its
    side's and turn's header lines (and its password's, else ``password``'s when given:
    the password line of the mail that carried it), then an order a line, in the
    game's rule family's canonical notation. Raises ``OrdersJsonError`` (a
    ``MoonshineError``) for bytes that are not a JSON document of orders for this game:
    its ``problems`` say where (a JSON pointer), what is wrong and what to do, and its
    ``text(language)`` words them for the sender. Bounded: ``raw`` of more than
    ``moonshine.variants.ordersjson.MAX_BYTES`` bytes is refused unread."""
    forms = game.layout.orders_json
    doc = parse(raw)
    problems = validate(doc, forms)
    if not problems:
        problems = check_game(doc, (game.config.title, game.root.resolve().name))
    if problems:
        raise OrdersJsonError(problems)
    return orders_text(doc, forms, game.layout.side, password)
