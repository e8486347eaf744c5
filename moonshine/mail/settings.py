"""One game's mail settings, in ``game.yaml`` (a judge for many games has the same
sections in its ``judge.yaml``): the SMTP server and the referee's address, the game
master's address, the players' addresses, and the inbox's settings (where the
mailbox is, IMAP's own settings, the largest message read, the mail server whose
verdict on forged senders is trusted). All optional until mail is sent or read::

    smtp:
      host: smtp.example.org
      port: 587                 # default: 587 starttls, 465 tls, 25 none
      security: starttls        # starttls | tls | none
      # ca_file: /etc/moonshine/my-ca.pem   # a server with a certificate of its own (full path)
      user: referee@example.org
      password_env: MOONSHINE_SMTP_PASSWORD   # the password is read from this variable
      # auth: xoauth2                         # or OAuth2: no password, an access token
      # token_command: oauth2-helper --account judge   # ... printed by this command
      from: "Moonshine referee <referee@example.org>"
      attempts: 3               # tries per message before giving up
      retry_delay: 2            # seconds before the second try, doubled after
    referee:
      email: gm@example.org
    inbox:
      source: imaps://judge@mail.example.org/INBOX   # or a Maildir, an mbox, a folder
      imap: {password_env: MOONSHINE_IMAP_PASSWORD, done_folder: Judged}
      # imap: {auth: xoauth2, token_command: oauth2-helper --account judge}
      max_message_bytes: 524288
      authserv_id: mx.example.org

Each reader checks its key and names it in its error. A judge for many games
has its ``judge.yaml``'s logins checked as it is read (``check_logins``), naming
that file."""

from __future__ import annotations

import os
import re
from email.utils import formataddr, getaddresses, parseaddr
from pathlib import Path
from typing import Any

import msgspec

from moonshine.errors import GameError, StateError
from moonshine.game.directory import GAME_FILE, GameConfig, config_section
from moonshine.mail import imap, oauth

DEFAULT_FROM = "Moonshine referee <referee@moonshine.invalid>"
SECURITIES = ("starttls", "tls", "none")
DEFAULT_PORTS = {"starttls": 587, "tls": 465, "none": 25}
DEFAULT_PASSWORD_ENV = "MOONSHINE_SMTP_PASSWORD"
DEFAULT_MAX_MESSAGE_BYTES = 512 * 1024
AUTHS = ("password", "xoauth2")  # a password, or an OAuth2 access token (moonshine.mail.oauth)


class SmtpSettings(msgspec.Struct, frozen=True):
    host: str
    port: int
    security: str  # starttls | tls | none
    sender: str  # the From address, "Name <addr>" or "addr"
    user: str | None = None
    password_env: str | None = None
    timeout: float = 30.0
    attempts: int = 3
    retry_delay: float = 2.0
    auth: str = "password"  # password | xoauth2
    ca_file: str | None = None  # the certificate authority of a server's own certificate (a full path)
    token_command: oauth.TokenCommand | None = None  # xoauth2: what prints the access token

    @property
    def sender_address(self) -> str:
        return parseaddr(self.sender)[1]

    def password(self, environ: dict[str, str] | None = None) -> str | None:
        """The SMTP password, from the environment variable named in game.yaml;
        None without a login, or with an access token instead (``auth: xoauth2``)."""
        if self.user is None or self.auth == "xoauth2":
            return None
        env = os.environ if environ is None else environ
        name = self.password_env or DEFAULT_PASSWORD_ENV
        value = env.get(name)
        if not value:
            raise GameError(
                f"the SMTP password for {self.user} is not set: put it in the environment variable {name} "
                f"(named by smtp.password_env in {GAME_FILE})"
            )
        return value


def _number(raw: dict[str, Any], section: str, key: str, default: float, *, minimum: float) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < minimum:
        raise StateError(GAME_FILE, f"{section}.{key}", f"expected a number of at least {minimum}, found {value!r}")
    return float(value)


def _address_ok(text: str) -> bool:
    addr = parseaddr(text)[1]
    return bool(re.fullmatch(r"[^@\s<>]+@[^@\s<>]+", addr))


def from_address(cfg: GameConfig) -> str:
    """The referee's address: ``smtp.from``, or a placeholder for dry runs named after
    the game's variant ("Diplomacy referee" for a classic game)."""
    value = config_section(cfg, "smtp").get("from")
    if value is None:
        from moonshine import variants

        name = f"{variants.get(cfg.variant).title} referee" if variants.is_known(cfg.variant) else "Referee"
        return formataddr((name, parseaddr(DEFAULT_FROM)[1]))
    if not isinstance(value, str) or not _address_ok(value):
        raise StateError(
            GAME_FILE, "smtp.from", f"expected an address like 'Referee <ref@example.org>', found {value!r}"
        )
    return value


def game_master_addresses(cfg: GameConfig) -> list[str]:
    """The game master's addresses (``referee.email``), else the judge's own
    (``smtp.from``); empty when the game file names neither. Error mails, the game
    master's copies of press and the bulletin go there."""
    ref = config_section(cfg, "referee").get("email")
    items = [ref] if isinstance(ref, str) else list(ref or [])
    found = [a for _, a in getaddresses([str(x) for x in items]) if a]
    if not found:
        sender = config_section(cfg, "smtp").get("from")
        if isinstance(sender, str):
            found = [a for _, a in getaddresses([sender]) if a]
    return sorted(set(found))


LOOPBACK = ("localhost", "127.0.0.1", "::1")  # a server on this machine: nothing crosses a network


def smtp_settings(cfg: GameConfig) -> SmtpSettings:
    """The ``smtp:`` section, checked. Raises StateError naming the bad key."""
    raw = config_section(cfg, "smtp")
    if not raw:
        raise GameError(f"no smtp section in {GAME_FILE}: add one (host, port, security, user, password_env, from)")
    if "password" in raw:
        raise StateError(
            GAME_FILE,
            "smtp.password",
            "the password is never kept in the game file; put it in an environment variable and name it "
            f"with password_env (e.g. password_env: {DEFAULT_PASSWORD_ENV})",
        )
    host = raw.get("host")
    if not isinstance(host, str) or not host.strip():
        raise StateError(GAME_FILE, "smtp.host", "missing: the mail server's name")
    security = raw.get("security", "starttls")
    if security not in SECURITIES:
        raise StateError(GAME_FILE, "smtp.security", f"expected one of {', '.join(SECURITIES)}, found {security!r}")
    port = raw.get("port", DEFAULT_PORTS[security])
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise StateError(GAME_FILE, "smtp.port", f"expected a port number, found {port!r}")
    if "from" not in raw:
        raise StateError(GAME_FILE, "smtp.from", "missing: the referee's address, e.g. 'Referee <ref@example.org>'")
    user = raw.get("user")
    if user is not None and (not isinstance(user, str) or not user):
        raise StateError(GAME_FILE, "smtp.user", f"expected the login name, found {user!r}")
    if security == "none" and user is not None and host.strip().lower() not in LOOPBACK:
        raise StateError(
            GAME_FILE,
            "smtp.security",
            f"none would send the login ({user}) and its password or token in clear to {host.strip()}: "
            "use starttls or tls (or no user, for a server that needs no login)",
        )
    password_env = raw.get("password_env")
    if password_env is not None and (not isinstance(password_env, str) or not password_env):
        raise StateError(
            GAME_FILE, "smtp.password_env", f"expected an environment variable's name, found {password_env!r}"
        )
    attempts = _number(raw, "smtp", "attempts", 3, minimum=1)
    if attempts != int(attempts) or attempts > 10:
        raise StateError(GAME_FILE, "smtp.attempts", f"expected a whole number from 1 to 10, found {attempts!r}")
    timeout = _number(raw, "smtp", "timeout", 30, minimum=1)
    command = _smtp_login(raw, GAME_FILE, timeout)
    ca_file = raw.get("ca_file")
    if ca_file is not None:
        if not isinstance(ca_file, str) or not ca_file.strip():
            raise StateError(GAME_FILE, "smtp.ca_file", f"expected a certificate file's full path, found {ca_file!r}")
        ca = Path(ca_file.strip()).expanduser()
        if not ca.is_absolute():
            raise StateError(
                GAME_FILE,
                "smtp.ca_file",
                f"{ca_file}: give the file's full path (a judge's smtp settings are copied into each of its games)",
            )
        if not ca.is_file():
            raise StateError(GAME_FILE, "smtp.ca_file", f"no such file: {ca}")
        ca_file = str(ca)
    return SmtpSettings(
        host=host.strip(),
        port=port,
        security=security,
        sender=from_address(cfg),
        user=user,
        password_env=password_env,
        timeout=timeout,
        attempts=int(attempts),
        retry_delay=_number(raw, "smtp", "retry_delay", 2, minimum=0),
        auth="xoauth2" if command is not None else "password",
        token_command=command,
        ca_file=ca_file,
    )


def _login(raw: dict[str, Any], section: str, file: str, timeout: float) -> oauth.TokenCommand | None:
    """How ``section`` (``smtp``, ``inbox.imap``) logs in: ``auth: password`` (the
    default), its password from the environment or a file; or ``auth: xoauth2``, an
    OAuth2 access token printed by ``token_command`` (returned), and no password."""
    auth = raw.get("auth", "password")
    auth = auth.strip().lower() if isinstance(auth, str) else auth
    if auth not in AUTHS:
        raise StateError(file, f"{section}.auth", f"expected one of {', '.join(AUTHS)}, found {auth!r}")
    if auth == "password":
        if "token_command" in raw:
            raise StateError(
                file,
                f"{section}.token_command",
                "read only with auth: xoauth2 (the login with an OAuth2 access token); "
                "a password login reads password_env",
            )
        return None
    for key in ("password_env", "password_file"):
        if key in raw:
            raise StateError(
                file, f"{section}.{key}", "not read with auth: xoauth2: the access token comes from token_command"
            )
    if raw.get("token_command") is None:
        raise StateError(
            file,
            f"{section}.token_command",
            "missing: with auth: xoauth2, the command that prints the access token, "
            "e.g. token_command: oauth2-helper --account judge",
        )
    return oauth.parse_command(raw["token_command"], file=file, key=f"{section}.token_command", timeout=timeout)


def _smtp_login(raw: dict[str, Any], file: str, timeout: float) -> oauth.TokenCommand | None:
    command = _login(raw, "smtp", file, timeout)
    if command is not None and not (isinstance(raw.get("user"), str) and raw["user"]):
        raise StateError(
            file, "smtp.user", "missing: with auth: xoauth2, the account the token is for (its address, usually)"
        )
    return command


def _seconds(value: object, default: float) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else default


def check_logins(cfg: GameConfig, *, file: str) -> None:
    """The login settings of ``smtp`` and ``inbox.imap`` (``auth``, ``token_command``,
    the password's) checked as the settings are read, an error naming ``file`` (a
    judge's ``judge.yaml``) and the key: not at the first pass that needs them."""
    smtp = config_section(cfg, "smtp")
    if smtp:
        _smtp_login(smtp, file, _seconds(smtp.get("timeout"), 30))
    raw = config_section(cfg, "inbox").get("imap")
    if isinstance(raw, dict):
        _login(raw, "inbox.imap", file, _seconds(raw.get("timeout"), imap.TIMEOUT))


def max_message_bytes(cfg: GameConfig) -> int:
    """The largest incoming message read as orders (``inbox.max_message_bytes``)."""
    raw = config_section(cfg, "inbox")
    value = raw.get("max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1024:
        raise StateError(GAME_FILE, "inbox.max_message_bytes", f"expected a number of bytes (>= 1024), found {value!r}")
    return value


def authserv_id(cfg: GameConfig) -> str | None:
    """The authserv-id of the mail server whose ``Authentication-Results:`` the judge
    trusts (``inbox.authserv_id``), or None: then no such header is read."""
    value = config_section(cfg, "inbox").get("authserv_id")
    return str(value).strip().lower() if value else None


def player_addresses(cfg: GameConfig, gang: str) -> list[str]:
    player = cfg.players.get(gang)
    return sorted({a.strip() for a in player.email if a.strip()}) if player else []


# -- the inbox's settings ------------------------------------------------------------


def mail_source(cfg: GameConfig, root: Path) -> str | None:
    """``inbox.source``: an IMAP address, or a Maildir, mbox or folder (relative to
    ``root``, the game's directory or the judge's)."""
    value = config_section(cfg, "inbox").get("source")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise StateError(GAME_FILE, "inbox.source", f"expected imaps://USER@HOST/FOLDER or a folder, found {value!r}")
    value = value.strip()
    return value if imap.is_imap_url(value) else str(root / value)


def imap_box(cfg: GameConfig, root: Path, url: str) -> imap.ImapMailbox:
    """The judge's IMAP mailbox at ``url`` (``imaps://USER@HOST/FOLDER``), with the
    settings of ``inbox.imap``: ``password_env`` (the variable that holds the
    password, MOONSHINE_IMAP_PASSWORD by default) or ``password_file`` (a file
    outside the game's repository, relative to ``root``); or ``auth: xoauth2`` and
    ``token_command`` (the command that prints an OAuth2 access token for USER);
    ``done_folder`` (where judged mail goes, Judged by default), ``ca_file`` (the
    certificate of a server's own certificate authority, relative to ``root``),
    ``timeout`` (seconds)."""
    raw = config_section(cfg, "inbox").get("imap") or {}
    if not isinstance(raw, dict):
        raise StateError(GAME_FILE, "inbox.imap", "expected a mapping (password_env, password_file, done_folder, ...)")
    for key in ("password_env", "password_file", "done_folder", "ca_file"):
        if key in raw and not (isinstance(raw[key], str) and raw[key].strip()):
            raise StateError(GAME_FILE, f"inbox.imap.{key}", f"expected a non-empty text, found {raw[key]!r}")
    timeout = raw.get("timeout", imap.TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise StateError(GAME_FILE, "inbox.imap.timeout", f"expected a number of seconds, found {timeout!r}")
    command = _login(raw, "inbox.imap", GAME_FILE, float(timeout))
    secret: str | oauth.TokenCommand
    if command is not None:
        secret = command
    else:
        file = raw.get("password_file")
        secret = imap.read_password(
            variable=raw.get("password_env") or imap.PASSWORD_VARIABLE,
            file=(root / file) if file else None,
        )
    ca = raw.get("ca_file")
    return imap.ImapMailbox(
        imap.ImapAddress.parse(url),
        secret,
        ca_file=(root / ca) if ca else None,
        done_folder=raw.get("done_folder") or imap.DONE_FOLDER,
        timeout=float(timeout),
        max_message=max_message_bytes(cfg),
    )
