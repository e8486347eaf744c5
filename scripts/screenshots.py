"""make screenshots: the reports and the archive in a real headless browser.

Builds the sample game in a scratch copy (build/screenshots/game), adjudicates its
first turn (which writes the reports), writes the web archive (build/screenshots/site),
then opens a private report, the bulletin and two archive pages in headless Chromium
at 390 px (a phone) and 1280 px (a desktop). Saves one PNG per page and width in
build/screenshots/ and fails (exit status 1) when a page scrolls sideways (its
scroll width exceeds the viewport's) or shows a broken image (naturalWidth 0).

The sample game's and the classic game's report, bulletin and archive page are shot
again read in French (fr-…png: the reports written with ``report --language fr`` in a
copy of each game, the archive with ``site --language fr``). Every page is also shot
at 390 px in dark mode (…-390-dark.png). At 390 px it prints
where each heading, picture and summary row starts, in screens of a 390 x 844 phone
from the top (0.0: on the first screen's top line).

Usage: python scripts/screenshots.py [--out DIR] [--chromium PATH]
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = (390, 1280)
PHONE_HEIGHT = 844  # CSS px of a 390 px phone's screen: "screen 1.5" starts one and a half screens down
TURN = "spring-1924"

# Run once the page has loaded: what a user would notice, written into the page.
PROBE = r"""
<script>
window.addEventListener("load", function () {
  var doc = document.documentElement;
  var broken = [];
  for (var i = 0; i < document.images.length; i++) {
    var im = document.images[i];
    if (!im.complete || im.naturalWidth === 0) broken.push(im.getAttribute("src"));
  }
  var wide = [];
  var all = document.body.getElementsByTagName("*");
  function over(el) { return el.getBoundingClientRect().right > window.innerWidth + 0.5; }
  for (var j = 0; j < all.length && wide.length < 5; j++) {
    var el = all[j];
    if (!over(el)) continue;
    var inner = false;  // report the innermost elements only
    for (var k = 0; k < el.children.length; k++) if (over(el.children[k])) inner = true;
    if (!inner) wide.push(el.tagName + " to " + Math.round(el.getBoundingClientRect().right) + " px: " +
        (el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 50));
  }
  // where what a player looks for starts: the summary's rows, each heading, each map, the orders file
  var marks = [];
  var found = document.querySelectorAll("table.summary th, p.deadline, h2, img.map, details.orders > summary, " +
      "p.bad, span.bad, ul.happened li, p.not-done");
  for (var m = 0; m < found.length; m++) {
    var it = found[m];
    var what = it.tagName === "IMG" ? "picture " + it.getAttribute("src") :
        it.tagName === "SPAN" ? "badge " + (it.textContent || "").trim() + ": " +
            ((it.closest("tr") || it).textContent || "").trim() : (it.textContent || "").trim();
    marks.push({what: what.replace(/\s+/g, " ").slice(0, 90),
                top: Math.round(it.getBoundingClientRect().top + window.scrollY)});
  }
  parent.postMessage(JSON.stringify({scroll: doc.scrollWidth, viewport: window.innerWidth,
      height: doc.scrollHeight, broken: broken, wide: wide, marks: marks}), "*");
});
</script>
"""

# Headless Chromium makes no window narrower than 500 px: the page is shown in a
# frame of the wanted width, which is then its viewport (media queries included).
HOST = """<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body style="margin:0;background:#888;">
<iframe src="{src}" style="display:block;border:0;width:{width}px;height:{height}px;"></iframe>
<script>
window.addEventListener("message", function (e) {{
  var out = document.createElement("pre");
  out.id = "moonshine-probe";
  out.textContent = e.data;
  document.body.appendChild(out);
}});
</script>
</body></html>
"""


@dataclass(frozen=True)
class Page:
    name: str  # the screenshot's file name stem
    path: Path


@dataclass(frozen=True)
class Probe:
    scroll: int
    viewport: int
    height: int
    broken: list[str]
    wide: list[str]
    marks: list[tuple[str, int]]  # what starts where on the page (CSS px from its top)


def find_chromium(given: str | None) -> str:
    for name in ([given] if given else []) + ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]:
        found = shutil.which(name)
        if found:
            return found
    sys.exit("screenshots: no Chromium found (make screenshots installs it with apt-get)")


def chromium_args(chromium: str, width: int, height: int, *, dark: bool = False) -> list[str]:
    """``dark``: the page sees prefers-color-scheme: dark, as in a phone's dark mode."""
    theme = ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] if dark else []
    return [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--allow-file-access-from-files",
        "--no-first-run",
        "--disable-extensions",
        f"--window-size={width},{height}",
        "--virtual-time-budget=5000",
        *theme,
    ]


def run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, check=True, text=True, capture_output=True, timeout=120, **kw)  # type: ignore[call-overload, no-any-return]


# the sample game as played by mail: the judge's address, the next turn's deadline, the game's zone
MAIL_SETTINGS = """
smtp:
  host: smtp.example.org
  from: "Moonshine referee <referee@example.org>"
deadlines:
  autumn-1924: "2026-12-03T17:00:00+00:00"
schedule:
  timezone: America/Chicago
  every: 168h
"""


# the sample game's spring as issue 38 played it by hand: a rejected move and an order out
# of reach (the Outfit, whose H NOC the opening raid arrested, and the North Side), a
# unit without an order, and a gang (the Valley Gang) that sends nothing
SPRING = {
    "outfit": [
        "gang: Chicago Outfit",
        "L UPT - ROG",
        "H LIN - ALB",
        "L NOR / H LIN - ALB",
        "H LAK x ALB",  # ALB is not next to LAK: rejected, the unit holds
        "L NOT / L UPT - ROG",
        "sell 6",
        "bribe LAK 4",
    ],
    "northside": [
        "gang: North Side Gang",
        "L JEF - NWP - EDI",
        "H IRV - LIP",
        "L EDG / H IRV - ALB",
        "H AVO - LOG",
        "L POR / H CRA - DUN",
        "bribe LOG 6",
    ],
    "valley": None,
}

# a classic game through 1901 as issue 38 played it, to its retreat phase (France reads French)
CLASSIC_ORDERS = [
    ("spring-1901", "FRA", ["A PAR - PIC", "A MAR H", "F BRE - MAO"]),
    ("spring-1901", "GER", ["A MUN - BUR", "F KIE - DEN", "A BER - KIE"]),
    ("spring-1901", "ENG", ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]),
    ("spring-1901", "ITA", ["A VEN - TUN", "A ROM - APU", "F NAP - ION"]),
    ("spring-1901", "AUS", ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"]),
    ("spring-1901", "TUR", ["A CON - BUL", "F ANK - BLA", "A SMY - ARM"]),
    ("fall-1901", "FRA", ["A PIC - BUR", "A MAR S A PIC - BUR", "F MAO - SPA/SC"]),
    ("fall-1901", "GER", ["A BUR H", "F DEN H", "A KIE H"]),
    ("fall-1901", "ENG", ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG S F NTH"]),
    ("fall-1901", "ITA", ["A APU - TUN", "F ION C A APU - TUN", "A VEN H"]),
    ("fall-1901", "AUS", ["A GAL - RUM", "A SER S A GAL - RUM", "F ALB - GRE"]),
    ("fall-1901", "TUR", ["A BUL - RUM", "F BLA S A BUL - RUM", "A ARM - SEV"]),
    ("fall-1901-retreats", "GER", ["A BUR R RUH"]),
]
CLASSIC_SETTINGS = """
smtp:
  host: smtp.example.org
  from: "Judge <judge@example.org>"
deadlines:
  fall-1901: "2026-12-03T17:00:00+00:00"
  fall-1901-retreats: "2026-12-04T17:00:00+00:00"
  winter-1901: "2026-12-05T17:00:00+00:00"
schedule:
  timezone: Europe/Paris
  every: 72h
"""


def build(out: Path) -> list[Page]:
    """The sample game adjudicated, its reports and its web archive."""
    moonshine = str(Path(sys.executable).parent / "moonshine")
    game = out / "game"
    if game.exists():
        shutil.rmtree(game)
    game.mkdir(parents=True)
    for name in ("game.yaml", ".moonshine-secret"):
        shutil.copy(ROOT / name, game / name)
    for name in ("orders", "turns"):
        shutil.copytree(ROOT / name, game / name)
    with (game / "game.yaml").open("a", encoding="utf-8") as config:  # played by mail, with a deadline
        config.write(MAIL_SETTINGS)
    for gang, lines in SPRING.items():
        path = game / "orders" / TURN / f"{gang}.txt"
        if lines is None:
            path.unlink()
        else:
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run([moonshine, "adjudicate", TURN, "--game", str(game), "--no-commit"])
    site = out / "site"
    if site.exists():
        shutil.rmtree(site)
    run([moonshine, "site", "--game", str(game), "--out", str(site)])
    reports = game / "turns" / TURN / "reports"
    classic = out / "classic"
    if classic.exists():
        shutil.rmtree(classic)
    run([moonshine, "new", str(classic), "--variant", "classic", "--no-git", "--seed", "screenshots"])
    import yaml  # here: only the classic game's settings are edited

    cfg = yaml.safe_load((classic / "game.yaml").read_text(encoding="utf-8"))
    cfg["players"]["FRA"].update({"language": "fr", "timezone": "Europe/Paris"})  # France reads French
    (classic / "game.yaml").write_text(
        yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True) + CLASSIC_SETTINGS, encoding="utf-8"
    )
    for phase, power, lines in CLASSIC_ORDERS:
        (classic / "orders" / phase).mkdir(parents=True, exist_ok=True)
        (classic / "orders" / phase / f"{power}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for phase in dict.fromkeys(p for p, _, _ in CLASSIC_ORDERS):
        run([moonshine, "adjudicate", phase, "--game", str(classic), "--no-commit"])
    run([moonshine, "site", "--game", str(classic), "--out", str(classic / "site")])
    last = CLASSIC_ORDERS[-1][0]
    # the same games read in French: a copy of each with its reports written in French,
    # and each archive written in French
    french, classic_fr = out / "game-fr", out / "classic-fr"
    for src, dest in ((game, french), (classic, classic_fr)):
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns("site"))
    run([moonshine, "report", TURN, "--game", str(french), "--language", "fr"])
    run([moonshine, "report", last, "--game", str(classic_fr), "--language", "fr"])
    run([moonshine, "site", "--game", str(french), "--out", str(out / "site-fr"), "--language", "fr"])
    run([moonshine, "site", "--game", str(classic_fr), "--out", str(classic_fr / "site"), "--language", "fr"])
    reports_fr = french / "turns" / TURN / "reports"
    return [
        Page("classic-report", classic / "turns" / last / "reports" / "GER.html"),
        Page("classic-report-fra", classic / "turns" / last / "reports" / "FRA.html"),
        Page("classic-bulletin", classic / "turns" / last / "reports" / "bulletin.html"),
        Page("classic-site-index", classic / "site" / "index.html"),
        Page("classic-site-turn", classic / "site" / "turns" / last / "index.html"),
        Page("report", reports / "outfit.html"),
        Page("report-valley", reports / "valley.html"),
        Page("bulletin", reports / "bulletin.html"),
        Page("site-index", site / "index.html"),
        Page("site-turn", site / "turns" / TURN / "index.html"),
        Page("fr-report", reports_fr / "outfit.html"),
        Page("fr-report-valley", reports_fr / "valley.html"),
        Page("fr-bulletin", reports_fr / "bulletin.html"),
        Page("fr-site-turn", out / "site-fr" / "turns" / TURN / "index.html"),
        Page("fr-classic-report", classic_fr / "turns" / last / "reports" / "GER.html"),
        Page("fr-classic-site-turn", classic_fr / "site" / "turns" / last / "index.html"),
    ]


def _framed(page: Path, width: int, height: int) -> tuple[Path, Path]:
    """A copy of the page with the probe, and a host page framing it at ``width``;
    both beside the page, so that its relative pictures load."""
    text = page.read_text(encoding="utf-8")
    at = text.rfind("</body>")
    probed = text[:at] + PROBE + text[at:] if at >= 0 else text + PROBE
    copy = page.with_name(f".probe-{page.name}")
    copy.write_text(probed, encoding="utf-8")
    host = page.with_name(f".host-{page.name}")
    host.write_text(HOST.format(src=copy.name, width=width, height=height), encoding="utf-8")
    return copy, host


def probe(chromium: str, page: Path, width: int) -> Probe:
    copy, host = _framed(page, width, 900)
    try:
        dom = run([*chromium_args(chromium, max(width, 500), 900), "--dump-dom", host.as_uri()]).stdout
    finally:
        copy.unlink()
        host.unlink()
    found = re.search(r'<pre id="moonshine-probe">(.*?)</pre>', dom, re.S)
    if found is None:
        raise SystemExit(f"screenshots: the probe did not run in {page}")
    data = json.loads(html.unescape(found.group(1)))
    marks = [(str(m["what"]), int(m["top"])) for m in data.get("marks", [])]
    return Probe(data["scroll"], data["viewport"], data["height"], data["broken"], data["wide"], marks)


def screenshot(chromium: str, page: Path, width: int, height: int, target: Path, *, dark: bool = False) -> None:
    from PIL import Image

    copy, host = _framed(page, width, height)
    target.unlink(missing_ok=True)
    try:
        args = chromium_args(chromium, max(width, 500), height, dark=dark)
        run([*args, f"--screenshot={target}", host.as_uri()])
    finally:
        copy.unlink()
        host.unlink()
    if not target.is_file():
        raise SystemExit(f"screenshots: Chromium wrote no {target}")
    with Image.open(target) as im:
        cropped = im.crop((0, 0, width, height))
    cropped.save(target)


def self_check(chromium: str, out: Path) -> None:
    """The probe sees what it looks for: a page too wide for a phone, with a broken image."""
    bad = out / "self-check.html"
    bad.write_text(
        '<!DOCTYPE html><html><body><div style="width:600px">wide</div><img src="missing.png" alt=""></body></html>',
        encoding="utf-8",
    )
    try:
        p = probe(chromium, bad, 390)
    finally:
        bad.unlink()
    if not (p.viewport == 390 and p.scroll > p.viewport and p.broken == ["missing.png"]):
        raise SystemExit(f"screenshots: the probe misses a wide page or a broken image ({p})")


def _shown(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "screenshots")
    parser.add_argument("--chromium")
    args = parser.parse_args()
    chromium = find_chromium(args.chromium)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    self_check(chromium, out)
    pages = build(out)
    failures = []
    for page in pages:
        for width in WIDTHS:
            p = probe(chromium, page.path, width)
            target = out / f"{page.name}-{width}.png"
            screenshot(chromium, page.path, width, min(max(p.height, 600), 16000), target)
            verdict = "ok"
            if p.viewport != width:
                verdict = f"viewport is {p.viewport} px, not {width}"
                failures.append(f"{page.name} at {width} px: {verdict}")
            if p.scroll > p.viewport:
                verdict = f"scrolls sideways: {p.scroll} px wide in {p.viewport} ({'; '.join(p.wide)})"
                failures.append(f"{page.name} at {width} px: {verdict}")
            if p.broken:
                verdict = f"broken image(s): {', '.join(p.broken)}"
                failures.append(f"{page.name} at {width} px: {verdict}")
            print(f"{_shown(target)}: {p.height} px high, {verdict}")
            if width == WIDTHS[0]:  # where each thing starts, in screens of a 390 x 844 phone
                for what, top in p.marks:
                    print(f"    screen {top / PHONE_HEIGHT:4.1f} ({top:5d} px)  {what}")
            if width == WIDTHS[0]:  # a phone in dark mode, to look at
                dark = out / f"{page.name}-{width}-dark.png"
                screenshot(chromium, page.path, width, min(max(p.height, 600), 16000), dark, dark=True)
                print(f"{_shown(dark)}: dark mode")
    for f in failures:
        print(f"FAILED: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
