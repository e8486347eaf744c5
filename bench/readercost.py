"""What one hostile line costs each reader of text a stranger sends: the judge's
lobby, a game's inbox (the whole message: the mail layer, the commands, the order
reader, the acknowledgement, the reply), the players' commands with press, absence
and what-if, and both variants' order readers with their acknowledgements.

A reader's work should grow with the line's length, never with its square: a
pattern such as ``^\\s*word\\s*:\\s*(.*?)\\s*$`` backtracks quadratically on a line
of spaces ending in a letter, and one with three neighbouring ``[ \\t]*`` cubically
(a minute, or days, for one mail while the game's lock is held). Every time here is
CPU time (``time.process_time``), stopped at a limit by ``SIGPROF`` (the regular
expression engine of Python 3.11 sees signals), so that a regression is reported,
not waited for.

- ``fixed_lines``: the hostile lines ``tests/project/test_reader_cost.py`` feeds every
  reader: blanks of every kind alone and ending in a letter, each keyword followed
  by its colon (or a colon and a letter, or nothing) then 100 KB of blanks and a
  letter, near-keywords and separators repeated;
- ``random_line``: a seeded generator of such lines, one to five runs of blanks,
  keywords, separators and words, one of them long, for the fuzz;
- ``Readers``: a Moonshine game, a classic game and a judge's lobby in a scratch
  directory, and one function per reader that reads a line as a stranger's mail
  (or a player's) brings it;
- ``worst``: the worst line of a set for a reader, found cheaply: every line timed
  at 10,000 characters, the three costliest grown and timed again.

``python -m bench.readercost [N] [--fixed] [--limit S]`` times the fixed lines grown
to 100 KB, then N random lines (default 200) per reader grown to the mail size limit
(512 KB), and prints per reader the worst line found (its shape, ``'gang:' +
' '*99994 + 'x'``, not its 100 KB) and its CPU time; a reader stopped at the limit
(S seconds, default 30) fails the run. ``--fixed`` times the fixed lines only (the
before-and-after table of issue 39)."""

from __future__ import annotations

import base64
import hashlib
import random
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import FrameType
from typing import Any

from bench.mailfuzz import PASSWORD, fuzz_game

SIZE = 100_000  # characters of a fixed hostile line
LIMIT = 30.0  # CPU seconds after which a reader is stopped, and the run fails
NOW = datetime(2024, 2, 29, 12, 0, tzinfo=UTC)
PLAYER = "valley@players.example.org"  # valley's address in the Moonshine sample game
CLASSIC_PLAYER = "france@players.example.org"

# Every word a reader looks for at the start of a line, in both languages: headers,
# commands, the lobby's commands, reply headers and separators of the mail layer.
KEYWORDS = (
    "gang",
    "bande",
    "gang name",
    "nom du gang",
    "power",
    "puissance",
    "password",
    "passwd",
    "pass",
    "mot de passe",
    "mdp",
    "turn",
    "tour",
    "phase",
    "game",
    "partie",
    "list",
    "register",
    "create",
    "join",
    "press",
    "broadcast",
    "predict",
    "end",
    "absent",
    "draw",
    "vote",
    "On",
    "Le",
    "wrote",
    "a écrit",
    "original message",
    "forwarded message",
    "From",
    "De",
    "out of office",
    "H LOO",
    "A PAR",
)
# What may follow a keyword or fill a line: whitespace of every kind the patterns
# know, separators, letters and digits.
WHITESPACE = (" ", "\t", " \t", "\u00a0", "\u202f", "\x0b", "\x0c", "\u3000")
SEPARATORS = (":", " :", ":x", "=", "-", "->", ">", "#", ",", ";", ".", "(", ")", '"', "'", "@", "<", "_", "*")
WORDISH = ("a", "a ", "x", "1", "2024-03-01", "LOO", "é", "-- ", "---", "___", "===")


def shape(runs: list[tuple[str, int]]) -> str:
    """A line described by its runs, ``'gang:' + ' '*99994 + 'x'``: what a report shows
    instead of the line."""
    return " + ".join(repr(text) if count == 1 else f"{text!r}*{count}" for text, count in runs)


@dataclass(frozen=True)
class Line:
    runs: tuple[tuple[str, int], ...]

    @property
    def text(self) -> str:
        return "".join(text * count for text, count in self.runs)

    @property
    def shape(self) -> str:
        return shape(list(self.runs))

    def scaled(self, size: int) -> Line:
        """The same shape with its longest run grown (or cut) so that the line has
        about ``size`` characters."""
        longest = max(range(len(self.runs)), key=lambda i: len(self.runs[i][0]) * self.runs[i][1])
        text = self.runs[longest][0]
        rest = sum(len(t) * c for i, (t, c) in enumerate(self.runs) if i != longest)
        grown = max(1, (size - rest) // len(text))
        return Line(tuple((t, grown if i == longest else c) for i, (t, c) in enumerate(self.runs)))

    def within(self, size: int) -> Line:
        """The same shape scaled to ``size`` characters, and smaller when its UTF-8
        form would be longer than ``size`` bytes (a mail's limit is in bytes)."""
        line = self.scaled(size)
        encoded = len(line.text.encode("utf-8"))
        return line if encoded <= size else self.scaled(size * size // encoded)


def _filled(prefix: str, fill: str, suffix: str, size: int) -> Line:
    runs = [(prefix, 1)] if prefix else []
    runs.append((fill, max(1, (size - len(prefix) - len(suffix)) // len(fill))))
    if suffix:
        runs.append((suffix, 1))
    return Line(tuple(runs))


def fixed_lines(size: int = SIZE) -> list[Line]:
    """The hostile lines of the cost test: each keyword then a colon (or a colon and a
    letter, or nothing) then ``size`` spaces and a letter; each kind of whitespace
    alone, and ending in a letter; separators and near-keywords repeated."""
    out: list[Line] = []
    for key in KEYWORDS:
        for after in (":", ":x", "", " x"):
            out.append(_filled(key + after, " ", "x", size))
    out.append(_filled("password:", "\t", "x", size))
    out.append(_filled("gang:x", " \t", "x", size))
    for fill in WHITESPACE:
        out.append(_filled("", fill, "", size))
        out.append(_filled("", fill, "x", size))
        out.append(_filled("x", fill, "x", size))
    for fill in (*SEPARATORS, *WORDISH, "gang: ", "password ", "wrote: ", "a b ", "LOO ", "A PAR - BUR "):
        out.append(_filled("", fill, "", size))
        out.append(_filled("gang:", fill, "\x01", size))
    return out


PIECES = (*WHITESPACE, *WHITESPACE, *SEPARATORS, *WORDISH, *(k + ":" for k in KEYWORDS), *KEYWORDS)


def random_line(rng: random.Random, size: int) -> Line:
    """A random hostile line of about ``size`` characters: one to five runs of
    whitespace, separators, words and keywords, one of them long."""
    count = rng.randint(1, 5)
    runs = [(rng.choice(PIECES), rng.choice((1, 1, 2, 3, 50))) for _ in range(count)]
    long = rng.randrange(count)
    if rng.random() < 0.5:
        runs[long] = (rng.choice(WHITESPACE), 1)
    return Line(tuple(runs)).scaled(size)


# -- timing -------------------------------------------------------------------------


class TooSlow(BaseException):
    """Raised in a reader that used up its CPU allowance. A BaseException, so that
    the readers' own ``except Exception`` (a message must never stop the inbox)
    does not swallow it."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise TooSlow


def cpu(read: Callable[[str], object], text: str, limit: float = LIMIT) -> tuple[float, bool]:
    """The CPU seconds ``read(text)`` takes, and whether it was stopped at ``limit``.
    An exception of the reader's own counts as done: what it costs is measured."""
    previous = signal.signal(signal.SIGPROF, _stop)
    signal.setitimer(signal.ITIMER_PROF, limit, limit)
    started = time.process_time()
    stopped = False
    try:
        read(text)
    except TooSlow:
        stopped = True
    except Exception:
        pass
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        took = time.process_time() - started
        signal.signal(signal.SIGPROF, previous)
    return took, stopped


# -- the readers ------------------------------------------------------------------


def _cheap_hash(password: str) -> str:
    """A stored hash in the documented form ``scrypt$N$r$p$SALT$HASH`` with a cost
    low enough for thousands of checks."""
    salt = b"bench-salt-16byt"
    digest = hashlib.scrypt(password.encode(), salt=salt, n=16, r=1, p=1, dklen=32)
    return f"scrypt$16$1$1${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def mail(sender: str, body: str, index: int, subject: str = "orders") -> bytes:
    """A message as a mail program sends a long line: text/plain, 8bit, as it is."""
    head = (
        f"From: {sender}\r\nTo: referee@moonshine.example.org\r\nSubject: {subject}\r\n"
        f"Date: Wed, 28 Feb 2024 10:00:00 +0000\r\nMessage-ID: <cost-{index}@players.example.org>\r\n"
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
    )
    return head.encode() + body.encode("utf-8")


class Readers:
    """A Moonshine game (the sample, valley's password cheap to check), a classic game
    (France's address and password set) and a judge's lobby, in ``base``; each reader
    takes one line. A game's reader reads in a fresh copy of its game, so that what
    one line leaves behind (the inbox's log, the press relayed) does not slow the next."""

    def __init__(self, base: Path) -> None:
        from msgspec.structs import replace

        from moonshine.game import families
        from moonshine.game.directory import Game, save_config
        from moonshine.host.registry import Registry
        from moonshine.host.settings import init, load
        from moonshine.mail.settings import max_message_bytes

        base.mkdir(parents=True, exist_ok=True)
        self.base = base
        self.count = 0
        self.game = fuzz_game(base / "moonshine")
        self.limit = max_message_bytes(Game(self.game).config)
        classic = families.new_game(base / "classic" / "game", variant="classic", use_git=False)
        players = dict(classic.config.players)
        players["FRA"] = replace(players["FRA"], email=[CLASSIC_PLAYER], password=_cheap_hash(PASSWORD))
        more = {"deadlines": {classic.current_turn(): "2099-03-01T18:00:00+00:00"}}
        save_config(classic, replace(classic.config, players=players, extra={**classic.config.extra, **more}))
        self.classic = classic.root
        judge = base / "judge"
        init(judge, address="judge@example.org", masters=["gm@example.org"])
        self.judge = load(judge)
        self.registry = Registry(judge / "registry.sqlite")
        self.registry.register(
            "p@example.org", "Pat", timezone=None, language="en", now=NOW, password_hash=_cheap_hash(PASSWORD)
        )

    def close(self) -> None:
        self.registry.close()

    def _next(self) -> int:
        self.count += 1
        return self.count

    @contextmanager
    def _fresh(self, template: Path) -> Iterator[Any]:
        """A copy of a game for one line (a few milliseconds), removed after it."""
        from moonshine.game.directory import Game

        place = self.base / "copies" / str(self._next())
        shutil.copytree(template, place / "game")
        try:
            yield Game(place / "game")
        finally:
            shutil.rmtree(place)

    # -- the judge's lobby

    def lobby(self, line: str) -> None:
        """A mail to the judge read and answered: ``read_mail`` (the mail layer's own
        text), whether the lobby reads it, the game and password it names, and
        ``answer`` (its commands done, its reply queued), once from a stranger (a new
        address each time, under the per-address limits) and once from a player."""
        from moonshine.host import lobby
        from moonshine.host.incoming import read_mail
        from moonshine.host.lobby.request import LobbyPass

        n = self._next()
        for sender, body in ((f"s{n}@example.org", line), ("p@example.org", f"password: {PASSWORD}\n{line}\n")):
            got = read_mail(mail(sender, body, n), self.limit)
            lobby.has_commands(got)
            _ = got.game, got.password
            # a day of its own: the per-address limits of a day never stop the reading
            ctx = LobbyPass(self.judge, self.registry, NOW + timedelta(days=n), lambda _line: None)
            lobby.answer(ctx, got)

    # -- a game's inbox

    def _inbox(self, template: Path, sender: str, body: str) -> None:
        from moonshine.mail import inbox

        with self._fresh(template) as game:
            box = game.root.parent / "box"
            box.mkdir()
            (box / "m.eml").write_bytes(mail(sender, body, self._next()))
            inbox.process(game, box, now=NOW)

    def inbox(self, line: str) -> None:
        """A Moonshine game's inbox on one message from a player: the line alone, and
        the line above the gang's header, password and an order."""
        self._inbox(self.game, PLAYER, line + "\n")
        self._inbox(self.game, PLAYER, f"{line}\ngang: valley\npassword: {PASSWORD}\nH LOO hold\n")

    def inbox_classic(self, line: str) -> None:
        """A classic game's inbox on one message from France's player, as ``inbox``."""
        self._inbox(self.classic, CLASSIC_PLAYER, line + "\n")
        self._inbox(self.classic, CLASSIC_PLAYER, f"{line}\npower: France\npassword: {PASSWORD}\nA PAR H\n")

    # -- the commands, press and what-if

    def _commands(self, template: Path, side: str, text: str) -> None:
        from moonshine.game import families
        from moonshine.mail import commands
        from moonshine.mail.commands.request import GameRequest

        with self._fresh(template) as game:
            turn = game.current_turn()
            req = GameRequest(
                game=game,
                turn=turn,
                st=game.load_any_state(turn),
                now=NOW,
                sender=PLAYER,
                gang=side,
                message_id=f"<cost-{self._next()}@players.example.org>",
            )
            script = commands.read(text, families.of(game).chatter_test(game).order_words)
            commands.execute(req, script)

    def commands(self, line: str) -> None:
        """The players' command reader and what the commands do (``absent``, ``vote``...):
        the line read as a Moonshine player's text."""
        self._commands(self.game, "valley", line + "\n")

    def press(self, line: str) -> None:
        """The line in a press message, relayed."""
        self._commands(self.game, "valley", f"press to outfit\n{line}\nend press\n")

    def whatif(self, line: str) -> None:
        """The line in a ``predict`` block of a Moonshine game and of a classic game."""
        self._commands(self.game, "valley", f"predict\n{line}\nend predict\n")
        self._commands(self.classic, "FRA", f"predict\n{line}\nend predict\n")

    # -- the order readers and their acknowledgements

    def _orders(self, template: Path, side: str, text: str) -> None:
        from moonshine.game import families
        from moonshine.game.directory import Game

        game = Game(template)  # read only
        family = families.of(game)
        st = game.load_any_state(game.current_turn())
        for who in (side, None):
            family.check_orders(text, game, st, who, source="cost", language="en")
            family.check_orders(text, game, st, who, source="cost", language="fr")

    def moonshine_orders(self, line: str) -> None:
        """Moonshine's order reader and acknowledgement: the line as valley's orders, and
        as orders whose gang line is to be found."""
        self._orders(self.game, "valley", line + "\n")

    def classic_orders(self, line: str) -> None:
        """The classic order reader and acknowledgement (``read_submission``), as France's
        orders and as orders whose power line is to be found."""
        self._orders(self.classic, "FRA", line + "\n")

    def all(self) -> dict[str, Callable[[str], None]]:
        return {
            "lobby": self.lobby,
            "inbox (Moonshine)": self.inbox,
            "inbox (classic)": self.inbox_classic,
            "commands": self.commands,
            "press": self.press,
            "what-if": self.whatif,
            "orders (Moonshine)": self.moonshine_orders,
            "orders (classic)": self.classic_orders,
        }


# -- the runs ----------------------------------------------------------------------


@dataclass
class Worst:
    seconds: float = 0.0
    stopped: bool = False
    shape: str = ""

    def text(self) -> str:
        return f"{'stopped at ' if self.stopped else ''}{self.seconds:.3f} s  {self.shape}"


RANK_SIZE = 10_000  # characters of the lines timed to rank them
RANK_LIMIT = 5.0  # CPU seconds: a line this slow at 10,000 characters is among the worst
TOP = 3  # the costliest lines at 10,000 characters, timed again at full size


def worst(read: Callable[[str], object], lines: list[Line], size: int, limit: float = LIMIT) -> Worst:
    """The worst of ``lines`` for ``read``: every line timed at 10,000 characters, the
    three costliest timed again grown to ``size`` characters (bytes, in UTF-8)."""
    ranked = sorted(lines, key=lambda line: -cpu(read, line.within(RANK_SIZE).text, RANK_LIMIT)[0])
    found = Worst()
    for line in ranked[:TOP]:
        grown = line.within(size)
        took, stopped = cpu(read, grown.text, limit)
        if took > found.seconds:
            found = Worst(took, stopped, grown.shape)
        if stopped:  # none can be worse than stopped
            break
    return found


def main(argv: list[str] | None = None) -> int:
    import tempfile

    args = sys.argv[1:] if argv is None else argv
    only_fixed = "--fixed" in args
    limit = float(args[args.index("--limit") + 1]) if "--limit" in args else LIMIT
    numbers = [a for a in args if a.isdigit()]
    count = int(numbers[0]) if numbers else 200
    rng = random.Random(1924)
    print(f"reader cost: the worst hostile line per reader (CPU seconds, stopped at {limit:g} s)")
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        readers = Readers(Path(tmp))
        size = readers.limit - 4096  # a mail's whole text under the mail size limit, with its headers
        try:
            for name, read in readers.all().items():
                fixed = worst(read, fixed_lines(), SIZE, limit)
                print(f"  {name:<18}  {len(fixed_lines())} fixed lines at {SIZE:,}: {fixed.text()}", flush=True)
                status = status or int(fixed.stopped)
                if only_fixed:
                    continue
                lines = [random_line(rng, RANK_SIZE) for _ in range(count)]
                found = worst(read, lines, size, limit)
                print(f"  {name:<18}  {count} random lines, grown to {size:,}: {found.text()}", flush=True)
                status = status or int(found.stopped)
        finally:
            readers.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
