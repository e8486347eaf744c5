"""Player text as the referee's messages quote it: made safe to print and cut to a
length (the acknowledgements, the order reader's errors, the notes of a reply)."""

from __future__ import annotations


def printable(text: str, limit: int = 80) -> str:
    """Player text made safe to print: control characters and lone surrogates escaped,
    long text cut with an ellipsis."""
    out: list[str] = []
    size = 0
    for ch in text:
        piece = ch if ch.isprintable() else ascii(ch)[1:-1]
        out.append(piece)
        size += len(piece)
        if size > limit:
            break
    shown = "".join(out)
    return shown if size <= limit else shown[: limit - 1] + "…"
