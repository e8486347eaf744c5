"""Two games played by hand, as issue 38 tried the reports: a Moonshine game through
spring and autumn 1924 (a rejected move, a support out of reach, a unit left without
an order, a refused bribe, a gang that sends nothing, the raid that arrests the
Outfit's H NOC and takes its crates, a dislodgement and the retreat POR -> CRA, a
transport, assaults) and a classic game through 1901 (a bounce, an illegal move, a
power that sends nothing, a dislodgement and its retreat phase, builds with one that
fails: F KIE B with KIE occupied), one power (France) reading French from Paris."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner
from samplegame import copy_sample

from moonshine.cli import main

# Moonshine: the sample game's spring 1924 with these changes, then autumn 1924
SPRING = {
    "northside": [
        "gang: North Side Gang",
        "L JEF - NWP - EDI",
        "H IRV - LIP",  # not next to IRV: rejected, the unit holds
        "L EDG / H IRV - ALB",
        "H AVO - LOG",
        "L POR / H CRA - DUN",
        "bribe LOG 6",
        "bribe IRV 5",  # no station in IRV: rejected, no unit's order
    ],  # H HER: no order
    "valley": None,  # no orders at all
}
AUTUMN = {  # one gang's lines, separated by "|"
    "outfit": "H NOC - AVO|H ALB hold|L NOR hold|H LAK x LAK|L ROG hold|L NOT - LIN|retreat H ALB - LIN|sell 5",
    "northside": "H IRV - ALB|L EDG / H IRV - ALB|L POR / H IRV - ALB|H LOG - NOC|H HER - AVO|L EDI hold"
    "|retreat L POR - CRA",  # L POR's support is out of reach; H LOG and H NOC, H HER and H NOC stand off
    "unione": "L POL -> H EGP - LOG|H EGP - LOG via POL|L LIP hold|L GOL hold|H CHI hold|H FUL hold",
    "westside": "H GAR x GAR|H DUN - POR|L HUM hold|L AUS hold|L NLA hold|H PIL hold",
    "valley": "H NSS - CHI|L BRO / H NSS - CHI|H LOO hold|L FIV hold|L GRA hold|L KEN hold|H HYD hold",
    "genna": "H CHA hold|L SCH hold|L BUR hold|H ROS hold|L PUL hold|L WPU hold|H HEG hold",
    "ragen": "H WEN - ENG|H WAH / H WEN - ENG|L CLE hold|L MAR hold|H ASH hold|L ASH hold|L BEV hold|H MTG hold",
}  # southside: no orders
MAIL = {
    "smtp": {"host": "smtp.example.org", "from": "Moonshine referee <referee@example.org>"},
    "deadlines": {"autumn-1924": "2026-12-03T17:00:00+00:00", "spring-1925": "2026-12-10T17:00:00+00:00"},
    "schedule": {"timezone": "America/Chicago", "every": "168h"},
}

CLASSIC = [
    ("spring-1901", "FRA", ["A PAR - PIC", "A MAR H", "F BRE - MAO"]),
    ("spring-1901", "GER", ["A MUN - BUR", "F KIE - DEN", "A BER - KIE"]),
    ("spring-1901", "ENG", ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]),
    ("spring-1901", "ITA", ["A VEN - TUN", "A ROM - APU", "F NAP - ION"]),  # VEN - TUN: illegal
    ("spring-1901", "AUS", ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"]),
    ("spring-1901", "TUR", ["A CON - BUL", "F ANK - BLA", "A SMY - ARM"]),  # RUS: no orders
    ("fall-1901", "FRA", ["A PIC - BUR", "A MAR S A PIC - BUR", "F MAO - SPA/SC"]),
    ("fall-1901", "GER", ["A BUR H", "F DEN H", "A KIE H"]),
    ("fall-1901", "ENG", ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG S F NTH"]),
    ("fall-1901", "ITA", ["A APU - TUN", "F ION C A APU - TUN", "A VEN H"]),
    ("fall-1901", "AUS", ["A GAL - RUM", "A SER S A GAL - RUM", "F ALB - GRE"]),
    ("fall-1901", "TUR", ["A BUL - RUM", "F BLA S A BUL - RUM", "A ARM - SEV"]),
    ("fall-1901-retreats", "GER", ["A BUR R RUH"]),
    ("winter-1901", "GER", ["F KIE B", "A MUN B"]),  # KIE is occupied: the fleet's build fails
    ("winter-1901", "FRA", ["A PAR B", "F BRE B"]),
    ("winter-1901", "ENG", ["F LON B"]),
]
CLASSIC_MAIL = {
    "smtp": {"host": "smtp.example.org", "from": "Judge <judge@example.org>"},
    "deadlines": {
        "fall-1901": "2026-12-03T17:00:00+00:00",
        "fall-1901-retreats": "2026-12-04T17:00:00+00:00",
        "winter-1901": "2026-12-05T17:00:00+00:00",
        "spring-1902": "2026-12-08T17:00:00+00:00",
    },
    "schedule": {"timezone": "Europe/Paris", "every": "72h"},
}


def _run(*args: str) -> None:
    done = CliRunner().invoke(main, list(args))
    assert done.exit_code == 0, done.output


def _config(root: Path, more: dict[str, object], players: dict[str, dict[str, str]] | None = None) -> None:
    path = root / "game.yaml"
    cfg = yaml.safe_load(path.read_text(encoding="utf-8"))
    cfg.update(more)
    for side, extra in (players or {}).items():
        cfg["players"][side].update(extra)
    path.write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True), encoding="utf-8")


def moonshine_game(root: Path, *, autumn: bool = True) -> Path:
    """The Moonshine game in ``root``: spring 1924 adjudicated, and autumn 1924 unless
    ``autumn`` is false."""
    copy_sample(root)
    _config(root, MAIL)
    for gang, lines in SPRING.items():
        path = root / "orders" / "spring-1924" / f"{gang}.txt"
        if lines is None:
            path.unlink()
        else:
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _run("adjudicate", "spring-1924", "--game", str(root), "--no-commit")
    if autumn:
        folder = root / "orders" / "autumn-1924"
        folder.mkdir(parents=True, exist_ok=True)
        for gang, lines in AUTUMN.items():
            (folder / f"{gang}.txt").write_text(lines.replace("|", "\n") + "\n", encoding="utf-8")
        _run("adjudicate", "autumn-1924", "--game", str(root), "--no-commit", "--force")
    return root


def classic_game(root: Path, *, until: str = "winter-1901") -> Path:
    """The classic game in ``root``, adjudicated up to and including phase ``until``."""
    _run("new", str(root), "--variant", "classic", "--no-git", "--seed", "handplayed")
    _config(root, CLASSIC_MAIL, {"FRA": {"language": "fr", "timezone": "Europe/Paris"}})
    phases = list(dict.fromkeys(p for p, _, _ in CLASSIC))
    for phase in phases[: phases.index(until) + 1]:
        for ph, power, lines in CLASSIC:
            if ph == phase:
                (root / "orders" / phase).mkdir(parents=True, exist_ok=True)
                (root / "orders" / phase / f"{power}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        _run("adjudicate", phase, "--game", str(root), "--no-commit")
    return root


def first_screen(page: str) -> str:
    """What an HTML report shows above its first picture."""
    at = page.find("<img")
    return page if at < 0 else page[:at]
