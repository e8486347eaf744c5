"""The words of the ``absent`` command (``moonshine.mail.commands.absence``), in English (the
gettext catalogue translates them); ``moonshine.render.mailwords.MESSAGES`` takes them in."""

from __future__ import annotations

from moonshine.text.catalogue import Catalogue

MESSAGES: Catalogue = {
    "absence.noted": (
        "Absence noted: {span}. While you are away the judge does not wait for your orders: the orders on "
        "file stand, and without any your units hold."
    ),
    "absence.moved": (
        "Absence noted: {span}. A deadline that falls in it moves to the day after it, by at most {limit} "
        "(the game master's limit); past that, the orders on file stand and without any your units hold."
    ),
    "help.cmd.absent": (
        "{keyword} 2026-12-01 to 2026-12-05: you will be away; the judge does not wait for your orders then"
    ),
    "absence.bad": "not read as an absence: {why}.",
}
