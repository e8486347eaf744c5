"""pymap as a server that takes OAuth2 access tokens only, as Outlook.com and
Microsoft 365 do: ``python pymap_xoauth2.py [pymap's options] xoauth2 --demo-user
USER --tokens FILE``. After STARTTLS the one login it offers is ``AUTH=XOAUTH2``
(pysasl's mechanism; ``LOGIN`` is disabled), and it takes a token for USER when the
token is a line of FILE, read at each login: a test "expires" a token by taking it
out of the file. The in-memory backend (``dict``) keeps the mail; this file adds a
backend to pymap's plugins (``pymap.backend.backends``) and runs pymap's own main."""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from pathlib import Path
from typing import Any

from pymap.backend import backends
from pymap.backend.dict import Config, DictBackend, Identity, Login
from pymap.exceptions import InvalidAuth
from pymap.main import main
from pymap.user import UserMetadata
from pysasl import SASLAuth
from pysasl.creds.external import ExternalCredentials, ExternalVerificationRequired
from pysasl.creds.server import ServerCredentials


class TokenConfig(Config):
    def __init__(self, args: Namespace, *, tokens: str, **extra: Any) -> None:
        super().__init__(args, **extra)
        self.tokens = Path(tokens)

    @classmethod
    def parse_args(cls, args: Namespace) -> dict[str, Any]:
        return {**super().parse_args(args), "tokens": args.tokens}

    @property
    def tls_auth(self) -> SASLAuth:
        return SASLAuth.named([b"XOAUTH2"])


class TokenLogin(Login):
    config: TokenConfig

    async def authenticate(self, credentials: ServerCredentials) -> Identity:
        if not isinstance(credentials, ExternalCredentials):
            raise InvalidAuth()
        try:
            credentials.verify(None)  # pysasl hands a bearer token over this way
        except ExternalVerificationRequired as exc:
            token = exc.token
        valid = self.config.tokens.read_text(encoding="utf-8").split()
        if credentials.authzid != self.config.demo_user or token not in valid:
            raise InvalidAuth()
        return Identity(credentials.authzid, self, None, frozenset())


class TokenBackend(DictBackend):
    @classmethod
    def add_subparser(cls, name: str, subparsers: Any) -> ArgumentParser:
        parser = super().add_subparser(name, subparsers)
        parser.add_argument("--tokens", required=True, help="a file of the tokens taken, one a line")
        return parser

    @classmethod
    async def init(cls, args: Namespace, **overrides: Any) -> tuple[TokenBackend, TokenConfig]:
        config = TokenConfig.from_args(args, **overrides)
        login = TokenLogin(config)
        await login.demo_user_identity.set(UserMetadata(config, config.demo_user))
        return cls(login, config), config


if __name__ == "__main__":
    backends.add("xoauth2", TokenBackend)
    main()
