"""Command line: score a pulka/1 file and print its pulka-sheet/1 (spec/pulka-json.md).

    python -m scoring.engine FILE [--entries]      (FILE may be "-" for stdin)

Exit 0 with the sheet as JSON on stdout; exit 2 with one line ``error: ...`` on stderr for
unreadable or invalid input (the whole pulka is rejected, rules/sochi.md §17.17). Options
come from the file's ``rules`` object (§14).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from .errors import PulkaError
from .jsonio import score_pulka, sheet_to_dict

USAGE = "usage: python -m scoring.engine [--entries] FILE   (FILE may be - for stdin)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the scorer; returns the exit status.

    Example (the shell)::

        $ python -m scoring.engine tests/data/cases/G1.json --entries > g1-sheet.json
    """
    args = list(sys.argv[1:] if argv is None else argv)
    entries = "--entries" in args
    files = [a for a in args if a != "--entries"]
    if len(files) != 1 or (files[0].startswith("-") and files[0] != "-"):
        return _fail(USAGE)
    path = files[0]
    try:
        if path == "-":  # JSON is UTF-8 whatever the locale says
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return _fail(f"cannot read {path}: {reason}")
    try:
        doc = json.loads(text)
    except ValueError as exc:
        return _fail(f"invalid JSON: {exc}")
    except RecursionError:
        return _fail("invalid JSON: nested too deeply")
    try:
        sheet = score_pulka(doc)
    except PulkaError as exc:
        return _fail(str(exc))
    text = json.dumps(sheet_to_dict(sheet, entries=entries), indent=2, ensure_ascii=False)
    _write(sys.stdout, text + "\n")
    return 0


def _fail(message: str) -> int:
    line = " ".join(message.split())  # exactly one line
    _write(sys.stderr, f"error: {line}\n")
    return 2


def _write(stream, text: str) -> None:
    """Write UTF-8 whatever the locale says (names are Cyrillic more often than not)."""
    raw = getattr(stream, "buffer", None)
    if raw is None:
        stream.write(text)
        return
    stream.flush()
    raw.write(text.encode("utf-8"))
    raw.flush()


if __name__ == "__main__":
    sys.exit(main())
