"""What the management commands of every layer share: writing a JSON document out."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _


def write_json(command: BaseCommand, document: Any, output: str | None, *, indent: int) -> None:
    """The document as JSON on the command's stdout, or in the file `output` (UTF-8)."""
    text = json.dumps(document, indent=indent, ensure_ascii=False)
    if output is None:
        command.stdout.write(text)
        return
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as exc:
        raise CommandError(
            _("Cannot write %(file)s: %(problem)s")
            % {"file": output, "problem": exc.strerror or exc}
        ) from exc
