"""Orders as JSON (issue 41, docs/orders.schema.json): a document becomes the text of
the same orders, whose acknowledgement and receipt are those of the orders typed, in
both families; a document that is not JSON, or does not fit the schema, is answered
with where (a JSON pointer), what and a suggestion, in the reader's language; the
reading is bounded; and the hand-written validator agrees with the published schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from frtypo import checked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repokit import ROOT

from moonshine.cli import main
from moonshine.game.directory import Game
from moonshine.game.families import new_game
from moonshine.game.ordersjson import OrdersJsonError, looks_like_json, orders_text_from_json
from moonshine.variants import ordersjson
from moonshine.variants.classic.ordersjson import FORMS as CLASSIC
from moonshine.variants.moonshine.ordersjson import FORMS as MOONSHINE

SCHEMA = json.loads((ROOT / "docs" / "orders.schema.json").read_text(encoding="utf-8"))
FORMS = {"moonshine": MOONSHINE, "classic": CLASSIC}


def document(family: str, game: str, side: str, turn: str, orders: list[Any], **more: Any) -> dict[str, Any]:
    return {
        "format": "moonshine-orders",
        "version": 1,
        "family": family,
        "game": game,
        "side": side,
        "turn": turn,
        "orders": orders,
        **more,
    }


def raw(doc: Any) -> bytes:
    return json.dumps(doc).encode("utf-8")


@pytest.fixture(scope="module")
def chicago(tmp_path_factory: pytest.TempPathFactory) -> Game:
    from samplegame import copy_sample

    return Game(copy_sample(tmp_path_factory.mktemp("json") / "chicago"))


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return new_game(tmp_path_factory.mktemp("json") / "classic-1", variant="classic", use_git=False)


# Every type of order of each family, and the canonical line each stands for.
MOONSHINE_ORDERS = [
    ({"type": "move", "unit": "H LOO", "to": "NSS"}, "H LOO - NSS"),
    ({"type": "hold", "unit": "L KEN"}, "L KEN hold"),
    ({"type": "move", "unit": "L FIV", "to": "GRA", "path": ["KEN"]}, "L FIV - KEN - GRA"),
    ({"type": "move", "unit": "H HYD", "to": "BRO", "via": ["NSS", "GRA"]}, "H HYD - BRO via NSS, GRA"),
    ({"type": "support", "unit": "L BRO", "target": "H LOO"}, "L BRO / H LOO"),
    ({"type": "support", "unit": "L BRO", "target": "H LOO", "to": "NSS"}, "L BRO / H LOO - NSS"),
    ({"type": "support", "unit": "L BRO", "target": "H LOO", "assault": "NSS"}, "L BRO / H LOO x NSS"),
    ({"type": "transport", "unit": "L NSS", "target": "H LOO", "to": "BRO"}, "L NSS -> H LOO - BRO"),
    ({"type": "assault", "unit": "H LOO", "station": "NSS"}, "H LOO x NSS"),
    ({"type": "retreat", "unit": "H LOO", "to": ["NSS", "GRA"]}, "retreat H LOO - NSS, GRA"),
    ({"type": "recruit", "unit": "H BRO"}, "recruit H BRO"),
    ({"type": "disband", "unit": "L GRA"}, "disband L GRA"),
    ({"type": "sell", "crates": 8}, "sell 8"),
    ({"type": "sell", "crates": 8.0}, "sell 8"),
    ({"type": "sell", "crates": "all"}, "sell all"),
    ({"type": "store", "warehouses": ["HYD", "NOC"]}, "store HYD, NOC"),
    ({"type": "bribe", "station": "LOG", "amount": 4.5}, "bribe LOG 4.50"),
    ({"type": "bribe", "station": "LOG", "amount": 12}, "bribe LOG 12"),
    ({"type": "bribe", "station": "LOG", "amount": 4.25}, "bribe LOG 4.25"),  # the reader refuses it, with its reason
    ({"text": "  recruter H BRO  "}, "recruter H BRO"),
]
CLASSIC_ORDERS = [
    ({"type": "hold", "unit": "A PAR"}, "A PAR H"),
    ({"type": "move", "unit": "F STP/SC", "to": "BOT"}, "F STP/SC - BOT"),
    ({"type": "move", "unit": "A LON", "to": "NWY", "via_convoy": True}, "A LON - NWY via convoy"),
    ({"type": "move", "unit": "A LON", "to": "NWY", "via_convoy": False}, "A LON - NWY"),
    ({"type": "support", "unit": "A MUN", "target": "A PAR"}, "A MUN S A PAR"),
    ({"type": "support", "unit": "A MUN", "target": "PAR", "to": "BUR"}, "A MUN S PAR - BUR"),
    ({"type": "convoy", "unit": "F NTH", "target": "A LON", "to": "NWY"}, "F NTH C A LON - NWY"),
    ({"type": "retreat", "unit": "A PAR", "to": "BUR"}, "A PAR R BUR"),
    ({"type": "disband", "unit": "A PAR"}, "A PAR D"),
    ({"type": "build", "unit": "F STP/NC"}, "F STP/NC B"),
    ({"type": "waive"}, "WAIVE"),
    ({"text": "A PAR - BUR"}, "A PAR - BUR"),
]


@pytest.mark.parametrize(("family", "cases"), [("moonshine", MOONSHINE_ORDERS), ("classic", CLASSIC_ORDERS)])
def test_every_order_object_stands_for_its_canonical_line(family: str, cases: list[tuple[dict[str, Any], str]]) -> None:
    forms = FORMS[family]
    assert {c["type"] for c, _ in cases if "type" in c} == set(forms.shapes)  # every type of the family
    doc = document(family, "g", "side", "turn", [c for c, _ in cases], password="pass word")
    assert ordersjson.validate(doc, forms) == []
    side = "gang" if family == "moonshine" else "power"
    lines = [f"{side}: side", "turn: turn", "password: pass word", *(line for _, line in cases)]
    assert ordersjson.orders_text(doc, forms, side) == "".join(f"{line}\n" for line in lines)


def check(game: Game, path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", str(path), "--game", str(game.root), *args])
    return result.exit_code, result.output


def test_json_orders_are_acknowledged_as_the_same_orders_typed(chicago: Game, tmp_path: Path) -> None:
    orders = [c for c, _ in MOONSHINE_ORDERS[:3]] + [{"type": "bribe", "station": "LOG", "amount": 4.5}]
    doc = document("moonshine", "sample GAME: chicago, 1924", "Valley Gang", "spring-1924", orders)
    text = orders_text_from_json(chicago, raw(doc))
    assert text.startswith("gang: Valley Gang\nturn: spring-1924\nH LOO - NSS\n")
    (tmp_path / "valley.json").write_bytes(raw(doc))
    (tmp_path / "valley.txt").write_text(text, encoding="utf-8")
    for language in ("en", "fr"):
        code, ack = check(chicago, tmp_path / "valley.json", "--language", language)
        code_text, ack_text = check(chicago, tmp_path / "valley.txt", "--language", language)
        assert (code, ack.replace("valley.json", "valley.txt")) == (code_text, ack_text)
        assert "Receipt: " in ack or "Reçu" in ack
    assert "H LOO - NSS" in ack and "rejected" not in ack_text.lower()


def test_a_classic_power_sends_json_too(classic: Game, tmp_path: Path) -> None:
    orders = [
        {"type": "move", "unit": "A PAR", "to": "BUR"},
        {"type": "support", "unit": "A MAR", "target": "A PAR", "to": "BUR"},
        {"text": "F BRE - MAO"},
    ]
    doc = document("classic", "Classic-1", "France", "spring-1901", orders)
    (tmp_path / "fra.json").write_bytes(raw(doc))
    (tmp_path / "fra.txt").write_text(orders_text_from_json(classic, raw(doc)), encoding="utf-8")
    code, ack = check(classic, tmp_path / "fra.json")
    assert code == 0, ack
    assert ack == check(classic, tmp_path / "fra.txt")[1].replace("fra.txt", "fra.json")
    assert "A MAR S A PAR - BUR" in ack and "Every unit has an order." in ack


def test_the_receipt_covers_the_same_canonical_orders(chicago: Game) -> None:
    from moonshine.game import families

    objects = document("moonshine", chicago.root.name, "valley", "spring-1924", [c for c, _ in MOONSHINE_ORDERS[:2]])
    texts = document(
        "moonshine", chicago.root.name, "valley", "spring-1924", [{"text": "h loo -> nss"}, {"text": "L KEN tient"}]
    )
    st = chicago.load_state("spring-1924")
    acks = []
    for doc in (objects, texts):
        got = families.of(chicago).check_orders(
            orders_text_from_json(chicago, raw(doc)), chicago, st, None, source="mail", language="en"
        )
        assert (got.header_gang, got.header_turn, got.accepted, got.rejected) == ("valley", "spring-1924", 2, 0)
        acks.append(got.acknowledgement)
    receipt = [line for line in acks[0].splitlines() if line.startswith("Receipt: ")]
    assert receipt and receipt == [line for line in acks[1].splitlines() if line.startswith("Receipt: ")]


def test_the_password_is_given_as_a_password_line(chicago: Game) -> None:
    from moonshine.game import families

    doc = document("moonshine", chicago.root.name, "valley", "spring-1924", [], password=" secret words 12 ")
    text = orders_text_from_json(chicago, raw(doc))
    got = families.of(chicago).check_orders(
        text, chicago, chicago.load_state("spring-1924"), None, source="m", language="en"
    )
    assert got.password == "secret words 12" and got.password_lines == (3,)
    assert "secret words" not in got.acknowledgement


def problems(game: Game, data: bytes) -> list[str]:
    with pytest.raises(OrdersJsonError) as caught:
        orders_text_from_json(game, data)
    return caught.value.text("en").splitlines()


def test_a_document_that_does_not_fit_says_where_what_and_what_to_do(chicago: Game) -> None:
    good = document("moonshine", chicago.root.name, "valley", "spring-1924", [{"type": "hold", "unit": "H LOO"}])
    bad = dict(good, version=2, turns="spring-1924")
    del bad["turn"]
    bad["orders"] = [
        {"type": "mvoe", "unit": "H LOO", "to": "NSS"},
        {"type": "move", "unit": "H loo", "dest": "NSS"},
        {"type": "support", "unit": "L BRO", "target": "H LOO", "to": "NSS", "assault": "NSS"},
        {"type": "sell", "crates": -1},
        {"type": "bribe", "station": "LOG", "amount": "4.50"},
        {"text": "H LOO - NSS\ngang: outfit"},
        {"text": "H LOO", "type": "hold"},
        "H LOO hold",
        {},
    ]
    assert problems(chicago, raw(bad)) == [
        "/turns: unknown key (did you mean turn?)",
        "the document: missing turn (the turn, such as spring-1924)",
        "/version: expected 1 (found 2)",
        '/orders/0/type: unknown type of order "mvoe" (did you mean move?)',
        "/orders/1/dest: unknown key (expected one of unit, to, path, via)",
        '/orders/1/unit: expected a unit such as H LOO (found "H loo")',
        "/orders/1: missing to (a district such as NSS)",
        "/orders/2: to and assault together (keep one)",
        '/orders/3/crates: expected a whole number of crates from 0 to 100000, or "all" (found -1)',
        '/orders/4/amount: expected a number of dollars above 0, such as 4.5 (found "4.50")',
        '/orders/5/text: expected one line of text (found "H LOO - NSS\\ngang: outfit")',
        "/orders/6/type: unknown key (an order given as text has its text alone)",
        '/orders/7: expected an order: an object with a type, or with a text (found "H LOO hold")',
        '/orders/8: an order has a type, or a text (such as {"type": "hold", "unit": "..."} or {"text": "..."})',
    ]
    assert problems(chicago, raw(dict(good, family="classic"))) == [
        "/family: this game plays the moonshine rules (write moonshine, and its orders)"
    ]
    assert problems(chicago, raw(dict(good, game="Another game"))) == [
        '/game: these orders are for the game "Another game" (this game is "Sample game: Chicago, 1924")'
    ]
    header = dict(good, orders=[{"text": "Password: hunter2"}])
    assert problems(chicago, raw(header)) == [
        "/orders/0/text: a header line (the side, the turn and the password are keys of the document)"
    ]
    keys = "format, version, family, game, side, turn, orders"
    found = json.dumps([good])[:37] + "..."
    assert problems(chicago, raw([good])) == [f"the document: expected a JSON object with {keys} (found {found})"]


def test_what_is_not_json_is_answered_without_reading_more(chicago: Game) -> None:
    assert problems(chicago, b'{"format": "moonshine-orders",\n "orders": [,]}') == [
        "the document: not JSON: Expecting value (line 2, column 13) (check the commas, quotes and brackets there)"
    ]
    assert problems(chicago, b'{"side": "valley", "side": "outfit"}') == [
        "the document: the key side appears twice in one object (keep one)"
    ]
    assert problems(chicago, b'{"orders": [{"type": "sell", "crates": NaN}]}') == [
        "the document: not JSON: NaN is not a number JSON allows"
    ]
    assert problems(chicago, b"{\xff}") == ["the document: not UTF-8 text (byte 1) (save the file as UTF-8)"]
    deep = b"{" + b'"a":[' * 10_000 + b"]" * 10_000 + b"}"
    assert problems(chicago, deep) == ["the document: nested more than 8 levels deep"]
    big = b'{"orders": "' + b"x" * ordersjson.MAX_BYTES + b'"}'
    assert problems(chicago, big) == [f"the document: {len(big)} bytes: a document of orders is at most 65536 bytes"]
    assert problems(chicago, b'{"a": ' + b"9" * 5000 + b"}")[0].startswith("the document: not JSON: Exceeds the limit")
    many = document("moonshine", "x", "valley", "spring-1924", [{"type": "hold", "unit": "X"}] * 30)
    lines = problems(chicago, raw(many))
    assert len(lines) == ordersjson.MAX_PROBLEMS + 1 and lines[-1] == "problems not listed: 10"


def test_the_depth_is_read_outside_strings() -> None:
    assert ordersjson.depth('{"a": "[[[[{{{{", "b": [{"c": "\\"]]]]"}]}') == 3
    assert ordersjson.depth("[]") == 1 and ordersjson.depth('"{"') == 0


def test_the_answer_is_worded_in_the_readers_language(chicago: Game, tmp_path: Path) -> None:
    bad = document("moonshine", chicago.root.name, "valley", "spring-1924", [{"type": "mvoe", "unit": "H LOO"}])
    path = tmp_path / "bad.json"
    path.write_bytes(raw(bad))
    code, out = check(chicago, path, "--language", "fr")
    assert code == 1
    assert checked(out).endswith('  /orders/0/type : type d\'ordre inconnu "mvoe" (vouliez-vous dire move ?)\n')


def test_looks_like_json() -> None:
    assert looks_like_json(b'\xef\xbb\xbf \n {"format": 1}')
    assert not looks_like_json(b"gang: valley\nH LOO - NSS\n") and not looks_like_json(b"")


# -- the validator and the published schema agree -----------------------------------------

jsonschema = pytest.importorskip("jsonschema")  # a dev dependency (pyproject.toml)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_the_schema_is_a_valid_schema_and_its_examples_fit_both() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for example in SCHEMA["examples"]:
        VALIDATOR.validate(example)
        assert ordersjson.validate(example, FORMS[example["family"]]) == []
    assert set(SCHEMA["required"]) == set(ordersjson.REQUIRED)
    assert set(SCHEMA["properties"]) == {*ordersjson.REQUIRED, *ordersjson.OPTIONAL}
    for family, forms in FORMS.items():
        names = {d.split(":", 1)[1] for d in SCHEMA["$defs"] if d.startswith(f"{family}:")}
        assert names == set(forms.shapes)


def test_the_documented_examples_in_the_guide_fit(chicago: Game) -> None:
    guide = (ROOT / "docs" / "orders-json.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in guide.split("```json\n")[1:]]
    assert len(blocks) >= 2
    for block in blocks:
        doc = json.loads(block)
        VALIDATOR.validate(doc)
        assert ordersjson.validate(doc, FORMS[doc["family"]]) == []


_CODES = st.sampled_from(["LOO", "NSS", "PAR", "STP/SC", "BUR", "loo", "LOOO", "", "L", "LOO\n", "A PAR", "H LOO"])
_UNITS = st.sampled_from(
    ["H LOO", "L NSS", "A PAR", "F STP/SC", "F STP/XC", "h loo", "H  LOO", "H LOO\n", "LOO", "PAR", ""]
)
_TEXTS = st.sampled_from(["H LOO hold", "", " ", "x" * 300, "x" * 301, "a\tb", "a\u2028b", "a\x85b", "fin\n", "é"])
_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False),
    st.just(1.0),
    st.just(2.5),
    st.just([]),
    st.just({}),
    st.just("all"),
    st.just("ALL"),
    _TEXTS,
    _CODES,
    _UNITS,
    st.lists(_CODES, max_size=3),
)
_KEYS = [
    "type",
    "unit",
    "to",
    "target",
    "path",
    "via",
    "assault",
    "station",
    "retreat",
    "crates",
    "warehouses",
    "amount",
    "via_convoy",
    "text",
    "dest",
]


@st.composite
def order_objects(draw: st.DrawFn) -> Any:
    """An order: a valid one of either family, or one changed at random."""
    base = dict(draw(st.sampled_from([c for c, _ in MOONSHINE_ORDERS + CLASSIC_ORDERS])))
    for _ in range(draw(st.integers(0, 2))):
        action = draw(st.sampled_from(["drop", "set", "type"]))
        if action == "drop" and base:
            base.pop(draw(st.sampled_from(sorted(base))))
        elif action == "set":
            base[draw(st.sampled_from(_KEYS))] = draw(st.one_of(_JUNK, _CODES, _UNITS, st.lists(_CODES, max_size=2)))
        else:
            base["type"] = draw(st.sampled_from([*MOONSHINE.shapes, *CLASSIC.shapes, "Move", 3]))
    return draw(st.one_of(st.just(base), st.just(base), st.just(base), _JUNK))


@st.composite
def documents(draw: st.DrawFn) -> Any:
    doc: dict[str, Any] = {
        "format": "moonshine-orders",
        "version": 1,
        "family": draw(st.sampled_from(["moonshine", "classic"])),
        "game": "g",
        "side": "s",
        "turn": "t",
        "orders": draw(st.lists(order_objects(), max_size=4)),
    }
    if draw(st.booleans()):
        doc["password"] = draw(_TEXTS)
    for _ in range(draw(st.integers(0, 2))):
        key = draw(st.sampled_from([*ordersjson.REQUIRED, "password", "turns", "extra"]))
        if draw(st.booleans()):
            doc.pop(key, None)
        else:
            doc[key] = draw(
                st.one_of(_JUNK, st.sampled_from(["moonshine-orders", "classic", "moonshine", 1, 1.0, True]))
            )
    if draw(st.integers(0, 9)) == 0:
        doc["orders"] = [{"type": "waive"}] * (ordersjson.MAX_ORDERS + draw(st.integers(0, 1)))
    return draw(st.one_of(st.just(doc), st.just(doc), st.just(doc), _JUNK))


# no deadline: a document of 201 orders checked by jsonschema takes 0.2 s on a busy machine,
# and this test is about agreement, not speed (the bounds have tests of their own)
@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(documents())
def test_the_validator_agrees_with_the_published_schema(doc: Any) -> None:
    family = doc.get("family") if isinstance(doc, dict) else None
    forms = FORMS.get(family, MOONSHINE) if isinstance(family, str) else MOONSHINE
    ours = ordersjson.validate(doc, forms)
    assert (ours == []) == VALIDATOR.is_valid(doc), (ours, [e.message for e in VALIDATOR.iter_errors(doc)][:3])


def test_the_guides_script_mails_a_document_the_judge_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python example of docs/orders-json.md, run with a stand-in for the SMTP
    server: the JSON it attaches is read in a game of that title as the same orders."""
    import email
    import sys
    import types

    guide = (ROOT / "docs" / "orders-json.md").read_text(encoding="utf-8")
    script = guide.split("```python\n", 1)[1].split("```", 1)[0]
    sent: list[Any] = []

    class Server:
        def __init__(self, host: str) -> None:
            self.host = host

        def __enter__(self) -> Server:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def login(self, user: str, password: str) -> None:
            pass

        def send_message(self, msg: Any) -> None:
            sent.append(msg)

    monkeypatch.setitem(sys.modules, "smtplib", types.SimpleNamespace(SMTP_SSL=Server))
    monkeypatch.setenv("MOONSHINE_PASSWORD", "correct horse battery 42")
    monkeypatch.setenv("SMTP_PASSWORD", "x")
    exec(compile(script, "docs/orders-json.md", "exec"), {"__name__": "guide"})
    (msg,) = sent
    mail = email.message_from_bytes(bytes(msg), policy=email.policy.default)
    (part,) = list(mail.iter_attachments())
    assert part.get_content_type() == "application/json"
    data = part.get_payload(decode=True)
    game = new_game(tmp_path / "game", use_git=False)
    text = orders_text_from_json(game, data)
    assert text.splitlines()[:3] == ["gang: valley", "turn: spring-1924", "H LOO - NSS"]
    assert "password: correct horse battery 42" in mail.get_body().get_content()
