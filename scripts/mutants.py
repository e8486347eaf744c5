"""Deliberate bugs, to see whether the tests catch them (a tool of the developers, not
part of ``make test``: it takes a while).

    .venv/bin/python scripts/mutants.py                 # every mutant, the table by area
    .venv/bin/python scripts/mutants.py --area lobby    # one area's
    .venv/bin/python scripts/mutants.py --only raid-boundary --verbose
    .venv/bin/python scripts/mutants.py --list          # the mutants, checked against the code

Each mutant is one small bug: a file, an exact snippet of it (found once) and its
replacement. The tracked (and new, not ignored) files of the working tree are copied to
a scratch directory once; each mutant is applied there in turn, the tests of its area
(or its own) run against the copy (``PYTHONPATH`` puts the copy's package first) with a
timeout, and the file is put back. A mutant is *caught* when the tests fail (or run past
the timeout), *missed* when they all pass. The table counts them by area, and the
missed ones are named: each is a behaviour no test holds. A mutant whose code no
behaviour reaches says why (``equivalent``): when its tests pass it counts apart, as
*equivalent*, and the rate leaves it out."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AREAS = ("engine", "classic", "reader", "mail", "lobby", "reports")


@dataclass(frozen=True)
class Mutant:
    name: str
    area: str
    path: str
    snippet: str
    replacement: str
    tests: tuple[str, ...] = ()  # its own tests; else its area's
    # the same bug in the code as a later (or earlier) revision writes it: (snippet, replacement)
    alternatives: tuple[tuple[str, str], ...] = ()
    # why no behaviour can show this bug (the code it changes is never reached so): a
    # missed one counts apart, as equivalent, not as a gap in the tests
    equivalent: str = ""

    def edit(self, text: str) -> tuple[str, str] | None:
        """The (snippet, replacement) of this bug that ``text`` holds exactly once."""
        for snippet, replacement in ((self.snippet, self.replacement), *self.alternatives):
            if text.count(snippet) == 1:
                return snippet, replacement
        return None


def m(
    name: str,
    area: str,
    path: str,
    snippet: str,
    replacement: str,
    *tests: str,
    alt: tuple[tuple[str, str], ...] = (),
    equivalent: str = "",
) -> Mutant:
    return Mutant(name, area, path, snippet, replacement, tuple(tests), alt, equivalent)


# The tests each area's mutants run (a mutant may name its own). Chosen by what tests
# the area's modules, so that a mutant costs a minute or two, not the whole suite.
AREA_TESTS: dict[str, tuple[str, ...]] = {
    "engine": (
        "tests/variants/moonshine/test_turn.py",
        "tests/variants/moonshine/test_police.py",
        "tests/variants/test_cases.py",
        "tests/variants/moonshine/test_upkeep.py",
        "tests/engine/test_outcome.py",
        "tests/variants/moonshine/test_state.py",
        "tests/variants/moonshine/test_no_raids.py",
        "tests/text/test_money.py",
        "tests/variants/moonshine/test_house_rules.py",
        "tests/render/test_story.py",
        "tests/variants/moonshine/test_turn_props.py",
        "tests/variants/moonshine/test_agreement.py",
        "tests/variants/moonshine/test_adjudicator_props.py",
        "tests/variants/moonshine/test_validate.py",
        "tests/variants/moonshine/test_results_file.py",
        "tests/render/test_reports.py",
        "tests/mail/test_e2e.py",
        "tests/variants/moonshine/test_police_rules.py",
    ),
    "classic": (
        "tests/variants/classic/test_datc.py",
        "tests/variants/classic/test_classic.py",
        "tests/variants/test_civil_disorder.py",
        "tests/variants/moonshine/test_turns.py",
        "tests/variants/classic/test_classic_positions_agree.py",
        "tests/variants/classic/test_classic_check_agrees.py",
        "tests/variants/classic/test_rule_options.py",
        "tests/variants/test_variants.py",
        "tests/game/test_exchange.py",
        "tests/variants/classic/test_phase_rules.py",
    ),
    "reader": (
        "tests/variants/moonshine/test_parser.py",
        "tests/variants/test_order_lines.py",
        "tests/variants/test_notation.py",
        "tests/variants/test_lenient_reading.py",
        "tests/game/test_orderfile.py",
        "tests/render/test_ack.py",
        "tests/render/test_ack_golden.py",
        "tests/variants/classic/test_classic.py",
        "tests/cli/test_check_cli.py",
        "tests/variants/classic/test_board_names.py",
        "tests/variants/moonshine/test_reader_edges.py",
    ),
    "mail": (
        "tests/mail/test_inbox.py",
        "tests/mail/test_inbox_hostile.py",
        "tests/mail/test_mail.py",
        "tests/mail/test_mail_edge.py",
        "tests/mail/test_mail_once.py",
        "tests/mail/test_mail_corpus.py",
        "tests/mail/test_run_season.py",
        "tests/mail/test_run_errors.py",
        "tests/mail/test_run_outage.py",
        "tests/game/test_schedule.py",
        "tests/variants/moonshine/test_turns.py",
        "tests/mail/test_status.py",
        "tests/mail/test_press.py",
        "tests/mail/test_takeover.py",
        "tests/mail/test_secure_mail.py",
    ),
    "lobby": (
        "tests/host/test_judge_registry.py",
        "tests/host/test_judge_e2e.py",
        "tests/host/test_judge_secrets.py",
        "tests/game/test_judge_settings.py",
        "tests/host/test_lobby_rules.py",
        "tests/host/test_secure_judge.py",
    ),
    "reports": (
        "tests/render/test_reports.py",
        "tests/render/test_ack_golden.py",
        "tests/render/test_story.py",
        "tests/mail/test_privacy_mail.py",
        "tests/game/test_site.py",
        "tests/game/test_results_json.py",
        "tests/text/test_french_typography.py",
        "tests/render/test_report_contents.py",
    ),
}

E, C, R, M, L, P = AREAS
MOON = "moonshine/variants/moonshine/"
CLASSIC = "moonshine/variants/classic/"
LOBBY = "moonshine/host/lobby/"

MUTANTS: tuple[Mutant, ...] = (
    # -- engine: the resolver and Moonshine's rules ------------------------------------------
    m("move-beats-equal-defence", E, "moonshine/engine/resolver.py", "if attack <= defence:", "if attack < defence:"),
    m(
        "move-beats-equal-prevent",
        E,
        "moonshine/engine/resolver.py",
        "if attack <= self.prevent(j):",
        "if attack < self.prevent(j):",
    ),
    m(
        "hold-strength-of-a-mover",
        E,
        "moonshine/engine/resolver.py",
        "return 0 if self.resolve(v) else self.strength[v]",
        "return self.strength[v]",
    ),
    m(
        "own-support-dislodges",
        E,
        "moonshine/engine/resolver.py",
        "if self.gang[s] not in excluded and self.resolve(s):",
        "if self.resolve(s):",
    ),
    m("raid-boundary", E, MOON + "police.py", "if index < acc:", "if index <= acc:"),
    m(
        "return-order-station-first",
        E,
        MOON + "police.py",
        "return (a.gang, a.station, a.taken_in, a.kind.value)",
        "return (a.station, a.gang, a.taken_in, a.kind.value)",
    ),
    m(
        "return-to-farthest-home",
        E,
        MOON + "police.py",
        "return min(fits)[1] if fits else None",
        "return max(fits)[1] if fits else None",
    ),
    m(
        "loot-stays-in-station",
        E,
        MOON + "turn.py",
        "crates = st.confiscated.pop(a.station, 0)",
        "crates = st.confiscated.get(a.station, 0)",
    ),
    m("assault-vp-every-time", E, MOON + "turn.py", "first = a.station not in taken", "first = True"),
    m(
        "any-corruption-spares",
        E,
        MOON + "police.py",
        "spared = corrupt is not None and corrupt == controller",
        "spared = corrupt is not None",
    ),
    m(
        "corruption-spares-every-unit",
        E,
        MOON + "police.py",
        "if corrupt is not None and corrupt == u.gang:",
        "if corrupt is not None:",
    ),
    m(
        "raided-supply-produces",
        E,
        MOON + "scoring.py",
        "if gmap.districts[d].feature is not Feature.SUPPLY or d == raided:",
        "if gmap.districts[d].feature is not Feature.SUPPLY:",
    ),
    m(
        "unpaid-upkeep-rounded-down",
        E,
        MOON + "upkeep.py",
        "unpaid = -(-(upkeep - cash) // UPKEEP) if upkeep > cash else 0",
        "unpaid = (upkeep - cash) // UPKEEP if upkeep > cash else 0",
    ),
    # -- classic: the standard game's phases ----------------------------------------------
    m("build-on-occupied", C, CLASSIC + "adjustments.py", "    if prov in taken:\n", "    if False:\n"),
    m(
        "build-in-unowned-home",
        C,
        CLASSIC + "adjustments.py",
        "if owners.get(prov) != power:",
        "if owners.get(prov) is None:",
    ),
    m(
        "disband-nearest-first",
        C,
        CLASSIC + "adjustments.py",
        "return sorted(units, key=lambda u: (-steps(u), ",
        "return sorted(units, key=lambda u: (steps(u), ",
    ),
    m("retreats-to-one-place-stand", C, CLASSIC + "retreats.py", "if len(provs) > 1:", "if len(provs) > 2:"),
    m(
        "retreat-another-powers-unit",
        C,
        CLASSIC + "retreats.py",
        "if d is None or d.power != power:",
        "if d is None:",
    ),
    m(
        "phase-name-as-typed",
        C,
        CLASSIC + "state.py",
        "m = _PHASE.match(text.strip().lower())",
        "m = _PHASE.match(text)",
    ),
    m(
        "contested-needs-two",
        C,
        CLASSIC + "movement.py",
        "any(core.prevent(m) > 0 for m in movers)",
        "any(core.prevent(m) > 1 for m in movers)",
    ),
    # -- reader: the order readers ------------------------------------------------------------
    m(
        "signature-without-space",
        R,
        MOON + "parser/lexer.py",
        'return line.rstrip("\\r\\n") in ("-- ", "--")',
        'return line.rstrip("\\r\\n") == "-- "',
    ),
    m(
        "zero-width-space-kept",
        R,
        MOON + "parser/lexer.py",
        '"\\ufeff\\u200b\\u200c\\u200d\\u2060"',
        '"\\ufeff\\u200c\\u200d\\u2060"',
    ),
    m(
        "en-dash-not-a-dash",
        R,
        MOON + "parser/lexer.py",
        'DASHES = dict.fromkeys(map(ord, "‐‑‒–—',
        'DASHES = dict.fromkeys(map(ord, "‐‑‒',
    ),
    m(
        "misspelt-first-letter",
        R,
        MOON + "parser/spelling.py",
        "if not typed or not form or typed[0] != form[0]:",
        "if not typed or not form:",
    ),
    m(
        "one-edit-too-many",
        R,
        MOON + "parser/spelling.py",
        "if d <= allowed_edits(typed):",
        "if d <= allowed_edits(typed) + 1:",
    ),
    m(
        "armee-not-an-army",
        R,
        CLASSIC + "orders.py",
        'if low in ("a", "army", "armée", "armee"):',
        'if low in ("a", "army"):',
    ),
    # -- mail: one game's mail ------------------------------------------------------------------
    m(
        "authres-suffix-without-dot",
        M,
        "moonshine/mail/envelope.py",
        'sender_domain.endswith("." + domain)',
        "sender_domain.endswith(domain)",
    ),
    m(
        "auto-submitted-no-is-automatic",
        M,
        "moonshine/mail/envelope.py",
        'if value and value != "no":',
        "if value:",
    ),
    m(
        "received-bottom-line",
        M,
        "moonshine/mail/envelope.py",
        'candidates = [(str(received[0]).rpartition(";")[2], True)] if received else []',
        'candidates = [(str(received[-1]).rpartition(";")[2], True)] if received else []',
    ),
    m(
        "guesses-counted-by-gang-only",
        M,
        "moonshine/mail/inbox/accept.py",
        'max(ctx.wrong[f"gang:{gang}"], ctx.wrong[f"from:{r.sender}"])',
        'ctx.wrong[f"gang:{gang}"]',
    ),
    m(
        "deferred-retried-together",
        M,
        "moonshine/mail/outbox/smtp.py",
        "skip |= {a for a, d in deferred.items() if d.next > now}",
        "skip |= set(deferred) if any(d.next > now for d in deferred.values()) else set()",
    ),
    m(
        "turn-name-as-typed",
        M,
        MOON + "calendar.py",
        "m = _TURN.match(text.strip().lower())",
        "m = _TURN.match(text)",
    ),
    m(
        "one-character-passwords",
        M,
        "moonshine/mail/passwords.py",
        "if len(set(password)) < 4 or password.isdigit():",
        "if len(set(password)) < 2:",
    ),
    m(
        "grace-for-everyone",
        M,
        "moonshine/mail/inbox/accept.py",
        "and not ctx.late_ok and gang not in ctx.grace_for:",
        "and not ctx.late_ok:",
    ),
    m(
        "earlier-turn-mail-taken",
        M,
        "moonshine/mail/inbox/accept.py",
        "if ctx.previous_due is not None and received <= ctx.previous_due:",
        "if False:",
    ),
    m("two-from-lines-read", M, "moonshine/mail/envelope.py", "    if len(values) != 1:\n", "    if not values:\n"),
    m(
        "html-read-beside-plain",
        M,
        "moonshine/mail/intake.py",
        "return plain + attached + (html if not plain else [])",
        "return plain + attached + html",
    ),
    m(
        "secrets-in-replies",
        M,
        "moonshine/mail/inbox/replies.py",
        "body=masking.mask_secrets(body, r.secrets),",
        "body=body,",
    ),
    m(
        "future-date-believed-a-day",
        M,
        "moonshine/mail/envelope.py",
        "FUTURE_SLACK = timedelta(hours=1)",
        "FUTURE_SLACK = timedelta(days=1)",
    ),
    m("grace-with-nobody-missing", M, "moonshine/mail/turns.py", "    if grace and waiting:\n", "    if grace:\n"),
    m(
        "stranger-subject-echoed",
        M,
        "moonshine/mail/inbox/replies.py",
        "if not gangs_of(ctx, r.sender):  # a stranger's subject is not sent back",
        "if False:",
    ),
    m(
        "password-line-in-orders",
        M,
        "moonshine/mail/envelope.py",
        'lines = [("" if n in hide else _tidy(line)) for n, line in enumerate(split_lines(text), 1)]',
        "lines = [_tidy(line) for line in split_lines(text)]",
    ),
    # -- lobby: the judge for many games --------------------------------------------------------
    m(
        "anyone-is-a-games-master",
        L,
        LOBBY + "request.py",
        "if all(p.id != player.id for p in req.reg.masters(row.name)):",
        "if False:",
    ),
    m(
        "anyone-creates",
        L,
        LOBBY + "request.py",
        "elif who == JUDGE_MASTER and player.address not in req.ctx.settings.masters:",
        "elif False:",
    ),
    m(
        "resume-with-a-minute",
        L,
        LOBBY + "masters.py",
        "timedelta(seconds=max(row.paused_left, HOUR))",
        "timedelta(seconds=max(row.paused_left, 60))",
        alt=(("max(row.paused_left, 3600)", "max(row.paused_left, 60)"),),
    ),
    m(
        "takeover-by-a-player-in-the-game",
        L,
        LOBBY + "seats.py",
        'if req.reg.member(row.name, player.id) is not None:\n        raise Refused(phrase("lobby.takeover.in_game"',
        'if False:\n        raise Refused(phrase("lobby.takeover.in_game"',
    ),
    m(
        "game-name-matched-at-the-start",
        L,
        LOBBY + "masters.py",
        "if not GAME_NAME.fullmatch(name)",
        "if not GAME_NAME.match(name)",
    ),
    m(
        "wrong-passwords-not-counted",
        L,
        LOBBY + "request.py",
        "req.ctx.wrong[req.mail.sender] += 1",
        "pass",
    ),
    m(
        "join-a-running-game",
        L,
        LOBBY + "seats.py",
        '    if row.status != FORMING:\n        raise Refused(phrase("lobby.join.not_forming"',
        '    if row.status not in (FORMING, RUNNING):\n        raise Refused(phrase("lobby.join.not_forming"',
    ),
    m(
        "leave-a-started-game",
        L,
        LOBBY + "seats.py",
        '    if row.status != FORMING:\n        raise Refused(phrase("lobby.leave.started"',
        '    if False:\n        raise Refused(phrase("lobby.leave.started"',
    ),
    m(
        "extend-ten-times-more",
        L,
        LOBBY + "masters.py",
        "not 1 <= int(hours) <= 720",
        "not 1 <= int(hours) <= 7200",
    ),
    m("draw-in-join-order", L, "moonshine/host/games.py", "    rng.shuffle(order)\n", "    pass\n"),
    m(
        "resignations-cost-nothing",
        L,
        "moonshine/host/registry/__init__.py",
        "owed = self.due + self.resigned",
        "owed = self.due",
    ),
    m(
        "every-command-done",
        L,
        LOBBY + "__init__.py",
        "for cmd in known[:limit]:",
        "for cmd in known:",
        alt=(("for cmd in script.commands[:limit]:", "for cmd in script.commands:"),),
    ),
    m(
        "registered-twice",
        L,
        LOBBY + "players.py",
        '    if req.player is not None:\n        raise Refused(phrase("lobby.register.already"',
        '    if False:\n        raise Refused(phrase("lobby.register.already"',
    ),
    # -- reports: what each side reads ----------------------------------------------------------
    m(
        "every-gangs-arrested-units",
        P,
        "moonshine/render/report.py",
        "arrested = [a for a in nxt.arrested if a.gang == gang]",
        "arrested = list(nxt.arrested)",
    ),
    m(
        "every-gangs-units",
        P,
        "moonshine/render/report.py",
        "units = sorted(nxt.units_of(gang), key=",
        "units = sorted(nxt.units, key=",
    ),
    m(
        "rank-counts-ties-ahead",
        P,
        "moonshine/render/report.py",
        "rank = 1 + sum(1 for s in every if s.vp > gr.vp)",
        "rank = 1 + sum(1 for s in every if s.vp >= gr.vp)",
    ),
    m(
        "price-headline-upside-down",
        P,
        "moonshine/render/bulletin.py",
        '"story.headline.price_up" if item.n > item.before else',
        '"story.headline.price_up" if item.n < item.before else',
    ),
    m(
        "zero-shown-as-a-gain",
        P,
        "moonshine/render/bulletin.py",
        'return f"+{n}" if n > 0 else',
        'return f"+{n}" if n >= 0 else',
        equivalent="the story's VP changes leave out every gang whose VP did not change: no bulletin shows a 0",
    ),
)


class Result:
    def __init__(self, mutant: Mutant, status: str, seconds: float, detail: str = "") -> None:
        self.mutant, self.status, self.seconds, self.detail = mutant, status, seconds, detail


def check(mutants: tuple[Mutant, ...], root: Path) -> list[str]:
    """Each mutant's snippet is in its file exactly once (else it names no bug)."""
    problems = []
    names = [x.name for x in mutants]
    for x in mutants:
        if names.count(x.name) > 1:
            problems.append(f"{x.name}: named twice")
        if x.area not in AREAS:
            problems.append(f"{x.name}: no area {x.area!r}")
        path = root / x.path
        if not path.is_file():
            problems.append(f"{x.name}: no file {x.path}")
            continue
        if x.edit(path.read_text(encoding="utf-8")) is None:
            problems.append(f"{x.name}: none of its snippets is in {x.path} exactly once")
    return problems


def scratch_copy(root: Path, rev: str | None = None) -> Path:
    """The working tree's tracked and new files (not the ignored ones) in a new directory;
    with ``rev``, that revision's files (``git archive``): the suite as it was then."""
    out = Path(tempfile.mkdtemp(prefix="moonshine-mutants-"))
    if rev is not None:
        archive = subprocess.run(["git", "archive", "--format=tar", rev], cwd=root, check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
        return out
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for raw in listed:
        if not raw:
            continue
        rel = raw.decode()
        src = root / rel
        if not src.is_file():  # deleted in the working tree
            continue
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    return out


def pytest(work: Path, tests: list[str], timeout: float) -> subprocess.CompletedProcess[str] | None:
    """The tests run against the scratch copy's package (None: past the timeout)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(work),
        "MOONSHINE_CACHE_DIR": "",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    try:
        return subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def first_failure(output: str) -> str:
    """The test that failed first, as pytest's summary names it."""
    found = [line for line in output.splitlines() if line.startswith(("FAILED ", "ERROR "))]
    return found[0][:160] if found else output.strip().splitlines()[-1][:160] if output.strip() else ""


def tests_of(x: Mutant, work: Path) -> list[str]:
    return [t for t in (x.tests or AREA_TESTS[x.area]) if (work / t).is_file()]


def control(chosen: tuple[Mutant, ...], work: Path, timeout: float) -> list[str]:
    """Each set of tests the mutants run passes on the code as it is (else a mutant
    would count as caught for nothing): the sets that do not."""
    failing = []
    for tests in dict.fromkeys(tuple(tests_of(x, work)) for x in chosen):
        done = pytest(work, list(tests), timeout)
        if done is None or done.returncode != 0:
            why = "timeout" if done is None else first_failure(done.stdout + done.stderr)
            failing.append(f"{' '.join(tests)}: {why}")
    return failing


def run_one(x: Mutant, work: Path, timeout: float, verbose: bool) -> Result:
    path = work / x.path
    original = path.read_text(encoding="utf-8")
    start = time.monotonic()
    try:
        edit = x.edit(original)
        assert edit is not None
        path.write_text(original.replace(edit[0], edit[1], 1), encoding="utf-8")
        done = pytest(work, tests_of(x, work), timeout)
        seconds = time.monotonic() - start
        if done is None:
            return Result(x, "caught", seconds, "timeout")
        output = done.stdout + done.stderr
        if done.returncode == 0:
            return Result(x, "equivalent", seconds, x.equivalent) if x.equivalent else Result(x, "missed", seconds, "")
        if done.returncode == 1:
            return Result(x, "caught", seconds, first_failure(output) if verbose else "")
        return Result(x, "error", seconds, f"pytest exit {done.returncode}: {output[-400:]}")
    finally:
        path.write_text(original, encoding="utf-8")


def table(results: list[Result]) -> str:
    lines = [f"{'area':<10} {'caught':>7} {'missed':>7} {'equiv':>6} {'error':>6} {'rate':>6}"]
    for area in AREAS:
        mine = [r for r in results if r.mutant.area == area]
        if not mine:
            continue
        caught = sum(r.status == "caught" for r in mine)
        missed = sum(r.status == "missed" for r in mine)
        same = sum(r.status == "equivalent" for r in mine)
        errors = sum(r.status == "error" for r in mine)
        rate = f"{100 * caught / (caught + missed):.0f}%" if caught + missed else "-"
        lines.append(f"{area:<10} {caught:>7} {missed:>7} {same:>6} {errors:>6} {rate:>6}")
    caught = sum(r.status == "caught" for r in results)
    missed = sum(r.status == "missed" for r in results)
    same = sum(r.status == "equivalent" for r in results)
    lines.append(f"{'all':<10} {caught:>7} {missed:>7} {same:>6} {len(results) - caught - missed - same:>6}")
    missed_ones = [r for r in results if r.status != "caught"]
    if missed_ones:
        lines.append("")
        lines += [f"{r.status}: {r.mutant.area}/{r.mutant.name} ({r.mutant.path}) {r.detail}" for r in missed_ones]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--area", choices=AREAS, action="append", help="only this area's mutants (repeatable)")
    parser.add_argument("--only", action="append", help="only the mutant of this name (repeatable)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds a mutant's tests may run")
    parser.add_argument("--list", action="store_true", help="list the mutants (checked against the code) and stop")
    parser.add_argument("--verbose", action="store_true", help="each mutant's last line of pytest")
    parser.add_argument("--root", type=Path, default=ROOT, help="the working tree to mutate (a copy of it)")
    parser.add_argument("--rev", help="mutate this revision's files instead (e.g. the suite before a change)")
    parser.add_argument("--no-control", action="store_true", help="skip running each set of tests unmutated first")
    args = parser.parse_args()
    chosen = tuple(
        x for x in MUTANTS if (not args.area or x.area in args.area) and (not args.only or x.name in args.only)
    )
    work = scratch_copy(args.root, args.rev)
    problems = check(chosen, work)
    if args.list:
        for x in chosen:
            print(f"{x.area:<8} {x.name:<36} {x.path}")
        print(f"{len(chosen)} mutants")
    if problems or args.list:
        shutil.rmtree(work, ignore_errors=True)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    if args.list:
        return 0
    results: list[Result] = []
    try:
        if not args.no_control:
            failing = control(chosen, work, args.timeout)
            if failing:
                print("the tests fail without any mutant; fix them first:\n" + "\n".join(failing), file=sys.stderr)
                return 2
            print("control: every set of tests passes on the code as it is", flush=True)
        for i, x in enumerate(chosen, 1):
            r = run_one(x, work, args.timeout, args.verbose)
            results.append(r)
            print(f"[{i}/{len(chosen)}] {r.status:<6} {x.area}/{x.name} ({r.seconds:.0f} s) {r.detail}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
