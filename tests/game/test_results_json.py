"""The JSON attachment of every report mail (moonshine/game/results_json.py): mailed
through a real SMTP server with each gang's report and the bulletin, it
validates against docs/results.schema.json; the bulletin's holds no private
part, and a gang's holds its own and no other gang's. Also for a classic game."""

from __future__ import annotations

import json
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from gamekit import make_game
from playerkit import ADDRESSES, OBSERVER, TURN, make_table, message
from repokit import ROOT
from smtpkit import Recorder, Server

from moonshine.cli import main
from moonshine.engine import outcome as oc
from moonshine.game.directory import Game
from moonshine.text.catalogue import sentence

jsonschema = pytest.importorskip("jsonschema")  # a dev dependency (pyproject.toml)
SCHEMA = json.loads((ROOT / "docs" / "results.schema.json").read_text("utf-8"))


def attachments(recorder: Recorder, address: str) -> list[tuple[str, dict[str, Any]]]:
    """(subject, JSON document) of every JSON attachment ``address`` received."""
    out = []
    for _, rcpts, content in recorder.received:
        if address not in rcpts:
            continue
        msg = message_from_bytes(content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        for part in msg.iter_attachments():
            if part.get_content_type() == "application/json":
                payload = part.get_payload(decode=True)
                assert isinstance(payload, bytes)
                out.append((str(msg["Subject"]), json.loads(payload.decode("utf-8"))))
    return out


def run(game: Game, *args: str) -> None:
    result = CliRunner().invoke(main, [*args, "--game", str(game.root)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_report_mail_carries_the_turns_results_as_valid_json(tmp_path: Path, smtp: Server, language: str) -> None:
    recorder = smtp.recorder
    t = make_table(tmp_path, smtp, language=language)
    t.send(ADDRESSES["valley"][0], message("valley", "H LOO - LIT", "bribe LAK 1.50"))
    t.send(ADDRESSES["outfit"][0], message("outfit", "H LIN hold", "bribe LAK 2.50"))
    t.judge()
    run(t.game, "adjudicate", TURN, "--force", "--no-commit")
    run(t.game, "mail", TURN, "--send")
    for gang in ("valley", "outfit", "genna"):
        found = attachments(recorder, ADDRESSES[gang][0])
        private = [doc for _, doc in found if "private" in doc]
        public = [doc for _, doc in found if "private" not in doc]
        assert len(private) == 1 and len(public) == 1, gang  # its report and the bulletin
        for doc in (private[0], public[0]):
            jsonschema.validate(doc, SCHEMA)
            assert doc["turn"] == TURN and doc["public"]["sides"]["valley"]["units"]
        mine = private[0]["private"]
        assert mine["side"] == gang
        dump = json.dumps(private[0])
        for other, bid in (("valley", "bribe LAK 1.50"), ("outfit", "bribe LAK 2.50")):
            assert (bid in dump) == (other == gang), (gang, bid)  # its own order lines, no one else's
        assert "bribe" not in json.dumps(public[0])  # no order line of any gang in the public part
    valley = next(doc for _, doc in attachments(recorder, ADDRESSES["valley"][0]) if "private" in doc)
    assert [b["paid"] for b in valley["private"]["bids"]] == [1.5]
    assert any(line["understood"] == "H LOO - LIT" for line in valley["private"]["orders"])
    # observers get the bulletin's, public only
    [(_, watched)] = attachments(recorder, OBSERVER)
    assert "private" not in watched
    jsonschema.validate(watched, SCHEMA)


def test_a_classic_games_reports_carry_valid_json(tmp_path: Path, smtp: Server) -> None:
    recorder = smtp.recorder
    game = make_game(
        tmp_path / "c",
        variant="classic",
        seed=None,
        emails=lambda p: [f"{p.lower()}@powers.example"],
        smtp={"host": "127.0.0.1", "port": smtp.port, "security": "none", "from": "Ref <ref@x.example>", "timeout": 5},
    )
    orders = game.orders_dir("spring-1901")
    orders.mkdir(parents=True, exist_ok=True)
    (orders / "FRA.txt").write_text("A PAR - BUR\n", encoding="utf-8")
    run(game, "adjudicate", "spring-1901", "--force", "--no-commit")
    run(game, "mail", "spring-1901", "--send")
    found = attachments(recorder, "fra@powers.example")
    assert found
    for _, doc in found:
        jsonschema.validate(doc, SCHEMA)
        assert "private" not in doc  # a classic game's results are all public
    assert any(u["order"].startswith("A PAR") for _, doc in found for u in doc["public"]["sides"]["FRA"]["units"])


# -- the outcomes: every kind of moonshine.engine.outcome, with its fields, and nothing else ----------

BRO = oc.Force(("L BRO",), 1)
NSS = oc.Force(("H NSS",), 3, ("L BRO", "M LOO"))
PROBLEM = sentence("{unit} cannot move to {dest}", unit="H LOO", dest="CHI")
# one outcome of every kind, every field given a value other than its default
EVERY_KIND: list[oc.Result] = [
    oc.Held(against=("H CHI",)),
    oc.Recruited(),
    oc.Dislodged(by="H CHI - LOO"),
    oc.Rejected(PROBLEM, dislodged_by="H CHI - LOO"),
    oc.Moved("NSS", NSS, (BRO,), ("H LIN",), ("L BRO",), convoyed=True, circular=True),
    oc.HeadToHead(NSS, BRO, dislodged_by="H CHI - LOO"),
    oc.HeldOff(NSS, BRO, dislodged_by="H CHI - LOO"),
    oc.Bounced(NSS, (BRO, BRO), dislodged_by="H CHI - LOO"),
    oc.Blocked("H LIN", "LIN", head_to_head=True, dislodged_by="H CHI - LOO"),
    oc.NoRoute("NSS", ("L", "B"), ("LAK",), dislodged_by="H CHI - LOO"),
    oc.RouteBroken("paradox", ("L BRO",), dislodged_by="H CHI - LOO"),
    oc.Paradox("carrier", "szykman", dislodged_by="H CHI - LOO"),
    oc.SupportGiven(2),
    oc.SupportCut(("H CHI",), dislodged_by="H CHI - LOO"),
    oc.Void("elsewhere", "H LOO", "NSS", "CHI", dislodged_by="H CHI - LOO"),
    oc.Carried("H LOO", "NSS"),
    oc.RouteKept("H LOO", "NSS"),
    oc.NotNeeded("LOO", "NSS"),
    oc.CarrierDislodged("H CHI - LAK"),
    oc.StationTaken(3, 2),
    oc.StationHolds(1, 2, corrupted=True),
    oc.StoodOff(NSS, (BRO,)),
    oc.AssaultDislodged("H CHI - LOO"),
    oc.Retreated("LIN"),
    oc.NoRetreatGiven(),
    oc.NoUsableRetreat((oc.Refusal("LIN", PROBLEM),)),
    oc.RetreatClash("LIN", ("H CHI",)),
]


def outcome_valid(data: object) -> bool:
    """Whether ``data`` is an outcome by the schema (as a unit's result of a document)."""
    unit = {"order": "H LOO - NSS", "result": "failed", "reason": "", "outcome": data}
    doc = {"format": "moonshine-results", "version": 1, "game": "g", "variant": "moonshine", "turn": TURN}
    doc["public"] = {"sides": {"valley": {"name": "Valley", "units": [unit]}}, "next": {"turn": "fall-1924"}}
    return bool(jsonschema.Draft202012Validator(SCHEMA).is_valid(doc))


def test_the_schema_names_every_kind_of_outcome_and_its_fields() -> None:
    assert sorted(type(o).kind for o in EVERY_KIND) == sorted(oc.KINDS)
    described = {d["$ref"].removeprefix("#/$defs/outcome:") for d in SCHEMA["$defs"]["outcome"]["oneOf"]}
    assert described == set(oc.KINDS)
    for kind, cls in oc.KINDS.items():
        spec = SCHEMA["$defs"][f"outcome:{kind}"]
        fields = msgspec.structs.fields(cls)
        assert set(spec["properties"]) == {"kind"} | {f.name for f in fields}, kind
        assert set(spec["required"]) == {"kind"} | {f.name for f in fields if f.required}, kind
        assert spec["properties"]["kind"] == {"const": kind}


@pytest.mark.parametrize("value", EVERY_KIND, ids=lambda o: o.kind)
def test_every_kind_of_outcome_fits_the_schema(value: oc.Result) -> None:
    data = oc.to_data(value)
    assert outcome_valid(data), data
    assert outcome_valid(
        oc.to_data(type(value)(**{f.name: getattr(value, f.name) for f in msgspec.structs.fields(value)}))
    )


@pytest.mark.parametrize("value", EVERY_KIND, ids=lambda o: o.kind)
def test_a_corrupted_outcome_is_refused_by_the_schema(value: oc.Result) -> None:
    data = oc.to_data(value)
    assert not outcome_valid({**data, "kind": "teleported"})  # no such kind
    assert not outcome_valid({**data, "surprise": 1})  # a field no kind has
    for other, cls in oc.KINDS.items():  # relabelled as another kind whose fields differ
        names = {f.name for f in msgspec.structs.fields(cls)}
        needed = {f.name for f in msgspec.structs.fields(cls) if f.required}
        if other != value.kind and (set(data) - {"kind"} - names or needed - set(data)):
            assert not outcome_valid({**data, "kind": other}), other
    for name in data:
        if name != "kind":
            assert not outcome_valid({**data, name: {"wrong": "type"}}), name
    for f in msgspec.structs.fields(value):
        if f.required:
            assert not outcome_valid({k: v for k, v in data.items() if k != f.name}), f.name  # a missing field


def test_the_outcomes_in_a_mailed_document_fit_and_a_corrupted_one_is_refused(tmp_path: Path, smtp: Server) -> None:
    recorder = smtp.recorder
    t = make_table(tmp_path, smtp, language="en")
    t.send(ADDRESSES["valley"][0], message("valley", "H LOO - LIT"))
    t.judge()
    run(t.game, "adjudicate", TURN, "--force", "--no-commit")
    run(t.game, "mail", TURN, "--send")
    [doc] = [d for _, d in attachments(recorder, ADDRESSES["valley"][0]) if "private" in d]
    jsonschema.validate(doc, SCHEMA)
    units = doc["public"]["sides"]["valley"]["units"]
    kinds = {u["outcome"]["kind"] for u in units}
    assert kinds and kinds <= set(oc.KINDS)
    moved = next(u for u in units if u["order"] == "H LOO - LIT")
    assert moved["outcome"]["kind"] == "held off" and moved["outcome"]["against"]["units"] == ["H LIT"]
    del moved["outcome"]["attack"]  # a contest without its attacker
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)
    moved["outcome"] = {"kind": "vanished"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)
