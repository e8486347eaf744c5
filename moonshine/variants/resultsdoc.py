"""A turn's results as the JSON document players' tools read
(``docs/results.schema.json``): the public results (what the bulletin shows, R19)
and, for one side's report, that side's own part under ``private``.

Pure: the results file's data as read (``turns/TURN/results.yaml``), the rule
family's layout (``moonshine.variants.layout``: what is public, what is a side's
own) and the game's title, variant and sides in; the document out, and its bytes
(sorted keys, so the same results always give the same bytes). The report mail's
attachment and ``moonshine export`` both write it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from moonshine.variants.layout import Layout

FORMAT = "moonshine-results"
VERSION = 1


def document(
    layout: Layout,
    raw: dict[str, Any],
    *,
    title: str,
    variant: str,
    turn: str,
    sides: Mapping[str, str],
    side: str | None = None,
) -> dict[str, Any]:
    """The document of ``turn`` from its results data ``raw``: public, and ``side``'s
    private part when a side is given and the family keeps one."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": title,
        "variant": variant,
        "turn": turn,
        "public": layout.public_results(raw, dict(sides)),
    }
    if side is not None:
        mine = layout.private_results(raw, side)
        if mine is not None:
            doc["private"] = mine
    return doc


def encode(doc: Mapping[str, Any]) -> bytes:
    """A document as UTF-8 JSON bytes: sorted keys, one line per value."""
    return (json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
