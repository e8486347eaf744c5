"""The project's YAML: every game file is read and written here.

Reading is strict and bounded: a file is read up to a size limit (never a whole
device), its bytes must be UTF-8 (an error gives the line and column of the first
bad byte), a key given twice in a mapping is an error, and every mapping keeps the
line of each of its keys (``LineDict.line_of``) so that a schema error names the
file, the line and the key. Dates that do not exist (``2024-02-30``) are errors
naming their line, not tracebacks.

PyYAML's C classes (libyaml) are used where they are installed, its pure-Python
classes otherwise; both write byte-identical files (a test checks it).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import yaml

from moonshine.errors import StateError

_ESCAPES = {
    "\0": "0",
    "\x07": "a",
    "\x08": "b",
    "\t": "t",
    "\n": "n",
    "\x0b": "v",
    "\x0c": "f",
    "\r": "r",
    "\x1b": "e",
    '"': '"',
    "\\": "\\",
    "\x85": "N",
    "\xa0": "_",
    "\u2028": "L",
    "\u2029": "P",
}


def _printable(ch: str) -> bool:
    """libyaml's printable characters (it escapes the others)."""
    code = ord(ch)
    return 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)


class PureDumper(yaml.SafeDumper):
    """PyYAML's pure-Python dumper, made to write what libyaml writes: a text with a
    character beyond U+FFFF is double-quoted with the character escaped."""

    def analyze_scalar(self, scalar: str) -> Any:
        found = super().analyze_scalar(scalar)
        if any(ord(ch) > 0xFFFF or ch in "\x85\ufeff" for ch in scalar):
            found.allow_flow_plain = found.allow_block_plain = found.allow_single_quoted = found.allow_block = False
        return found

    def write_double_quoted(self, text: str, split: bool = True) -> None:
        """libyaml's way: escapes for what it cannot print, long lines folded at
        a space only (PyYAML folds anywhere, with a backslash)."""
        self.write_indicator('"', True)
        spaces = False
        last = len(text) - 1
        for i, ch in enumerate(text):
            if not _printable(ch) or ch in '\n\u2028\u2029"\\' or (not self.allow_unicode and ord(ch) > 0x7E):
                code = ord(ch)
                if ch in _ESCAPES:
                    data = "\\" + _ESCAPES[ch]
                elif code <= 0xFF:
                    data = f"\\x{code:02X}"
                elif code <= 0xFFFF:
                    data = f"\\u{code:04X}"
                else:
                    data = f"\\U{code:08X}"
                self._put(data)
                spaces = False
            elif ch == " ":
                if split and not spaces and self.column > self.best_width and 0 < i < last:
                    self.write_indent()
                    if text[i + 1] == " ":
                        self._put("\\")
                else:
                    self._put(" ")
                spaces = True
            else:
                self._put(ch)
                spaces = False
        self.write_indicator('"', False)

    def _put(self, data: str) -> None:
        self.column += len(data)
        self.stream.write(data.encode(self.encoding) if self.encoding else data)

    def check_simple_key(self) -> bool:
        # libyaml writes an empty key as '': (PyYAML as a complex key "? ''")
        if isinstance(self.event, yaml.ScalarEvent):
            if self.event.value == "":
                return True
            if any(ch in self.event.value for ch in "\r\n\x85\u2028\u2029"):  # a line break: never a simple key
                return False
        result: bool = super().check_simple_key()
        return result


try:
    from yaml import CSafeDumper as _BaseDumper
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # PyYAML without libyaml
    _BaseDumper = PureDumper  # type: ignore[assignment,misc]
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

# Game files are small: the largest state of the bundled map is about 10 KB.
MAX_BYTES = 4 * 1024 * 1024


class LineDict(dict[Any, Any]):
    """A mapping read from YAML that knows the line (1-based) of each key."""

    line: int = 0  # where the mapping starts
    lines: dict[Any, int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lines = {}

    def line_of(self, key: Any) -> int:
        return self.lines.get(key, self.line)


def line_of(raw: Any, key: Any = None) -> int:
    """The line of ``key`` in ``raw`` (or of ``raw`` itself) when ``raw`` was read
    here; 0 when unknown."""
    if isinstance(raw, LineDict):
        return raw.line if key is None else raw.line_of(key)
    return 0


def where(source: str, line: int) -> str:
    return f"{source}:{line}" if line else source


def _construct_map(loader: yaml.SafeLoader, node: yaml.MappingNode) -> Iterator[LineDict]:
    data = LineDict()
    data.line = node.start_mark.line + 1
    yield data
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if not isinstance(key, Hashable):
            raise yaml.constructor.ConstructorError(
                None, None, "a key cannot be a list or a mapping", key_node.start_mark
            )
        if key in data:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"duplicate key '{key}' (first given at line {data.lines[key]})",
                key_node.start_mark,
            )
        data[key] = loader.construct_object(value_node, deep=False)
        data.lines[key] = line


def _construct_timestamp(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    try:
        return loader.construct_yaml_timestamp(node)
    except ValueError as exc:
        raise yaml.constructor.ConstructorError(
            None, None, f"{node.value!r} is not a real date or time ({exc})", node.start_mark
        ) from None


class Loader(_BaseLoader):
    pass


Loader.add_constructor("tag:yaml.org,2002:map", _construct_map)
Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)


class Dumper(_BaseDumper):
    pass


def _str_presenter(dumper: Any, data: str) -> yaml.Node:
    node: yaml.Node = dumper.represent_scalar("tag:yaml.org,2002:str", data)
    return node


Dumper.add_representer(str, _str_presenter)
PureDumper.add_representer(str, _str_presenter)
PureDumper.add_representer(LineDict, yaml.representer.SafeRepresenter.represent_dict)
Dumper.add_representer(LineDict, yaml.representer.SafeRepresenter.represent_dict)


def dump(data: Any, *, dumper: type[Any] = Dumper) -> str:
    """YAML as the project writes it: keys in the given order, block style, UTF-8."""
    text: str = yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)
    if text.endswith("\n...\n"):  # a lone scalar: the pure-Python emitter ends the document, libyaml does not
        text = text[:-4]
    return text


def loads(text: str, source: str, *, loader: type[Any] = Loader) -> Any:
    """Parse YAML text; errors name the source and the line."""
    try:
        return yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        problem = exc.problem or exc.context or "not valid YAML"
        raise StateError(where(source, line), "", f"not valid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise StateError(source, "", f"not valid YAML: {exc}") from None
    except RecursionError:
        raise StateError(source, "", "not valid YAML: nested too deeply") from None


def read_bytes(path: Path, *, limit: int = MAX_BYTES, what: str = "file") -> bytes:
    """At most ``limit`` bytes of a file (a pipe or a device too): more is an
    error naming the file, so that no read is unbounded (``/dev/zero``)."""
    src = str(path)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise StateError(src, "", f"cannot read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise StateError(src, "", f"is a directory, not {'an' if what[:1] in 'aeiou' else 'a'} {what}")
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise StateError(src, "", f"the {what} is too large ({info.st_size} bytes; at most {limit})")
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise StateError(src, "", f"the {what} is too large (more than {limit} bytes)")
    except OSError as exc:
        raise StateError(src, "", f"cannot read the {what} ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def decode(data: bytes, source: str) -> str:
    """UTF-8 text; a byte that is not UTF-8 is an error giving its line, column
    and offset."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise StateError(
            f"{source}:{line}",
            "",
            f"byte 0x{data[exc.start]:02x} at column {column} (offset {exc.start}) is not UTF-8; "
            "save the file as UTF-8",
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_text(path: Path, *, limit: int = MAX_BYTES, what: str = "file") -> str:
    return decode(read_bytes(path, limit=limit, what=what), str(path))


def load(path: Path, *, limit: int = MAX_BYTES, what: str = "file") -> Any:
    """A YAML file read strictly (size limit, UTF-8, no duplicate keys)."""
    return loads(read_text(path, limit=limit, what=what), str(path))


def plain(value: Any) -> Any:
    """YAML values as JSON ones: dates as text, mappings with text keys."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
