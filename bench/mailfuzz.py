"""Hostile and odd mail for the inbox: a seeded generator of messages that break
the rules of RFC 5322 and MIME in the ways real mail and attackers do (dates out
of range, several or encoded ``From:`` forms, broken encodings and charsets,
nested and truncated multiparts, binary bodies, huge lines, escape and
bidirectional-control characters), and a run of the inbox over the corpus plus
any number of them that counts what became of each and every failure.

``python -m bench.mailfuzz [N]`` runs N generated messages (default 10,000) with
the corpus; ``tests/mail/test_mail_fuzz.py`` runs a small sample in ``make test``."""

from __future__ import annotations

import base64
import random
import shutil
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from msgspec.structs import replace

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "mail"
TURN = "spring-1924"
PLAYERS = ("valley@players.example.org", "outfit@players.example.org", "genna@players.example.org")
PASSWORD = "valley-secret-1924"

_DATES = (
    "Fri, 31 Dec 9999 23:59:00 -2359",
    "Mon, 01 Jan 0001 00:00:00 +0000",
    "Wed, 28 Feb 2024 10:00:00 +0000",
    "Thu, 29 Feb 2024 25:61:99 +0000",
    "Sat, 02 Mar 2024 09:00:00 +9999",
    "yesterday",
    "",
    "Tue, 30 Feb 2024 10:00:00 +0000",
    "Wed, 28 Feb 1901 10:00:00 -0000",
    "Sun, 01 Jan 2040 00:00:00 +0000",
    "\x00\x01\x02",
    "Wed, 28 Feb 2024 10:00:00 +0000 (" + "(" * 200,
)
_FROMS = (
    "{p}",
    "Terry <{p}>",
    "{p}, evil@else.example",
    "{p} <evil@else.example>",
    "=?utf-8?b?" + base64.b64encode(b"valley@players.example.org").decode() + "?=",
    "=?utf-8?b?" + base64.b64encode(b"valley@players.example.org").decode() + "?= <evil@else.example>",
    '"{p}" <{p}>',
    "<{p}> <evil@else.example>",
    "{p} (comment <evil@else.example>)",
    "\x1b[31m{p}\x1b[0m",
    "{p}\u202e",
    "",
    "<>",
    "<<<<{p}>>>>",
    "@" * 300,
    "Terry <{p}",
    "=?bogus-charset?q?abc?= <{p}>",
    "=?utf-8?q?=FF=FE?= <{p}>",
)
_MULTIPARTS = ("mixed", "alternative", "related", "digest")
_CHARSETS = ("utf-8", "us-ascii", "iso-8859-1", "windows-1252", "utf-16", "bogus-charset", "utf-7", "", "x-unknown")
_ENCODINGS = ("7bit", "8bit", "quoted-printable", "base64", "x-uuencode", "binary", "bogus")
_BODIES = (
    "gang: valley\npassword: {pw}\nH LOO - LIT\nL KEN hold\n",
    "gang: valley\npassword: wrong\nH LOO - LIT\n",
    "On Tue, Feb 27, 2024 at 9:00 AM Terry wrote:\n> gang: valley\n> password: {pw}\n> H LOO hold\n",
    "gang: \x1b[2Jvalley\u202e\npassword: {pw}\nH LOO - \x1b]0;pwned\x07LIT\n",
    "gang: valley\npassword: {pw}\n" + "H LOO - LIT " * 5000 + "\n",
    "\x00\x01\x02\xff binary",
    "-- \ngang: valley\npassword: {pw}\n",
    "gang: valley\ngang: outfit\npassword: {pw}\nturn: autumn-9999\n",
    "<html><body><blockquote><blockquote>" * 50 + "gang: valley" + "</blockquote>" * 50 + "</body></html>",
    "De : x\nEnvoyé : y\nÀ : z\nObjet : w\n\ngang: valley\npassword: {pw}\n",
    "",
    "\n" * 5000,
    "gang: valley\npassword: {pw}\n" + "\u2028".join(["H LOO - LIT"] * 20) + "\n",
)


def _garble(rng: random.Random, data: bytes) -> bytes:
    """Flip, cut or insert bytes."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not out:
            break
        i = rng.randrange(len(out))
        choice = rng.random()
        if choice < 0.4:
            out[i] = rng.randrange(256)
        elif choice < 0.7:
            del out[i : i + rng.randint(1, 50)]
        else:
            out[i:i] = rng.choice([b"\r", b"\n", b"\x00", b"--", b"=?", b"\r\n\r\n", b"\xff\xfe", b"Content-Type: "])
    return bytes(out)


def hostile(rng: random.Random, index: int) -> bytes:
    """One generated message."""
    player = rng.choice(PLAYERS)
    sender = rng.choice(_FROMS).format(p=player)
    body = rng.choice(_BODIES).format(pw=PASSWORD if rng.random() < 0.5 else "guess")
    headers = [f"From: {sender}", "To: referee@moonshine.example.org", f"Subject: fuzz {index} \x1b[2J"]
    if rng.random() < 0.3:
        headers.append(f"From: {rng.choice(PLAYERS)}")
    if rng.random() < 0.8:
        headers.append(f"Date: {rng.choice(_DATES)}")
    if rng.random() < 0.6:
        headers.append(f"Received: from x by y; {rng.choice(_DATES)}")
    shared = ["<same@x>", "", "<" + "x" * 2000 + ">", "no angle brackets", "<a@b> <c@d>"]
    mid = f"<fuzz-{index}@x>" if rng.random() < 0.8 else rng.choice(shared)
    if mid:
        headers.append(f"Message-ID: {mid}")
    if rng.random() < 0.1:
        headers.append("Auto-Submitted: auto-replied")
    if rng.random() < 0.1:  # the vendors' automatic replies
        headers.append(rng.choice(["X-Autoreply: yes", "X-Autorespond: vacation", "X-Auto-Response-Suppress: All"]))
        headers[2] = rng.choice(["Subject: Out of Office: orders", "Subject: Réponse automatique : ordres"])
    if rng.random() < 0.1:  # the receiving server's verdict (the fuzz game trusts mx.moonshine.example)
        verdict = rng.choice(["dmarc=fail header.from=players.example.org", "spf=fail smtp.mailfrom=x", "dmarc=pass"])
        headers.append(f"Authentication-Results: {rng.choice(['mx.moonshine.example', 'evil.example'])}; {verdict}")
    kind = rng.random()
    if kind < 0.05:  # thousands of tiny parts, or parts nested deep: refused before they are read
        many = rng.choice([500, 6000])
        nested = rng.random() < 0.5
        if nested:
            inner = "Content-Type: text/plain\r\n\r\n" + body
            for level in range(rng.randint(9, 60)):
                inner = (
                    f"Content-Type: multipart/mixed; boundary=n{level}\r\n\r\n--n{level}\r\n{inner}\r\n--n{level}--\r\n"
                )
            raw = ("\r\n".join(headers) + "\r\n" + inner).encode("utf-8", errors="replace")
        else:
            parts = "".join("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(many))
            headers.append("Content-Type: multipart/mixed; boundary=b")
            raw = ("\r\n".join(headers) + "\r\n\r\n" + parts + "--b--\r\n").encode()
        return raw
    charset = rng.choice(_CHARSETS)
    encoding = rng.choice(_ENCODINGS)
    if kind < 0.4:
        headers.append(f'Content-Type: text/plain; charset="{charset}"; format=flowed; delsp=yes')
        headers.append(f"Content-Transfer-Encoding: {encoding}")
        payload = body.encode("utf-8", errors="replace")
        if encoding == "base64" and rng.random() < 0.5:
            payload = base64.b64encode(payload)[: rng.randint(0, 200)] + b"!!!"
        raw = "\r\n".join(headers).encode("utf-8", errors="surrogateescape") + b"\r\n\r\n" + payload
    elif kind < 0.7:
        boundary = rng.choice(["b1", "", "x" * 100, "b1\x00", '"'])
        headers.append(f'Content-Type: multipart/{rng.choice(_MULTIPARTS)}; boundary="{boundary}"')
        parts = []
        for _ in range(rng.randint(0, 4)):
            ctype = rng.choice(
                ["text/plain", "text/html", "message/rfc822", "application/octet-stream", "multipart/mixed"]
            )
            disp = rng.choice(
                ["", "Content-Disposition: attachment; filename=../../game.yaml\r\n", "Content-Disposition: inline\r\n"]
            )
            head = f"--{boundary}\r\nContent-Type: {ctype}; charset={charset}\r\n{disp}"
            parts.append(f"{head}Content-Transfer-Encoding: {encoding}\r\n\r\n{body}\r\n")
        if rng.random() < 0.7:
            parts.append(f"--{boundary}--\r\n")
        raw = ("\r\n".join(headers) + "\r\n\r\n" + "".join(parts)).encode("utf-8", errors="replace")
    elif kind < 0.85:
        headers.append("Content-Type: text/html; charset=utf-8")
        raw = (
            "\r\n".join(headers) + "\r\n\r\n" + "<html><p>" + body.replace("\n", "<br>") + "<script>x</script>"
        ).encode()
    else:
        raw = ("\r\n".join(headers) + "\r\n\r\n" + body).encode("utf-8", errors="replace")
    if rng.random() < 0.3:
        raw = _garble(rng, raw)
    if rng.random() < 0.05:
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 500)))
    return raw


def fuzz_game(base: Path) -> Path:
    """A copy of the sample game with a cheap password hash (so that thousands of
    checks stay fast) and a deadline."""
    from moonshine.game.directory import Game, save_config
    from moonshine.mail.passwords import _b64, _scrypt

    root = base / "game"
    root.mkdir(parents=True)
    for name in ("game.yaml", ".moonshine-secret"):
        shutil.copy2(ROOT / name, root / name)
    for name in ("orders", "turns"):
        shutil.copytree(ROOT / name, root / name)
    game = Game(root)
    salt = b"fuzz-salt-16byte"
    cheap = f"scrypt$16$1$1${_b64(salt)}${_b64(_scrypt(PASSWORD, salt, 16, 1, 1))}"
    players = {g: replace(p, password=cheap) for g, p in game.config.players.items()}
    more = {"deadlines": {TURN: "2024-03-01T18:00:00+00:00"}, "inbox": {"authserv_id": "mx.moonshine.example"}}
    save_config(game, replace(game.config, players=players, extra={**game.config.extra, **more}))
    return root


def run(count: int, base: Path, *, seed: int = 1924) -> tuple[int, Counter[str], list[str]]:
    """The inbox over the corpus and ``count`` generated messages (written as .eml
    files): how many messages, their outcomes, and every failure (an exception out
    of the inbox, or a message answered "the referee failed")."""
    from moonshine.game.directory import Game
    from moonshine.mail import inbox

    rng = random.Random(seed)
    box = base / "box"
    box.mkdir(parents=True)
    n = 0
    for p in sorted(CORPUS.glob("*.eml")):
        shutil.copy2(p, box / f"corpus-{p.name}")
        n += 1
    for i in range(count):
        (box / f"fuzz-{i:05d}.eml").write_bytes(hostile(rng, i))
        n += 1
    game = Game(fuzz_game(base))
    failures: list[str] = []
    try:
        outcomes = inbox.process(game, box, now=datetime(2024, 2, 29, 12, 0, tzinfo=UTC))
    except Exception as exc:  # the whole run stopped: the worst failure
        return n, Counter(), [f"{type(exc).__name__}: {exc}"]
    counts = Counter(o.status for o in outcomes)
    failures = [o.line() for o in outcomes if o.reason.startswith("the message could not be processed")]
    if len(outcomes) != n:
        failures.append(f"{n} messages, {len(outcomes)} outcomes")
    return n, counts, failures


def main(argv: list[str] | None = None) -> int:
    import tempfile

    args = sys.argv[1:] if argv is None else argv
    count = int(args[0]) if args else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        started = time.process_time()
        n, counts, failures = run(count, Path(tmp))
        took = time.process_time() - started
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    print(
        f"mail fuzz: {n} messages (corpus + {count} generated) in {took:.1f} s CPU: {summary}; {len(failures)} failures"
    )
    for line in failures[:20]:
        print(f"  FAILURE {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
