"""Players' passwords: kept in ``game.yaml`` only as salted scrypt hashes.

A stored hash reads ``scrypt$N$r$p$SALT$HASH`` (salt and hash in base64), so the
cost can be raised later without breaking the hashes already stored."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import unicodedata

import msgspec

from moonshine.errors import GameError, MoonshineError
from moonshine.game.directory import Game, GameConfig, Player, atomic_write_text, save_config

SCHEME = "scrypt"
N, R, P = 2**14, 8, 1
SALT_BYTES = 16
HASH_BYTES = 32
MIN_LENGTH = 10
# Wrong passwords read in one pass from one address (and, in a game, in one side's name): the
# messages after them are not read until the next pass (the inbox, the lobby of a judge).
MAX_WRONG_PASSWORDS = 3
# The words of a generated passphrase: 256 plain words, so each word is 8 bits of chance.
WORDS = (
    "amber", "anchor", "apple", "arrow", "attic", "autumn", "badge", "bakery", "banjo", "barley", "barrel",
    "basket", "beacon", "beaver", "bellows", "berry", "biscuit", "blanket", "bonnet", "bottle", "bramble", "breeze",
    "brick", "bridge", "bucket", "bugle", "buggy", "butter", "button", "cabin", "cactus", "candle", "canyon",
    "carpet", "carriage", "castle", "cedar", "cellar", "chapel", "cherry", "chimney", "cider", "cinder", "circus",
    "clover", "cobalt", "cocoa", "compass", "copper", "cordial", "cotton", "cradle", "crane", "cricket", "crystal",
    "cupboard", "curtain", "dahlia", "daisy", "dapple", "delta", "depot", "desert", "dinner", "dollar", "donkey",
    "dragon", "drum", "eagle", "easel", "ember", "engine", "falcon", "fathom", "feather", "fender", "ferry",
    "fiddle", "fig", "flannel", "flute", "forest", "fountain", "fox", "garden", "garnet", "gazette", "ginger",
    "glacier", "glove", "granite", "grape", "gravel", "griddle", "guitar", "hammer", "harbor", "harvest", "hazel",
    "heather", "helmet", "heron", "hickory", "hollow", "honey", "horizon", "hornet", "iceberg", "indigo", "island",
    "ivory", "jacket", "jasmine", "jigsaw", "juniper", "kettle", "kitten", "ladder", "lagoon", "lantern", "larch",
    "lemon", "lettuce", "lily", "linen", "lobster", "locket", "lumber", "magnet", "mango", "maple", "marble",
    "meadow", "melon", "mitten", "monsoon", "mosaic", "mustard", "napkin", "nectar", "needle", "nickel", "nutmeg",
    "oatmeal", "ocean", "olive", "onion", "orchard", "otter", "oyster", "paddle", "pancake", "parcel", "parrot",
    "peach", "pebble", "pelican", "pepper", "piano", "pickle", "pigeon", "pillow", "pine", "planet", "plum",
    "pocket", "pony", "poplar", "potato", "pretzel", "puddle", "pumpkin", "quarry", "quartz", "quill", "rabbit",
    "radish", "raven", "ribbon", "river", "robin", "rocket", "saddle", "saffron", "sailor", "salmon", "satchel",
    "scarf", "school", "season", "shadow", "shovel", "silver", "sketch", "sleigh", "slipper", "sparrow", "spindle",
    "spruce", "squirrel", "stable", "statue", "stove", "sugar", "summit", "sunset", "swallow", "tablet", "teapot",
    "thimble", "thistle", "thunder", "ticket", "tiger", "timber", "toffee", "tomato", "trolley", "trumpet", "tulip",
    "tunnel", "turnip", "umber", "umbrella", "valley", "velvet", "violet", "violin", "wagon", "walnut", "walrus",
    "weasel", "whistle", "willow", "window", "winter", "wizard", "yonder", "zephyr", "zinnia", "acorn", "almond",
    "apron", "atlas", "avenue", "bamboo", "beetle", "bison", "blossom", "bonfire", "cabbage", "camel", "canoe",
    "caramel", "cashew", "cello",
)  # fmt: skip


def new_passphrase() -> str:
    """Four words and a number, such as ``maple-otter-violin-quarry-42`` (about 38 bits):
    easy to type on a ``password:`` line, and with the inbox's limit on wrong passwords
    out of reach of guessing."""
    return "-".join(secrets.choice(WORDS) for _ in range(4)) + f"-{secrets.randbelow(90) + 10}"


def normalised(password: str) -> str:
    """A password as it is hashed and compared: Unicode NFKC, so that ``é`` typed as one
    character or as ``e`` and an accent (mail programs differ), and full-width or
    compatibility forms, are the same password."""
    return unicodedata.normalize("NFKC", password)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=HASH_BYTES, maxmem=256 * n * r + 2**20
    )


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """A salted hash of ``password`` to store in ``game.yaml``."""
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    digest = _scrypt(normalised(password), salt, N, R, P)
    return f"{SCHEME}${N}${R}${P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches the stored hash (constant-time compare).
    Raises ValueError when ``stored`` is not a hash this module wrote."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        raise ValueError(f"not a password hash (expected {SCHEME}$N$r$p$salt$hash): {stored[:12]!r}...")
    try:
        n, r, p = (int(x) for x in parts[1:4])
        salt = base64.b64decode(parts[4], validate=True)
        expected = base64.b64decode(parts[5], validate=True)
    except ValueError:
        raise ValueError("the password hash is damaged (bad number or base64)") from None
    if n < 2 or n & (n - 1) or not 1 <= r <= 64 or not 1 <= p <= 16 or n > 2**20:
        raise ValueError(f"the password hash has unusable parameters N={n}, r={r}, p={p}")
    if hmac.compare_digest(_scrypt(normalised(password), salt, n, r, p), expected):
        return True
    # a hash stored before passwords were normalised holds the text as it was typed
    return normalised(password) != password and hmac.compare_digest(_scrypt(password, salt, n, r, p), expected)


def check_new_password(password: str) -> None:
    """Reject passwords that cannot work on a ``password:`` line of an email."""
    if len(normalised(password)) < MIN_LENGTH:
        raise GameError(
            f"the password is too short: at least {MIN_LENGTH} characters "
            "(without --password, moonshine passwd makes one: four words and a number)"
        )
    if len(set(password)) < 4 or password.isdigit():
        raise GameError("the password is too easy to guess: use words, not one character repeated or only digits")
    if password != password.strip():
        raise GameError("the password cannot begin or end with a space (mail programs drop them)")
    if any(ch in password for ch in "\r\n"):
        raise GameError("the password must fit on one line")


def set_password(game: Game, gang: str, password: str) -> str:
    """Store a new password for ``gang`` (a key or a gang's name) in game.yaml.
    Returns the gang's key."""
    key = game.side_by_name(gang)
    if key is None:
        known = ", ".join(game.sides())
        raise GameError(f"no {game.side_word} {gang!r} in this game ({game.side_word}s: {known})")
    check_new_password(password)
    from moonshine.game.journal import transaction

    with transaction(game.root, f"passwd {key}") as txn:
        cfg = game.config
        player = cfg.players.get(key, Player())
        players = dict(cfg.players)
        new = msgspec.structs.replace(
            cfg, players={**players, key: msgspec.structs.replace(player, password=hash_password(password))}
        )
        text = edit_password_line(game.config_path.read_text(encoding="utf-8"), key, new, game)
        if text is None:  # a layout the line edit does not know (flow style): the whole file is written
            save_config(game, new)
        else:
            atomic_write_text(game.config_path, text)
            game.forget_config()
        txn.commit(f"Password of {key} changed", ["game.yaml"], git=False)
    return key


def edit_password_line(text: str, gang: str, want: GameConfig, game: Game) -> str | None:
    """``game.yaml``'s text with ``players.GANG.password`` set to the new hash, every
    other line (comments, order, quoting) as the game master left it. None when
    the file's layout is not one this edit knows (the result is checked)."""
    import json

    from moonshine import yamlio

    raw = yamlio.loads(text, str(game.config_path))
    value = json.dumps(want.players[gang].password)
    lines = text.splitlines(keepends=True)
    players = raw.get("players") if isinstance(raw, dict) else None
    entry = players.get(gang) if isinstance(players, dict) else None
    if isinstance(entry, yamlio.LineDict) and "password" in entry:
        i = entry.line_of("password") - 1
        m = re.match(r"^(\s*password:[ \t]*)(?:'[^']*'|\"[^\"]*\"|[^#\s]+|)([ \t]+#.*)?(\r?\n)?$", lines[i])
        if m is None:
            return None
        lines[i] = m.group(1) + value + (m.group(2) or "") + (m.group(3) or "\n")
    elif isinstance(entry, yamlio.LineDict) and entry:
        first = entry.line_of(next(iter(entry))) - 1
        indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
        last = max(entry.lines.values()) - 1
        while last + 1 < len(lines) and (
            not lines[last + 1].strip() or len(lines[last + 1]) - len(lines[last + 1].lstrip()) > len(indent)
        ):
            last += 1
        while last > first and not lines[last].strip():
            last -= 1
        lines.insert(last + 1, f"{indent}password: {value}\n")
    elif isinstance(players, yamlio.LineDict) and (entry is None or isinstance(entry, dict)) and players:
        first = players.line_of(next(iter(players))) - 1
        indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
        at = players.line_of(gang) if gang in players else None
        if at is not None:  # "gang:" with nothing under it
            lines.insert(at, f"{indent}  password: {value}\n")
        else:
            return None
    else:
        return None
    out = "".join(lines)
    try:
        from moonshine.game.directory import load_config_text, same_settings

        if not same_settings(load_config_text(out, str(game.config_path)), want):
            return None
    except MoonshineError:
        return None
    return out
