"""The pages of a game, rendered with jinja2 from the templates of the
top-level ``templates/`` folder (installed inside the package as
``moonshine.templates``): each gang's private report and the public bulletin, in
plain text and in HTML, the web site's pages, a classic game's report pages, the
bodies of the mail replies to orders and of the reminders, and the stylesheet
(``style.css``); and an HTML page with its stylesheet inlined for mail
(``inline_css``).

The contexts come from ``moonshine.render.report`` (``report_context``) and
``moonshine.render.bulletin`` (``bulletin_context``): every word already in the
page's language, ``_`` the catalogue's words. A designer changes the look by editing the templates alone.
HTML templates (``*.html.j2``) escape every value (autoescape); text templates
write values as they are. Each template is compiled once per process, and its
compiled code kept in the referee's cache directory (jinja2's
``FileSystemBytecodeCache``, keyed by the template's source) for the next process.
jinja2 is imported here only, when a page or a mail body is rendered: checking
orders never loads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from moonshine import data_folder

if TYPE_CHECKING:
    import jinja2


def _autoescape(name: str | None) -> bool:
    return name is not None and name.endswith((".html.j2", ".html"))


def _widest(rows: Any, attr: str) -> int:
    return max((len(str(getattr(r, attr))) for r in rows), default=0)


def _wrap(text: str, width: int) -> str:
    """The ``wrap`` filter of the text templates: ``moonshine.text.wrap`` (a unit such
    as ``L GGC`` never split across lines), lines joined for jinja2's ``indent``."""
    from moonshine.text.wrap import wrap

    return "\n".join(wrap(str(text), int(width)))


def _hang(text: str, width: int, at: int) -> str:
    """The ``hang`` filter of the text templates: ``text`` wrapped to ``width``, its
    next lines indented to column ``at`` (a row whose last column is long: its reason
    goes on under itself); a column too far right to leave room hangs at 8."""
    from moonshine.text.wrap import wrap

    at = int(at) if int(at) <= int(width) - 30 else 8
    return "\n".join(wrap(str(text), int(width), hang=" " * at))


def _environment() -> jinja2.Environment:
    import jinja2

    from moonshine import cache

    where = cache.cache_dir()
    bytecode: jinja2.BytecodeCache | None = None
    if where is not None:
        try:
            (where / "templates").mkdir(exist_ok=True)
            bytecode = jinja2.FileSystemBytecodeCache(str(where / "templates"))
        except OSError:
            bytecode = None
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_folder("templates"))),
        undefined=jinja2.StrictUndefined,
        autoescape=_autoescape,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=bytecode,
    )
    env.filters["pad"] = lambda text, width: str(text).ljust(int(width))
    env.filters["rpad"] = lambda text, width: str(text).rjust(int(width))
    env.filters["width"] = _widest
    env.filters["wrap"] = _wrap
    env.filters["hang"] = _hang
    return env


_ENV: list[jinja2.Environment] = []


def environment() -> jinja2.Environment:
    """The templates' environment, made once per process."""
    if not _ENV:
        _ENV.append(_environment())
    return _ENV[0]


def render(name: str, ctx: Mapping[str, Any]) -> str:
    """The template ``name`` (``report.html.j2``) rendered with ``ctx``."""
    return environment().get_template(name).render(ctx)


def inline_css(page: str) -> str:
    """The page with its stylesheet's rules written into each element's ``style``
    (mail programs that drop ``<style>`` still show it right); at-rules (the
    phone's and dark mode's) stay in the ``<style>`` block for those that keep it.
    A rule never overrides what an element's own ``style`` says."""
    import css_inline

    out = str(css_inline.CSSInliner(keep_at_rules=True, load_remote_stylesheets=False).inline(page))
    # The character set first in the head, as browsers read it from the first bytes.
    charset = '<meta charset="utf-8">'
    if charset in out:
        out = out.replace(charset + "\n", "", 1).replace("<head>", "<head>" + charset + "\n", 1)
    return out if out.endswith("\n") else out + "\n"


__all__ = ["environment", "inline_css", "render"]
