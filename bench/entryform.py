"""The deal-entry form as a browser sees it, shared by the entry and load benchmarks.

`form_data` is the POST of a pulka/1 deal through scoring.forms.DealForm; `EntryForm.parse`
reads the rendered ``#deal-form`` (its URL and its hidden inputs: the rotation dealer, the
version, the CSRF token and whatever else the server hides there), so that the benchmarks keep
posting what the server expects when the form grows a field. Standard library and the engine
only: the load generator imports it without Django.
"""

from __future__ import annotations

import html
import re
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser

from scoring import engine


def form_data(
    data: dict, names: list[str], rotation_dealer: int, number: int | None = None
) -> dict[str, str]:
    """The DealForm POST for a pulka/1 deal, as the browser sends it (the dealer not changed).

    With `number`, it is the form of deal `number` as the page renders it, with a one-time
    key of its own; without, the caller takes both from the rendered form (EntryForm).
    """
    seat = {name: i for i, name in enumerate(names)}
    post = {
        "kind": data["kind"],
        "dealer": str(rotation_dealer),
        "rotation_dealer": str(rotation_dealer),
    }
    if number is not None:
        post["number"] = str(number)
        post["entry_key"] = str(uuid.uuid4())
    if data["kind"] != engine.RASPASY:
        post["declarer"] = str(seat[data["declarer"]])
    if data["kind"] == engine.GAME:
        level = engine.contract_level(data["contract"])
        post["level"] = str(level)
        post["suit"] = data["contract"][len(str(level)) :]
        for name, call in data["calls"].items():
            post[f"call_{seat[name]}"] = call
        post["quick_tricks"] = "0"
        post["talon"] = " ".join(data.get("talon") or ())
    for name, tricks in (data.get("tricks") or {}).items():
        post[f"tricks_{seat[name]}"] = str(tricks)
    return post


@dataclass
class EntryForm:
    """The new-deal form found in a page or fragment: where it posts and what it hides."""

    action: str
    hidden: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, html: str) -> EntryForm | None:
        """The ``<form id="deal-form">`` of `html`, or None when there is none (a pulka over)."""
        parser = _FormParser("deal-form")
        parser.feed(html)
        parser.close()
        if parser.action is None:
            return None
        return cls(action=parser.action, hidden=parser.hidden)

    def post(self, data: dict, names: list[str]) -> dict[str, str]:
        """The form's POST for the deal `data`: the choices of the secretary, and every hidden
        input as rendered (they win: they are the server's, not the secretary's)."""
        rotation = int(self.hidden.get("rotation_dealer", "0") or 0)
        return {**form_data(data, names, rotation), **self.hidden}


class _FormParser(HTMLParser):
    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.action: str | None = None
        self.hidden: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form" and values.get("id") == self.form_id and self.action is None:
            self.inside = True
            self.action = values.get("hx-post") or values.get("action") or ""
        elif self.inside and tag == "input" and values.get("type") == "hidden":
            name = values.get("name")
            if name:
                self.hidden[name] = values.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


_DEAL_TEXT = '<li id="deal-{number}"[^>]*>.*?<span class="deal-text">(.*?)</span>'
_NOTICE = re.compile(r'<p class="message" role="status">(.*?)</p>', re.S)
_ALERT = re.compile(r'<div class="errors" role="alert">(.*?)</div>', re.S)


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def deal_line(page: str, number: int) -> str | None:
    """What the log of `page` says deal `number` was (its line's text), or None without it."""
    found = re.search(_DEAL_TEXT.format(number=number), page, re.S)
    return _text(found.group(1)) if found else None


def form_messages(page: str) -> tuple[str, str]:
    """The entry form's notice ("already recorded") and its errors, as text ("" when none)."""
    notice = " ".join(_text(m) for m in _NOTICE.findall(page))
    alert = " ".join(_text(m) for m in _ALERT.findall(page))
    return notice, alert


def same_text(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())
