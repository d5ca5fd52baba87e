"""One rule for every name a person types and others read, and the key that tells two names apart.

`normalise_text` is the rule: Unicode NFC, whitespace trimmed and collapsed (a one-line
text loses its line breaks, a multi-line one keeps them), no invisible, direction or control
character (they would make two names look alike but differ, or reverse the text around
them on other people's pages), at least one letter or digit, and a maximum length. Every
name and short text shown to others goes through it: club, tournament, team, league and
display names, an evening's venue and notes, and the roster's names through
`normalise_name`, the same rule in the roster's words. `NameField` is the form field that
applies it; the services apply it again, so that no name bypasses the form.

The roster stores `name_key(name)` beside each name, unique in a club. The key is what "the
same name" means: the same letters after Unicode normalisation, whitespace tidied and case
folded with `str.casefold()` (full Unicode, so "ОЛЕНА" and "Олена" are one name on SQLite as
on PostgreSQL, where the databases' own case-insensitive comparisons disagree).

    >>> normalise_name("  Андрій \\t Шевченко ")
    'Андрій Шевченко'
    >>> normalise_text("Bring\\r\\n  the  cards ", max_length=99, what="Notes", multiline=True)
    'Bring\\nthe cards'
    >>> name_key("ТАРАС") == name_key("Тарас")
    True

`collation_key(name)` is the one alphabetical order of names, on every page, select and
printout: Latin before Cyrillic, Cyrillic in the order of the Ukrainian and Russian
alphabets together (… Г Ґ Д Е Ё Є … И І Ї Й …), case, accents and apostrophes aside.
The roster stores it as Player.sort_key, so that the database sorts as Python does.

    >>> sorted(["Ігор", "Андрій", "Яна", "Ґанна", "Богдан"], key=collation_key)
    ['Андрій', 'Богдан', 'Ґанна', 'Ігор', 'Яна']
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.errors import ServiceError

NAME_MAX_LENGTH = 60

# Invisible characters that would make two names look alike but differ, or reorder the text
# around them: controls (Cc: NUL, escape...), format characters (Cf: zero-width space and
# joiners, bidi marks, overrides and isolates, the byte order mark, soft hyphen) and lone
# surrogates (Cs, which no database stores). Whitespace controls (tab, new line, U+2028) are
# whitespace instead: they are tidied into single spaces, or into line breaks where a text may
# have several lines.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})

# The refusals, by code; `what` names the field ("The club's name"), as the subject.
EMPTY, INVISIBLE, NO_LETTER, TOO_LONG = "empty", "invisible", "no_letter", "too_long"
_MESSAGES = {
    EMPTY: gettext_lazy("%(what)s is empty: write it."),
    INVISIBLE: gettext_lazy(
        "%(what)s contains an invisible, direction or control character (%(code)s): "
        "type it again without it."
    ),
    NO_LETTER: gettext_lazy("%(what)s needs at least one letter or digit."),
    TOO_LONG: gettext_lazy("%(what)s is too long: at most %(max)s characters."),
}
# The roster's own words for the same refusals: they name the name typed, which tells the
# lines of a list of names apart.
_ROSTER_MESSAGES = {
    EMPTY: gettext_lazy("Write the player's name."),
    INVISIBLE: gettext_lazy(
        "The name %(name)s contains an invisible or control character "
        "(%(code)s): type the name again without it."
    ),
    NO_LETTER: gettext_lazy("A name needs at least one letter or digit: %(name)s has none."),
    TOO_LONG: gettext_lazy(
        "The name %(name)s is too long for the roster: at most %(max)s characters."
    ),
}


class InvalidName(ServiceError):
    """A name or text the rule refuses, in words the user can read; `code` says which
    refusal (EMPTY, INVISIBLE, NO_LETTER, TOO_LONG), `params` its figures."""

    def __init__(
        self,
        message: str,
        *,
        code: str = INVISIBLE,
        params: dict[str, Any] | None = None,
        field: str | None = "name",
    ) -> None:
        super().__init__(message, field=field)
        self.code = code
        self.params = params or {}


def _tidy(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split())


def _tidy_lines(text: str) -> str:
    """Each line tidied, at most one empty line in a row, none at either end."""
    lines: list[str] = []
    for line in unicodedata.normalize("NFC", text).splitlines():
        tidy = " ".join(line.split())
        if tidy or (lines and lines[-1]):
            lines.append(tidy)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def _refusal(tidy: str, *, max_length: int, required: bool) -> tuple[str, dict[str, Any]] | None:
    """The rule itself: why the tidied text is refused (a code and its figures), or None."""
    for char in tidy:
        if char != "\n" and unicodedata.category(char) in _REFUSED_CATEGORIES:
            return INVISIBLE, {"code": f"U+{ord(char):04X}", "name": _printable(tidy)}
    if not tidy:
        return (EMPTY, {}) if required else None
    if not any(unicodedata.category(char)[0] in "LN" for char in tidy):
        return NO_LETTER, {"name": tidy}
    if len(tidy) > max_length:
        return TOO_LONG, {"max": max_length, "name": tidy}
    return None


def normalise_text(
    value: str,
    *,
    max_length: int,
    what: str,
    multiline: bool = False,
    required: bool = True,
    field: str | None = "name",
) -> str:
    """`value` as it is stored and shown: NFC, trimmed, inner whitespace collapsed (one line,
    or lines kept when `multiline`); "" for an empty value that is not `required`.

    Raises InvalidName (on `field`), with a message naming `what`, for an empty required
    value, an invisible, direction or control character, no letter or digit at all, or more
    than `max_length` characters after tidying.
    """
    tidy = _tidy_lines(value) if multiline else _tidy(value)
    problem = _refusal(tidy, max_length=max_length, required=required)
    if problem is not None:
        code, params = problem
        message = str(_MESSAGES[code]) % {"what": capfirst(str(what)), **params}
        raise InvalidName(message, code=code, params=params, field=field)
    return tidy


def normalise_name(name: str, *, max_length: int = NAME_MAX_LENGTH) -> str:
    """The name as the roster stores it: `normalise_text`'s rule on one line, in the roster's
    words (field "name").

    Raises InvalidName for an empty name, an invisible or control character, a name with no
    letter or digit, or one longer than the roster keeps.
    """
    try:
        return normalise_text(name, max_length=max_length, what=_("The player's name"))
    except InvalidName as exc:
        message = str(_ROSTER_MESSAGES[exc.code]) % exc.params
        raise InvalidName(message, code=exc.code, params=exc.params, field="name") from None


class NameField(forms.CharField):
    """A form field for a name or short text others read: its value is cleaned by
    `normalise_text`, whose refusal becomes this field's error (and nothing is saved).

    `what` names the field in the messages ("The club's name"); `multiline` keeps line
    breaks (notes), refusing the invisible and direction characters all the same.
    """

    def __init__(
        self, *, what: str, max_length: int, multiline: bool = False, **kwargs: Any
    ) -> None:
        self.what = what
        self.multiline = multiline
        if multiline:
            kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        super().__init__(max_length=max_length, **kwargs)

    @classmethod
    def of(
        cls,
        model: type[models.Model],
        name: str,
        *,
        what: str,
        max_length: int | None = None,
        **kwargs: Any,
    ) -> NameField:
        """The field for the model's column `name`: its label, help text, length and
        whether it may be left empty."""
        column = model._meta.get_field(name)
        kwargs.setdefault("label", capfirst(column.verbose_name))
        kwargs.setdefault("required", not column.blank)
        if column.help_text:
            kwargs.setdefault("help_text", column.help_text)
        return cls(what=what, max_length=max_length or column.max_length, **kwargs)

    def clean(self, value: Any) -> str:
        value = self.to_python(value)
        self.validate(value)
        try:
            value = normalise_text(
                value,
                max_length=self.max_length,
                what=self.what,
                multiline=self.multiline,
                required=self.required,
            )
        except InvalidName as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from exc
        self.run_validators(value)
        return value


def name_key(name: str) -> str:
    """What makes two names the same: the tidied name, case folded (then NFC again, since
    folding can decompose a letter). Never refuses; stored as Player.name_key."""
    return unicodedata.normalize("NFC", _tidy(name).casefold())


def _printable(name: str) -> str:
    """The name with its refused characters shown as their code points, for a message."""
    return "".join(
        f"<U+{ord(char):04X}>" if unicodedata.category(char) in _REFUSED_CATEGORIES else char
        for char in name
    )


# The Cyrillic letters in the order of the Ukrainian, Russian and Belarusian alphabets
# together (code points put Ё, Є, І, Ї and Ґ after Я, and Ґ nowhere near Г).
CYRILLIC_ORDER = "абвгґдеёєжзиіїйклмнопрстуўфхцчшщъыьэюя"
# Each character of the key is a rank written as four hex digits: any database collation
# sorts such strings as Python does, character by character.
_SEPARATOR, _DIGITS, _LATIN, _CYRILLIC, _OTHER = 0x0001, 0x0100, 0x0200, 0x0800, 0x1000
_RANKS = {
    **{digit: _DIGITS + n for n, digit in enumerate("0123456789")},
    **{letter: _LATIN + n for n, letter in enumerate("abcdefghijklmnopqrstuvwxyz")},
    **{letter: _CYRILLIC + n for n, letter in enumerate(CYRILLIC_ORDER)},
}
_APOSTROPHES = frozenset("'`ʼ’‘")
SORT_KEY_MAX_LENGTH = 512  # the stored key (Player.sort_key); longer keys are cut


def _rank(char: str) -> int | None:
    """The rank of one case-folded character in the alphabetical order (None: skipped)."""
    if char in _RANKS:
        return _RANKS[char]
    if char in _APOSTROPHES or unicodedata.category(char).startswith("M"):
        return None  # "Мар'яна" sorts as "Маряна"; a stress mark or an accent aside
    if char.isspace() or unicodedata.category(char)[0] in "PZ":
        return _SEPARATOR  # "Анна-Марія" and "Анна Марія" side by side, before "Аннабель"
    return min(_OTHER + ord(char), 0xFFFF)


def collation_key(name: str) -> str:
    """The key that puts names in alphabetical order (sort by it): the letters' ranks, then,
    between names that differ only by accents, the accented one after the plain one.

    Case does not count; combining marks and apostrophes are left aside (except where they
    make a letter of its own: Й, Ё, Ї), accented Latin letters sort as their base letter,
    spaces and punctuation separate words and come before any letter.

    >>> names = ["Яна", "ігор", "Ёлка", "Єва", "Éva", "Eva", "Ґанна", "Гліб", "Анна-Марія"]
    >>> sorted(names, key=collation_key)
    ['Eva', 'Éva', 'Анна-Марія', 'Гліб', 'Ґанна', 'Ёлка', 'Єва', 'ігор', 'Яна']
    """
    folded = unicodedata.normalize("NFC", _tidy(name).casefold())
    primary: list[int] = []
    for char in folded:
        # A letter of the alphabets keeps its marks (й, ё, ї); any other loses them.
        for part in (char,) if char in _RANKS else unicodedata.normalize("NFD", char):
            rank = _rank(part)
            if rank is None or (rank == _SEPARATOR and primary[-1:] == [_SEPARATOR]):
                continue
            primary.append(rank)
    # Then the marks, letter by letter (a plain letter before a marked one), then the
    # characters themselves, so that two different names never tie.
    marks = [
        ord(char) if unicodedata.combining(char) else 1
        for char in unicodedata.normalize("NFD", folded)
    ]
    exact = [min(ord(char), 0xFFFF) for char in folded]
    return "".join(f"{rank:04x}" for rank in [*primary, 0, *marks, 0, *exact])


def sort_key(name: str) -> str:
    """`collation_key(name)` as the roster stores it (Player.sort_key), cut to its column."""
    return collation_key(name)[:SORT_KEY_MAX_LENGTH]
